// The review of a finished game: for each decision of one seat, its chance of winning the round
// before and after, the best alternative, and a label when the choice lost much.
import { t, onLangChange } from "./i18n.js";
import { getJSON } from "./api.js";
import { el } from "./util.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

/** The chance after each decision as a line over the round, labelled choices marked. */
function chart(data) {
  const w = 640, h = 220, left = 40, right = 10, top = 10, bottom = 28;
  const n = Math.max(1, data.actions - 1);
  const x = (i) => left + ((w - left - right) * i) / n;
  const y = (p) => top + (h - top - bottom) * (1 - p);
  const g = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "review-chart", role: "img", "aria-label": t("Chance of winning the round after each decision") });
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    g.append(svg("line", { x1: left, x2: w - right, y1: y(p), y2: y(p), class: "grid" }));
    const label = svg("text", { x: left - 6, y: y(p) + 4, "text-anchor": "end", class: "axis" });
    label.textContent = `${Math.round(p * 100)}%`;
    g.append(label);
  }
  const pts = data.decisions.map((d) => `${x(d.index).toFixed(1)},${y(d.after).toFixed(1)}`);
  if (pts.length) g.append(svg("polyline", { points: pts.join(" "), class: "line" }));
  for (const d of data.decisions) {
    const dot = svg("circle", { cx: x(d.index), cy: y(d.after), r: d.label ? 5 : 3, class: "dot " + (d.label || "ok") });
    const tip = svg("title", {});
    tip.textContent = `${d.index + 1}. ${d.action}: ${Math.round(d.after * 100)}%` + (d.label ? ` (${d.label_words})` : "");
    dot.append(tip);
    g.append(dot);
  }
  const xl = svg("text", { x: (w + left) / 2, y: h - 6, "text-anchor": "middle", class: "axis" });
  xl.textContent = t("action of the round");
  g.append(xl);
  return g;
}

function nameOf(data, seat) {
  const name = data.names[seat];
  return name && !name.startsWith("Bot ") ? name : t("Bot {n}", { n: seat + 1 });
}

export function showReview(app, roomId, matchNo, navigate) {
  let alive = true;
  let round = 1;
  let seat = 0;
  let data = null;

  async function load() {
    app.innerHTML = "";
    app.appendChild(el("p", { class: "loading", text: t("Reviewing the game: this takes a few seconds…") }));
    try {
      data = await getJSON(`/api/review/${roomId}/${matchNo}?round=${round}&seat=${seat}`);
    } catch (ex) {
      app.innerHTML = "";
      app.appendChild(el("p", { class: "error", text: ex.message }));
      return;
    }
    if (alive) render();
  }

  function render() {
    app.innerHTML = "";
    const page = el("div", { class: "review" });
    page.appendChild(el("h1", { text: t("Game review") }));
    const controls = el("div", { class: "replay-controls" });
    const roundSel = el("select", { "aria-label": t("Round") });
    for (let r = 1; r <= data.rounds; r++) roundSel.append(el("option", { value: r, text: t("round {n}", { n: r }), selected: r === round }));
    roundSel.addEventListener("change", () => { round = Number(roundSel.value); load(); });
    const seatSel = el("select", { "aria-label": t("Player") });
    for (let s = 0; s < data.players; s++) seatSel.append(el("option", { value: s, text: nameOf(data, s), selected: s === seat }));
    seatSel.addEventListener("change", () => { seat = Number(seatSel.value); load(); });
    controls.append(roundSel, seatSel,
      el("a", { href: `/replay/${roomId}/${matchNo}`, "data-link": true, class: "button small", text: t("Watch the replay") }));
    page.appendChild(controls);
    const s = data.summary;
    const labels = s.labels.map((l) => `${l.count} ${l.words}`).join(" · ");
    page.appendChild(el("p", { class: "review-summary" },
      el("strong", { text: t("Accuracy {acc}%", { acc: Math.round(s.accuracy) }) }),
      ` · ${labels} · ` + t("{n} points of chance lost", { n: Math.round(s.lost) })));
    page.appendChild(el("div", { class: "panel" }, chart(data)));
    const table = el("table", { class: "replay-list review-table" });
    table.append(el("thead", {}, el("tr", {},
      el("th", { text: "#" }), el("th", { text: t("Played") }), el("th", { text: t("Before") }),
      el("th", { text: t("After") }), el("th", { text: t("Best other") }), el("th", { text: t("Label") }))));
    const body = el("tbody");
    for (const d of data.decisions) {
      body.append(el("tr", { class: d.label ? `lbl-${d.label}` : "" },
        el("td", { text: String(d.index + 1) }), el("td", { text: d.action }),
        el("td", { text: `${Math.round(d.before * 100)}%` }), el("td", { text: `${Math.round(d.after * 100)}%` }),
        el("td", { text: d.best ? `${d.best} (${Math.round(d.best_chance * 100)}%)` : "–" }),
        el("td", { text: d.label_words || (d.forced ? t("forced") : d.judged ? "" : t("not judged")) })));
    }
    table.append(body);
    page.appendChild(table);
    const who = data.winner === null ? t("Nobody won this round.") : t("What really happened: {name} won the round.", { name: nameOf(data, data.winner) });
    page.appendChild(el("p", { class: "hint", text: t("The chances use only what this player could see at the time.") + " " + who }));
    app.appendChild(page);
  }

  load();
  const unlisten = onLangChange(() => alive && load());
  return () => {
    alive = false;
    unlisten();
  };
}
