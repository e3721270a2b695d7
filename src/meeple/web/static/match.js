// One match over one WebSocket (docs/protocol.md): the snapshot, then updates; actions out.

import { gameName } from "./api.js";

export class MatchSocket {
  constructor(matchId, onFrame, { watch = false } = {}) {
    this.matchId = matchId;
    this.onFrame = onFrame;
    this.watch = watch;
    this.version = null;
    this.pending = new Map(); // ref -> resolve
    this.counter = 0;
    this.closed = false;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const params = new URLSearchParams();
    if (this.version !== null) params.set("since", String(this.version));
    if (this.watch) params.set("watch", "true");
    const query = params.toString() ? `?${params}` : "";
    this.ws = new WebSocket(`${scheme}://${location.host}/ws/matches/${this.matchId}${query}`);
    this.ws.onmessage = (message) => this.receive(JSON.parse(message.data));
    this.ws.onclose = (event) => {
      this.onFrame({ type: "closed", code: event.code });
      if (!this.closed && event.code < 4000) setTimeout(() => this.open(), 1000);
    };
  }

  receive(frame) {
    if (frame.version !== undefined && frame.type !== "error") this.version = frame.version;
    if ((frame.type === "ack" || frame.type === "error") && frame.ref && this.pending.has(frame.ref)) {
      const resolve = this.pending.get(frame.ref);
      this.pending.delete(frame.ref);
      resolve(frame.type === "ack" ? { ok: true, frame } : { ok: false, code: frame.code, message: frame.message });
    }
    this.onFrame(frame);
  }

  // action: an integer id or a notation string. Resolves to {ok} or {ok: false, code, message}.
  submit(action) {
    const ref = `a${++this.counter}`;
    return new Promise((resolve) => {
      this.pending.set(ref, resolve);
      this.ws.send(JSON.stringify({ type: "action", action, version: this.version, ref }));
    });
  }

  close() {
    this.closed = true;
    this.ws.close();
  }
}

const boards = new Map();

// The board module of a game (boards/<name>.js), or the generic one if it has none.
export async function loadBoard(gameId) {
  const name = gameName(gameId);
  if (!boards.has(name)) {
    boards.set(name, import(`./boards/${name}.js`).catch(() => import("./boards/generic.js")));
  }
  return boards.get(name);
}
