// Learn: short lessons, one rule book at a time, each a real table set up from a scenario.
// The server judges every try; this browser remembers which lessons are done.
import { t, tn, onLangChange } from "./i18n.js";
import { getJSON, postJSON } from "./api.js";
import { cardEl, cardText, isWild } from "./cards.js";
import { el, plainRules } from "./util.js";

const DONE_KEY = "unoarena.lessons";
export const BOOK_NAMES = {
  classic: "Classic", buzz: "Buzz Lightyear", frozen2: "Frozen II", house: "House rules",
  attack: "UNO Attack",
};

function doneLessons() {
  try {
    const v = JSON.parse(localStorage.getItem(DONE_KEY) || "[]");
    return new Set(Array.isArray(v) ? v : []);
  } catch (e) {
    return new Set();
  }
}

function markDone(id) {
  const done = doneLessons();
  done.add(id);
  localStorage.setItem(DONE_KEY, JSON.stringify([...done]));
}

/** The rule that applies, with its rule IDs, as a small block. */
export function ruleBlock(rule) {
  if (!rule || !rule.text) return null;
  return el("p", { class: "rule-help" },
    el("strong", { text: t("The rule") + (rule.ids.length ? ` (${rule.ids.join(", ")})` : "") + ": " }),
    plainRules(rule.text));
}

export function showLearn(app, book, navigate) {
  let alive = true;
  let books = null;
  let current = null; // { n, data }
  let feedback = null; // { done, say, rule }
  book = book || "classic";

  async function load() {
    app.innerHTML = "";
    app.appendChild(el("p", { class: "loading", text: t("Loading…") }));
    try {
      books = await getJSON("/api/learn");
    } catch (ex) {
      app.innerHTML = "";
      app.appendChild(el("p", { class: "error", text: ex.message }));
      return;
    }
    if (!alive) return;
    const lessons = lessonsOf();
    if (!lessons.length) {
      navigate("/learn");
      return;
    }
    const done = doneLessons();
    const first = lessons.find((l) => !done.has(l.id)) || lessons[0];
    await open(first.n);
  }

  function lessonsOf() {
    const b = books && books.books.find((x) => x.book === book);
    return b ? b.lessons : [];
  }

  async function open(n) {
    feedback = null;
    try {
      current = { n, data: await getJSON(`/api/learn/${book}/${n}`) };
    } catch (ex) {
      current = { n, error: ex.message };
    }
    if (alive) render();
  }

  async function attempt(action) {
    let res;
    try {
      res = await postJSON(`/api/learn/${book}/${current.n}/try`, { action });
    } catch (ex) {
      feedback = { done: false, say: ex.message };
      render();
      return;
    }
    feedback = res;
    if (res.done) {
      markDone(current.data.id);
      current.data.table = res.table;
    }
    render();
  }

  async function explainCard(code) {
    const tb = current.data.table;
    try {
      const rule = await postJSON("/api/rulehelp", { preset: tb.preset, rules: tb.rules, card: code });
      feedback = { done: false, say: cardText(code), rule, info: true };
    } catch (ex) {
      feedback = { done: false, say: ex.message };
    }
    render();
  }

  function choose(code) {
    const tb = current.data.table;
    const variants = tb.legal.filter((l) => l.cards.includes(code));
    if (!variants.length) {
      const colour = isWild(code) ? " color=R" : "";
      attempt(`play ${code}${colour}`);
    } else if (variants.length === 1) {
      attempt(variants[0].action);
    } else {
      feedback = { choices: variants };
      render();
    }
  }

  function render() {
    if (!alive) return;
    app.innerHTML = "";
    const page = el("div", { class: "learn" });
    const tabs = el("nav", { class: "book-tabs", "aria-label": t("Rule books") });
    for (const b of books.books) {
      const done = doneLessons();
      const count = b.lessons.filter((l) => done.has(l.id)).length;
      tabs.appendChild(el("a", {
        href: `/learn/${b.book}`, "data-link": true, class: "book-tab" + (b.book === book ? " active" : ""),
        "aria-current": b.book === book ? "page" : null,
      }, t(BOOK_NAMES[b.book] || b.book), el("span", { class: "count", text: ` ${count}/${b.lessons.length}` })));
    }
    page.appendChild(el("h1", { text: t("Learn UNO") }));
    page.appendChild(tabs);
    const grid = el("div", { class: "learn-grid" });
    grid.appendChild(lessonList());
    grid.appendChild(lessonView());
    page.appendChild(grid);
    app.appendChild(page);
  }

  function lessonList() {
    const done = doneLessons();
    const list = el("ol", { class: "lesson-list" });
    for (const l of lessonsOf()) {
      const isDone = done.has(l.id);
      list.appendChild(el("li", {}, el("button", {
        type: "button", class: "lesson-item" + (current && current.n === l.n ? " active" : "") + (isDone ? " done" : ""),
        onclick: () => open(l.n),
      }, el("span", { class: "tick", "aria-label": isDone ? t("done") : null, text: isDone ? "✓" : `${l.n}` }), l.title)));
    }
    return el("aside", { class: "panel lesson-side" }, el("h2", { text: t("Lessons") }), list);
  }

  function lessonView() {
    const box = el("section", { class: "panel lesson" });
    if (!current) return box;
    if (current.error) {
      box.appendChild(el("p", { class: "error", text: current.error }));
      return box;
    }
    const d = current.data;
    const tb = d.table;
    box.appendChild(el("h2", { text: d.title }));
    box.appendChild(el("p", { class: "goal", text: d.goal }));
    const felt = el("div", { class: "lesson-felt" });
    const others = el("div", { class: "lesson-others" });
    for (let s = 0; s < tb.players; s++) {
      if (s === tb.seat) continue;
      others.appendChild(el("span", { class: "seat-chip" + (tb.turn === s ? " turn" : "") },
        t("Seat {n}", { n: s }) + ": " + tn("{n} card", "{n} cards", tb.sizes[s])));
    }
    felt.appendChild(others);
    const center = el("div", { class: "lesson-center" });
    if (tb.top) center.appendChild(cardEl(tb.top, { named: isWild(tb.top) ? tb.color : null }));
    const info = el("div", { class: "lesson-info" });
    if (tb.color) info.appendChild(el("span", { class: "swatch", style: `--c: var(--${tb.color})` }));
    if (tb.pending) info.appendChild(el("span", { class: "pending", text: t("Pending: {n}", { n: tb.pending.amount }) }));
    if (tb.effect) info.appendChild(el("span", { class: "effect", style: `--c: var(--${tb.effect.color})`, text: t("Effect: {color}", { color: tb.effect.kind === "hyperspeed" ? t("hyperspeed") : t("locked colour") }) }));
    info.appendChild(el("span", { class: "whose", text: tb.turn === tb.seat ? t("Your turn") : t("Seat {n}'s turn", { n: tb.turn }) }));
    center.appendChild(info);
    felt.appendChild(center);
    box.appendChild(felt);
    const finished = feedback && feedback.done;
    const hand = el("div", { class: "lesson-hand", role: "group", "aria-label": t("Your hand") });
    for (const code of tb.hand) {
      const c = cardEl(code, { tag: "button" });
      c.disabled = finished;
      c.addEventListener("click", () => choose(code));
      const why = el("button", { type: "button", class: "why small", title: t("The rule of this card"), "aria-label": t("The rule of this card"), text: "?", onclick: () => explainCard(code) });
      hand.appendChild(el("div", { class: "hand-slot" }, c, why));
    }
    box.appendChild(el("h3", { text: t("Your hand") }));
    box.appendChild(hand);
    const bar = el("div", { class: "action-bar" });
    for (const l of tb.legal.filter((x) => !x.cards.length)) {
      const b = el("button", { type: "button", class: "act", text: l.words, onclick: () => attempt(l.action) });
      b.disabled = finished;
      bar.appendChild(b);
    }
    box.appendChild(bar);
    if (feedback && feedback.choices) {
      const pick = el("div", { class: "variants panel" }, el("p", { text: t("Which way?") }));
      for (const v of feedback.choices) pick.appendChild(el("button", { type: "button", text: v.words, onclick: () => attempt(v.action) }));
      box.appendChild(pick);
    } else if (feedback) {
      const cls = feedback.done ? "feedback good" : feedback.info ? "feedback info" : "feedback bad";
      const fb = el("div", { class: cls, role: "status" }, el("p", { class: "say", text: feedback.say }));
      const rule = ruleBlock(feedback.rule);
      if (rule) fb.appendChild(rule);
      if (feedback.done) {
        const next = lessonsOf().find((l) => l.n === current.n + 1);
        fb.appendChild(next
          ? el("button", { type: "button", class: "primary", text: t("Next lesson"), onclick: () => open(next.n) })
          : el("p", { class: "hint", text: t("That was the last lesson of this book.") }));
      }
      box.appendChild(fb);
    }
    return box;
  }

  load();
  const unlisten = onLangChange(async () => {
    if (!alive || !books) return;
    books = await getJSON("/api/learn");
    if (current) open(current.n);
  });
  return () => {
    alive = false;
    unlisten();
  };
}
