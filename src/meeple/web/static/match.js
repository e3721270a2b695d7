// One match over one WebSocket (docs/protocol.md): the snapshot, then updates; actions out.
// The socket reopens by itself after a drop, asking for what it missed (?since=version): after
// any close but the server's refusals of the match or seat (4403, 4404) — a page too slow to
// read its frames (4408) or a message too long (1009) included.

// Close codes after which the socket does not reopen: the match or the seat is not this page's.
const FINAL = new Set([4403, 4404]);

import { gameName } from "./api.js";

export class MatchSocket {
  // since: the version to replay from on the first connection (0: every event of the match,
  // so a reloaded page rebuilds its event log); null: the snapshot alone.
  constructor(matchId, onFrame, { watch = false, since = null } = {}) {
    this.matchId = matchId;
    this.onFrame = onFrame;
    this.watch = watch;
    this.since = since;
    this.version = null;
    this.pending = new Map(); // ref -> resolve
    this.counter = 0;
    this.closed = false;
    this.retry = 500;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const params = new URLSearchParams();
    const since = this.version !== null ? this.version : this.since;
    if (since !== null && since !== undefined) params.set("since", String(since));
    if (this.watch) params.set("watch", "true");
    const query = params.toString() ? `?${params}` : "";
    this.ws = new WebSocket(`${scheme}://${location.host}/ws/matches/${encodeURIComponent(this.matchId)}${query}`);
    this.ws.onopen = () => {
      this.retry = 500;
      this.onFrame({ type: "open" });
    };
    this.ws.onmessage = (message) => {
      let frame;
      try { frame = JSON.parse(message.data); } catch (err) { return; }
      this.receive(frame);
    };
    this.ws.onclose = (event) => {
      const refusal = event.code === 1009
        ? { ok: false, code: "message/too_large", message: "that message was too long for the server; the match is as it was" }
        : { ok: false, code: "network", message: "the connection dropped; send it again" };
      for (const resolve of this.pending.values()) resolve(refusal);
      this.pending.clear();
      if (this.closed) return;
      this.onFrame({ type: "closed", code: event.code, reason: event.reason });
      if (!FINAL.has(event.code)) {
        setTimeout(() => { if (!this.closed) this.open(); }, this.retry);
        this.retry = Math.min(this.retry * 2, 8000);
      }
    };
  }

  receive(frame) {
    if (frame.version !== undefined && frame.type !== "error") this.version = frame.version;
    // An accepted action is answered by the update carrying its ack; a refused one by an error.
    const ref = frame.type === "update" ? frame.ack && frame.ack.ref : frame.type === "error" && frame.ref;
    if (ref && this.pending.has(ref)) {
      const resolve = this.pending.get(ref);
      this.pending.delete(ref);
      resolve(frame.type === "update" ? { ok: true, frame } : { ok: false, code: frame.code, message: frame.message });
    }
    this.onFrame(frame);
  }

  // action: an integer id or a notation string. Resolves to {ok} or {ok: false, code, message}.
  submit(action) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      return Promise.resolve({ ok: false, code: "network", message: "not connected to the match; reconnecting" });
    }
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
