// The event log: one readable line per event, from the board module's describeEvent when it
// has one, else a generic line; notes from the page itself (the clock reached zero).

import { html, useEffect, useRef } from "./vendor/preact-htm.js";
import { SEAT_COLOURS, seatMark } from "./api.js";

// The shell's seat colours (api.js's SEAT_COLOURS) in words, for a board that names no sides.
const COLOUR_WORDS = ["Blue", "Orange", "Green", "Pink", "Yellow", "Sky"];

// What the board calls each seat (a colour, a tribe, a faction): the board module's
// seatSides(view) if it has one, else the names the game's view gives its seats, else the
// colours the shell draws them in.
export function seatSides(module, view) {
  if (module && typeof module.seatSides === "function") {
    try {
      const sides = module.seatSides(view || {});
      if (Array.isArray(sides) && sides.length) return sides.map(String);
    } catch (err) {
      // a board that cannot name its sides falls back to the view's names or the colours
    }
  }
  const rows = view && Array.isArray(view.seats) ? view.seats : [];
  return COLOUR_WORDS.map((colour, seat) => {
    const row = rows.find((r) => r && r.seat === seat);
    return row && typeof row.name === "string" && row.name ? row.name : colour;
  });
}

// A seat in a sentence: its side as the board shows it, then who plays it, so that no two
// seats read alike ("Red (heuristic bot)", "Balan (Ana)"); the side alone if nobody does.
export function seatLabel(players, seat, sides) {
  const side = (sides && sides[seat]) || `Seat ${Number(seat) + 1}`;
  const player = (players || []).find((p) => p && p.seat === seat);
  return player && player.name ? `${side} (${player.name})` : side;
}

function words(value) {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(words).join(", ");
  if (typeof value === "object") {
    return Object.entries(value).map(([k, v]) => `${k.replace(/_/g, " ")} ${words(v)}`).join(", ");
  }
  return String(value);
}

// A generic line: "Red (Ana): drafted field d1".
export function genericLine(event, { players, sides }) {
  if (event === null || typeof event !== "object") return String(event);
  const { kind, seat, audience, ...data } = event;
  const who = seat === null || seat === undefined ? "" : `${seatLabel(players, seat, sides)}: `;
  const detail = Object.entries(data).map(([k, v]) => `${k.replace(/_/g, " ")} ${words(v)}`).join(", ");
  return `${who}${String(kind || "event").replace(/_/g, " ")}${detail ? ` (${detail})` : ""}`;
}

export function describe(module, event, ctx) {
  if (module && typeof module.describeEvent === "function") {
    try {
      const line = module.describeEvent(event, ctx);
      if (line === null || line === undefined) return null;
      return String(line);
    } catch (err) {
      // a board's describeEvent that throws falls back to the generic line
    }
  }
  return genericLine(event, ctx);
}

// entries: [{version, events}] and [{note, kind}], oldest first. view: the match's view as
// the page shows it now, handed to describeEvent (a board may name pieces from it).
export function EventLog({ entries, module, players, seat, view = null, palette = SEAT_COLOURS }) {
  const list = useRef(null);
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [entries.length]);
  const ctx = { players: players || [], seat, view, sides: seatSides(module, view) };
  const lines = [];
  entries.forEach((entry, i) => {
    if (entry.note) {
      lines.push(html`<li key=${`n${i}`} class=${`note ${entry.kind || ""}`}>${entry.note}</li>`);
      return;
    }
    for (const [j, event] of (entry.events || []).entries()) {
      const text = describe(module, event, ctx);
      if (!text) continue;
      const who = event && typeof event === "object" && Number.isInteger(event.seat) ? event.seat : null;
      lines.push(html`<li key=${`${entry.version}-${j}`} data-version=${entry.version}>
        <span class="v" aria-hidden="true">${entry.version}</span>
        ${who !== null && html`<span class="mark" style=${`color:${palette[who % palette.length]}`} aria-hidden="true">${seatMark(who)}</span>`}
        ${text}</li>`);
    }
  });
  return html`<section class="panel log" aria-label="Event log">
    <h3>Event log</h3>
    <ol ref=${list} data-testid="event-log" aria-live="polite" aria-relevant="additions">
      ${lines.length ? lines : html`<li class="empty">Nothing has happened yet.</li>`}
    </ol>
  </section>`;
}
