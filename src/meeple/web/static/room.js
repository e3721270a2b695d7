// A room as it fills (#/room/ID): follows GET /ws/rooms/ID. Seats, names, ready, leave; the
// host kicks, seats bots and starts; once started the page becomes the match's.

import { html, useEffect, useState } from "./vendor/preact-htm.js";
import { api, gameTitle, seatColour, seatMark, teamOf } from "./api.js";
import { useGames, ladderOf, levelWords, teamsInWords } from "./lobby.js";
import { seatSides } from "./events.js";
import { loadBoard } from "./match.js";

// What a room's board will call its seats before the match starts: the board's sides, read
// from a view made of the room's options (Manafields' factions, the game's defaults where
// the room names none).
function roomView(games, room) {
  const info = (games || []).find((g) => g.id === room.game);
  const defaults = Object.fromEntries(((info && info.options) || []).map((o) => [o.name, o.default]));
  const options = { ...defaults, ...(room.options || {}) };
  const factions = [];
  for (let seat = 0; seat < room.seats && options[`faction${seat}`]; seat += 1) factions.push(options[`faction${seat}`]);
  return factions.length ? { factions } : {};
}

// What kind of table a room is (its `mode`), in the lobby's words.
const ROOM_KINDS = { custom: "live online table", days: "match over days", lan: "Wi-Fi room" };

function useRoom(roomId) {
  const [room, setRoom] = useState(null);
  const [gone, setGone] = useState(null);
  useEffect(() => {
    let closed = false;
    let ws = null;
    let retry = 500;
    const open = () => {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      ws = new WebSocket(`${scheme}://${location.host}/ws/rooms/${encodeURIComponent(roomId)}`);
      ws.onmessage = (message) => {
        let frame;
        try { frame = JSON.parse(message.data); } catch (err) { return; }
        if (frame.type === "room") { retry = 500; setRoom(frame); }
      };
      ws.onclose = (event) => {
        if (closed) return;
        if (event.code === 4404) { setGone("There is no such room."); return; }
        // Any other close (4408: the page read too slowly) reopens: the room frame comes anew.
        setTimeout(() => { if (!closed) open(); }, retry);
        retry = Math.min(retry * 2, 8000);
      };
    };
    open();
    return () => { closed = true; if (ws) ws.close(); };
  }, [roomId]);
  return [room, gone, setRoom];
}

export function RoomPage({ roomId, account }) {
  const games = useGames();
  const [room, gone, setRoom] = useRoom(roomId);
  const [error, setError] = useState(null);
  const [chosen, setLevel] = useState("");
  const [bots, setBots] = useState(null);
  useEffect(() => {
    api("GET", "/api/bots").then((reply) => { if (reply.ok) setBots(reply.data); });
  }, []);
  useEffect(() => {
    if (room && room.status === "playing") location.hash = `#/match/${room.id}`;
  }, [room && room.status]);
  const [board, setBoard] = useState(null);
  useEffect(() => {
    if (room) loadBoard(room.game).then((module) => setBoard(() => module));
  }, [room && room.game]);

  if (gone) return html`<section class="card"><p role="alert" class="error">${gone}</p><a href="#/">Back to the lobby</a></section>`;
  if (!room) return html`<p>Loading the room…</p>`;

  const call = async (path, body) => {
    const reply = await api("POST", `/api/rooms/${room.id}/${path}`, body);
    if (!reply.ok) setError(reply.message);
    else { setError(null); if (reply.data && reply.data.players) setRoom({ ...room, ...reply.data }); }
    return reply;
  };
  const me = account ? room.players.find((p) => p.account === account.id) : null;
  const host = account && room.host === account.id;
  const open = room.players.filter((p) => p.open);
  const level = chosen || (bots ? bots.default : "");
  const closed = room.status === "closed";
  const sides = board ? seatSides(board, roomView(games, room)) : [];
  return html`<section class="card room" aria-label="Room">
    <h2>${gameTitle(games, room.game)} · room</h2>
    <p class="facts">${[ROOM_KINDS[room.mode] || null, `${room.seats} seats`, room.timer ? `turn timer ${room.timer} s` : "no turn timer",
      room.public ? "listed in the lobby" : "private (joined by code)",
      room.options && room.options.teams ? teamsInWords(room.game, room.options.teams) : null].filter(Boolean).join(" · ")}</p>
    ${room.code && html`<p class="code">Code to share: <strong data-testid="room-code">${room.code}</strong>${" "}
      <button type="button" onClick=${() => navigator.clipboard && navigator.clipboard.writeText(room.code)}>Copy</button></p>`}
    ${closed && html`<p role="status">This room is closed. <a href="#/">Back to the lobby</a></p>`}
    <table class="seats">
      <caption class="sr-only">Seats</caption>
      <thead><tr><th scope="col">Seat</th><th scope="col">Player</th><th scope="col">Ready</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody>
        ${room.players.map((p) => {
          const team = teamOf(room.options, p.seat);
          const isHost = p.account !== null && p.account === room.host;
          const ready = p.bot || isHost || p.ready;
          return html`<tr data-seat=${p.seat}>
            <td><span class="mark" style=${`color:${seatColour(p.seat)}`} aria-hidden="true">${seatMark(p.seat)}</span>${" "}
              ${sides[p.seat] || `Seat ${p.seat + 1}`}${team ? html` <span class="team">team ${team}</span>` : ""}</td>
            <td>${p.open ? html`<em>open</em>` : p.name}${p.bot && !/\bbot\b/.test(p.name) ? " (bot)" : ""}${isHost ? " (host)" : ""}
              ${me && me.seat === p.seat ? " (you)" : ""}</td>
            <td>${p.open ? "" : ready ? "✓ ready" : "not ready"}</td>
            <td>
              ${host && !p.open && !isHost && !closed && html`<button type="button" onClick=${() => call("kick", { seat: p.seat })}
                aria-label=${`Kick ${sides[p.seat] || `seat ${p.seat + 1}`} (${p.name})`}>Kick</button>`}
              ${!me && p.open && room.public && !closed && html`<button type="button" onClick=${() => call("join", { seat: p.seat })}
                aria-label=${`Take the ${sides[p.seat] || `seat ${p.seat + 1}`} seat`}>Take this seat</button>`}
            </td>
          </tr>`;
        })}
      </tbody>
    </table>
    ${!closed && html`<div class="actions">
      ${me && !host && html`<button type="button" onClick=${() => call("ready", { ready: !me.ready })}>
        ${me.ready ? "Not ready" : "Ready"}</button>`}
      ${host && open.length > 0 && html`<span class="fill">
        <label for="fill-level">Bot level</label>
        <select id="fill-level" value=${level} onChange=${(e) => setLevel(e.target.value)}>
          ${ladderOf(bots).map((step) => html`<option value=${step.bot}>${levelWords(step)}${step.bot === bots.default ? " (the default)" : ""}</option>`)}
        </select>
        <button type="button" onClick=${() => call("bots", level ? { bots: level } : {})}>Fill open seats with bots</button>
      </span>`}
      ${host && html`<button type="button" class="primary" disabled=${open.length > 0}
        onClick=${async () => {
          const reply = await call("start");
          if (reply.ok) location.hash = `#/match/${room.id}`;
        }}>Start the match</button>`}
      ${me && html`<button type="button" onClick=${async () => {
        const reply = await call("leave");
        if (reply.ok) location.hash = "#/";
      }}>${host ? "Close the room" : "Leave"}</button>`}
    </div>`}
    <p role="alert" class="error">${error || ""}</p>
    <p><a href="#/">Back to the lobby</a></p>
  </section>`;
}
