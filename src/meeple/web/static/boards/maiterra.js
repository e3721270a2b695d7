// Maiterra's board: Lakeland's hex fields (terrain, lakes, owners, buildings, stacks), the
// house pick and the draft, this seat's sealed order queue, stores, cards, the bank and every
// seat's standing. Orders are built by clicking: a click on a field selects it (never queues
// anything), and its panel holds its orders as buttons. A march is its own act: a button
// with its notation, or "March on the map", whose target shows the order to queue before it
// is queued. A click that fits no legal order says why (locally, or by sending the notation
// and showing the server's reason). See docs/rules/maiterra.md and docs/notation.md#maiterra.

import { html, useState, useEffect, useMemo, useCallback, useRef } from "../vendor/preact-htm.js";
import { loadStylesheet } from "../styles.js";

// -- the look, loaded once ------------------------------------------------------------------

loadStylesheet(new URL("./maiterra.css", import.meta.url).href);

// Okabe-Ito colours by seat (Red, Blue, Green, Gold), each with a shape and a letter too.
const SEAT_COLOURS = ["#D55E00", "#0072B2", "#009E73", "#E69F00"];
// The shell colours its seat marks (players, event log) with these too.
export const seatColours = SEAT_COLOURS;
const SEAT_INK = ["#fff", "#fff", "#fff", "#1d1d1f"];
// The shapes follow the shell's seat marks (● ▲ ■ ◆); the colours follow the seats' names.
const SEAT_SHAPES = ["circle", "triangle", "square", "diamond"];
const SEAT_LETTERS = ["R", "B", "G", "O"];
const TRIBES = ["Red", "Blue", "Green", "Gold"];

const TERRAIN = {
  meadow: { fill: "#e3ecc4", slots: "2 farm slots", workers: ["farm"] },
  forest: { fill: "#bfd6ab", slots: "2 sawmill slots", workers: ["sawmill"] },
  clay: { fill: "#ecd3bd", slots: "2 brickworks slots", workers: ["brickworks"] },
  vale: { fill: "#e6e0cf", slots: "1 farm, 1 sawmill and 1 brickworks slot", workers: ["farm", "sawmill", "brickworks"] },
};
const WORKER_BUILDINGS = ["farm", "sawmill", "brickworks"];
const LAKE_FILL = "#a9cce6";

const BUILDINGS = ["farm", "sawmill", "brickworks", "house", "wall", "barracks", "science"];
const BUILDING_LETTERS = {
  farm: "F", sawmill: "S", brickworks: "B", house: "H", wall: "W", barracks: "K", science: "C",
};
const BUILDING_WORDS = { science: "science centre" };
// What the rules page lists (docs/rules/maiterra.md); the server checks the real numbers.
const BUILDING_COSTS = {
  farm: "1 idle person", sawmill: "1 idle person", brickworks: "1 idle person",
  house: "3 brick, 1 wood", wall: "2 brick, 2 wood", barracks: "3 brick, 1 coin",
  science: "3 brick, 2 coins",
};
const UNIT_COSTS = { soldier: "2 coins", cavalry: "1 wood, 4 coins" };
const RESOURCES = ["food", "wood", "brick", "coins"];
const HOUSES = {
  star: "Draws a card on each turn it comes off worse in a fight (one a turn).",
  tower: "May own 2 science centres (the others 1).",
  sun: "1 extra food each turn per 3 farms it owns.",
  moon: "Its cavalry defends at 2 (the others at 1).",
};
const CARDS = {
  speedup: "The army on one of your fields may go 2 fields this turn, soldiers too.",
  lucky_strike: "In each of your fights this turn, roll two dice and count the better.",
  rally: "This turn every field of yours defends as if it had a wall (+3).",
  sabotage: "Pick an enemy field: its buildings make nothing this turn.",
  prospect: "Gain 3 of a resource of your choice, at once.",
};
const PART_WORDS = {
  all: "the whole stack", soldiers: "its soldiers", cavalry: "its cavalry", one: "one soldier",
};

// -- the hex grid (odd rows pushed half a field right; docs/notation.md) -------------------

const FILES = "abcde";
const DIRECTIONS = ["E", "NE", "NW", "W", "SW", "SE"];
const EVEN_STEPS = [[1, 0], [0, -1], [-1, -1], [-1, 0], [-1, 1], [0, 1]];
const ODD_STEPS = [[1, 0], [1, -1], [0, -1], [-1, 0], [0, 1], [1, 1]];
const GRID = 5;

function cellOf(name) {
  if (typeof name !== "string" || name.length !== 2) return null;
  const col = FILES.indexOf(name[0]);
  const row = Number(name[1]) - 1;
  if (col < 0 || !(row >= 0 && row < GRID)) return null;
  return { col, row };
}

function stepFrom(name, direction) {
  const cell = cellOf(name);
  const d = DIRECTIONS.indexOf(direction);
  if (!cell || d < 0) return null;
  const [dc, dr] = (cell.row % 2 ? ODD_STEPS : EVEN_STEPS)[d];
  const col = cell.col + dc;
  const row = cell.row + dr;
  if (col < 0 || col >= GRID || row < 0 || row >= GRID) return null;
  return `${FILES[col]}${row + 1}`;
}

function pathEnd(name, path) {
  let at = name;
  for (const direction of String(path).split("-")) {
    at = at && stepFrom(at, direction);
  }
  return at;
}

function directionTo(from, to) {
  return DIRECTIONS.find((d) => stepFrom(from, d) === to) || null;
}

// -- the notation of the legal actions, taken apart ----------------------------------------

export function parseOrder(action) {
  const text = String(action.text || "");
  const words = text.trim().split(/\s+/);
  const verb = words[0];
  const base = { id: action.id, text, kind: verb };
  switch (verb) {
    case "house": return { ...base, house: words[1] };
    case "draft": case "claim": case "sell": return { ...base, field: words[1] };
    case "march": return {
      ...base, field: words[1], path: words[2], part: words[3] || "all",
      dest: pathEnd(words[1], words[2]),
    };
    case "pullback": return { ...base, field: words[1], path: words[2], dest: stepFrom(words[1], words[2]) };
    case "build": return { ...base, building: words[1], field: words[2] };
    case "train": return { ...base, unit: words[1], field: words[2] };
    case "trade": return { ...base, give: words[1], get: words[3] };
    case "play": {
      const card = words[1];
      if (card === "prospect") return { ...base, card, resource: words[2] };
      return { ...base, card, field: words[2] || null };
    }
    default: return base;
  }
}

// -- words ----------------------------------------------------------------------------------

function plural(count, one, many) {
  return `${count} ${count === 1 ? one : many || `${one}s`}`;
}

function unitsWords(units) {
  const [soldiers, cavalry] = Array.isArray(units) ? units : [0, 0];
  const parts = [];
  if (soldiers) parts.push(plural(soldiers, "soldier"));
  if (cavalry) parts.push(`${cavalry} cavalry`);
  return parts.join(" and ") || "nobody";
}

function tribeOf(seat) {
  return TRIBES[seat] || `Seat ${seat}`;
}

// The seat's colour, then who plays it ("Red (heuristic bot)", "Blue (you)"), so that no
// two seats read alike (the shell's seatLabel words them the same way).
function seatName(ctx, seat) {
  if (seat === null || seat === undefined) return "the table";
  const player = (ctx && ctx.players || []).find((p) => p && p.seat === seat);
  const who = ctx && ctx.seat === seat ? "you" : player && player.name ? String(player.name) : "";
  return who ? `${tribeOf(seat)} (${who})` : tribeOf(seat);
}

// What the board calls each seat: the shell names seats by these too.
export function seatSides() {
  return TRIBES;
}

function listWords(parts) {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

function amountWords(count, resource) {
  return resource === "coins" && count === 1 ? "1 coin" : `${count} ${resource}`;
}

function amountsWords(data) {
  return listWords(RESOURCES.filter((r) => data && data[r]).map((r) => amountWords(data[r], r))) || "nothing";
}

function lossesWords(ctx, losses) {
  const parts = Object.entries(losses || {})
    .filter(([, units]) => Array.isArray(units) && (units[0] || units[1]))
    .map(([seat, units]) => `${seatName(ctx, Number(seat))} ${unitsWords(units)}`);
  return listWords(parts) || "nothing";
}

function sidesWords(ctx, sides) {
  return (sides || []).map((side) => {
    const who = (side.seats || []).map((s) => seatName(ctx, Number(s))).join(" + ") || "the walls";
    const role = side.defender ? "defending" : "attacking";
    return `${who} ${side.total} (${role} at ${side.strength}, rolled ${side.roll})`;
  }).join(" vs ");
}

function cardWord(card) {
  return String(card || "card").replace(/_/g, " ");
}

function buildingWord(building) {
  return BUILDING_WORDS[building] || String(building);
}

function buildingsWords(count, building) {
  const word = buildingWord(building);
  if (count === 1 || word === "brickworks") return `${count} ${word}`;
  return `${count} ${word}s`;
}

// One readable line for each of the engine's events (resolve.py, fights.py, rules.py).
export function describeEvent(event, context = {}) {
  if (!event || typeof event !== "object") return event == null ? null : String(event);
  const ctx = { players: (context && context.players) || [] }; // names only, no "(you)"
  const who = seatName(ctx, event.seat);
  switch (event.kind) {
    case "house_locked": return `${who} locked in a house`;
    case "house_picked": return `${who} chose the house of the ${event.house}`;
    case "houses": return `Houses: ${(event.houses || []).map((h, s) => `${seatName(ctx, s)}: ${h}`).join(", ")}`;
    case "draft_order": {
      const rolls = (event.rolls || []).map((r, s) => `${seatName(ctx, s)} ${(r || []).join(", then ")}`);
      const order = (event.order || []).map((s) => seatName(ctx, s)).join(", ");
      return `Draft rolls: ${rolls.join("; ")}. Picks: ${order}`;
    }
    case "drafted": return `${who} drafted ${event.field}`;
    case "draft_stores": return `${who}, first in the draft, gets ${amountsWords(event.stores)}`;
    case "turn": return `Turn ${event.turn} begins: everyone plans at once`;
    case "queued": return `${who} queued ${event.order} (order ${event.queued})`;
    case "taken_back": return `${who} took back ${event.order} (${plural(event.queued, "order")} left)`;
    case "turn_ended": return `${who} ended the turn`;
    case "resolve": return `Turn ${event.turn} resolves`;
    case "orders": return (event.orders || []).length
      ? `${who} ordered: ${event.orders.join(", ")}` : `${who} passed`;
    case "order_failed": return `${who} could not pay for ${event.order}`;
    case "marched": return `${who} marched ${unitsWords(event.units)} from ${event.from} to ${event.to}`;
    case "pulled_back": return `${who} pulled ${unitsWords(event.units)} back from ${event.from} to ${event.to}`;
    case "road_fight": {
      const winners = (event.winner || []).map((s) => seatName(ctx, s));
      const edge = (event.edge || []).join("–");
      return `Road fight between ${edge}: ${sidesWords(ctx, event.sides)}; ${listWords(winners) || "nobody"} won`
        + ` (lost ${lossesWords(ctx, event.winner_lost)}); the losers lost ${lossesWords(ctx, event.loser_lost)} and turned back`;
    }
    case "fight": {
      const winners = (event.winner || []).filter((s) => s !== null && s !== undefined);
      const names = listWords(winners.map((s) => seatName(ctx, s))) || "the walls";
      return `Fight on ${event.field}: ${sidesWords(ctx, event.sides)}; ${names} won, losing ${lossesWords(ctx, event.winner_lost)}`;
    }
    case "breach": return `The wall on ${event.field} was broken`;
    case "conquest": {
      const razed = Object.entries(event.razed || {}).map(([b, n]) => buildingsWords(n, b));
      const from = event.from === null || event.from === undefined ? "" : ` from ${seatName(ctx, event.from)}`;
      return `${who} took ${event.field}${from}${razed.length ? `, razing ${listWords(razed)}` : ""}`;
    }
    case "claimed": return `${who} claimed ${event.field}`;
    case "claim_failed": return `${who}'s claim on ${event.field} failed (wood and coin refunded)`;
    case "built": return `${who} built a ${buildingWord(event.building)} on ${event.field}`;
    case "build_failed": return `${who}'s ${buildingWord(event.building)} on ${event.field} was not built (refunded)`;
    case "trained": return `${who} trained a ${event.unit} on ${event.field}`;
    case "train_failed": return `${who}'s ${event.unit} on ${event.field} was not trained (refunded)`;
    case "sabotaged": return `${who}'s buildings on ${event.field} were sabotaged and made nothing`;
    case "produced": return `${who} produced ${amountsWords(event)}`;
    case "bank": return `${who} got ${amountsWords(event)} from the bank`;
    case "starvation": {
      const dead = (event.killed || []).map(([field, unit]) => `a ${unit} on ${field}`);
      return `${who} was ${event.missing} food short and lost ${listWords(dead) || "nobody"}`;
    }
    case "card": return `${who} drew ${cardWord(event.card)}`;
    case "cards_drawn": return `${who} drew ${plural(event.drawn, "card")} and kept ${event.kept}`;
    case "game_over": {
      const winners = (event.winners || []).map((s) => seatName(ctx, s));
      return `Game over: ${listWords(winners) || "nobody"} won (${String(event.reason || "").replace(/_/g, " ")})`;
    }
    default: {
      const kind = String(event.kind || event.type || "event").replace(/_/g, " ");
      const fields = Object.entries(event)
        .filter(([k, v]) => !["kind", "seat", "audience", "type"].includes(k) && (typeof v !== "object" || v === null))
        .map(([k, v]) => `${k} ${v}`);
      return `${event.seat !== null && event.seat !== undefined ? `${who}: ` : ""}${kind}${fields.length ? ` (${fields.join(", ")})` : ""}`;
    }
  }
}

// -- drawing pieces ---------------------------------------------------------------------------

const R = 54; // a hex's corner radius
const W = Math.sqrt(3) * R;
const PAD = 10;

function centre(name) {
  const { col, row } = cellOf(name);
  return { x: PAD + W / 2 + col * W + (row % 2 ? W / 2 : 0), y: PAD + R + row * 1.5 * R };
}

function hexPoints(x, y, r) {
  const points = [];
  for (let k = 0; k < 6; k++) {
    const angle = (Math.PI / 180) * (60 * k - 90);
    points.push(`${(x + r * Math.cos(angle)).toFixed(1)},${(y + r * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(" ");
}

function SeatShape({ seat, x, y, size, filled = true, label }) {
  const colour = SEAT_COLOURS[seat % 4] || "#000";
  const fill = filled ? colour : "#fff";
  const stroke = filled ? "#1d1d1f" : colour;
  const sw = filled ? 0.8 : 2.2;
  const s = size / 2;
  const shape = SEAT_SHAPES[seat % 4];
  let body;
  if (shape === "circle") body = html`<circle cx=${x} cy=${y} r=${s} fill=${fill} stroke=${stroke} stroke-width=${sw} />`;
  else if (shape === "square") body = html`<rect x=${x - s * 0.9} y=${y - s * 0.9} width=${s * 1.8} height=${s * 1.8} rx="2" fill=${fill} stroke=${stroke} stroke-width=${sw} />`;
  else if (shape === "triangle") body = html`<polygon points=${`${x},${y - s * 1.15} ${x + s * 1.1},${y + s * 0.8} ${x - s * 1.1},${y + s * 0.8}`} fill=${fill} stroke=${stroke} stroke-width=${sw} />`;
  else body = html`<polygon points=${`${x},${y - s * 1.1} ${x + s * 1.1},${y} ${x},${y + s * 1.1} ${x - s * 1.1},${y}`} fill=${fill} stroke=${stroke} stroke-width=${sw} />`;
  const ink = filled ? SEAT_INK[seat % 4] : "#1d1d1f";
  const dy = shape === "triangle" ? size * 0.16 : 0;
  return html`<g>${body}${label !== undefined && html`<text x=${x} y=${y + dy} class="mt-shape-text"
    fill=${ink} font-size=${size * 0.58}>${label}</text>`}</g>`;
}

// A small mark for the HTML panels: the seat's shape in its colour, with its letter.
function SeatMark({ seat }) {
  return html`<svg class="mt-mark" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
    <${SeatShape} seat=${seat} x=${10} y=${10.5} size=${16} label=${SEAT_LETTERS[seat % 4]} /></svg>`;
}

function Patterns() {
  return html`<defs>
    <pattern id="mt-meadow" width="14" height="12" patternUnits="userSpaceOnUse">
      <path d="M3 9 l1.5 -4 M6 9 l0 -4.5 M9 9 l-1.5 -4" stroke="#8fae5f" stroke-width="0.9" fill="none" opacity="0.55" /></pattern>
    <pattern id="mt-forest" width="16" height="16" patternUnits="userSpaceOnUse">
      <path d="M8 3 l4 7 h-8 z" fill="#7fa56a" opacity="0.45" /><path d="M8 10 v3" stroke="#6c7d4a" opacity="0.5" /></pattern>
    <pattern id="mt-clay" width="14" height="8" patternUnits="userSpaceOnUse">
      <path d="M0 0.5 h14 M0 4.5 h14 M4 0.5 v4 M11 4.5 v4" stroke="#c9957a" stroke-width="0.8" fill="none" opacity="0.5" /></pattern>
    <pattern id="mt-vale" width="18" height="14" patternUnits="userSpaceOnUse">
      <circle cx="4" cy="4" r="1.3" fill="#9ba36b" opacity="0.5" /><path d="M10 11 q3 -3 6 0" stroke="#a48a6e" fill="none" stroke-width="0.9" opacity="0.55" /></pattern>
    <pattern id="mt-lake" width="22" height="12" patternUnits="userSpaceOnUse">
      <path d="M2 7 q3 -3 6 0 t6 0" stroke="#6fa3cc" fill="none" stroke-width="1.1" /></pattern>
  </defs>`;
}

function fieldLabel(field, players, seat) {
  const ctx = { players, seat };
  const parts = [`${field.field}, ${field.terrain}`];
  parts.push(field.owner === null || field.owner === undefined ? "nobody's" : `${seatName(ctx, field.owner)}'s field`);
  const built = Object.entries(field.buildings || {}).map(([b, n]) => buildingsWords(n, b));
  if (built.length) parts.push(listWords(built));
  for (const [s, units] of Object.entries(field.armies || {})) {
    parts.push(`${seatName(ctx, Number(s))}: ${unitsWords(units)}`);
  }
  return parts.join("; ");
}

function Field({ field, players, seat, mode, hint, fought, onActivate, onHover }) {
  const { x, y } = centre(field.field);
  const owner = field.owner;
  const armies = Object.entries(field.armies || {});
  const built = BUILDINGS.filter((b) => (field.buildings || {})[b]);
  const walled = (field.buildings || {}).wall > 0;
  const label = fieldLabel(field, players, seat) + (hint ? `. ${hint}` : "");
  const key = (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onActivate(field.field);
    }
  };
  const tokenWidth = 40;
  const startX = x - ((armies.length - 1) * tokenWidth) / 2;
  const chipW = built.length > 4 ? 15 : 17;
  const chipsX = x - (built.length * chipW) / 2;
  return html`<g class=${`mt-field mt-${mode || "plain"}`} data-field=${field.field} data-mode=${mode || "plain"}
      data-owner=${owner === null || owner === undefined ? "" : owner} tabindex="0" role="button" aria-label=${label}
      onClick=${() => onActivate(field.field)} onKeyDown=${key}
      onMouseEnter=${() => onHover(field.field)} onMouseLeave=${() => onHover(null)}
      onFocus=${() => onHover(field.field)} onBlur=${() => onHover(null)}>
    <title>${label}</title>
    <polygon points=${hexPoints(x, y, R - 1)} fill=${(TERRAIN[field.terrain] || {}).fill || "#eee"} class="mt-hex" />
    <polygon points=${hexPoints(x, y, R - 1)} fill=${`url(#mt-${field.terrain})`} class="mt-texture" />
    ${walled && html`<polygon points=${hexPoints(x, y, R - 4)} class="mt-wall" />`}
    ${owner !== null && owner !== undefined && html`<polygon points=${hexPoints(x, y, R - (walled ? 9 : 5))}
      fill="none" stroke=${SEAT_COLOURS[owner % 4]} stroke-width="5" class="mt-owned" />`}
    <text x=${x - (owner !== null && owner !== undefined ? 8 : 0)} y=${y - 27} class="mt-name">${field.field}</text>
    ${owner !== null && owner !== undefined && html`<${SeatShape} seat=${owner} x=${x + 14} y=${y - 31} size=${15}
      label=${SEAT_LETTERS[owner % 4]} />`}
    ${armies.map(([s, units], i) => {
      const sx = startX + i * tokenWidth;
      const [soldiers, cavalry] = units;
      const both = soldiers && cavalry;
      return html`<g class="mt-army" data-seat=${s}>
        ${soldiers > 0 && html`<${SeatShape} seat=${Number(s)} x=${both ? sx - 9 : sx} y=${y - 3} size=${19} label=${soldiers} />`}
        ${cavalry > 0 && html`<${SeatShape} seat=${Number(s)} x=${both ? sx + 10 : sx} y=${y - 3} size=${19} filled=${false} label=${cavalry} />`}
      </g>`;
    })}
    ${built.map((b, i) => html`<g class="mt-chip">
      <rect x=${chipsX + i * chipW + 1} y=${y + 10} width=${chipW - 2} height="14" rx="3" class=${`mt-chip-${b}`} />
      <text x=${chipsX + i * chipW + chipW / 2} y=${y + 17.5} class="mt-chip-text">${BUILDING_LETTERS[b]}${field.buildings[b] > 1 ? field.buildings[b] : ""}</text>
    </g>`)}
    <text x=${x} y=${y + 36} class="mt-terrain">${field.terrain}</text>
    ${fought && html`<g class="mt-fought" aria-hidden="true">
      <circle cx=${x + 30} cy=${y - 12} r="9" /><path d=${`M${x + 25} ${y - 17} l10 10 M${x + 35} ${y - 17} l-10 10`} />
    </g>`}
    ${mode && mode !== "plain" && html`<polygon points=${hexPoints(x, y, R - 3)} class="mt-ring" />`}
  </g>`;
}

function Lake({ name, mode, hint, onActivate, onHover }) {
  const { x, y } = centre(name);
  const label = `${name}, a lake${hint ? `. ${hint}` : ""}`;
  return html`<g class=${`mt-lake mt-${mode || "plain"}`} data-field=${name} data-mode=${mode || "plain"}
      onClick=${() => onActivate(name)} onMouseEnter=${() => onHover(name)} onMouseLeave=${() => onHover(null)}
      aria-label=${label}>
    <title>${label}</title>
    <polygon points=${hexPoints(x, y, R - 1)} fill=${LAKE_FILL} class="mt-hex" />
    <polygon points=${hexPoints(x, y, R - 1)} fill="url(#mt-lake)" />
    <text x=${x} y=${y + 4} class="mt-lake-name">${name}</text>
  </g>`;
}

// -- the board --------------------------------------------------------------------------------

export default function Board(props) {
  const { view, legal = [], deciding = [], players = [], events = [], outcome, readonly } = props;
  const seat = props.seat === undefined ? null : props.seat;
  const submit = props.submit;
  const [selected, setSelected] = useState(null);
  const [part, setPart] = useState("all");
  // {type: "card", card} | {type: "prospect"} | {type: "march"} (picking a march's target on
  // the map) | {type: "choose", to, options} (the target's orders, shown before one is queued)
  const [pending, setPending] = useState(null);
  const [hover, setHover] = useState(null);
  const [note, setNote] = useState(null); // {text, kind}
  const [busy, setBusy] = useState(false);

  const [fought, setFought] = useState({ turn: null, fields: [], lines: [] });
  const orders = useMemo(() => (legal || []).map(parseOrder), [legal]);

  // The fields fought over when a turn resolved stay marked while the next one is planned.
  useEffect(() => {
    const list = Array.isArray(events) ? events : [];
    const resolved = list.find((e) => e && e.kind === "resolve");
    if (!resolved) return;
    const fields = new Set();
    for (const event of list) {
      if (event && (event.kind === "fight" || event.kind === "conquest")) fields.add(event.field);
      if (event && event.kind === "road_fight") (event.edge || []).forEach((f) => fields.add(f));
    }
    const kinds = ["road_fight", "fight", "breach", "conquest", "claimed", "claim_failed", "order_failed",
      "build_failed", "train_failed", "sabotaged", "starvation", "cards_drawn"];
    const lines = list.filter((e) => e && kinds.includes(e.kind));
    setFought({ turn: resolved.turn, fields: [...fields], lines });
  }, [events]);
  const phase = view && view.phase;
  const turn = view && view.turn;

  // A new turn or phase drops what was half chosen.
  useEffect(() => {
    setSelected(null);
    setPending(null);
    setPart("all");
  }, [phase, turn]);

  const cancel = useCallback(() => {
    setPending(null);
    setSelected(null);
    setNote(null);
  }, []);

  useEffect(() => {
    const onKey = (event) => {
      if (event.key === "Escape") cancel();
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, [cancel]);

  if (!view || !Array.isArray(view.board)) return html`<div class="mt"><p>Waiting for the table…</p></div>`;

  const ctx = { players, seat };
  const fields = new Map(view.board.map((f) => [f.field, f]));
  const rows = Math.max(4, ...view.board.map((f) => cellOf(f.field).row + 1));
  const lakes = [];
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < GRID; col++) {
      const name = `${FILES[col]}${row + 1}`;
      if (!fields.has(name)) lakes.push(name);
    }
  }
  const me = seat === null ? null : (view.seats || [])[seat] || null;
  const deciding_me = seat !== null && deciding.includes(seat);
  const queue = view.queue || [];
  const hand = (me && me.hand) || [];
  const foughtNow = new Set(fought.turn !== null && (turn === fought.turn + 1 || phase === "over") ? fought.fields : []);

  const tell = (text, kind = "info") => setNote({ text, kind });

  const play = async (order) => {
    const what = typeof order === "string" ? order : order.text;
    if (readonly) {
      tell(`You are watching this match: ${what} is not sent.`, "error");
      return;
    }
    if (busy) return;
    setBusy(true);
    let result;
    try {
      result = await submit(typeof order === "string" ? order : order.id);
    } catch (error) {
      result = { ok: false, message: String(error && error.message || error) };
    }
    setBusy(false);
    if (result && result.ok) {
      setPending(null);
      const kind = typeof order === "string" ? order.split(" ")[0] : order.kind;
      if (kind === "march" || kind === "pullback" || kind === "sell" || kind === "end") setSelected(null);
      const last = queue[queue.length - 1];
      tell(kind === "end" ? "Turn ended." : kind === "takeback" ? `Took back: ${last}` : `Played: ${what}`);
    } else {
      // The server's message names the seat, the id and the notation; the reason is the rest.
      const message = String((result && result.message) || "refused")
        .replace(/^seat \d+, action \d+: '[^']*' is not legal now: /, "");
      tell(`${what}: ${message}`, "error");
    }
  };

  // Tries a notation that is not among the legal orders: the server says why.
  const explain = (text) => play(text);

  const marchesFrom = (from) => orders.filter((o) => (o.kind === "march" || o.kind === "pullback") && o.field === from);
  const stackParts = (from) => {
    const parts = new Set(marchesFrom(from).filter((o) => o.kind === "march").map((o) => o.part));
    return ["all", "soldiers", "cavalry", "one"].filter((p) => parts.has(p));
  };
  const activePart = selected && stackParts(selected).includes(part) ? part : "all";
  const targetsFrom = (from) => {
    const map = new Map();
    for (const o of marchesFrom(from)) {
      if (o.kind === "march" && o.part !== activePart) continue;
      if (o.kind === "pullback" && activePart !== "all") continue;
      if (!o.dest) continue;
      if (!map.has(o.dest)) map.set(o.dest, []);
      map.get(o.dest).push(o);
    }
    return map;
  };
  const fieldOrders = (name) => orders.filter((o) => o.field === name && !["march", "pullback", "draft"].includes(o.kind));

  const cardTargets = pending && pending.type === "card"
    ? new Map(orders.filter((o) => o.kind === "play" && o.card === pending.card && o.field).map((o) => [o.field, o]))
    : null;
  const marching = Boolean(pending && (pending.type === "march" || pending.type === "choose"));
  const marchTargets = selected && phase === "plan" && marching ? targetsFrom(selected) : new Map();
  const drafts = new Map(orders.filter((o) => o.kind === "draft").map((o) => [o.field, o]));

  const modeOf = (name) => {
    if (cardTargets) return cardTargets.has(name) ? "target" : null;
    if (phase === "draft") return drafts.has(name) ? "target" : null;
    if (selected === name) return "selected";
    if (marching) return marchTargets.has(name) ? "target" : null;
    if (phase === "plan" && (marchesFrom(name).length || fieldOrders(name).length)) return "active";
    return null;
  };

  const hintOf = (name) => {
    if (cardTargets && cardTargets.has(name)) return `click: ${cardTargets.get(name).text}`;
    if (phase === "draft" && drafts.has(name)) return `click: ${drafts.get(name).text}`;
    if (marchTargets.has(name)) return `march target: ${marchTargets.get(name).map((o) => o.text).join(" or ")}`;
    if (selected === name) return "selected; click again to let go";
    if (phase === "plan" && (marchesFrom(name).length || fieldOrders(name).length)) return "click to select it and see its orders";
    return "";
  };

  // The confirmation's "select it instead": a field of yours is selected, never marched to by a click.
  const selectable = (name) => {
    const field = fields.get(name);
    return Boolean(field && (field.owner === seat || marchesFrom(name).length || fieldOrders(name).length));
  };
  const selectInstead = (name) => {
    setPending(null);
    setSelected(name);
    setNote(null);
  };
  const setMarching = (on) => {
    setPending(on ? { type: "march" } : null);
    if (on) tell(`March from ${selected}: click a dashed field on the map, then check the order (Escape cancels).`);
    else setNote(null);
  };

  const whoDecides = () => listWords(deciding.filter((s) => s !== seat).map((s) => seatName(ctx, s))) || "nobody";

  const activate = (name) => {
    const field = fields.get(name) || null;
    if (readonly) {
      setSelected(field && phase === "plan" ? name : null);
      return tell(`${field ? fieldLabel(field, players, seat) : `${name}, a lake`}. You are watching: clicks send nothing.`);
    }
    if (phase === "over") {
      setSelected(null);
      return tell(`The match is over. ${field ? fieldLabel(field, players, seat) : `${name} is a lake`}.`);
    }
    if (phase === "houses") return tell("First every seat picks a house: choose one in the House panel.", "error");
    if (phase === "draft") {
      if (drafts.has(name)) return play(drafts.get(name));
      if (!deciding_me) return tell(`Not your pick: ${whoDecides()} drafts now.`, "error");
      return explain(`draft ${name}`);
    }
    // plan
    if (!deciding_me) {
      const ended = me && me.ended;
      setSelected(field ? name : null);
      return tell(ended ? `You have ended this turn; waiting for ${whoDecides()}.` : "You do not decide now.", "error");
    }
    if (cardTargets) {
      if (cardTargets.has(name)) return play(cardTargets.get(name));
      return explain(`play ${pending.card} ${name}`);
    }
    // Picking a march's target: a click shows the order(s) it would queue; nothing is queued
    // until one of them is pressed.
    if (marching && selected && selected !== name) {
      const options = marchTargets.get(name) || [];
      if (options.length) {
        setPending({ type: "choose", to: name, options });
        return tell(`March from ${selected} to ${name}: press ${options.length > 1 ? "one of " : ""}`
          + `${options.map((o) => o.text).join(" or ")} to queue it (Escape cancels).`);
      }
      if (selectable(name)) return selectInstead(name);
      const direction = directionTo(selected, name);
      if (direction) return explain(`march ${selected} ${direction}${activePart === "all" ? "" : ` ${activePart}`}`);
      if (!field) return tell(`${name} is a lake: nobody stands on it or marches across it.`, "error");
      return tell(`${name} is out of reach from ${selected}: a stack marches 1 field (cavalry 2).`, "error");
    }
    if (selected === name) {
      setSelected(null);
      setPending(null);
      return setNote(null);
    }
    if (!field) return tell(`${name} is a lake: nobody stands on it or marches across it.`, "error");
    setSelected(name);
    setPending(null);
    if (!marchesFrom(name).length && !fieldOrders(name).length) {
      const mine = field.owner === seat;
      const why = mine
        ? "your stores or your queue do not allow more here (build, train and sell buttons say why)"
        : field.owner === null ? "to claim it, a soldier of yours must be able to stand on it" : "it is not your field and you have no stack on it";
      return tell(`No order fits ${name} now: ${why}.`, "error");
    }
    return setNote(null);
  };

  // -- what will be played (shown beside the map) --------------------------------------------
  let preview = null;
  if (hover) {
    if (cardTargets && cardTargets.has(hover)) preview = cardTargets.get(hover).text;
    else if (phase === "draft" && drafts.has(hover)) preview = drafts.get(hover).text;
    else if (marchTargets.has(hover)) preview = marchTargets.get(hover).map((o) => o.text).join("  or  ");
  }

  const width = PAD * 2 + W * 5.5;
  const height = PAD * 2 + 2 * R + (rows - 1) * 1.5 * R;

  const svg = html`<svg class="mt-map" viewBox=${`0 0 ${width.toFixed(0)} ${height.toFixed(0)}`}
      role="group" aria-label="Lakeland" data-testid="maiterra-map">
    <${Patterns} />
    ${lakes.map((name) => html`<${Lake} key=${name} name=${name} mode=${modeOf(name)} hint=${hintOf(name)}
      onActivate=${activate} onHover=${setHover} />`)}
    ${view.board.map((field) => html`<${Field} key=${field.field} field=${field} players=${players} seat=${seat}
      mode=${modeOf(field.field)} hint=${hintOf(field.field)} fought=${foughtNow.has(field.field)}
      onActivate=${activate} onHover=${setHover} />`)}
  </svg>`;

  return html`<div class="mt" data-phase=${phase} data-version=${props.version} data-turn=${turn}>
    <${Headline} view=${view} ctx=${ctx} deciding=${deciding} outcome=${outcome} />
    <div class="mt-main">
      <div class="mt-mapcol">
        ${svg}
        <p class=${`mt-note ${note ? note.kind : ""}`} role="status" aria-live="polite" data-testid="maiterra-note">
          ${preview ? html`Will play: <code>${preview}</code>` : note ? note.text : "\u00a0"}</p>
      </div>
      <div class="mt-panels">
        ${phase === "houses" && html`<${HousePanel} view=${view} me=${me} orders=${orders} play=${play} ctx=${ctx} readonly=${readonly} />`}
        ${phase === "over" && html`<${OutcomePanel} view=${view} ctx=${ctx} outcome=${outcome || view.outcome} />`}
        ${phase === "draft" && html`<${DraftPanel} view=${view} ctx=${ctx} deciding_me=${deciding_me} />`}
        ${phase === "plan" && seat !== null && html`<${OrdersPanel} view=${view} queue=${queue} orders=${orders}
          deciding_me=${deciding_me} me=${me} whoDecides=${whoDecides} play=${play} pending=${pending}
          cancel=${cancel}
          selectInstead=${pending && pending.type === "choose" && selectable(pending.to) ? selectInstead : null} busy=${busy} readonly=${readonly} />`}
        ${phase === "plan" && selected && html`<${FieldPanel} field=${fields.get(selected)} name=${selected}
          ctx=${ctx} seat=${seat} orders=${fieldOrders(selected)} marches=${marchesFrom(selected)}
          parts=${stackParts(selected)} part=${activePart} setPart=${setPart} targets=${targetsFrom(selected)}
          marching=${marching} setMarching=${setMarching}
          play=${play} explain=${explain} deciding_me=${deciding_me} cancel=${cancel} />`}
        ${phase === "plan" && me && html`<${CardsPanel} hand=${hand} orders=${orders} pending=${pending}
          setPending=${setPending} play=${play} tell=${tell} deciding_me=${deciding_me} />`}
        ${phase === "plan" && me && html`<${BankPanel} me=${me} orders=${orders} play=${play} explain=${explain}
          deciding_me=${deciding_me} />`}
      </div>
      <div class="mt-below">
        ${fought.turn !== null && (turn === fought.turn + 1 || phase === "over") && html`
          <${LastTurnPanel} turn=${fought.turn} lines=${fought.lines || []} ctx=${ctx} />`}
        <${SeatsPanel} view=${view} ctx=${ctx} deciding=${deciding} />
        <${Legend} seats=${view.seats || []} ctx=${ctx} />
      </div>
    </div>
  </div>`;
}

// -- panels -----------------------------------------------------------------------------------

function Headline({ view, ctx, deciding, outcome }) {
  const sides = view.sides || [];
  const seen = [];
  for (const side of sides) if (!seen.includes(side)) seen.push(side);
  let head;
  const over = outcome || view.outcome;
  if (view.phase === "over" || over) {
    const winners = ((over && over.winners) || []).map((s) => seatName(ctx, s));
    const reason = String((over && over.reason) || "").replace(/_/g, " ");
    head = `Over after turn ${view.turn}: ${listWords(winners) || "nobody"} won${reason ? ` (${reason})` : ""}`;
  } else if (view.phase === "plan") {
    head = `Turn ${view.turn} of ${view.turn_limit} · everyone plans at once`;
  } else if (view.phase === "draft") {
    const next = (view.draft_order || [])[0];
    head = `Draft · ${next === undefined ? "" : `${seatName(ctx, next)} picks a field`}`;
  } else {
    head = "Every seat picks a house";
  }
  return html`<div class="mt-head">
    <h3 class="mt-title" data-testid="maiterra-headline">${head}</h3>
    <div class="mt-score" aria-label="Points against the target">
      ${seen.map((side) => {
        const members = sides.map((s, i) => (s === side ? i : -1)).filter((i) => i >= 0);
        const points = (view.side_points || {})[String(side)] || 0;
        const target = (view.targets || {})[String(side)] || 1;
        const pct = Math.min(100, (100 * points) / target);
        return html`<div class="mt-scorebar" title=${`${points} of ${target} points`}>
          <span class="mt-scorewho">${members.map((m) => html`<${SeatMark} seat=${m} />`)}
            ${members.map((m) => seatName(ctx, m)).join(" + ")}</span>
          <span class="mt-bar"><span style=${`width:${pct}%;background:${SEAT_COLOURS[side % 4]}`}></span></span>
          <span class="mt-points"><b>${points}</b> / ${target}</span>
        </div>`;
      })}
    </div>
  </div>`;
}

function Legend({ seats, ctx }) {
  return html`<details class="mt-legend">
    <summary>Key to the map</summary>
    <ul>
      ${seats.map((row) => html`<li><${SeatMark} seat=${row.seat} /> ${seatName(ctx, row.seat)}: a ring round the fields it owns</li>`)}
      <li><svg class="mt-mark" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><${SeatShape} seat=${0} x=${10} y=${10} size=${16} label="3" /></svg>
        soldiers (filled) · <svg class="mt-mark" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><${SeatShape} seat=${0} x=${10} y=${10} size=${16} filled=${false} label="1" /></svg> cavalry (hollow)</li>
      <li>${BUILDINGS.map((b) => `${BUILDING_LETTERS[b]} ${buildingWord(b)}`).join(" · ")}; a grey double edge is a wall</li>
      <li>Terrain, also by its pattern: meadow (grass, farms), forest (trees, sawmills), clay (bricks, brickworks),
        vale (one slot of each); blue waves: a lake, which nobody crosses</li>
      <li>Dashed ring: a field you can click now; ✕ in a circle: fought over or taken last turn</li>
    </ul>
  </details>`;
}

function HousePanel({ view, me, orders, play, ctx, readonly }) {
  const picks = new Map(orders.filter((o) => o.kind === "house").map((o) => [o.house, o]));
  const waiting = (view.seats || []).filter((row) => !row.house_locked).map((row) => seatName(ctx, row.seat));
  return html`<section class="mt-panel" aria-label="House">
    <h4>Choose your house</h4>
    ${me && me.house ? html`<p>You chose the house of the <b>${me.house}</b>. Still choosing: ${listWords(waiting) || "nobody"}.</p>`
      : html`<p class="mt-small">Every seat chooses at once; a choice stays hidden until all have locked one in.</p>`}
    <div class="mt-houses">
      ${Object.entries(HOUSES).map(([house, perk]) => {
        const order = picks.get(house);
        return html`<button class="mt-house" data-house=${house} disabled=${!order || readonly}
          onClick=${() => order && play(order)} aria-label=${`house ${house}: ${perk}`}>
          <b>${house[0].toUpperCase() + house.slice(1)}</b><span>${perk}</span></button>`;
      })}
    </div>
  </section>`;
}

function OutcomePanel({ view, ctx, outcome }) {
  const winners = (outcome && outcome.winners) || [];
  const reasons = {
    majority: "held more than half the land",
    last_holding_land: "was the last one holding land",
    turn_limit: "had the most points after the last turn",
  };
  const reason = outcome && outcome.reason;
  return html`<section class="mt-panel" aria-label="Result" data-testid="maiterra-result">
    <h4>${winners.length ? `${listWords(winners.map((s) => seatName(ctx, s)))} won` : "Nobody won"}</h4>
    ${reason && html`<p>${winners.length === 1 ? "It" : "They"} ${reasons[reason] || String(reason).replace(/_/g, " ")}${" "}after turn ${view.turn}.</p>`}
    <ul class="mt-final">${(view.seats || []).map((row) => html`<li>
      <${SeatMark} seat=${row.seat} /> ${seatName(ctx, row.seat)}: <b>${row.points}</b> points,${" "}${plural(row.fields, "field")}${winners.includes(row.seat) ? " · winner" : ""}</li>`)}</ul>
  </section>`;
}

function DraftPanel({ view, ctx, deciding_me }) {
  const order = view.draft_order || [];
  return html`<section class="mt-panel" aria-label="Draft">
    <h4>Draft</h4>
    <p>${deciding_me ? html`<b>Your pick:</b> click a free field (dashed ring) on the map. It starts with one soldier of yours.`
      : `Waiting for ${seatName(ctx, order[0])} to pick.`}</p>
    <p class="mt-small">Picks to come: ${order.map((s) => seatName(ctx, s)).join(", ") || "none"}</p>
  </section>`;
}

function OrdersPanel({ view, queue, orders, deciding_me, me, whoDecides, play, pending, cancel, selectInstead, busy, readonly }) {
  const end = orders.find((o) => o.kind === "end");
  // Until the turn is ended the last queued order may be taken back (rules version 3 on).
  const takeBack = queue.length ? orders.find((o) => o.kind === "takeback") : null;
  const chooser = useRef(null);
  // A choice between several orders takes the keyboard's focus (Escape cancels it).
  useEffect(() => {
    const first = chooser.current && chooser.current.querySelector("button");
    if (first) first.focus();
  }, [pending]);
  return html`<section class="mt-panel" aria-label="Your orders">
    <h4>Your orders <span class="mt-count" data-testid="maiterra-queue-count">${queue.length} / ${view.max_orders}</span></h4>
    ${queue.length ? html`<ol class="mt-queue" data-testid="maiterra-queue">${queue.map((q) => html`<li><code>${q}</code></li>`)}</ol>`
      : html`<p class="mt-small" data-testid="maiterra-queue">No orders yet: click a field of yours, then one of its orders.</p>`}
    <p class="mt-small">Nobody else sees your orders; they resolve when every seat has ended the turn.</p>
    ${takeBack && html`<button class="mt-takeback" data-testid="maiterra-take-back" disabled=${busy || readonly}
        onClick=${() => play(takeBack)} aria-label=${`Take back your last order: ${queue[queue.length - 1]}`}>
      Take back <code>${queue[queue.length - 1]}</code></button>`}
    ${pending && pending.type === "choose" && html`<div class="mt-choose" role="group" aria-label="Queue this order?" ref=${chooser}
        data-testid="maiterra-confirm">
      <p>To ${pending.to}: queue this order?</p>
      ${pending.options.map((o) => html`<button data-order=${o.text} onClick=${() => play(o)}>Queue <code>${o.text}</code>
        <span class="mt-small">${o.kind === "pullback" ? " pull back (1 wood, moves first, never caught on the road)" : ""}</span></button>`)}
      ${selectInstead && html`<button class="mt-quiet" data-select=${pending.to} onClick=${() => selectInstead(pending.to)}>Select ${pending.to} instead</button>`}
      <button class="mt-quiet" onClick=${cancel}>Cancel (Esc)</button>
    </div>`}
    ${deciding_me ? html`<button class="mt-end" disabled=${!end || busy || readonly} onClick=${() => end && play(end)}
        data-testid="maiterra-end">End turn ${view.turn}</button>`
      : html`<p class="mt-waiting">${me && me.ended ? `You have ended turn ${view.turn}; waiting for ${whoDecides()}.` : "You do not decide now."}</p>`}
  </section>`;
}

function FieldPanel({ field, name, ctx, seat, orders, marches, parts, part, setPart, targets, marching, setMarching, play, explain, deciding_me, cancel }) {
  if (!field) return null;
  const owner = field.owner;
  const mine = owner === seat;
  const armies = Object.entries(field.armies || {});
  const built = Object.entries(field.buildings || {});
  const buttons = [];
  const added = new Set();
  const add = (text, label, detail) => {
    if (added.has(text)) return;
    added.add(text);
    const order = orders.find((o) => o.text === text);
    buttons.push(html`<button class=${order ? "mt-order" : "mt-order mt-unavailable"} data-order=${text}
      disabled=${!deciding_me} onClick=${() => (order ? play(order) : explain(text))}
      aria-label=${`${label}${order ? "" : " (not possible now: click to see why)"}: ${text}`}>
      <span>${label}</span><span class="mt-small">${detail}</span></button>`);
  };
  for (const o of orders) {
    if (o.kind === "claim") add(o.text, "Claim this field", "1 wood, 1 coin; a soldier must stand on it");
    if (o.kind === "play" && o.card === "speedup") add(o.text, "Play Speedup here", "this army may go 2 fields");
    if (o.kind === "play" && o.card === "sabotage") add(o.text, "Play Sabotage here", "its buildings make nothing");
  }
  if (mine) {
    const slots = (TERRAIN[field.terrain] || {}).workers || WORKER_BUILDINGS;
    for (const b of BUILDINGS) {
      if (WORKER_BUILDINGS.includes(b) && !slots.includes(b)) continue; // no slot on this terrain
      add(`build ${b} ${name}`, `Build ${buildingWord(b)}`, BUILDING_COSTS[b]);
    }
    if ((field.buildings || {}).barracks) {
      for (const u of ["soldier", "cavalry"]) add(`train ${u} ${name}`, `Train ${u}`, UNIT_COSTS[u]);
    }
  }
  const mySoldiers = (field.armies || {})[String(seat)];
  if (mySoldiers && mySoldiers[0] > 0) add(`sell ${name}`, "Sell a soldier", "+2 food");
  for (const o of orders) {
    if (o.kind === "build" || o.kind === "train" || o.kind === "sell") add(o.text, o.text, "");
  }
  const destinations = [...targets.keys()];
  return html`<section class="mt-panel" aria-label=${`Field ${name}`} data-testid="maiterra-field-panel">
    <h4>Field ${name}
      <button class="mt-close mt-quiet" onClick=${cancel} aria-label="Close the field (Escape)">×</button></h4>
    <ul class="mt-facts mt-small">
      <li>${field.terrain}: ${(TERRAIN[field.terrain] || {}).slots || ""}</li>
      <li>${owner === null || owner === undefined ? "Nobody's field" : html`<${SeatMark} seat=${owner} /> ${seatName(ctx, owner)}'s field`}</li>
      ${built.length > 0 && html`<li>Buildings: ${built.map(([b, n]) => buildingsWords(n, b)).join(", ")}</li>`}
      ${armies.map(([s, u]) => html`<li><${SeatMark} seat=${Number(s)} /> ${seatName(ctx, Number(s))}: ${unitsWords(u)}</li>`)}
    </ul>
    ${marches.length > 0 && html`<div class="mt-march">
      ${parts.length > 1 && html`<div class="mt-parts" role="group" aria-label="Which part of the stack marches">
        ${parts.map((p) => html`<button data-part=${p} aria-pressed=${p === part} class=${p === part ? "mt-on" : ""}
          onClick=${() => setPart(p)}>${PART_WORDS[p]}</button>`)}
      </div>`}
      <p class="mt-small">${destinations.length
        ? html`March ${PART_WORDS[part]} to ${destinations.join(", ")}: press an order below, or`
        : "No march for this part now."}</p>
      ${destinations.length > 0 && html`<button class="mt-order mt-march-mode" aria-pressed=${marching}
          data-testid="maiterra-march" disabled=${!deciding_me}
          onClick=${() => setMarching(!marching)}>${marching ? "Stop picking on the map" : "March: pick the field on the map"}</button>`}
      <div class="mt-dests">${destinations.map((to) => targets.get(to).map((o) => html`<button class="mt-order"
          data-order=${o.text} onClick=${() => play(o)} aria-label=${`queue ${o.text} (to ${to})`}><code>${o.text}</code>
          <span class="mt-small">to ${to}</span></button>`))}</div>
    </div>`}
    ${buttons.length ? html`<div class="mt-orders">${buttons}</div>` : !marches.length && html`<p class="mt-small">No order for this field now.</p>`}
  </section>`;
}

function CardsPanel({ hand, orders, pending, setPending, play, tell, deciding_me }) {
  const plays = orders.filter((o) => o.kind === "play");
  const pick = (card) => {
    const mine = plays.filter((o) => o.card === card);
    if (!mine.length) return tell(`${cardWord(card)} cannot be played now (you may have queued it already).`, "error");
    if (card === "speedup" || card === "sabotage") {
      setPending({ type: "card", card });
      return tell(`${cardWord(card)}: click a dashed field on the map (Escape cancels).`);
    }
    if (card === "prospect") return setPending({ type: "prospect" });
    return play(mine[0]);
  };
  return html`<section class="mt-panel" aria-label="Your cards">
    <h4>Your cards <span class="mt-count">${hand.length} / 3</span></h4>
    ${hand.length === 0 ? html`<p class="mt-small">None. You draw a card for each field you conquer.</p>`
      : html`<div class="mt-cards">${hand.map((card) => html`<button class="mt-card" data-card=${card} disabled=${!deciding_me}
          aria-pressed=${pending && pending.card === card} onClick=${() => pick(card)}>
          <b>${cardWord(card)}</b><span>${CARDS[card] || ""}</span></button>`)}</div>`}
    ${pending && pending.type === "prospect" && html`<div class="mt-choose" role="group" aria-label="Prospect: which resource">
      ${plays.filter((o) => o.card === "prospect").map((o) => html`<button data-order=${o.text} onClick=${() => play(o)}>
        +3 ${o.resource} <code>${o.text}</code></button>`)}
    </div>`}
  </section>`;
}

function BankPanel({ me, orders, play, explain, deciding_me }) {
  const trades = new Map(orders.filter((o) => o.kind === "trade").map((o) => [`${o.give}>${o.get}`, o]));
  const idle = me.people - me.workers;
  return html`<section class="mt-panel" aria-label="Your stores and the bank">
    <h4>Your stores</h4>
    <div class="mt-stores">
      ${RESOURCES.map((r) => html`<span class=${`mt-res mt-res-${r}`}><b>${me[r]}</b> ${r}</span>`)}
      <span class="mt-res mt-res-people"><b>${me.people}</b> people (${idle} idle)</span>
    </div>
    <p class="mt-small">The bank: give 3 of one resource (row) for 1 of another (column), paid when the turn resolves.</p>
    <table class="mt-bank">
      <thead><tr><th scope="col">give 3, get 1</th>${RESOURCES.map((r) => html`<th scope="col">${r}</th>`)}</tr></thead>
      <tbody>${RESOURCES.map((give) => html`<tr><th scope="row">${give}</th>
        ${RESOURCES.map((get) => {
          if (give === get) return html`<td></td>`;
          const order = trades.get(`${give}>${get}`);
          const text = `trade ${give} for ${get}`;
          return html`<td><button class=${order ? "mt-trade" : "mt-trade mt-unavailable"} disabled=${!deciding_me}
            data-order=${text} aria-label=${`${text}${order ? "" : " (not possible now)"}`}
            onClick=${() => (order ? play(order) : explain(text))}>→</button></td>`;
        })}</tr>`)}</tbody>
    </table>
  </section>`;
}

function LastTurnPanel({ turn, lines, ctx }) {
  return html`<section class="mt-panel" aria-label=${`Turn ${turn}: fights and what failed`} data-testid="maiterra-last-turn">
    <h4>Turn ${turn} resolved</h4>
    ${lines.length ? html`<ul class="mt-lines">${lines.map((e) => html`<li>${describeEvent(e, ctx)}</li>`)}</ul>`
      : html`<p class="mt-small">No fights, conquests or failed orders.</p>`}
  </section>`;
}

function SeatsPanel({ view, ctx, deciding }) {
  const planning = view.phase === "plan";
  return html`<section class="mt-panel" aria-label="Seats">
    <h4>Seats</h4>
    <ul class="mt-seats">
      ${(view.seats || []).map((row) => {
        let status = "";
        if (planning) status = row.ended ? "ended the turn ✓" : "planning…";
        else if (view.phase === "houses") status = row.house_locked ? "house locked ✓" : "choosing a house…";
        else if (view.phase === "draft") status = deciding.includes(row.seat) ? "picking…" : "";
        const house = row.house ? row.house : row.house_locked ? "house hidden" : "no house yet";
        return html`<li class=${`mt-seat ${deciding.includes(row.seat) ? "mt-deciding" : ""}`} data-seat=${row.seat}>
          <div class="mt-seat-top"><${SeatMark} seat=${row.seat} />
            <b>${seatName(ctx, row.seat)}</b> <span class="mt-small">${house}</span>
            <span class="mt-status" data-testid=${`maiterra-status-${row.seat}`}>${status}</span></div>
          <div class="mt-seat-stats mt-small">
            ${row.points} points · ${plural(row.fields, "field")} · ${plural(row.units, "unit")} ·
            food ${row.food} · wood ${row.wood} · brick ${row.brick} · coins ${row.coins} ·
            people ${row.people} (${row.workers} at work) · ${plural(row.cards, "card")}
          </div>
        </li>`;
      })}
    </ul>
  </section>`;
}
