// The REST interface (docs/server.md): one JSON request, one typed answer.
// A refusal resolves to {ok: false, status, code, message}; nothing throws on a 4xx.

export async function api(method, path, body) {
  const init = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let reply;
  try {
    reply = await fetch(path, init);
  } catch (err) {
    return { ok: false, status: 0, code: "network", message: "the server cannot be reached" };
  }
  let data = null;
  const text = await reply.text();
  if (text) {
    try { data = JSON.parse(text); } catch (err) { data = text; }
  }
  if (!reply.ok) {
    const detail = (data && data.detail) || {};
    const message = typeof detail === "string" ? detail
      : detail.message || (Array.isArray(detail) ? detail.map((d) => d.msg).join("; ") : reply.statusText);
    return { ok: false, status: reply.status, code: detail.code || `http/${reply.status}`, message };
  }
  return { ok: true, status: reply.status, data };
}

// The game's name in a game id ("maiterra/2" -> "maiterra"): the board module's file name.
export function gameName(gameId) {
  return String(gameId).split("/")[0];
}

// Seats: Okabe-Ito colours (colour-blind safe) and, as a second cue, a shape per seat.
export const SEAT_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"];
export const SEAT_MARKS = ["●", "▲", "■", "◆", "★", "✚"];

export function seatColour(seat) {
  return SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

export function seatMark(seat) {
  return SEAT_MARKS[seat % SEAT_MARKS.length];
}

// The name a seat goes by: its player's name, else "seat N".
export function seatName(players, seat) {
  const player = (players || []).find((p) => p.seat === seat);
  return player && player.name ? player.name : `seat ${seat}`;
}

// The team digit of a seat from a Maiterra-style `teams` option ("1122"), or null.
export function teamOf(options, seat) {
  const teams = options && options.teams;
  return typeof teams === "string" && teams.length > seat ? teams[seat] : null;
}

// A game's title from the /api/games list ("maiterra/2" -> "Maiterra").
export function gameTitle(games, gameId) {
  const found = (games || []).find((g) => g.id === gameId || g.name === gameId);
  if (found) return found.title || found.name;
  const name = gameName(gameId);
  return name.charAt(0).toUpperCase() + name.slice(1);
}

// Seconds as m:ss.
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The Okabe-Ito colour of a seat whose game names its seats by colour (Maiterra's Red,
// Blue, Green and Gold), so the shell and the board agree.
const NAMED = {
  red: "#D55E00", vermillion: "#D55E00", orange: "#E69F00", gold: "#E69F00", yellow: "#F0E442",
  green: "#009E73", blue: "#0072B2", sky: "#56B4E9", purple: "#CC79A7", pink: "#CC79A7", black: "#000000",
};

// The seat colours of a match: the board module's `seatColours` if it exports them, else the
// colours the game's view names its seats by, else the shell's own.
export function seatPalette(module, view) {
  if (module && Array.isArray(module.seatColours)) return module.seatColours;
  const rows = view && Array.isArray(view.seats) ? view.seats : [];
  return SEAT_COLOURS.map((colour, seat) => {
    const row = rows.find((r) => r && r.seat === seat);
    const name = row && typeof row.name === "string" ? row.name.toLowerCase() : "";
    return NAMED[name] || colour;
  });
}
