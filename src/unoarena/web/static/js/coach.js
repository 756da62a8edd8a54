// At the table: the rule behind a refusal or a card, and, in games against bots only, what the
// expert would play. The server answers both; this module only asks and shows.
import { html } from "./vendor/preact-htm.js";
import { t } from "./i18n.js";
import { postJSON } from "./api.js";
import { toast } from "./dialog.js";
import { plainRules } from "./util.js";

/** Show the rule for `what` ({card}, {action} or {refusal}) under the room's rules. */
export async function showRule(info, what) {
  try {
    const r = await postJSON("/api/rulehelp", Object.assign({ preset: info.rules.preset, rules: info.rules }, what));
    toast(`${t("The rule")}${r.ids.length ? ` (${r.ids.join(", ")})` : ""}: ${plainRules(r.text)}`, "info", 15000);
  } catch (ex) {
    toast(ex.message, "error");
  }
}

async function showHint(roomId, token) {
  toast(t("The expert is thinking…"), "info", 3000);
  try {
    const h = await postJSON(`/api/rooms/${roomId}/hint`, { token });
    toast(`${t("The expert would: {action}", { action: h.words })} — ${h.reason}`, "info", 15000);
  } catch (ex) {
    toast(ex.message, "error");
  }
}

/** The table's coach buttons: "Rule" (the last refusal, else the top card) and, when one
 *  person plays against bots, "Hint". */
export function coachButtons(roomId, S) {
  const info = S.info;
  const v = S.state && S.state.view;
  if (!info || !v || !S.seat) return [];
  const out = [html`<button key="coach-rule" type="button" class="act coach" id="coach-rule"
      onClick=${() => showRule(info, S.lastRefusal ? { refusal: S.lastRefusal } : { card: v.top })}>${t("Rule?")}</button>`];
  const people = info.players.filter((p) => p.kind === "human").length;
  const mine = v.legal && v.legal.length > 0 && !v.round_over;
  if (people === 1 && mine) {
    out.push(html`<button key="coach-hint" type="button" class="act coach" id="coach-hint"
        onClick=${() => showHint(roomId, S.seat.token)}>${t("Hint")}</button>`);
  }
  return out;
}
