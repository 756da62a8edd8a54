// Layout and motion of a room page: a long hand overlaps, played and drawn cards travel,
// the clocks count down.
import { t } from "./i18n.js";
import { backEl } from "./cards.js";

function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The motion part of a room page; `R` is the page (its state `S`, its other parts). */
export function roomMotion(R) {
  const { S, root } = R;
  let motions = 0;
  /** Overlap the cards of a long hand so that it stays one row inside its panel. */
  function fitHand() {
    const hand = root.querySelector("#hand");
    if (!hand) return;
    const cards = hand.children;
    const n = cards.length;
    if (!n) return;
    const w = cards[0].offsetWidth;
    const room = hand.clientWidth - 12;
    let gap = 6;
    if (n > 1 && n * w + (n - 1) * gap > room) gap = Math.max(-w * 0.62, (room - w) / (n - 1) - w);
    hand.style.setProperty("--gap", `${Math.floor(gap)}px`);
  }

  function rectOf(node) {
    return node ? node.getBoundingClientRect() : null;
  }

  /** Where things are before an update, so that what changed can move from there. */
  function snapshot() {
    const hand = new Map();
    for (const c of root.querySelectorAll("#hand .card")) hand.set(c.dataset.key, rectOf(c));
    const seats = new Map();
    for (const b of root.querySelectorAll(".seat-box")) seats.set(Number(b.dataset.seat), rectOf(b));
    return { hand, seats, pile: rectOf(root.querySelector("#draw-pile")), me: rectOf(root.querySelector("#my-area")) };
  }

  function moved() {
    root.dataset.motions = String(++motions);
  }

  function fromTo(from, to, scale) {
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    return `translate(${Math.round(dx)}px, ${Math.round(dy)}px) scale(${scale})`;
  }

  /** A played card travels to the pile, drawn cards arrive in a hand (reduced motion: none). */
  function animate(before, msg) {
    if (reducedMotion() || !before.pile) return;
    const pile = rectOf(root.querySelector("#draw-pile"));
    const you = msg.you;
    const events = msg.events || [];
    const handNow = [...root.querySelectorAll("#hand .card")];
    const arrived = handNow.filter((c) => !before.hand.has(c.dataset.key));
    const play = events.find((e) => e.t === "play" && e.cards && e.cards.length);
    const top = root.querySelector("#discard .card");
    if (play && top) {
      let from = null;
      if (play.seat === you) {
        const key = [...before.hand.keys()].reverse().find((k) => k.startsWith(play.cards[play.cards.length - 1] + ":")
          && !handNow.some((c) => c.dataset.key === k));
        from = (key && before.hand.get(key)) || before.me;
      } else {
        from = before.seats.get(play.seat);
      }
      if (from) {
        const to = rectOf(top);
        const scale = play.seat === you ? Math.min(1, from.width / to.width) : 0.45;
        top.animate([{ transform: fromTo(from, to, scale), opacity: 0.7 }, { transform: "none", opacity: 1 }],
          { duration: 420, easing: "cubic-bezier(.2,.8,.2,1)", id: "card-play" });
        moved();
      }
    }
    if (arrived.length && pile) {
      arrived.forEach((c, i) => {
        c.animate([{ transform: fromTo(pile, rectOf(c), 0.8), opacity: 0 }, { transform: "none", opacity: 1 }],
          { duration: 380, delay: Math.min(i, 10) * 60, easing: "cubic-bezier(.2,.8,.2,1)", fill: "backwards", id: "card-draw" });
      });
      moved();
    }
    for (const e of events) {
      if (!["draw", "press"].includes(e.t) || !(e.count > 0) || e.seat === you || !pile) continue;
      const seat = rectOf(root.querySelector(`.seat-box[data-seat="${e.seat}"]`));
      if (!seat) continue;
      for (let i = 0; i < Math.min(e.count, 4); i++) {
        const b = backEl(true);
        b.classList.add("flying");
        Object.assign(b.style, { left: `${pile.left + pile.width / 2 - 17}px`, top: `${pile.top + pile.height / 2 - 25}px` });
        document.body.appendChild(b);
        const to = rectOf(b);
        const a = b.animate([{ transform: "none", opacity: 1 }, { transform: fromTo(seat, to, 0.8), opacity: 0.2 }],
          { duration: 420, delay: i * 70, easing: "ease-in", fill: "both", id: "card-draw-other" });
        a.onfinish = a.oncancel = () => b.remove();
      }
      moved();
    }
  }

  function updateClock() {
    if (S.roundEnd && S.state && S.state.round_clock) { // HR-BLITZ: the round's countdown
      const n = Math.ceil(Math.max(0, S.roundEnd - performance.now()) / 1000);
      for (const c of root.querySelectorAll("[data-round-clock]")) c.textContent = t("round ends in {n} s", { n });
    }
    if (S.deadline === null || !S.state || !S.state.timer) return;
    const left = Math.max(0, S.deadline - performance.now());
    for (const c of root.querySelectorAll("[data-timer]")) c.textContent = `${Math.ceil(left / 1000)} s`;
    const frac = Math.max(0, Math.min(1, left / (S.state.timer.total * 1000)));
    for (const b of root.querySelectorAll("[data-timer-bar]")) b.style.width = `${frac * 100}%`;
  }

  return { fitHand, snapshot, animate, updateClock };
}
