// Ratings: a leaderboard per family (rule family x table size) and a player's profile, with
// their rating over time as a small inline chart and their recent games linking to replays.
import { t, tn, onLangChange, dateTime } from "./i18n.js";
import { getJSON } from "./api.js";
import { el } from "./util.js";

const RULE_FAMILIES = () => ({ classic: t("Classic rules"), editions: t("Other editions"), house: t("House rules") });
const SIZES = () => ({ "2": t("2 players"), "3-4": t("3–4 players"), "5-10": t("5–10 players") });
const BOT_LEVELS = () => ({ easy: t("Easy"), medium: t("Medium"), hard: t("Hard"), expert: t("Expert") });

/** A family such as "classic/3-4" in words. */
export function familyText(family) {
  const [rules, size] = family.split("/");
  return `${RULE_FAMILIES()[rules] || rules} · ${SIZES()[size] || size}`;
}

/** A rated identity's name as shown: an account's own, or "Easy bot" for `bot:easy`. */
function shownName(name, bot) {
  if (!bot) return name;
  const level = name.replace(/^bot:/, "");
  return t("{level} bot", { level: BOT_LEVELS()[level] || level });
}

function profileLink(subject, name, bot) {
  const id = bot ? subject : name;
  return el("a", { href: `/u/${encodeURIComponent(id)}`, "data-link": true, text: shownName(bot ? subject : name, bot) });
}

export function showLeaderboard(app) {
  let alive = true;
  let family = new URLSearchParams(location.search).get("family") || "classic/3-4";

  async function render() {
    let data;
    try {
      data = await getJSON(`/api/leaderboard?family=${encodeURIComponent(family)}`);
    } catch (ex) {
      app.innerHTML = "";
      app.appendChild(el("p", { class: "error", text: ex.message }));
      return;
    }
    if (!alive) return;
    app.innerHTML = "";
    const page = el("div", { class: "ratings-page" }, el("h1", { text: t("Leaderboard") }));
    const pick = el("select", { id: "family", "aria-label": t("Rating family") });
    for (const f of data.families) pick.appendChild(el("option", { value: f, text: familyText(f), selected: f === family }));
    pick.addEventListener("change", () => {
      family = pick.value;
      history.replaceState({}, "", `/leaderboard?family=${encodeURIComponent(family)}`);
      render();
    });
    page.appendChild(el("label", { class: "field family-pick" }, el("span", { text: t("Rating family") }), pick));
    page.appendChild(el("p", { class: "hint", text: t("Rated games only. The rating is the skill a player surely has (mu − 3σ, openskill): it grows as they win and as the system grows sure of them.") }));
    if (!data.players.length) {
      page.appendChild(el("p", { class: "hint", id: "board-empty", text: t("No rated games in this family yet.") }));
    } else {
      const body = el("tbody");
      data.players.forEach((p, i) => {
        body.appendChild(el("tr", { class: p.bot ? "bot" : "" },
          el("td", { class: "num", text: String(i + 1) }),
          el("td", {}, profileLink(p.subject, p.name, p.bot)),
          el("td", { class: "num", text: p.rating.toFixed(1) }),
          el("td", { class: "num", text: String(p.games) }),
          el("td", { class: "num", text: String(p.wins) })));
      });
      page.appendChild(el("div", { class: "table-wrap" }, el("table", { class: "board", id: "board" },
        el("thead", {}, el("tr", {}, el("th", { text: "#" }), el("th", { text: t("Player") }),
          el("th", { text: t("Rating") }), el("th", { text: t("Games") }), el("th", { text: t("Wins") }))),
        body)));
    }
    app.appendChild(page);
  }

  render();
  const unlisten = onLangChange(() => alive && render());
  return () => {
    alive = false;
    unlisten();
  };
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** A small line chart of one family's rating after each rated game. */
export function ratingChart(points, label) {
  const w = 320, h = 120, pad = 24;
  const chart = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "rating-chart", role: "img", "aria-label": label });
  const ys = points.map((p) => p.rating);
  let lo = Math.min(...ys), hi = Math.max(...ys);
  if (hi - lo < 1) { lo -= 0.5; hi += 0.5; }
  const x = (i) => pad + (points.length === 1 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (points.length - 1));
  const y = (v) => h - pad + ((lo - v) * (h - 2 * pad)) / (hi - lo);
  chart.appendChild(svg("line", { x1: pad, y1: h - pad, x2: w - pad, y2: h - pad, class: "axis" }));
  for (const v of [lo, hi]) {
    const tx = svg("text", { x: 2, y: y(v) + 4, class: "tick" });
    tx.textContent = v.toFixed(1);
    chart.appendChild(tx);
  }
  chart.appendChild(svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), class: "line" }));
  points.forEach((p, i) => chart.appendChild(svg("circle", { cx: x(i), cy: y(p.rating), r: 3, class: "dot" })));
  return chart;
}

export function showProfile(app, name) {
  let alive = true;

  async function render() {
    let data;
    try {
      data = await getJSON(`/api/players/${encodeURIComponent(name)}`);
    } catch (ex) {
      app.innerHTML = "";
      app.appendChild(el("p", { class: "error", id: "profile-error", text: ex.message }));
      return;
    }
    if (!alive) return;
    app.innerHTML = "";
    const page = el("div", { class: "ratings-page profile" });
    page.appendChild(el("h1", { id: "profile-name", text: shownName(data.name, data.bot) }));
    page.appendChild(el("p", { class: "stats", id: "profile-stats", text: tn("{n} rated game, {wins} won", "{n} rated games, {wins} won", data.played, { wins: data.won }) }));
    if (!data.families.length) {
      page.appendChild(el("p", { class: "hint", text: t("No rated games yet.") }));
    }
    const grid = el("div", { class: "families" });
    for (const f of data.families) {
      const points = data.series[f.family] || [];
      grid.appendChild(el("section", { class: "panel family", "data-family": f.family },
        el("h2", { text: familyText(f.family) }),
        el("p", {}, el("strong", { class: "rating", text: f.rating.toFixed(1) }), " ",
          el("span", { class: "hint", text: tn("{n} game, {wins} won", "{n} games, {wins} won", f.games, { wins: f.wins }) })),
        points.length ? ratingChart(points, t("Rating over time")) : null));
    }
    page.appendChild(grid);
    if (data.games.length) {
      page.appendChild(el("h2", { text: t("Recent games") }));
      const body = el("tbody");
      for (const g of data.games) {
        body.appendChild(el("tr", {},
          el("td", { text: dateTime(g.at) }),
          el("td", { text: familyText(g.family) }),
          el("td", { text: g.won ? t("Won") : t("Place {n}", { n: g.rank }) }),
          el("td", { class: "num", text: g.rating.toFixed(1) }),
          el("td", {}, el("a", { href: `/replay/${g.room}/${g.match}`, "data-link": true, class: "button small", text: t("Watch") }))));
      }
      page.appendChild(el("div", { class: "table-wrap" }, el("table", { class: "board", id: "recent-games" },
        el("thead", {}, el("tr", {}, el("th", { text: t("Finished") }), el("th", { text: t("Rating family") }),
          el("th", { text: t("Result") }), el("th", { text: t("Rating") }), el("th", {}))), body)));
    }
    app.appendChild(page);
  }

  render();
  const unlisten = onLangChange(() => alive && render());
  return () => {
    alive = false;
    unlisten();
  };
}
