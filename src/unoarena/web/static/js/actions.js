// The server sends the legal actions as strings ("play W4 color=G uno", "catch 2"); these
// helpers read them so that the page can offer its buttons (draw, keep, UNO, challenge,
// accept, catch, colours, gives). A card of the hand is not read here: the server sends what a
// click on it asks and plays (`choices`, see room-play.js). The string sent back is always one
// of the legal strings, exactly.

export function parseAction(text) {
  const tokens = text.split(" ");
  const a = { text, verb: tokens[0], cards: [], color: null, target: null, power: null,
    give: [], uno: false };
  const rest = tokens.slice(1);
  if (["play", "jump_in", "give"].includes(a.verb) && rest.length) {
    a.cards = rest.shift().split("+");
  } else if (a.verb === "catch") {
    a.target = Number(rest.shift());
  } else if (a.verb === "color") {
    a.color = rest.shift();
  }
  for (const tok of rest) {
    const [k, v] = tok.split("=");
    if (k === "uno" && v === undefined) a.uno = true;
    else if (k === "color") a.color = v;
    else if (k === "target") a.target = Number(v);
    else if (k === "power") a.power = v;
    else if (k === "give") a.give = v.split("+");
  }
  return a;
}

/** The legal actions grouped by what the page shows for them. */
export function groupLegal(legal) {
  const g = { plays: [], draw: null, pass: null, uno: null, accept: null,
    challenge: null, catches: [], colors: [], gives: [], hasUnoVariant: false };
  for (const text of legal || []) {
    const a = parseAction(text);
    if (a.verb === "play" || a.verb === "jump_in") {
      g.plays.push(a);
      if (a.uno) g.hasUnoVariant = true;
    } else if (a.verb === "draw") g.draw = a;
    else if (a.verb === "pass") g.pass = a;
    else if (a.verb === "uno") g.uno = a;
    else if (a.verb === "accept") g.accept = a;
    else if (a.verb === "challenge") g.challenge = a;
    else if (a.verb === "catch") g.catches.push(a);
    else if (a.verb === "color") g.colors.push(a);
    else if (a.verb === "give") g.gives.push(a);
  }
  return g;
}
