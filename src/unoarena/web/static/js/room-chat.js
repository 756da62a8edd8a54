// Talk at a room page: the chat, quick reactions by the seats, the host's mutes, the seats of
// absent players handed to bots (by the host, or by a vote when the host is gone), and the
// hand a Wild Draw Four challenge showed.
//
// Everything a person typed is drawn as text by the renderer (never as markup): a line that
// holds "<script>" shows those characters.
import { html } from "./vendor/preact-htm.js";
import { t } from "./i18n.js";
import { cardNode } from "./cards.js";
import { choose } from "./dialog.js";
import { el } from "./util.js";

const CHAT_KEEP = 200;
const CHAT_CHARS = 200;
const REACTION_MS = 2600;
const SHOWN_MS = 20000;
const PEEK_MS = 5000;
/** The reactions the server allows, with what the page draws and says for each. */
export const EMOTES = [
  ["thumbs", "👍", () => t("Thumbs up")],
  ["laugh", "😂", () => t("Laugh")],
  ["wow", "😮", () => t("Wow")],
  ["sad", "😢", () => t("Sad")],
  ["angry", "😠", () => t("Angry")],
  ["gg", "🤝", () => t("Good game")],
];

/** The talk part of a room page; `R` is the page (its state `S`, its other parts). */
export function roomChat(R) {
  const { S } = R;
  Object.assign(S, {
    chat: [], // chat lines as the server sent them
    muted: [], // players the host muted
    mutedWatchers: [], // spectators the host muted, by number
    you: null, // this page's number as a spectator, once it has one
    chatDraft: "",
    lastSaid: "",
    reactions: {}, // player -> {emote, id}
    reactionId: 0,
    votes: {}, // absent player -> {voters, needed}
    shown: null, // {seat, cards}: the hand a challenge showed this page
    peek: null, // the newest line from someone else, shown on a phone's table a moment
  });
  const timers = { shown: null, peek: null };
  /** Redraw later, unless the page has left the room meanwhile. */
  const later = (fn, ms) => setTimeout(() => {
    if (S.closing) return;
    fn();
    R.update();
  }, ms);

  // -- messages ------------------------------------------------------------------------------
  function onChat(msg) {
    S.chat = (msg.replace ? msg.lines : S.chat.concat(msg.lines)).slice(-CHAT_KEEP);
    S.muted = msg.muted;
    S.mutedWatchers = msg.muted_watchers || [];
    if ("you" in msg) S.you = msg.you;
    const me = S.me ? S.me.player : null;
    const mineWatching = (l) => (S.you !== null ? l.watcher === S.you : l.text === S.lastSaid);
    const mine = (l) => (l.player === null ? me === null && mineWatching(l) : l.player === me);
    const news = msg.replace ? [] : msg.lines.filter((l) => !mine(l));
    if (news.length) {
      S.peek = news[news.length - 1];
      clearTimeout(timers.peek);
      timers.peek = later(() => (S.peek = null), PEEK_MS);
    }
    // the box empties once the line is the room's (a refused line stays, to send again)
    if (!msg.replace && msg.lines.some((l) => mine(l) && l.text === S.chatDraft.trim())) S.chatDraft = "";
    R.update();
    const list = R.root.querySelector(".chat-lines");
    if (list) list.scrollTop = list.scrollHeight;
  }

  function onReaction(msg) {
    const id = ++S.reactionId;
    S.reactions = Object.assign({}, S.reactions, { [msg.player]: { emote: msg.emote, id } });
    R.update();
    later(() => {
      if (S.reactions[msg.player] && S.reactions[msg.player].id === id) {
        const next = Object.assign({}, S.reactions);
        delete next[msg.player];
        S.reactions = next;
      }
    }, REACTION_MS);
  }

  function onVote(msg) {
    const next = Object.assign({}, S.votes);
    if (msg.needed) next[msg.player] = { voters: msg.voters, needed: msg.needed };
    else delete next[msg.player];
    S.votes = next;
    R.update();
  }

  /** A challenge this page made showed the challenged hand: keep it on the table a while. */
  function noteShown(state) {
    const shown = (state.events || []).filter((e) => e.t === "hand_shown" && e.to === state.you);
    if (!shown.length) return;
    const last = shown[shown.length - 1];
    S.shown = { seat: last.seat, cards: last.cards };
    clearTimeout(timers.shown);
    timers.shown = later(() => (S.shown = null), SHOWN_MS);
  }

  // -- the chat panel ------------------------------------------------------------------------
  const watching = () => !(S.me && S.me.player !== null);
  const iAmMuted = () => (watching() ? S.you !== null && S.mutedWatchers.includes(S.you) : S.muted.includes(S.me.player));
  /** Whether `line` is this page's own (a spectator's: by their number). */
  const ownLine = (l) => (l.player !== null ? !watching() && l.player === S.me.player : watching() && S.you !== null && l.watcher === S.you);

  function speaker(line) {
    if (line.player === null) return t("Spectator {n}", { n: line.watcher });
    return R.playerName(line.player) || line.name;
  }

  function send(e) {
    e.preventDefault();
    const text = S.chatDraft.trim();
    if (!text) return;
    if (R.send({ type: "chat", text })) S.lastSaid = text; // (a spectator's own first line is
    // known by its text: a spectator is numbered as they first speak)
  }

  function chatPanel() {
    const playing = S.info && S.info.status === "playing";
    const placeholder = watching() ? t("Say something to the other spectators") : t("Say something to the table");
    return html`<section class="panel chat-panel" id="chat" aria-label=${t("Chat")}>
      <h2>${t("Chat")}</h2>
      ${watching() && playing ? html`<p class="hint">${t("Only spectators read this chat until the match is over.")}</p>` : null}
      <ol class="chat-lines" id="chat-lines" aria-live="polite" tabindex="0">
        ${S.chat.length ? null : html`<li class="hint empty">${t("No messages yet.")}</li>`}
        ${S.chat.map((l) => html`<li key=${l.seq} class=${"chat-line " + l.channel + (ownLine(l) ? " mine" : "")}
            data-seq=${String(l.seq)}>
          <span class="who">${speaker(l)}</span>${l.channel === "spectators" && !watching() ? html`<span class="badge muted">${t("spectator")}</span>` : null}
          <span class="text">${l.text}</span>
        </li>`)}
      </ol>
      ${iAmMuted()
        ? html`<p class="hint muted-note" id="muted-note">${t("The host has muted you.")}</p>`
        : html`<form class="chat-form" id="chat-form" onSubmit=${send}>
            <input id="chat-input" maxlength=${CHAT_CHARS} autocomplete="off" value=${S.chatDraft}
              placeholder=${placeholder} aria-label=${placeholder}
              onInput=${(e) => (S.chatDraft = e.target.value)} />
            <button type="submit" class="button">${t("Send")}</button>
          </form>`}
      ${R.isHost() ? muteTools() : null}
    </section>`;
  }

  /** The host's mutes: each person seated, and each spectator whose lines the host has read
   * (or who is muted, to lift it). */
  function muteTools() {
    const people = S.info.players.filter((p) => p.kind === "human" && p.player !== S.info.host);
    const heard = S.chat.filter((l) => l.player === null && l.watcher !== null).map((l) => l.watcher);
    const spectators = [...new Set(heard.concat(S.mutedWatchers))].sort((a, b) => a - b);
    if (!people.length && !spectators.length) return null;
    const button = (key, attrs, muted, name, extra) => html`<button key=${key} type="button"
        class=${"small mute" + (muted ? " on" : "")} ...${attrs} aria-pressed=${muted ? "true" : "false"}
        onClick=${() => R.hostSend("mute", Object.assign({ muted: !muted }, extra))}>
        ${muted ? t("Unmute {name}", { name }) : t("Mute {name}", { name })}</button>`;
    return html`<div class="mute-tools">
      ${people.map((p) => button(p.player, { "data-player": String(p.player) }, S.muted.includes(p.player), p.name, { player: p.player }))}
      ${spectators.map((n) => button("w" + n, { "data-watcher": String(n) }, S.mutedWatchers.includes(n),
        t("Spectator {n}", { n }), { watcher: n }))}
    </div>`;
  }

  /** On a phone the chat lies below the table: the newest line from someone else shows on the
   * table for a moment, and a tap on it goes to the chat. (Wider screens show the chat beside
   * the table, and hide this.) */
  function chatPeek() {
    const l = S.peek;
    if (!l) return null;
    const go = () => {
      const input = R.root.querySelector("#chat-input") || R.root.querySelector("#chat");
      if (input) {
        input.scrollIntoView({ block: "center" });
        if (input.focus) input.focus({ preventScroll: true });
      }
    };
    return html`<button type="button" class="chat-peek" id="chat-peek" key=${"peek" + l.seq} onClick=${go}
      aria-label=${t("Chat")}>💬 <strong>${speaker(l)}</strong> <span class="text">${l.text}</span></button>`;
  }

  // -- reactions -----------------------------------------------------------------------------
  function reactionBar() {
    if (watching() || iAmMuted()) return null;
    return html`<div class="reactions" id="reactions" role="group" aria-label=${t("Quick reactions")}>
      ${EMOTES.map(([emote, face, label]) => html`<button key=${emote} type="button" class="react"
        data-emote=${emote} title=${label()} aria-label=${label()}
        onClick=${() => R.send({ type: "react", emote })}>${face}</button>`)}
    </div>`;
  }

  /** The bubble of `player`'s last reaction, drawn by their seat while it lasts. */
  function reactionOf(player) {
    const r = S.reactions[player];
    if (!r) return null;
    const found = EMOTES.find((e) => e[0] === r.emote);
    if (!found) return null;
    return html`<span key=${"r" + r.id} class="reaction-bubble" data-emote=${r.emote}
      role="img" aria-label=${found[2]()}>${found[1]}</span>`;
  }

  // -- absent players ------------------------------------------------------------------------
  /** Whether the host is gone (their seat is a bot's, or they are away): the players vote. */
  function hostGone() {
    const host = S.info.players.find((p) => p.player === S.info.host);
    const seat = S.state && S.state.seats.find((x) => x.host); // (newer: sent with every move)
    return !host || host.kind !== "human" || host.away || !!(seat && seat.away);
  }

  /** At the table, the host's: hand a person's seat to a bot for the rest of the match. */
  function hostBotTools() {
    if (!S.info || S.info.status !== "playing" || !R.isHost()) return null;
    const people = S.info.players.filter((p) => p.kind === "human" && p.player !== S.info.host);
    if (!people.length) return null;
    return html`<div class="host-bot-tools" id="host-bot-tools">
      <p class="hint">${t("Someone left? A bot can play their seat for the rest of the match:")}</p>
      ${people.map((p) => html`<button key=${p.player} type="button" class="small to-bot"
        data-player=${String(p.player)} onClick=${() => confirmBot(p)}>${t("Give {name}'s seat to a bot", { name: p.name })}</button>`)}
    </div>`;
  }

  /** At the table, with the host gone: the people still here vote to hand the seat of a player
   * who is not connected to a bot. */
  function absentPanel() {
    if (!S.info || S.info.status !== "playing" || !S.seat || R.isHost() || !hostGone()) return null;
    const me = S.me ? S.me.player : null;
    const seats = S.state ? S.state.seats : [];
    const gone = (p) => {
      const seat = seats.find((x) => x.player === p.player);
      return seat ? seat.kind === "human" && !seat.connected : p.kind === "human" && !p.connected;
    };
    const absent = S.info.players.filter((p) => p.kind === "human" && p.player !== me && gone(p));
    if (!absent.length) return null;
    return html`<section class="panel absent-tools" id="absent-tools">
      <h2>${t("Absent players")}</h2>
      <p class="hint">${t("The host is gone. A majority of the players here can hand an absent player's seat to a bot.")}</p>
      ${absent.map((p) => {
        const v = S.votes[p.player];
        const mine = v && v.voters.includes(me);
        return html`<div key=${p.player} class="vote-row" data-player=${String(p.player)}>
          <button type="button" class="small to-bot" disabled=${mine}
            onClick=${() => R.hostSend("vote", { player: p.player })}>${t("Vote: a bot plays for {name}", { name: p.name })}</button>
          ${v ? html`<span class="tally">${t("{have} of {need} votes", { have: v.voters.length, need: v.needed })}</span>` : null}
        </div>`;
      })}
    </section>`;
  }

  async function confirmBot(p) {
    const yes = await choose(t("Give {name}'s seat to a bot", { name: p.name }),
      [{ label: t("Yes, a bot plays on"), value: "yes", key: "y" }],
      { body: el("p", { text: t("{name} will watch from now on; a bot plays their cards until the match ends.", { name: p.name }) }) });
    if (yes === "yes") R.hostSend("remove", { player: p.player });
  }

  // -- the challenged hand -------------------------------------------------------------------
  function shownHand() {
    if (!S.shown) return null;
    const close = () => {
      S.shown = null;
      R.update();
    };
    return html`<div class="shown-hand" id="shown-hand" role="status">
      <button type="button" class="close" aria-label=${t("Close")} title=${t("Close")} onClick=${close}>×</button>
      <h2>${t("{name}'s hand when the Wild Draw Four was played", { name: R.seatName(S.shown.seat) })}</h2>
      <p class="hint">${t("Only you, the challenger, see these cards.")}</p>
      <div class="cards">${S.shown.cards.map((c, i) => cardNode(c, { small: true, key: `${c}:${i}` }))}</div>
    </div>`;
  }

  return { onChat, onReaction, onVote, noteShown, chatPanel, chatPeek, reactionBar, reactionOf,
    absentPanel, hostBotTools, shownHand };
}
