// Home: create a room (preset, players, seats, house rules) or open one from a link or code.
import { t, currentLang, onLangChange } from "./i18n.js";
import { getJSON, postJSON, saveSeat } from "./api.js";
import { el } from "./util.js";
import { ratedOption } from "./account.js";

const form = {
  name: localStorage.getItem("unoarena.name") || "",
  preset: "classic",
  players: 4,
  seats: ["human", "bot", "bot", "bot"],
  overrides: {},
  public: false,
};
let meta = null;

function presetRules() {
  return meta.presets.find((p) => p.name === form.preset).rules;
}

function effective(key) {
  return key in form.overrides ? form.overrides[key] : presetRules()[key];
}

function setOverride(key, value) {
  const base = presetRules()[key];
  if (JSON.stringify(base) === JSON.stringify(value)) delete form.overrides[key];
  else form.overrides[key] = value;
}

export function showHome(app, navigate) {
  let alive = true;
  let timer = null;

  async function render() {
    if (!meta || meta.lang !== currentLang()) meta = await getJSON("/api/meta");
    if (!alive) return;
    app.innerHTML = "";
    const page = el("div", { class: "home" });
    app.appendChild(page);

    const hero = el("section", { class: "hero" },
      el("h1", { text: t("Play UNO together") }),
      el("p", { text: t("Every edition, every house rule. Create a room, share the link, and play with friends and bots in any browser.") }));
    page.appendChild(hero);

    // -- create --------------------------------------------------------------------------
    const create = el("form", { class: "panel create", id: "create-form" });
    create.appendChild(el("h2", { text: t("New room") }));
    const nameInput = el("input", { id: "name", name: "name", maxlength: "48", required: true,
      value: form.name, autocomplete: "nickname", placeholder: t("Your name") });
    nameInput.addEventListener("input", () => (form.name = nameInput.value));
    create.appendChild(el("label", { class: "field" }, el("span", { text: t("Your name") }), nameInput));

    const presetSel = el("select", { id: "preset", name: "preset" });
    for (const p of meta.presets) {
      presetSel.appendChild(el("option", { value: p.name, text: p.name, selected: p.name === form.preset }));
    }
    presetSel.addEventListener("change", () => {
      form.preset = presetSel.value;
      form.overrides = form.players !== presetRules().players ? { players: form.players } : {};
      render();
    });
    const summary = meta.presets.find((p) => p.name === form.preset).summary;
    create.appendChild(el("label", { class: "field" }, el("span", { text: t("Rules") }), presetSel));
    create.appendChild(el("p", { class: "hint", text: summary }));

    const playersIn = el("input", { id: "players", type: "number", min: "2", max: "10", value: String(form.players) });
    playersIn.addEventListener("change", () => {
      const n = Math.max(2, Math.min(10, Number(playersIn.value) || 4));
      form.players = n;
      setOverride("players", n);
      while (form.seats.length < n) form.seats.push("bot");
      form.seats.length = n;
      render();
    });
    create.appendChild(el("label", { class: "field" }, el("span", { text: t("Players") }), playersIn));

    const seats = el("div", { class: "seats-config" });
    form.seats.forEach((kind, i) => {
      if (i === 0) {
        seats.appendChild(el("div", { class: "seat-row" }, el("span", { class: "seat-no", text: "1" }), el("span", { text: t("You (host)") })));
        return;
      }
      const sel = el("select", { "data-seat": String(i), "aria-label": t("Seat {n}", { n: i + 1 }) });
      sel.appendChild(el("option", { value: "human", text: t("A friend"), selected: kind === "human" }));
      // the server lists the levels' bots first, weakest first, each with its level's name
      for (const b of meta.bots) {
        const text = b.level ? t("{level} bot ({name})", { level: b.level, name: b.name }) : t("Bot: {name}", { name: b.name });
        sel.appendChild(el("option", { value: `bot:${b.name}`, text, title: b.plays || b.summary, selected: kind === `bot:${b.name}` || (kind === "bot" && b.name === "basic") }));
      }
      sel.addEventListener("change", () => (form.seats[i] = sel.value));
      seats.appendChild(el("div", { class: "seat-row" }, el("span", { class: "seat-no", text: String(i + 1) }), sel));
    });
    create.appendChild(el("div", { class: "field" }, el("span", { text: t("Seats") }), seats));
    create.appendChild(el("p", { class: "hint", text: meta.levels_hint }));

    // house rules: every key of the rule set, grouped in a collapsible section
    const details = el("details", { class: "house-rules" });
    details.appendChild(el("summary", { text: t("House rules and options") }));
    const grid = el("div", { class: "rules-grid" });
    for (const k of meta.keys) {
      if (k.key === "players" || k.key === "launcher") continue;
      const value = effective(k.key);
      let input;
      if (k.type === "bool") {
        input = el("input", { type: "checkbox", checked: !!value });
        input.addEventListener("change", () => { setOverride(k.key, input.checked); refresh(); });
      } else if (k.type === "choice") {
        input = el("select");
        for (const c of k.choices) input.appendChild(el("option", { value: c, text: c, selected: c === value }));
        input.addEventListener("change", () => { setOverride(k.key, input.value); refresh(); });
      } else {
        input = el("input", { type: "number", value: value === null ? "" : String(value), placeholder: k.type === "int?" ? t("none") : "" });
        input.addEventListener("change", () => {
          const v = input.value.trim() === "" ? null : Number(input.value);
          setOverride(k.key, v);
          refresh();
        });
      }
      input.dataset.key = k.key;
      input.id = `rule-${k.key}`;
      const changed = k.key in form.overrides;
      grid.appendChild(el("label", { class: "rule" + (changed ? " changed" : ""), title: k.allowed },
        el("span", { class: "rule-name" }, k.label || k.key,
          el("small", { text: `${k.key} · ${k.rule}` })), input));
    }
    details.appendChild(grid);
    if (Object.keys(form.overrides).some((k) => k !== "players")) details.open = true;
    create.appendChild(details);

    // private (by link, the default) or public: listed in the lobby for anyone to join
    const publicBox = el("input", { type: "checkbox", id: "public-room", checked: form.public });
    publicBox.addEventListener("change", () => (form.public = publicBox.checked));
    create.appendChild(el("label", { class: "field check" }, publicBox,
      el("span", { text: t("Public: list this room in the lobby, where anyone may join or watch") })));

    const rated = ratedOption(form);
    if (rated) create.appendChild(rated);
    const explainBox = el("div", { class: "explain", id: "rules-explain", "aria-live": "polite" });
    create.appendChild(explainBox);
    const err = el("p", { class: "error", id: "create-error", role: "alert" });
    create.appendChild(err);
    create.appendChild(el("button", { type: "submit", class: "primary big", id: "create-room", text: t("Create room") }));
    create.addEventListener("submit", async (e) => {
      e.preventDefault();
      err.textContent = "";
      localStorage.setItem("unoarena.name", form.name);
      const seatSpecs = form.seats.map((s, i) => (i === 0 || s === "human" ? { kind: "human" } : { kind: "bot", bot: s.startsWith("bot:") ? s.slice(4) : "basic" }));
      try {
        const res = await postJSON("/api/rooms", { name: form.name, preset: form.preset, rules: form.overrides, seats: seatSpecs, public: form.public, ...(form.rated ? { rated: true } : {}) });
        saveSeat(res.room, res.player, res.token);
        navigate(res.url);
      } catch (ex) {
        err.textContent = ex.message;
      }
    });

    // -- open a room -----------------------------------------------------------------------
    const open = el("form", { class: "panel open-room" });
    open.appendChild(el("h2", { text: t("Join a room") }));
    const code = el("input", { id: "room-code", placeholder: t("Room link or code"), autocomplete: "off" });
    open.appendChild(el("label", { class: "field" }, el("span", { text: t("Room link or code") }), code));
    open.appendChild(el("button", { type: "submit", class: "primary", text: t("Open") }));
    open.addEventListener("submit", (e) => {
      e.preventDefault();
      const m = code.value.trim().match(/([A-Za-z0-9_-]{4,32})\/?$/);
      if (m) navigate(`/r/${m[1]}`);
    });
    const find = el("section", { class: "panel find-game" }, el("h2", { text: t("Find a game") }),
      el("p", { text: t("Public rooms, live, and quick play: a seat at a table in seconds, with bots if nobody else comes.") }),
      el("a", { href: "/lobby", "data-link": true, class: "button primary", id: "to-lobby", text: t("Find a game") }));
    const side = el("div", { class: "side" }, find, open,
      el("section", { class: "panel" }, el("h2", { text: t("Replays") }),
        el("p", { text: t("Watch finished games again, move by move.") }),
        el("a", { href: "/replays", "data-link": true, class: "button", text: t("Replays") })));
    page.appendChild(el("div", { class: "home-grid" }, create, side));
    refresh();
  }

  function refresh() {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const box = document.getElementById("rules-explain");
      const err = document.getElementById("create-error");
      if (!box) return;
      try {
        const res = await postJSON("/api/rules", { preset: form.preset, rules: form.overrides });
        err.textContent = "";
        box.innerHTML = "";
        const changed = Object.keys(res.overrides);
        const rows = res.explain.filter((r) => changed.includes(r.key));
        const list = document.createElement("ul");
        for (const r of rows) {
          const li = document.createElement("li");
          li.innerHTML = "<code></code> ";
          li.querySelector("code").textContent = `${r.key}=${r.value}`;
          li.append(r.text);
          list.appendChild(li);
        }
        if (rows.length) box.appendChild(list);
        for (const label of document.querySelectorAll(".rules-grid .rule")) {
          const key = label.querySelector("[data-key]").dataset.key;
          label.classList.toggle("changed", key in form.overrides);
        }
      } catch (ex) {
        err.textContent = ex.message;
      }
    }, 150);
  }

  render();
  const unlisten = onLangChange(() => alive && render());
  return () => {
    alive = false;
    unlisten();
    clearTimeout(timer);
  };
}
