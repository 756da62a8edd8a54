// Finished games: a list, and a viewer that steps through a match with every hand shown.
import { t, tn, onLangChange, dateTime } from "./i18n.js";
import { getJSON } from "./api.js";
import { cardEl, colorText } from "./cards.js";
import { el } from "./util.js";

export function showReplays(app) {
  let alive = true;
  async function render() {
    app.innerHTML = "";
    const page = el("div", { class: "replays" }, el("h1", { text: t("Replays") }));
    app.appendChild(page);
    let data;
    try {
      data = await getJSON("/api/replays");
    } catch (ex) {
      page.appendChild(el("p", { class: "error", text: ex.message }));
      return;
    }
    if (!alive) return;
    if (!data.matches.length) {
      page.appendChild(el("p", { class: "hint", text: t("No finished games yet.") }));
      return;
    }
    const table = el("table", { class: "replay-list" });
    table.appendChild(el("thead", {}, el("tr", {}, el("th", { text: t("Finished") }), el("th", { text: t("Rules") }), el("th", { text: t("Players") }), el("th", { text: t("Winners") }), el("th", {}))));
    const body = el("tbody");
    for (const m of data.matches) {
      const when = dateTime(m.finished_at);
      const winners = m.winners.map((w) => m.names[w] || `#${w + 1}`).join(", ");
      body.appendChild(el("tr", {},
        el("td", { text: when }), el("td", { text: m.preset }), el("td", { text: m.names.join(", ") }),
        el("td", { text: winners }),
        el("td", {}, el("a", { href: `/replay/${m.room}/${m.match}`, "data-link": true, class: "button small", text: t("Watch") }))));
    }
    table.appendChild(body);
    page.appendChild(table);
  }
  render();
  const unlisten = onLangChange(() => alive && render());
  return () => {
    alive = false;
    unlisten();
  };
}

export function showReplay(app, roomId, matchNo) {
  let alive = true;
  let data = null;
  let round = 0;
  let step = 0;
  let playing = null;

  async function load() {
    app.innerHTML = "";
    app.appendChild(el("p", { class: "loading", text: t("Loading…") }));
    try {
      data = await getJSON(`/api/replays/${roomId}/${matchNo}`);
    } catch (ex) {
      app.innerHTML = "";
      app.appendChild(el("div", { class: "panel" }, el("h1", { text: t("Replay not found") }), el("p", { text: ex.message })));
      return;
    }
    if (!alive) return;
    document.body.dataset.edition = data.rules.edition; // Frozen II's wilds are purple
    render();
  }

  function go(r, s) {
    round = Math.max(0, Math.min(data.rounds.length - 1, r));
    const steps = data.rounds[round].steps;
    step = Math.max(0, Math.min(steps.length - 1, s));
    render();
  }

  function next() {
    const steps = data.rounds[round].steps;
    if (step < steps.length - 1) go(round, step + 1);
    else if (round < data.rounds.length - 1) go(round + 1, 0);
    else stop();
  }

  function stop() {
    clearInterval(playing);
    playing = null;
    render();
  }

  function render() {
    const r = data.rounds[round];
    const s = r.steps[step];
    app.innerHTML = "";
    const page = el("div", { class: "replay" });
    app.appendChild(page);
    page.appendChild(el("h1", { text: t("Replay of room {room}, match {n}", { room: roomId, n: matchNo }) }));

    const controls = el("div", { class: "replay-controls" });
    const roundSel = el("select", { id: "replay-round", "aria-label": t("Round") });
    data.rounds.forEach((x, i) => roundSel.appendChild(el("option", { value: String(i), selected: i === round, text: t("round {n}", { n: i + 1 }) })));
    roundSel.addEventListener("change", () => go(Number(roundSel.value), 0));
    controls.append(
      roundSel,
      el("button", { type: "button", class: "button", title: t("First"), text: "|◀", onclick: () => go(round, 0) }),
      el("button", { type: "button", class: "button", id: "replay-prev", title: t("Back"), text: "◀", onclick: () => go(round, step - 1) }),
      el("button", { type: "button", class: "button", id: "replay-play", title: playing ? t("Pause") : t("Play"), text: playing ? "❚❚" : "▶", onclick: () => {
        if (playing) stop();
        else {
          playing = setInterval(next, 900);
          render();
        }
      } }),
      el("button", { type: "button", class: "button", id: "replay-next", title: t("Forward"), text: "▶▶", onclick: next }),
      el("button", { type: "button", class: "button", title: t("Last"), text: "▶|", onclick: () => go(round, r.steps.length - 1) }),
      el("a", { href: `/review/${roomId}/${matchNo}`, "data-link": true, class: "button", id: "replay-review", text: t("Review") }),
    );
    const slider = el("input", { type: "range", min: "0", max: String(r.steps.length - 1), value: String(step), id: "replay-slider", "aria-label": t("Step") });
    slider.addEventListener("input", () => go(round, Number(slider.value)));
    controls.append(slider, el("span", { class: "hint", id: "replay-step", text: t("step {n} of {total}", { n: step, total: r.steps.length - 1 }) }));
    page.appendChild(controls);

    page.appendChild(el("p", { class: "replay-line", id: "replay-line", text: s.line || "" }));

    const table = el("div", { class: "replay-table" });
    const center = el("div", { class: "center" });
    if (s.top) center.appendChild(cardEl(s.top, { named: s.color }));
    const info = el("div", { class: "table-info" });
    if (s.color) info.appendChild(el("div", { class: `active-color c-${s.color}` }, el("span", { class: "swatch" }), el("span", { text: t("Colour: {color}", { color: colorText(s.color) }) })));
    info.appendChild(el("div", { class: "direction" }, el("span", { class: "arrow", text: s.direction === "cw" ? "↻" : "↺" }), el("span", { text: s.direction === "cw" ? t("clockwise") : t("counter-clockwise") })));
    info.appendChild(el("div", { text: tn("{n} card in the draw pile", "{n} cards in the draw pile", s.draw_pile_size) }));
    if (s.pending) info.appendChild(el("div", { class: "pending", text: t("Pending: {what} for {name}", { what: String(s.pending.amount), name: r.names[s.pending.target] }) }));
    center.appendChild(info);
    table.appendChild(center);
    s.hands.forEach((hand, seat) => {
      const row = el("div", { class: "replay-hand" + (s.turn === seat && !s.over ? " turn" : "") + (s.seat === seat ? " actor" : "") });
      row.appendChild(el("div", { class: "who" }, el("span", { class: "name", text: r.names[seat] }), el("span", { class: "count", text: tn("{n} card", "{n} cards", hand.length) })));
      const cards = el("div", { class: "mini-cards" });
      for (const c of hand) cards.appendChild(cardEl(c, { small: true }));
      row.appendChild(cards);
      table.appendChild(row);
    });
    page.appendChild(table);
    if (r.result && step === r.steps.length - 1) {
      const res = r.result;
      page.appendChild(el("div", { class: "panel" }, el("h2", { text: res.winner === null ? t("The round ends void.") : t("{name} wins round {n}!", { name: r.names[res.winner], n: round + 1 }) })));
    }
    const log = el("ol", { class: "log" });
    r.steps.slice(0, step + 1).forEach((x) => x.line && log.appendChild(el("li", { text: x.line })));
    page.appendChild(el("section", { class: "panel" }, el("h2", { text: t("What happened") }), log));
    log.scrollTop = log.scrollHeight;
  }

  function onKey(e) {
    if (!data || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") next();
    else if (e.key === "ArrowLeft") go(round, step - 1);
  }

  load();
  document.addEventListener("keydown", onKey);
  const unlisten = onLangChange(() => alive && load());
  return () => {
    alive = false;
    delete document.body.dataset.edition;
    clearInterval(playing);
    unlisten();
    document.removeEventListener("keydown", onKey);
  };
}
