#!/usr/bin/env node
// A remote bot for an unoarena table in plain Node (20 or later), with no dependencies: it
// plays a random legal action at each of its turns. It is a second client of the protocol
// (docs/protocol/), written without the project's Python code, to show that the documented
// messages are all a program needs.
//
//   node uno-bot.mjs URL --token TOKEN [--seed N] [--schema docs/protocol/schema.json]
//
// URL is the room's link (http://HOST/r/ROOM) or its WebSocket (ws://HOST/ws/ROOM); TOKEN the
// bot token the host was shown when making the seat remote. With --schema, every message sent
// and received is checked against the published JSON Schema (a small checker of the keywords
// the schema uses), and a message off the schema ends the run.
//
// Exit status: 0 the match is over, 1 no connection for too long, 2 the token was refused or
// revoked, 3 a message did not satisfy the schema. The last line on stdout is a JSON summary.
//
// Node 20 has no WebSocket client of its own, so this file carries a minimal one (RFC 6455):
// the HTTP upgrade through node:http, masked frames out, text, ping and close frames in.
import http from "node:http";
import https from "node:https";
import crypto from "node:crypto";
import { readFileSync } from "node:fs";

const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/** One WebSocket connection: `onmessage(text)`, `onclose(code)`, `send(text)`, `close()`. */
class Socket {
  constructor(sock, head) {
    this.sock = sock;
    this.buf = Buffer.alloc(0);
    this.parts = [];
    this.closed = false;
    this.onmessage = () => {};
    this.onclose = () => {};
    sock.setNoDelay(true);
    sock.on("data", (d) => this.#read(d));
    sock.on("close", () => this.#ended(1006));
    sock.on("error", () => this.#ended(1006));
    if (head && head.length) this.#read(head);
  }

  /** Open `url` (ws: or wss:) and resolve to a Socket once the server agreed to upgrade. */
  static connect(url) {
    return new Promise((resolve, reject) => {
      const u = new URL(url);
      const key = crypto.randomBytes(16).toString("base64");
      const lib = u.protocol === "wss:" ? https : http;
      const req = lib.request({
        host: u.hostname, port: u.port || (u.protocol === "wss:" ? 443 : 80),
        path: u.pathname + u.search, method: "GET",
        headers: {
          Connection: "Upgrade", Upgrade: "websocket", "Sec-WebSocket-Version": "13",
          "Sec-WebSocket-Key": key,
        },
      });
      req.setTimeout(10000, () => req.destroy(new Error("timed out")));
      req.on("upgrade", (res, sock, head) => {
        const want = crypto.createHash("sha1").update(key + GUID).digest("base64");
        if (res.headers["sec-websocket-accept"] !== want) {
          sock.destroy();
          reject(new Error("the server's handshake answer is wrong"));
          return;
        }
        resolve(new Socket(sock, head));
      });
      req.on("response", (res) => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode })));
      req.on("error", reject);
      req.end();
    });
  }

  send(text) {
    this.#frame(0x1, Buffer.from(text, "utf8"));
  }

  close(code = 1000) {
    if (this.closed) return;
    const body = Buffer.alloc(2);
    body.writeUInt16BE(code);
    this.#frame(0x8, body);
    this.sock.end();
  }

  /** A client's frames are masked (RFC 6455, 5.3). */
  #frame(opcode, payload) {
    if (this.closed) return;
    const n = payload.length;
    const head = n < 126 ? Buffer.alloc(2) : n < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
    head[0] = 0x80 | opcode;
    if (n < 126) head[1] = 0x80 | n;
    else if (n < 65536) {
      head[1] = 0x80 | 126;
      head.writeUInt16BE(n, 2);
    } else {
      head[1] = 0x80 | 127;
      head.writeBigUInt64BE(BigInt(n), 2);
    }
    const mask = crypto.randomBytes(4);
    const body = Buffer.alloc(n);
    for (let i = 0; i < n; i++) body[i] = payload[i] ^ mask[i & 3];
    this.sock.write(Buffer.concat([head, mask, body]));
  }

  #read(data) {
    this.buf = this.buf.length ? Buffer.concat([this.buf, data]) : data;
    for (;;) {
      const b = this.buf;
      if (b.length < 2) return;
      const fin = (b[0] & 0x80) !== 0;
      const opcode = b[0] & 0x0f;
      const masked = (b[1] & 0x80) !== 0;
      let len = b[1] & 0x7f;
      let at = 2;
      if (len === 126) {
        if (b.length < 4) return;
        len = b.readUInt16BE(2);
        at = 4;
      } else if (len === 127) {
        if (b.length < 10) return;
        len = Number(b.readBigUInt64BE(2));
        at = 10;
      }
      const maskAt = at;
      if (masked) at += 4;
      if (b.length < at + len) return;
      let payload = b.subarray(at, at + len);
      if (masked) payload = payload.map((x, i) => x ^ b[maskAt + (i & 3)]);
      this.buf = b.subarray(at + len);
      this.#got(fin, opcode, payload);
    }
  }

  #got(fin, opcode, payload) {
    if (opcode === 0x9) this.#frame(0xa, payload); // ping: pong with the same payload
    else if (opcode === 0x8) {
      const code = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
      this.close(code === 1005 ? 1000 : code);
      this.#ended(code);
    } else if (opcode === 0x1 || opcode === 0x2 || opcode === 0x0) {
      this.parts.push(Buffer.from(payload));
      if (fin) {
        const text = Buffer.concat(this.parts).toString("utf8");
        this.parts = [];
        this.onmessage(text);
      }
    }
  }

  #ended(code) {
    if (this.closed) return;
    this.closed = true;
    this.sock.destroy();
    this.onclose(code);
  }
}

/** The errors of `value` against `schema` (the keywords docs/protocol/schema.json uses). */
export function check(value, schema, root, where = "$") {
  if (schema.$ref) return check(value, resolve(root, schema.$ref), root, where);
  const errors = [];
  if (schema.anyOf) {
    const mapping = schema.discriminator && schema.discriminator.mapping;
    const tag = mapping && value && value[schema.discriminator.propertyName];
    if (mapping && !(tag in mapping)) return [`${where}: unknown ${schema.discriminator.propertyName} ${JSON.stringify(tag)}`];
    const options = mapping ? [{ $ref: mapping[tag] }] : schema.anyOf;
    const tried = options.map((s) => check(value, s, root, where));
    if (!tried.some((e) => e.length === 0)) errors.push(...tried.flat());
  }
  if (schema.type) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => isType(value, t))) errors.push(`${where}: not ${types.join(" or ")}`);
  }
  if (schema.enum && !schema.enum.some((v) => v === value)) errors.push(`${where}: not one of ${schema.enum.join(", ")}`);
  if (typeof value === "string" && schema.maxLength !== undefined && [...value].length > schema.maxLength) errors.push(`${where}: longer than ${schema.maxLength}`);
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${where}: below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${where}: above ${schema.maximum}`);
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => errors.push(...check(v, schema.items, root, `${where}[${i}]`)));
  if (isType(value, "object")) {
    for (const key of schema.required || []) if (!(key in value)) errors.push(`${where}: missing ${key}`);
    for (const [key, v] of Object.entries(value)) {
      const sub = schema.properties && schema.properties[key];
      if (sub) errors.push(...check(v, sub, root, `${where}.${key}`));
      else if (schema.additionalProperties === false) errors.push(`${where}: unexpected field ${key}`);
    }
  }
  return errors;
}

function resolve(root, ref) {
  return ref.replace(/^#\//, "").split("/").reduce((node, part) => node[part], root);
}

function isType(v, t) {
  switch (t) {
    case "object": return v !== null && typeof v === "object" && !Array.isArray(v);
    case "array": return Array.isArray(v);
    case "string": return typeof v === "string";
    case "integer": return Number.isInteger(v);
    case "number": return typeof v === "number";
    case "boolean": return typeof v === "boolean";
    case "null": return v === null;
    default: return false;
  }
}

/** The table's WebSocket address from a room link (http://HOST/r/ROOM) or the address itself. */
export function wsUrl(link) {
  const u = new URL(link);
  const scheme = { "http:": "ws:", "https:": "wss:", "ws:": "ws:", "wss:": "wss:" }[u.protocol];
  const parts = u.pathname.split("/").filter(Boolean);
  if (!scheme || parts.length < 2 || !["r", "ws"].includes(parts[parts.length - 2])) {
    throw new Error(`not a room address: ${link} (give http://HOST/r/ROOM)`);
  }
  const prefix = parts.slice(0, -2).join("/");
  return `${scheme}//${u.host}${prefix ? "/" + prefix : ""}/ws/${parts[parts.length - 1]}`;
}

/** A seeded generator (mulberry32), so that a run can be repeated. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function parseArgs(argv) {
  const out = { url: null, token: null, seed: 1, schema: null, patience: 60 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--token") out.token = argv[++i];
    else if (a === "--seed") out.seed = Number(argv[++i]);
    else if (a === "--schema") out.schema = argv[++i];
    else if (a === "--patience") out.patience = Number(argv[++i]);
    else if (!out.url) out.url = a;
    else throw new Error(`unexpected argument ${a}`);
  }
  if (!out.url || !out.token) throw new Error("usage: node uno-bot.mjs URL --token TOKEN [--seed N] [--schema FILE] [--patience S]");
  return out;
}

/** Play the seat until the match is over; resolves to the exit status. */
export async function play({ url, token, seed = 1, schema = null, patience = 60 }) {
  const address = wsUrl(url) + "?lang=en";
  const rand = random(seed);
  const stats = { decisions: 0, errors: {}, reconnects: 0, checked: 0 };
  const defs = schema && schema.$defs;
  let answered = -1;
  let delay = 500;
  let lostSince = null;

  const verify = (msg, which) => {
    if (!defs) return;
    const problems = check(msg, defs[which], schema);
    stats.checked++;
    if (problems.length) throw Object.assign(new Error(`${which} off the schema: ${problems.slice(0, 3).join("; ")}`), { exit: 3 });
  };

  const session = (ws) => new Promise((resolve, reject) => {
    const send = (msg) => {
      verify(msg, "ClientMessage");
      ws.send(JSON.stringify(msg));
    };
    ws.onclose = () => resolve(null);
    ws.onmessage = (text) => {
      try {
        const msg = JSON.parse(text);
        verify(msg, "ServerMessage");
        if (msg.type === "welcome" && msg.player === null) return resolve(2); // not a seat
        if (msg.type === "removed") return resolve(2); // revoked
        if (msg.type === "match_over") return resolve(0);
        if (msg.type === "error") {
          stats.errors[msg.code] = (stats.errors[msg.code] || 0) + 1;
          answered = -1;
          return;
        }
        if (msg.type !== "state") return;
        const v = msg.view;
        if (msg.status !== "playing" || msg.you === null || v.turn !== msg.you || !v.legal.length
            || v.round_over || msg.seq === answered) return;
        answered = msg.seq;
        const action = v.legal[Math.floor(rand() * v.legal.length)];
        stats.decisions++;
        send({ type: "act", token, action, seq: msg.seq });
      } catch (e) {
        reject(e);
      }
    };
    send({ type: "hello", token, lang: "en" });
  });

  for (;;) {
    let ws = null;
    try {
      ws = await Socket.connect(address);
      lostSince = null;
      delay = 500;
      const code = await session(ws);
      if (code !== null) {
        ws.close();
        return { code, stats };
      }
    } catch (e) {
      if (ws) ws.close();
      if (e.exit) {
        console.error(e.message);
        return { code: e.exit, stats };
      }
      if (e.status === 403 || e.status === 404) return { code: 2, stats };
    }
    const now = Date.now();
    lostSince = lostSince ?? now;
    if (now - lostSince >= patience * 1000) return { code: 1, stats };
    stats.reconnects++;
    await new Promise((r) => setTimeout(r, delay * (0.75 + rand() / 2)));
    delay = Math.min(30000, delay * 2);
  }
}

const direct = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (direct) {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(e.message);
    process.exit(2);
  }
  const schema = args.schema ? JSON.parse(readFileSync(args.schema, "utf8")) : null;
  const { code, stats } = await play({ ...args, schema });
  console.log(JSON.stringify({ exit: code, ...stats }));
  process.exit(code);
}
