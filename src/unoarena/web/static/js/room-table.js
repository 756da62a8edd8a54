// The table of a room page: the seats, the piles, your hand and buttons, results and scores.
import { html } from "./vendor/preact-htm.js";
import { t, tn } from "./i18n.js";
import { cardNode, backNode, colorText } from "./cards.js";
import { groupLegal } from "./actions.js";
import { initial, plainRules } from "./util.js";
import { coachButtons, showRule } from "./coach.js";

const LOG_SHOWN = 150;

/** The table part of a room page; `R` is the page (its state `S`, its other parts). */
export function roomTable(R) {
  const { S, roomId } = R;
  function tableView() {
    const st = S.state;
    const v = st.view;
    const g = groupLegal(v.legal);
    const you = R.mySeat();
    const n = v.players;
    const order = [];
    for (let i = 1; i <= n; i++) {
      const s = you === null ? i - 1 : (you + i) % n;
      if (s !== you) order.push(s);
    }
    const drawable = !!g.draw;
    return html`<div class="table-wrap" key="table">
      <div class="table-main" id="table-main">
        ${R.banners()}
        ${you === null && S.waiting ? html`<div class="banner info" id="waiting-banner">${t("You take a bot's seat when the next round is dealt; until then you watch.")}</div>`
          : you === null ? html`<div class="banner info" id="spectator-banner">${t("You are watching this game.")}</div>` : null}
        <div class="opponents" id="opponents">${order.map((s) => seatBox(s, g))}</div>
        <p class="last-line" id="last-line" aria-hidden="true">${S.log.length ? S.log[S.log.length - 1].text : ""}</p>
        <div class="center">
          <button type="button" class=${"pile draw-pile" + (drawable ? " active" : "")} id="draw-pile"
            disabled=${!drawable} title=${t("Draw pile")} aria-label=${drawLabel(g, v)}
            onClick=${() => drawable && R.act(g.draw.text)}>
            ${backNode("back", false)}
            <span class="count">${v.draw_pile_size}</span>
          </button>
          <div class="pile discard" id="discard">
            ${v.top ? cardNode(v.top, { named: v.color, cls: "top" }) : null}
          </div>
          ${S.result ? resultBox() : tableInfo(v)}
        </div>
        ${R.shownHand()}
        ${R.chatPeek()}
        <div class="status" id="status" role="status" aria-live="polite">
          <span id="status-text">${statusText(v, g)}</span>
          ${st.timer ? html`<span class="clock" data-timer="1"></span>` : null}
          ${st.round_clock ? html`<span class="clock round" data-round-clock="1"></span>` : null}
        </div>
        <div class=${"table-error" + (S.error ? " show" : "")} id="table-error" role="alert">${S.error}</div>
        ${you !== null ? myArea(v, g) : null}
        ${S.matchOver ? matchOverPanel() : null}
      </div>
      <aside class="side-panel">
        ${R.absentPanel()}
        ${scoresPanel()}
        <section class="panel log-panel">
          <h2>${t("What happened")}</h2>
          <ol class="log" id="log" aria-label=${t("Game log")} tabindex="0">
            ${S.log.slice(-LOG_SHOWN).map((l) => html`<li key=${l.id}>${l.text}</li>`)}
          </ol>
        </section>
        ${R.chatPanel()}
        <details class="panel room-panel">
          <summary>${t("Invite, rejoin and rules")}</summary>
          ${R.shareBox()}
          ${R.rejoinBox()}
          ${R.isHost() ? handOverList() : null}
          ${R.hostBotTools()}
          ${R.isHost() ? revokeList() : null}
          ${R.rulesPanel()}
        </details>
      </aside>
    </div>`;
  }

  function handOverList() {
    const people = S.info.players.filter((p) => p.kind === "human" && p.player !== S.info.host);
    if (!people.length) return null;
    return html`<div class="hand-overs">
      <p class="hint">${t("Someone changed device? Give them a new link to their seat:")}</p>
      ${people.map((p) => html`<button key=${p.player} type="button" class="small hand-over"
        data-player=${String(p.player)} onClick=${() => R.handOver(p.player)}>${t("New link for {name}", { name: p.name })}</button>`)}
    </div>`;
  }

  /** During the match a remote seat's token can still be revoked: its stand-in plays on. */
  function revokeList() {
    const remotes = S.info.players.filter((p) => p.kind === "remote");
    if (!remotes.length) return null;
    return html`<div class="hand-overs">
      <p class="hint">${t("Revoking a remote bot's token disconnects it; its stand-in plays the rest of the match.")}</p>
      ${remotes.map((p) => html`<button key=${p.player} type="button" class="small danger revoke"
        data-player=${String(p.player)} onClick=${() => R.hostSend("remove", { player: p.player })}>${t("Revoke the token of {name}", { name: p.name })}</button>`)}
    </div>`;
  }

  function tableInfo(v) {
    let pending = null;
    if (v.pending) {
      const word = v.pending.kind === "press" ? tn("{n} press", "{n} presses", v.pending.amount) : tn("{n} card", "{n} cards", v.pending.amount);
      pending = html`<div class="pending" id="pending">${t("Pending: {what} for {name}", { what: word, name: R.seatName(v.pending.target) })}</div>`;
    }
    let effect = null;
    if (v.effect) {
      const text = v.effect.kind === "hyperspeed" ? t("Hyperspeed on {color}", { color: colorText(v.effect.color) }) : t("Only {color} until {name} plays again", { color: colorText(v.effect.color), name: R.seatName(v.effect.owner) });
      effect = html`<div class=${`effect c-${v.effect.color}`}>${text}</div>`;
    }
    return html`<div class="table-info" key="info">
      ${v.color ? html`<div class=${`active-color c-${v.color}`} id="active-color"><span class="swatch"></span><span>${t("Colour: {color}", { color: colorText(v.color) })}</span></div>` : null}
      <div class="direction" title=${t("Direction of play")}>
        <span class=${"arrow " + v.direction}>${v.direction === "cw" ? "↻" : "↺"}</span>
        <span>${v.direction === "cw" ? t("clockwise") : t("counter-clockwise")}</span>
      </div>
      ${pending}
      ${effect}
    </div>`;
  }

  function drawLabel(g, v) {
    if (v.pending && g.draw) return t("Take the penalty");
    return t("Draw a card");
  }

  function statusText(v, g) {
    const you = R.mySeat();
    if (S.info.status === "finished") return t("The match is over.");
    if (v.round_over) return t("The round is over.");
    if (v.turn === you) {
      if (v.phase === "color") return t("Your turn: name the colour.");
      if (v.phase === "give") return tn("Your turn: choose {n} card to give.", "Your turn: choose {n} cards to give.", v.give_left || 1);
      if (v.phase === "drawn") return t("Your turn: play the drawn card or keep it.");
      if (v.pending) return g.challenge ? t("Your turn: challenge the Wild Draw Four or accept it.") : t("Your turn: answer the penalty or take it.");
      return t("Your turn: play a card or draw.");
    }
    if (g.plays.some((a) => a.verb === "jump_in")) return t("You can jump in now!");
    if (g.catches.length) return t("{name} forgot to call UNO: catch them!", { name: R.seatName(g.catches[0].target) });
    return t("{name}'s turn", { name: R.seatName(v.turn) });
  }

  function seatBox(s, g) {
    const st = S.state;
    const v = st.view;
    const info = st.seats.find((x) => x.seat === s) || { name: `#${s + 1}`, kind: "human" };
    const turn = v.turn === s && !v.round_over;
    const cls = ["seat-box"];
    if (turn) cls.push("turn");
    if (info.away) cls.push("away");
    if (info.kind === "human" && !info.connected) cls.push("offline");
    const count = v.hand_sizes[s];
    const exposed = g.catches.some((a) => a.target === s);
    const backs = [];
    // HR-OPEN: a hand small enough lies face up for everyone
    const open = v.open_hands && s !== v.seat ? v.open_hands[s] : null;
    if (open) open.forEach((code, i) => backs.push(cardNode(code, { small: true, key: `open-${i}` })));
    else for (let i = 0; i < Math.min(count, 12); i++) backs.push(backNode(i));
    return html`<div key=${s} class=${cls.join(" ")} data-seat=${String(s)}
        aria-label=${`${info.name}: ${tn("{n} card", "{n} cards", count)}`}>
      <div class=${"avatar" + (info.kind === "bot" || info.kind === "remote" ? " bot" : "")} aria-hidden="true">${info.kind === "bot" ? "⚙" : info.kind === "remote" ? "⇄" : initial(info.name)}</div>
      <div class="who">
        <span class="name">${info.name}</span>
        ${info.host ? html`<span class="badge">${t("host")}</span>` : null}
        ${info.away ? html`<span class="badge warn">${t("away: a bot plays")}</span>` : info.kind === "human" && !info.connected ? html`<span class="badge muted">${t("offline")}</span>` : null}
        ${v.teams ? html`<span class="badge">${t("team {n}", { n: v.teams[s] + 1 })}</span>` : null}
      </div>
      <div class=${"fan" + (open ? " open" : "")} aria-hidden=${open ? undefined : "true"}>${backs}</div>
      <div class="count"><span class="n">${count}</span><span class="word">${tn("{n} card", "{n} cards", count)}</span></div>
      ${count === 1 && v.uno_declared[s] ? html`<div class="uno-flag">UNO!</div>` : null}
      ${exposed ? html`<div class="uno-flag missed">${t("No UNO!")}</div>` : null}
      ${st.timer && st.timer.seat === s ? html`<div class="timer-bar"><span data-timer-bar="1"></span></div>` : null}
      ${R.reactionOf(info.player)}
    </div>`;
  }

  function myArea(v, g) {
    const you = R.mySeat();
    const button = (action, label, key, extra = "") => html`<button key=${action.text} type="button"
        class=${"act " + extra} data-action=${action.text} data-key=${key || undefined}
        onClick=${() => R.act(action.text)}>${label}${key ? html`<kbd>${key.toUpperCase()}</kbd>` : null}</button>`;
    const bar = [];
    if (g.draw) {
      const label = v.pending ? (v.pending.kind === "press" ? tn("Press {n} time", "Press {n} times", v.pending.amount) : tn("Take {n} card", "Take {n} cards", v.pending.amount)) : S.info.rules.edition === "attack" ? t("Press the launcher") : t("Draw");
      bar.push(button(g.draw, label, "d"));
    }
    if (g.pass) bar.push(button(g.pass, t("Keep it"), "k"));
    if (g.challenge) bar.push(button(g.challenge, t("Challenge"), "c", "warn"));
    if (g.accept) bar.push(button(g.accept, t("Accept"), "a"));
    if (g.uno) bar.push(button(g.uno, t("Call UNO!"), "u", "uno"));
    else if (g.hasUnoVariant) {
      bar.push(html`<button key="uno-toggle" type="button" class=${"act uno toggle" + (S.unoArmed ? " armed" : "")}
        id="uno-toggle" aria-pressed=${S.unoArmed ? "true" : "false"} data-key="u"
        onClick=${() => { S.unoArmed = !S.unoArmed; R.update(); }}>
        ${S.unoArmed ? t("UNO! (armed)") : t("Say UNO with this card")}<kbd>U</kbd></button>`);
    }
    for (const c of g.colors) {
      bar.push(html`<button key=${c.text} type="button" class=${`act color-choice c-${c.color}`}
        data-action=${c.text} onClick=${() => R.act(c.text)}>${colorText(c.color)}</button>`);
    }
    g.catches.forEach((c, i) => {
      bar.push(button(c, t("Catch {name}", { name: R.seatName(c.target) }), !g.challenge && i === 0 ? "c" : "", "warn catch"));
    });
    bar.push(...coachButtons(roomId, S));

    const giving = g.gives.length > 0;
    const seen = new Map();
    const cards = v.hand.map((code, i) => {
      const k = seen.get(code) || 0;
      seen.set(code, k + 1);
      const playable = R.cardClass(code);
      let cls = playable;
      if (giving && g.gives.some((a) => a.cards[0] === code)) cls = "playable";
      if (v.drawn && v.drawn.includes(code) && v.phase === "drawn") cls += " drawn";
      if (!playable && !giving) cls += " dim";
      return cardNode(code, {
        button: true, key: `${code}:${k}`, cls,
        attrs: { role: "listitem", "data-index": String(i), "data-key": `${code}:${k}`,
          onContextMenu: (e) => { e.preventDefault(); showRule(S.info, { card: code }); } },
        onClick: (e) => R.onCard(code, e.currentTarget),
      });
    });
    const myTurn = v.turn === you && !v.round_over;
    return html`<div class=${"me" + (myTurn ? " turn" : "")} id="my-area">
      <div class="action-bar" id="action-bar">${bar}</div>
      <div class="my-info">
        <span class="name">${R.seatName(you)}</span>
        <span class="count">${tn("{n} card", "{n} cards", v.hand.length)}</span>
        ${v.uno_declared[you] && v.hand.length === 1 ? html`<span class="uno-flag">UNO!</span>` : null}
        ${R.reactionOf(S.me ? S.me.player : null)}
        ${R.reactionBar()}
      </div>
      <div class="hand" id="hand" role="list" aria-label=${t("Your hand")}>${cards}</div>
    </div>`;
  }

  /** The round's result, beside the piles: the next round's deal stays in sight. */
  function resultBox() {
    const r = S.result;
    const title = r.winner === null ? t("The round ends void.")
      : r.reason === "time" ? t("Time is up: {name} holds the fewest points and wins round {n}!", { name: R.playerName(r.winner_player), n: r.round })
      : t("{name} wins round {n}!", { name: R.playerName(r.winner_player), n: r.round });
    const dismiss = () => {
      S.result = null;
      R.update();
    };
    return html`<div class="result" id="round-result" key="result" role="status">
      <button type="button" class="close" aria-label=${t("Close")} title=${t("Close")} onClick=${dismiss}>×</button>
      <h2>${title}</h2>
      <p class="hint">${t("Points left in hand")}</p>
      <ul>${r.points.map((p, s) => html`<li key=${s}><span>${R.playerName(r.players[s])}</span><strong>${p}</strong></li>`)}</ul>
      ${(r.out || []).map((p) => html`<p class="out" key=${`out-${p}`}>${t("{name} is out of the match.", { name: R.playerName(p) })}</p>`)}
    </div>`;
  }

  function matchOverPanel() {
    const m = S.matchOver;
    const teams = m.teams > 0;
    const names = (i) => (teams ? t("team {n}", { n: i + 1 }) : R.playerName(i));
    const ranked = m.scores.map((s, i) => [s, i]).sort((a, b) => (m.scoring === "penalty" ? a[0] - b[0] : b[0] - a[0]));
    return html`<div class="match-over panel" id="match-over" role="dialog" aria-label=${t("The match is over.")}>
      <h2>${tn("Winner: {names}", "Winners: {names}", m.winners.length, { names: m.winners.map(names).join(", ") })}</h2>
      <ol>${ranked.map(([s, i]) => html`<li key=${i}>${`${names(i)}: ${s}`}</li>`)}</ol>
      <div class="buttons">
        ${R.isHost()
          ? html`<button type="button" class="primary" id="play-again" onClick=${() => R.hostSend("again")}>${t("Play again")}</button>`
          : html`<span class="hint">${t("The host can start another match.")}</span>`}
        <a class="button" href=${`/replay/${roomId}/${m.match}`} data-link>${t("Watch the replay")}</a>
        <a class="button" href="/" data-link>${t("New game")}</a>
      </div>
    </div>`;
  }

  function scoresPanel() {
    const st = S.state;
    const rules = S.info.rules;
    const goal = rules.rounds ? tn("{n} round", "{n} rounds", rules.rounds) : t("to {n} points", { n: rules.target_score });
    const shown = S.info.status === "finished" ? Math.max(1, st.round) : st.round + 1;
    const data = S.rulesText && S.rulesText.data;
    const title = data ? plainRules(data.summary).split(/[:：(（]/)[0].trim() : rules.preset;
    const teams = rules.teams ? rules.players / rules.teams : 0;
    return html`<section class="panel scores" id="scores">
      <h2>${t("Scores")}</h2>
      <p class="hint">${`${title} · ${goal} · ${t("round {n}", { n: shown })}`}</p>
      <ul>${st.match_scores.map((s, i) => html`<li key=${i} data-player=${String(i)}>
        <span>${teams ? t("team {n}", { n: i + 1 }) : R.playerName(i)}</span><strong>${String(s)}</strong></li>`)}</ul>
    </section>`;
  }

  return { tableView };
}
