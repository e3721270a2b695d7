// Manafields' board: the battlefield (SVG), the two sides' score, Order Points and Morale,
// the selected unit's card and orders, and the rosters. Clicks are matched against the
// notation of the legal actions (`move C e5`, `fight C J`, `shoot F J`, `ability B D`,
// `faction`, `teleport C e5`, `explode F`, `done`, `end`); see docs/rules/manafields.md.

import { html, useState, useEffect, useMemo, useCallback } from "../vendor/preact-htm.js";
import { loadStylesheet } from "../styles.js";

loadStylesheet(new URL("./manafields.css", import.meta.url).href);

const FILES = "abcdefghijklmnopqrstuvwxyz";
const CELL = 48;
const LEFT = 24; // room for the rank numbers
const TOP = 6;
const BOTTOM = 22; // room for the file letters
// Okabe-Ito: seat 0 blue, seat 1 vermillion; seat 0's units are discs, seat 1's squares.
const SEAT_COLOURS = ["#0072B2", "#D55E00"];
const SEAT_SHAPES = ["disc", "square"];
const ORDINALS = ["first", "second"];
const KIND_TITLES = {
  general: "General", hero: "Hero", infantry: "Infantry", cavalry: "Cavalry",
  archers: "Archers", zombie: "Zombie",
};
const FACTION_ABILITIES = {
  humans: "Rally: until your next turn each of your units counts as 3 for control",
  elves: "teleport up to 3 of your units to empty objective squares",
  orcs: "the first 3 Fight Orders this turn cost 0 OP",
  undead: "blow up to 3 of your Zombies (3 damage to every adjacent unit)",
};
const FLAG_WORDS = [
  ["moved", "moved"], ["fought", "fought"], ["shot", "shot"], ["used_ability", "used its ability"],
  ["warded", "warded (+1 Armour)"], ["blessed", "blessed (+1 To Hit)"], ["inspired", "inspired (+1 Damage)"],
];

// The units of the latest view a board drew: describeEvent names units from the view in its
// context (the match page's and the replay's event logs pass theirs), and from these only
// when a caller passes none.
let lastUnits = null;

// -- squares and distances -------------------------------------------------------------

function parseSquare(name) {
  const col = FILES.indexOf(name[0]);
  const row = parseInt(name.slice(1), 10) - 1;
  return [col, row];
}

function squareName(col, row) {
  return `${FILES[col]}${row + 1}`;
}

function distance(a, b) {
  const [ac, ar] = parseSquare(a);
  const [bc, br] = parseSquare(b);
  return Math.abs(ac - bc) + Math.abs(ar - br);
}

// -- the legal actions, indexed for clicks ---------------------------------------------

// {byUnit: {C: {squares: {e5: [act]}, targets: {J: [act]}, explode: act}}, end, done, faction}
function indexLegal(legal) {
  const index = { byUnit: {}, end: null, done: null, faction: null };
  for (const action of legal || []) {
    const text = String(action.text || "").trim();
    const words = text.split(/\s+/);
    const verb = words[0];
    const act = { id: action.id, text, verb, unit: words[1] ? words[1].toUpperCase() : null };
    if (verb === "end" || verb === "done" || verb === "faction") {
      index[verb] = act;
      continue;
    }
    if (!act.unit) continue;
    const entry = index.byUnit[act.unit] || (index.byUnit[act.unit] = { squares: {}, targets: {}, explode: null });
    if ((verb === "move" || verb === "teleport") && words[2]) {
      act.square = words[2].toLowerCase();
      (entry.squares[act.square] || (entry.squares[act.square] = [])).push(act);
    } else if ((verb === "fight" || verb === "shoot" || verb === "ability") && words[2]) {
      act.target = words[2].toUpperCase();
      (entry.targets[act.target] || (entry.targets[act.target] = [])).push(act);
    } else if (verb === "explode") {
      entry.explode = act;
    }
  }
  return index;
}

// A unit worth selecting: it has squares or units to act on (a Zombie to blow up is one click).
function canSelect(entry) {
  return Boolean(entry && (Object.keys(entry.squares).length || Object.keys(entry.targets).length));
}

function hasActions(entry) {
  return Boolean(entry && (entry.explode || Object.keys(entry.squares).length || Object.keys(entry.targets).length));
}

// -- words -------------------------------------------------------------------------------

function sideNames(view) {
  const names = (view.factions || []).map((f) => String(f).charAt(0).toUpperCase() + String(f).slice(1));
  if (names.length === 2 && names[0] === names[1]) return names.map((n, seat) => `${n} (${ORDINALS[seat]})`);
  return names;
}

// "Orcs (second)" as it reads inside brackets: "Orcs, second".
function plain(name) {
  return String(name || "").replace(" (", ", ").replace(")", "");
}

// Who plays a seat: the player's name, else "Seat N".
function whoPlays(players, seat) {
  const player = (players || []).find((p) => p && p.seat === seat);
  return player && player.name ? String(player.name) : `Seat ${Number(seat) + 1}`;
}

// The seat's faction, then who plays it ("Orcs (heuristic bot)"), as the shell's seatLabel
// words it, so that two seats never read alike.
function playerName(players, seat, names = []) {
  if (seat === null || seat === undefined) return "the table";
  const side = names[seat] ? plain(names[seat]) : `Seat ${Number(seat) + 1}`;
  const player = (players || []).find((p) => p && p.seat === seat);
  return player && player.name ? `${side} (${player.name})` : side;
}

// What the board calls each seat: the shell names seats by these too.
export function seatSides(view) {
  return sideNames(view || {}).map(plain);
}

function unitTitle(unit) {
  if (!unit) return "a unit";
  return `${unit.name} (${unit.slot})`;
}

function kindTitle(unit) {
  const kind = KIND_TITLES[unit.kind] || String(unit.kind);
  return unit.general && unit.kind !== "general" ? `${kind}, General` : kind;
}

function moveCost(view, unit) {
  if (view.elf_free === unit.slot) return 0;
  const enemies = view.units.filter((u) => u.alive && u.owner !== unit.owner);
  if (enemies.some((e) => distance(e.square, unit.square) === 1)) return 2;
  if (!unit.ordered && !enemies.some((e) => distance(e.square, unit.square) <= 4)) return 0;
  return 1;
}

function actionCost(view, unit, verb) {
  if (!unit) return 0;
  if (verb === "move") return moveCost(view, unit);
  if (verb === "fight") return view.frenzy && view.fights_issued < 3 ? 0 : 1;
  if (verb === "shoot") return unit.kind === "archers" && !unit.moved ? 1 : 2;
  if (verb === "ability") return unit.general && unit.kind === "general" ? 0 : 1;
  return 0;
}

// A sentence for an action about to be played.
function actionSentence(view, act, units) {
  const unit = units[act.unit];
  const cost = actionCost(view, unit, act.verb);
  const op = ["move", "fight", "shoot", "ability"].includes(act.verb) ? ` (${cost} OP)` : "";
  const target = act.target ? units[act.target] : null;
  switch (act.verb) {
    case "move": return `${unitTitle(unit)} moves ${unit ? unit.square : "?"} → ${act.square}${op}`;
    case "teleport": return `${unitTitle(unit)} teleports to ${act.square}`;
    case "fight": return `${unitTitle(unit)} fights ${unitTitle(target)}${op}`;
    case "shoot": return `${unitTitle(unit)} shoots at ${unitTitle(target)}${op}`;
    case "ability": {
      const name = unit && unit.ability ? unit.ability.name : "its ability";
      const on = target && target.slot === act.unit ? "itself" : unitTitle(target);
      const dead = target && !target.alive ? " (raised from the dead)" : "";
      return `${unitTitle(unit)} uses ${name} on ${on}${dead}${op}`;
    }
    case "explode": return `${unitTitle(unit)} blows up (3 damage to every adjacent unit)`;
    case "end": return "End the turn (scoring follows)";
    case "done": return "Stop picking units";
    case "faction": return "Use the Faction Ability (5 Morale)";
    default: return act.text;
  }
}

// -- drawing helpers ---------------------------------------------------------------------

function KindIcon({ kind, x, y, size = 12, colour = "#fff" }) {
  const s = size / 12;
  const t = `translate(${x} ${y}) scale(${s})`;
  const stroke = { fill: "none", stroke: colour, "stroke-width": 1.6, "stroke-linecap": "round", "stroke-linejoin": "round" };
  switch (kind) {
    case "general":
      return html`<path transform=${t} d="M1 10 L1 3 L4 6 L6 1.5 L8 6 L11 3 L11 10 Z" fill=${colour} />`;
    case "hero":
      return html`<path transform=${t} fill=${colour}
        d="M6 0.5 L7.6 4.2 L11.6 4.5 L8.6 7.1 L9.5 11 L6 8.9 L2.5 11 L3.4 7.1 L0.4 4.5 L4.4 4.2 Z" />`;
    case "infantry":
      // the map symbol for infantry: a box with both diagonals
      return html`<path transform=${t} ...${stroke} stroke-width="1.4" d="M0.8 2.3 H11.2 V9.7 H0.8 Z M0.8 2.3 L11.2 9.7 M0.8 9.7 L11.2 2.3" />`;
    case "cavalry":
      // the map symbol for cavalry: a box with one diagonal
      return html`<path transform=${t} ...${stroke} stroke-width="1.4" d="M0.8 2.3 H11.2 V9.7 H0.8 Z M0.8 9.7 L11.2 2.3" />`;
    case "archers":
      return html`<g transform=${t}><path ...${stroke} d="M3 0.8 Q12 6 3 11.2" /><path ...${stroke} d="M3 0.8 L3 11.2 M0.6 6 L11 6 M8.6 3.8 L11 6 L8.6 8.2" /></g>`;
    case "zombie":
      return html`<g transform=${t}><path fill=${colour} d="M6 0.8 C9.5 0.8 11.2 3 11.2 5.8 C11.2 7.8 10 8.6 9.2 9 L9.2 11.2 L2.8 11.2 L2.8 9 C2 8.6 0.8 7.8 0.8 5.8 C0.8 3 2.5 0.8 6 0.8 Z" />
        <circle cx="4" cy="5.6" r="1.4" fill="#333" /><circle cx="8" cy="5.6" r="1.4" fill="#333" /></g>`;
    default:
      return null;
  }
}

function SeatMark({ seat, size = 14 }) {
  const colour = SEAT_COLOURS[seat] || "#777";
  const r = size / 2;
  return html`<svg class="mf-mark" width=${size} height=${size} viewBox="0 0 ${size} ${size}" aria-hidden="true">
    ${SEAT_SHAPES[seat] === "disc"
      ? html`<circle cx=${r} cy=${r} r=${r - 1} fill=${colour} />`
      : html`<rect x="1" y="1" width=${size - 2} height=${size - 2} rx="2" fill=${colour} />`}
  </svg>`;
}

function UnitToken({ unit, x, y, selected, ghost }) {
  const colour = SEAT_COLOURS[unit.owner] || "#777";
  const cx = x + CELL / 2;
  const cy = y + CELL / 2;
  const body = SEAT_SHAPES[unit.owner] === "disc"
    ? html`<circle cx=${cx} cy=${cy} r="19" />`
    : html`<rect x=${cx - 18} y=${cy - 18} width="36" height="36" rx="5" />`;
  if (ghost) {
    return html`<g class="mf-ghost" stroke=${colour} fill="none" stroke-dasharray="3 3" stroke-width="1.5">
      ${body}<text x=${cx} y=${cy + 5} text-anchor="middle" fill=${colour} stroke="none" class="mf-ghost-letter">${unit.slot}</text></g>`;
  }
  const hpWidth = 26 * Math.max(0, Math.min(1, unit.hp / Math.max(1, unit.max_hp)));
  const effects = FLAG_WORDS.filter(([key]) => ["warded", "blessed", "inspired"].includes(key) && unit[key]).map(([, w]) => w);
  const tip = `${unitTitle(unit)}, ${kindTitle(unit)}, ${unit.hp}/${unit.max_hp} HP${effects.length ? `, ${effects.join(", ")}` : ""}`;
  return html`<g class=${`mf-unit${selected ? " mf-selected" : ""}`}>
    <title>${tip}</title>
    ${selected && html`<circle cx=${cx} cy=${cy} r="23" class="mf-selring" />`}
    <g fill=${colour} stroke=${unit.general ? "#222" : "#fff"} stroke-width=${unit.general ? 2.5 : 1.5}>${body}</g>
    <${KindIcon} kind=${unit.kind} x=${cx - 6} y=${cy - 16} size="11" />
    <text x=${cx} y=${cy + 7} text-anchor="middle" class="mf-letter">${unit.slot}</text>
    <rect x=${cx - 13} y=${cy + 10.5} width="26" height="3.5" rx="1.5" fill="rgba(0,0,0,.35)" />
    <rect x=${cx - 13} y=${cy + 10.5} width=${hpWidth} height="3.5" rx="1.5" fill="#fff" />
    ${effects.length > 0 && html`<g class="mf-effect"><circle cx=${cx + 15} cy=${cy - 15} r="6" />
      <text x=${cx + 15} y=${cy - 11.5} text-anchor="middle">+</text></g>`}
  </g>`;
}

// The HP in a badge at the token's corner, drawn above any target mark.
function HpBadge({ unit, x, y }) {
  const cx = x + CELL / 2;
  const cy = y + CELL / 2;
  return html`<g class=${`mf-hp${unit.hp < unit.max_hp ? " mf-wounded" : ""}`} pointer-events="none">
    <rect x=${cx + 7} y=${cy + 9} width="15" height="13" rx="3" />
    <text x=${cx + 14.5} y=${cy + 19.2} text-anchor="middle">${unit.hp}</text>
  </g>`;
}

// The marks a target carries: a dot for a move, corner brackets for a fight, a reticle for a
// shot, a dashed ring with a star for an ability, a ringed dot for a teleport, a burst for an
// explosion. The shapes differ, so colour is never the only cue.
function TargetMark({ verbs, x, y }) {
  const cx = x + CELL / 2;
  const cy = y + CELL / 2;
  const marks = [];
  if (verbs.has("move")) marks.push(html`<circle cx=${cx} cy=${cy} r="7" class="mf-t-move" />`);
  if (verbs.has("teleport")) {
    marks.push(html`<circle cx=${cx} cy=${cy} r="9" class="mf-t-teleport" /><circle cx=${cx} cy=${cy} r="4" class="mf-t-teleport-dot" />`);
  }
  if (verbs.has("fight")) {
    const a = 3, b = CELL - 3, l = 11;
    marks.push(html`<path class="mf-t-fight" d=${`M${x + a} ${y + a + l} V${y + a} H${x + a + l} M${x + b - l} ${y + a} H${x + b} V${y + a + l}
      M${x + b} ${y + b - l} V${y + b} H${x + b - l} M${x + a + l} ${y + b} H${x + a} V${y + b - l}`} />`);
  }
  if (verbs.has("shoot")) {
    marks.push(html`<g class="mf-t-shoot"><circle cx=${cx} cy=${cy} r="21" />
      <path d=${`M${cx} ${cy - 24} V${cy - 16} M${cx} ${cy + 16} V${cy + 24} M${cx - 24} ${cy} H${cx - 16} M${cx + 16} ${cy} H${cx + 24}`} /></g>`);
  }
  if (verbs.has("ability")) {
    marks.push(html`<g class="mf-t-ability"><circle cx=${cx} cy=${cy} r="22" />
      <path transform=${`translate(${x + CELL - 13} ${y + 1}) scale(1)`}
        d="M6 0.5 L7.6 4.2 L11.6 4.5 L8.6 7.1 L9.5 11 L6 8.9 L2.5 11 L3.4 7.1 L0.4 4.5 L4.4 4.2 Z" /></g>`);
  }
  if (verbs.has("explode")) {
    marks.push(html`<path class="mf-t-explode" d=${`M${cx} ${cy - 23} L${cx + 5} ${cy - 15} L${cx + 16} ${cy - 16} L${cx + 14} ${cy - 6}
      L${cx + 23} ${cy} L${cx + 14} ${cy + 6} L${cx + 16} ${cy + 16} L${cx + 5} ${cy + 15} L${cx} ${cy + 23} L${cx - 5} ${cy + 15}
      L${cx - 16} ${cy + 16} L${cx - 14} ${cy + 6} L${cx - 23} ${cy} L${cx - 14} ${cy - 6} L${cx - 16} ${cy - 16} L${cx - 5} ${cy - 15} Z`} />`);
  }
  return marks;
}

// -- the board ---------------------------------------------------------------------------

export default function Board(props) {
  const { view, legal, seat, players, submit, say, readonly, events, version, outcome } = props;
  const [selected, setSelected] = useState(null);
  const [pending, setPending] = useState(null); // {square, options: [{act} | {select}]}
  const [hover, setHover] = useState(null);
  const [flipped, setFlipped] = useState(seat === 1);

  const ok = Boolean(view && view.board && Array.isArray(view.units));
  const units = useMemo(() => {
    const bySlot = {};
    if (ok) for (const u of view.units) bySlot[u.slot] = u;
    return bySlot;
  }, [view]);
  if (ok) lastUnits = view.units;
  const index = useMemo(() => indexLegal(readonly ? [] : legal), [legal, readonly]);
  const deciding = !readonly && (legal || []).length > 0;

  // A new position: the pending choice goes, the selection stays while it can still act.
  useEffect(() => {
    setPending(null);
    setHover(null);
    setSelected((current) => {
      if (!current) return current;
      const unit = units[current];
      if (!unit || !unit.alive) return null;
      if (deciding && !hasActions(index.byUnit[current])) return null;
      return current;
    });
  }, [version]);

  const cancel = useCallback(() => {
    setPending(null);
    setSelected(null);
  }, []);

  useEffect(() => {
    const onKey = (event) => {
      if (event.key === "Escape") cancel();
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, [cancel]);

  if (!ok) return html`<div class="mf"><p>Waiting for the battlefield…</p></div>`;

  const board = view.board;
  const width = Number(board.width) || 10;
  const height = Number(board.height) || 12;
  const names = sideNames(view);
  const mine = seat === 0 || seat === 1 ? seat : null;
  const terrain = new Set(board.terrain || []);
  const zoneOf = {};
  (board.zones || []).forEach((zone, owner) => zone.forEach((s) => { zoneOf[s] = owner; }));
  const objectiveOf = {};
  (board.objectives || []).forEach((o, i) => o.squares.forEach((s) => { objectiveOf[s] = i; }));
  const living = {};
  for (const u of view.units) if (u.alive) living[u.square] = u;

  const xy = (name) => {
    const [col, row] = parseSquare(name);
    return flipped
      ? [LEFT + (width - 1 - col) * CELL, TOP + row * CELL]
      : [LEFT + col * CELL, TOP + (height - 1 - row) * CELL];
  };

  const sel = selected && units[selected] ? units[selected] : null;
  const selEntry = sel ? index.byUnit[sel.slot] : null;

  // Every action the selection (or, with none, a one-click explode) can play on a square.
  const actionsAt = (square) => {
    const out = [];
    const here = living[square];
    if (selEntry) {
      for (const act of selEntry.squares[square] || []) out.push(act);
      for (const [target, acts] of Object.entries(selEntry.targets)) {
        const t = units[target];
        if (!t) continue;
        if ((t.alive && t.square === square) || (!t.alive && t.square === square && !here)) out.push(...acts);
      }
    }
    if (!sel && here && index.byUnit[here.slot] && index.byUnit[here.slot].explode) {
      const entry = index.byUnit[here.slot];
      if (!Object.keys(entry.squares).length && !Object.keys(entry.targets).length) out.push(entry.explode);
    }
    return out;
  };

  const play = async (act) => {
    setPending(null);
    setHover(null);
    if (readonly || !submit) return;
    try {
      const result = await submit(act.text);
      if (result && result.ok === false && say) say(result.message || "That order was refused.", "error");
    } catch (error) {
      if (say) say(`The order could not be sent: ${error && error.message ? error.message : error}`, "error");
    }
  };

  // A click that matches no legal action: say why, locally when we can, else by sending the
  // notation and letting the server's message (the engine's own reason) say it.
  const explain = (square) => {
    const here = living[square];
    if (readonly) return;
    if (!deciding) {
      if (outcome || view.outcome) say && say("The match is over.", "info");
      else say && say(`It is not your turn: ${playerName(players, view.active, names)} is playing.`, "error");
      return;
    }
    if (view.picks) {
      say && say(`The Faction Ability is picking units: ${view.factions[mine] === "elves" ? "pick a unit, then an empty objective square" : "pick a Zombie to blow up"}, or press Done.`, "error");
      return;
    }
    if (!sel) {
      if (terrain.has(square)) say && say(`${square} is impassable terrain.`, "error");
      else if (here && here.owner !== mine) say && say(`${unitTitle(here)} is an enemy unit: select one of your units first, then click it.`, "error");
      else say && say("Select one of your units first: click it, then a highlighted square.", "error");
      return;
    }
    if (terrain.has(square)) {
      say && say(`${square} is impassable terrain: no unit may stand there.`, "error");
      return;
    }
    let text;
    if (here && here.owner !== mine) text = `${sel.range > 0 ? "shoot" : "fight"} ${sel.slot} ${here.slot}`;
    else if (here) text = `ability ${sel.slot} ${here.slot}`;
    else text = `move ${sel.slot} ${square}`;
    play({ text });
  };

  const selectUnit = (unit) => {
    setPending(null);
    if (selected === unit.slot) {
      setSelected(null);
      return;
    }
    setSelected(unit.slot);
    if (readonly || unit.owner !== mine) return;
    if (!deciding) {
      if (!outcome && !view.outcome) say && say(`It is not your turn: ${playerName(players, view.active, names)} is playing.`, "info");
    } else if (!hasActions(index.byUnit[unit.slot])) {
      const why = view.op === 0 && !index.faction
        ? "no Order Points are left: end the turn"
        : view.picks ? "the Faction Ability is picking other units" : "it has no order it can take now";
      say && say(`${unitTitle(unit)}: ${why}.`, "info");
    }
  };

  // What a click on a square offers: the legal actions there, and, beside an action on one
  // of your own units, selecting (or deselecting) that unit instead.
  const optionsAt = (square) => {
    const here = living[square];
    const acts = actionsAt(square);
    const options = acts.map((act) => ({ act }));
    if (acts.length && here && here.owner === mine) {
      if (here.slot === selected) options.push({ deselect: here });
      else if (canSelect(index.byUnit[here.slot])) options.push({ select: here });
    }
    return options;
  };

  const activate = (square) => {
    const here = living[square];
    const options = optionsAt(square);
    if (options.length === 1 && options[0].act) {
      play(options[0].act);
      return;
    }
    if (options.length > 1) {
      setPending({ square, options });
      return;
    }
    if (here && (here.owner === mine || !sel || here.slot === selected || readonly || !deciding)) {
      selectUnit(here);
      return;
    }
    explain(square);
  };

  const onKey = (square) => (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      activate(square);
    }
  };

  // What each square shows as a target, and the shaded range of the selection.
  const targetVerbs = {};
  const addVerb = (square, verb) => (targetVerbs[square] || (targetVerbs[square] = new Set())).add(verb);
  if (selEntry) {
    for (const [square, acts] of Object.entries(selEntry.squares)) acts.forEach((a) => addVerb(square, a.verb));
    for (const [target, acts] of Object.entries(selEntry.targets)) {
      const t = units[target];
      if (t) acts.forEach((a) => addVerb(t.square, a.verb));
    }
  } else {
    for (const [slot, entry] of Object.entries(index.byUnit)) {
      if (entry.explode && units[slot]) addVerb(units[slot].square, "explode");
    }
  }
  let rangeOf = null;
  let rangeWord = "";
  if (sel && sel.alive) {
    if (sel.range > 0) {
      rangeOf = sel.range;
      rangeWord = `Range ${sel.range}`;
    } else if (sel.ability && sel.ability.range) {
      rangeOf = sel.ability.range;
      rangeWord = `${sel.ability.name} reaches ${sel.ability.range}`;
    }
  }
  const selectable = new Set();
  for (const [slot, entry] of Object.entries(index.byUnit)) {
    if (hasActions(entry) && units[slot] && units[slot].alive && !entry.explode) selectable.add(units[slot].square);
  }

  // The latest moves and attacks, drawn faintly (events name units by slot number).
  const lastSquares = new Set();
  const byNumber = (n) => (typeof n === "number" ? view.units[n] : null);
  for (const event of events || []) {
    if (!event || typeof event !== "object") continue;
    if (event.kind === "move" || event.kind === "teleport") {
      if (event.from) lastSquares.add(event.from);
      if (event.to || event.square) lastSquares.add(event.to || event.square);
    } else if (event.kind === "fight" || event.kind === "shoot") {
      const target = byNumber(event.target);
      if (target && target.alive) lastSquares.add(target.square);
    }
  }

  const ground = [];
  const cells = [];
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const name = squareName(col, row);
      const [x, y] = xy(name);
      const here = living[name];
      const verbs = targetVerbs[name];
      const isObjective = name in objectiveOf;
      const zone = zoneOf[name];
      const rock = terrain.has(name);
      let cls = "mf-sq";
      if ((col + row) % 2) cls += " mf-alt";
      if (rock) cls += " mf-rock";
      else if (isObjective) cls += " mf-obj";
      else if (zone !== undefined) cls += ` mf-zone${zone}`;
      const inRange = rangeOf !== null && !rock && distance(name, sel.square) <= rangeOf && name !== sel.square;
      const focusable = !readonly && (verbs || selectable.has(name));
      const acts = focusable && verbs ? actionsAt(name) : [];
      let label = name;
      if (here) label += `, ${names[here.owner] || ""} ${unitTitle(here)}, ${here.hp} of ${here.max_hp} HP`;
      if (acts.length) label += `: ${acts.map((a) => a.text).join(" or ")}`;
      else if (focusable && here) label += ": select";
      const ghosts = verbs && !here && sel
        ? Object.keys(selEntry.targets).map((t) => units[t]).filter((t) => t && !t.alive && t.square === name)
        : [];
      ground.push(html`<g pointer-events="none">
        <rect x=${x} y=${y} width=${CELL} height=${CELL} class=${cls} />
        ${zone !== undefined && !rock && html`<rect x=${x} y=${y} width=${CELL} height=${CELL} fill=${`url(#mf-hatch${zone})`} />`}
        ${rock && html`<path class="mf-rock-mark" d=${`M${x + 8} ${y + 36} L${x + 18} ${y + 16} L${x + 25} ${y + 26} L${x + 31} ${y + 12} L${x + 41} ${y + 36} Z`} />`}
        ${isObjective && !here && html`<path class="mf-diamond" d=${`M${x + 24} ${y + 13} L${x + 35} ${y + 24} L${x + 24} ${y + 35} L${x + 13} ${y + 24} Z`} />`}
        ${inRange && html`<rect x=${x + 1} y=${y + 1} width=${CELL - 2} height=${CELL - 2} class="mf-range" />`}
        ${lastSquares.has(name) && html`<rect x=${x} y=${y} width=${CELL} height=${CELL} class="mf-last" />`}
      </g>`);
      cells.push(html`<g class=${`mf-cell${focusable ? " mf-focusable" : ""}`} data-square=${name}
          data-target=${verbs ? [...verbs].join(" ") : undefined}
          data-unit=${here ? here.slot : undefined}
          tabindex=${focusable ? "0" : undefined} role=${focusable ? "button" : undefined}
          aria-label=${focusable ? label : undefined}
          onClick=${() => activate(name)} onKeyDown=${focusable ? onKey(name) : undefined}
          onMouseEnter=${() => setHover(name)} onMouseLeave=${() => setHover((h) => (h === name ? null : h))}
          onFocus=${() => setHover(name)}>
        <rect x=${x} y=${y} width=${CELL} height=${CELL} class="mf-hit" />
        ${ghosts.map((g) => html`<${UnitToken} unit=${g} x=${x} y=${y} ghost=${true} />`)}
        ${here && html`<${UnitToken} unit=${here} x=${x} y=${y} selected=${here.slot === selected} />`}
        ${verbs && html`<${TargetMark} verbs=${verbs} x=${x} y=${y} />`}
        ${here && html`<${HpBadge} unit=${here} x=${x} y=${y} />`}
        ${hover === name && (verbs || selectable.has(name)) && html`<rect x=${x + 1} y=${y + 1} width=${CELL - 2} height=${CELL - 2} class="mf-hover" />`}
        <rect x=${x + 2} y=${y + 2} width=${CELL - 4} height=${CELL - 4} rx="4" class="mf-focus" />
      </g>`);
    }
  }

  // Objectives: a frame around each in its holder's colour with the holder's shape on two
  // corners (dashed and bare when nobody holds it), and its name under the units.
  const frames = [];
  const badges = [];
  for (const o of board.objectives || []) {
    const xs = o.squares.map((s) => xy(s));
    const x0 = Math.min(...xs.map((p) => p[0]));
    const y0 = Math.min(...xs.map((p) => p[1]));
    const x1 = Math.max(...xs.map((p) => p[0])) + CELL;
    const y1 = Math.max(...xs.map((p) => p[1])) + CELL;
    const holder = o.controller === 0 || o.controller === 1 ? o.controller : null;
    const colour = holder === null ? "#8a7a45" : SEAT_COLOURS[holder];
    frames.push(html`<g class="mf-objective" pointer-events="none" data-objective=${o.name}
        data-holder=${holder === null ? "none" : holder}>
      <rect x=${x0 + 1.5} y=${y0 + 1.5} width=${x1 - x0 - 3} height=${y1 - y0 - 3} rx="4" fill="none"
        stroke=${colour} stroke-width=${holder === null ? 2 : 3.5} stroke-dasharray=${holder === null ? "6 4" : undefined} />
      <g transform=${`translate(${x0 + 4} ${y0 + 4})`}>
        <rect width=${String(o.name || "").length * 5.6 + 16} height="13" rx="3" fill="rgba(255,255,255,.85)" stroke=${colour} />
        <text x="4" y="10" class="mf-objname">◇ ${o.name}</text>
      </g>
    </g>`);
    if (holder !== null) {
      for (const [cx, cy] of [[x0 + 2, y0 + 2], [x1 - 2, y1 - 2]]) {
        badges.push(SEAT_SHAPES[holder] === "disc"
          ? html`<circle cx=${cx} cy=${cy} r="6" fill=${colour} stroke="#fff" stroke-width="1.5" pointer-events="none" />`
          : html`<rect x=${cx - 5.5} y=${cy - 5.5} width="11" height="11" rx="1.5" fill=${colour} stroke="#fff" stroke-width="1.5" pointer-events="none" />`);
      }
    }
  }

  const labels = [];
  for (let col = 0; col < width; col++) {
    const [x] = xy(squareName(col, 0));
    labels.push(html`<text x=${x + CELL / 2} y=${TOP + height * CELL + 15} text-anchor="middle" class="mf-coord">${FILES[col]}</text>`);
  }
  for (let row = 0; row < height; row++) {
    const [, y] = xy(squareName(0, row));
    labels.push(html`<text x=${LEFT - 6} y=${y + CELL / 2 + 4} text-anchor="end" class="mf-coord">${row + 1}</text>`);
  }

  const viewW = LEFT + width * CELL + 6;
  const viewH = TOP + height * CELL + BOTTOM;
  const hoverOptions = hover ? optionsAt(hover) : [];
  const preview = pending ? null : hoverOptions.length === 1 && hoverOptions[0].act ? hoverOptions[0].act : null;

  return html`<div class="mf" data-version=${version}>
    <div class="mf-boardwrap">
      <svg class="mf-board" viewBox=${`0 0 ${viewW} ${viewH}`} role="group"
        aria-label=${`Manafields battlefield, ${names[0]} against ${names[1]}`}>
        <defs>
          ${[0, 1].map((z) => html`<pattern id=${`mf-hatch${z}`} width="8" height="8" patternUnits="userSpaceOnUse"
              patternTransform=${z ? "rotate(-45)" : "rotate(45)"}>
            <line x1="0" y1="0" x2="0" y2="8" stroke=${SEAT_COLOURS[z]} stroke-width="1.2" stroke-opacity=".22" /></pattern>`)}
        </defs>
        <rect x=${LEFT} y=${TOP} width=${width * CELL} height=${height * CELL} class="mf-ground" />
        ${ground}
        ${frames}
        ${labels}
        ${cells}
        ${badges}
      </svg>
      <div class="mf-underboard">
        <span class="mf-hint" aria-live="polite">${
          preview ? html`Will play <code>${preview.text}</code>: ${actionSentence(view, preview, units)}`
          : sel ? html`${selectionWords(view, sel, targetVerbs, rangeWord, mine, deciding)}`
          : deciding ? (view.picks ? "Faction Ability: pick a unit" : "Click one of your units, then a highlighted square")
          : ""}</span>
        <button type="button" class="mf-flip" onClick=${() => setFlipped(!flipped)}
          aria-label="Turn the board round">⇅ Turn board</button>
      </div>
    </div>
    <div class="mf-panel">
      <${Status} view=${view} names=${names} players=${players} mine=${mine} outcome=${outcome || view.outcome} />
      <${Orders} view=${view} index=${index} names=${names} mine=${mine} play=${play} deciding=${deciding} />
      ${pending && html`<div class="mf-card mf-pending" role="group" aria-label="Choose the order">
        <div class="mf-card-title">${pending.square}: which order?</div>
        <div class="mf-choices">
          ${pending.options.map((o) => o.act
            ? html`<button type="button" class="mf-choice" data-notation=${o.act.text} onClick=${() => play(o.act)}>
                <code>${o.act.text}</code> ${actionSentence(view, o.act, units)}</button>`
            : o.select ? html`<button type="button" class="mf-choice" onClick=${() => selectUnit(o.select)}>Select ${unitTitle(o.select)} instead</button>`
            : html`<button type="button" class="mf-choice" onClick=${cancel}>Deselect ${unitTitle(o.deselect)}</button>`)}
          <button type="button" class="mf-choice mf-cancel" onClick=${() => setPending(null)}>Cancel (Esc)</button>
        </div>
      </div>`}
      ${sel && html`<${UnitCard} unit=${sel} view=${view} names=${names} entry=${selEntry} units=${units}
        play=${play} mine=${mine} />`}
      <${Rosters} view=${view} names=${names} players=${players} index=${index} selected=${selected}
        onSelect=${selectUnit} />
      <${Legend} />
    </div>
  </div>`;
}

// The hint under the board for a selected unit: which marks mean which order.
function selectionWords(view, unit, targetVerbs, rangeWord, mine, deciding) {
  const verbs = new Set(Object.values(targetVerbs).flatMap((set) => [...set]));
  const parts = [];
  if (verbs.has("move")) parts.push(`dots: move (${actionCost(view, unit, "move")} OP)`);
  if (verbs.has("teleport")) parts.push("ringed dots: teleport");
  if (verbs.has("fight")) parts.push(`corners: fight (${actionCost(view, unit, "fight")} OP)`);
  if (verbs.has("shoot")) parts.push(`reticle: shoot (${actionCost(view, unit, "shoot")} OP)`);
  if (verbs.has("ability")) parts.push(`dashed ring: ${unit.ability ? unit.ability.name : "ability"} (${actionCost(view, unit, "ability")} OP)`);
  if (!parts.length && unit.owner === mine && deciding) parts.push("no order it can take now");
  if (rangeWord) parts.push(`shaded: ${rangeWord}`);
  return `${unitTitle(unit)} · ${parts.length ? `${parts.join(" · ")} · ` : ""}Esc clears`;
}

// How a match won on the lead was won: the lead it ended with (the rule wins at 12 or
// more, so a General's 6 points can end it at 14).
function leadWords(scores, winner, needed = 12) {
  if (!Array.isArray(scores) || scores.length < 2 || winner === undefined) return `by a lead of ${needed} or more`;
  const lead = Math.abs(scores[winner] - scores[1 - winner]);
  return `by a lead of ${lead} (${scores[winner]}–${scores[1 - winner]}; ${needed} or more wins)`;
}

function Pips({ count, max, label, kind }) {
  const pips = [];
  for (let i = 0; i < max; i++) pips.push(html`<span class=${`mf-pip mf-pip-${kind}${i < count ? " on" : ""}`} aria-hidden="true" />`);
  return html`<span class="mf-pips" role="img" aria-label=${label} title=${label}>${pips}</span>`;
}

function Status({ view, names, players, mine, outcome }) {
  const score = view.score || [0, 0];
  const morale = view.morale || [0, 0];
  const next = view.points_now || [0, 0];
  const active = view.active;
  let head;
  if (outcome) {
    const winners = outcome.winners || [];
    head = winners.length
      ? `${playerName(players, winners[0], names)} won${outcome.reason === "lead" ? ` ${leadWords(outcome.scores || view.score, winners[0], view.lead_to_win)}` : outcome.reason === "turn_limit" ? " at the turn limit" : ""}`
      : "A draw at the turn limit";
  } else {
    head = `Round ${view.round} of ${view.turn_limit} · ${active === mine ? "your turn" : `${playerName(players, active, names)} to play`}`;
  }
  return html`<div class="mf-card mf-status">
    <div class=${`mf-head${outcome ? " mf-over" : ""}`} data-testid="mf-head">${head}</div>
    ${[0, 1].map((s) => html`<div class=${`mf-side${s === active && !outcome ? " mf-active" : ""}`} data-seat=${s}>
      <div class="mf-side-row">
        <span class="mf-side-name"><${SeatMark} seat=${s} /> <b>${names[s]}</b>
          <span class="mf-player">${whoPlays(players, s)}${s === mine ? " (you)" : ""}</span></span>
        <span class="mf-score" title=${`score; a lead of ${view.lead_to_win} wins`}>
          <b data-testid=${`mf-score-${s}`}>${score[s]}</b> pts</span>
      </div>
      <div class="mf-side-row mf-side-stats">
        <span class="mf-muted" data-testid=${`mf-lead-${s}`} title=${`the lead: this side's score minus the other's; a lead of ${view.lead_to_win} or more at the end of a turn wins. Ending the turn now would score +${next[s]}`}>lead ${score[s] - score[1 - s] >= 0 ? "+" : "−"}${Math.abs(score[s] - score[1 - s])} (${view.lead_to_win} wins) · scoring +${next[s]}</span>
        <span class="mf-stat" title="Morale: 1 for each enemy unit destroyed, up to 5; 5 Morale pays for the Faction Ability">Morale <${Pips} count=${morale[s]} max=${5} kind="morale" label=${`Morale ${morale[s]} of 5`} /></span>
        ${s === active && !outcome && html`<span class="mf-stat" data-testid="mf-op" title="Order Points: what this turn's orders cost (most 1, a Shoot 2)">OP <${Pips} count=${view.op} max=${Math.max(3, view.op)} kind="op"
          label=${`${view.op} Order Points left`} /> <b>${view.op}</b></span>`}
      </div>
    </div>`)}
    <p class="mf-note mf-terms" data-testid="mf-terms"><b>Lead</b>: your score minus the other side's; a lead of ${view.lead_to_win} or more when a turn ends wins.${" "}
      <b>OP</b>: Order Points, spent on this turn's orders (most cost 1, a Shoot 2).${" "}
      <b>Morale</b>: 1 for each enemy unit destroyed, up to 5; 5 pays for the Faction Ability.</p>
  </div>`;
}

function Orders({ view, index, names, mine, play, deciding }) {
  if (!deciding) return null;
  const faction = mine !== null ? view.factions[mine] : null;
  const notes = [];
  if (view.picks) notes.push(`Faction Ability: ${view.picks} pick${view.picks === 1 ? "" : "s"} left — ${faction === "elves" ? "select a unit, then an empty objective square" : "click a Zombie to blow it up"}.`);
  if (view.elf_free) notes.push(`${view.elf_free} may move for free now (the Elves' passive).`);
  if (view.frenzy) notes.push(`Frenzy: ${Math.max(0, 3 - view.fights_issued)} free Fight Order(s) left.`);
  if (mine !== null && view.rally && view.rally[mine]) notes.push("Rally: your units count as 3 for control.");
  return html`<div class="mf-card mf-orders">
    <div class="mf-buttons">
      ${index.faction && html`<button type="button" class="mf-faction" data-notation="faction" onClick=${() => play(index.faction)}
        title=${FACTION_ABILITIES[faction] || ""}>Faction Ability <small>(5 Morale: ${FACTION_ABILITIES[faction] || ""})</small></button>`}
      ${index.done && html`<button type="button" data-notation="done" onClick=${() => play(index.done)}>Done picking</button>`}
      ${index.end && html`<button type="button" class="mf-end" data-notation="end" onClick=${() => play(index.end)}>End turn</button>`}
    </div>
    ${notes.map((n) => html`<p class="mf-note">${n}</p>`)}
  </div>`;
}

function UnitCard({ unit, view, names, entry, units, play, mine }) {
  const flags = FLAG_WORDS.filter(([key]) => unit[key]).map(([, word]) => word);
  const actions = entry ? Object.values(entry.targets).flat() : [];
  if (entry && entry.explode) actions.push(entry.explode);
  const moves = entry ? Object.values(entry.squares).flat() : [];
  const ability = unit.ability;
  return html`<div class="mf-card mf-unitcard" data-testid="mf-unitcard">
    <div class="mf-card-title"><${SeatMark} seat=${unit.owner} />
      <span class="mf-kindicon"><svg width="14" height="14" viewBox="0 0 12 12" aria-hidden="true"><${KindIcon} kind=${unit.kind} x=${0} y=${0} colour="#333" /></svg></span>
      <b>${unitTitle(unit)}</b> <span class="mf-muted">${kindTitle(unit)} · ${names[unit.owner]}</span></div>
    <table class="mf-stats"><tr>
      <th>HP</th><th>Speed</th><th>To Hit</th><th>Armour</th><th>Damage</th><th>Range</th><th>Level</th></tr>
      <tr><td>${unit.hp}/${unit.max_hp}</td><td>${unit.speed}</td><td>${unit.to_hit}+</td><td>${unit.armour}+</td>
      <td>${unit.damage}</td><td>${unit.range || "–"}</td><td>${unit.level}</td></tr></table>
    ${ability && html`<p class="mf-note"><b>${ability.name}</b>: ${abilityWords(ability)}.</p>`}
    ${flags.length > 0 && html`<p class="mf-note">This turn: ${flags.join(", ")}.</p>`}
    ${unit.owner === mine && moves.length > 0 && html`<p class="mf-note">Move: ${moves.length} square${moves.length === 1 ? "" : "s"} (dots), ${actionCost(view, unit, moves[0].verb)} OP.</p>`}
    ${actions.length > 0 && html`<div class="mf-choices">${actions.map((act) => html`<button type="button" class="mf-choice"
        data-notation=${act.text} onClick=${() => play(act)}><code>${act.text}</code> ${actionSentence(view, act, units)}</button>`)}</div>`}
  </div>`;
}

function abilityWords(ability) {
  const r = ability.range;
  switch (ability.effect) {
    case "heal": return `one wounded friendly unit within ${r} heals ${ability.amount} HP`;
    case "bolt": return `one enemy unit within ${r} takes ${ability.amount} damage (no dice)`;
    case "ward": return `one friendly unit within ${r} has +1 Armour until your next turn`;
    case "bless": return `one friendly unit within ${r} has +1 To Hit this turn`;
    case "inspire": return `one friendly unit within ${r} deals +1 Damage this turn`;
    case "raise": return `a dead unit within ${r} whose square is empty rises as your Zombie`;
    default: return `${ability.effect} within ${r}`;
  }
}

function Rosters({ view, names, players, index, selected, onSelect }) {
  return html`<div class="mf-rosters">${[0, 1].map((s) => html`<div class="mf-card mf-roster" data-seat=${s}>
    <div class="mf-card-title"><${SeatMark} seat=${s} /> ${names[s]} <span class="mf-muted">· army</span></div>
    <ul>${view.units.filter((u) => u.owner === s).map((u) => {
      const act = hasActions(index.byUnit[u.slot]);
      const flags = FLAG_WORDS.filter(([key]) => u[key]).map(([key]) => key.replace("used_ability", "ability"));
      return html`<li class=${`${u.alive ? "" : "mf-dead"}${u.slot === selected ? " mf-rsel" : ""}`}>
        <button type="button" class=${`mf-rbtn${act ? " mf-canact" : ""}`} disabled=${!u.alive}
          onClick=${() => onSelect(u)} aria-label=${`${unitTitle(u)}, ${kindTitle(u)}, ${u.alive ? `${u.hp} of ${u.max_hp} HP on ${u.square}` : "destroyed"}`}>
          <span class="mf-rletter" style=${`background:${SEAT_COLOURS[s]};border-radius:${s === 0 ? "50%" : "3px"}`}>${u.slot}</span>
          <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true"><${KindIcon} kind=${u.kind} x=${0} y=${0} colour="#555" /></svg>
          <span class="mf-rname">${u.name}</span>
          <span class="mf-rhp">${u.alive ? `${u.hp}/${u.max_hp}` : "†"}</span>
          <span class="mf-rsq">${u.alive ? u.square : ""}</span>
          ${flags.length > 0 && html`<span class="mf-rflags">${flags.join(" ")}</span>`}
        </button></li>`;
    })}</ul>
  </div>`)}</div>`;
}

function Legend() {
  return html`<details class="mf-card mf-legend"><summary>Key</summary>
    <ul>
      <li><svg width="22" height="14" aria-hidden="true"><circle cx="7" cy="7" r="6" fill=${SEAT_COLOURS[0]} /></svg> first seat (discs), <svg width="16" height="14" aria-hidden="true"><rect x="1" y="1" width="12" height="12" rx="2" fill=${SEAT_COLOURS[1]} /></svg> second seat (squares); the letter is the unit's slot, the number its HP; a dark rim marks the General; a yellow + a unit warded, blessed or inspired. Yellow squares: the latest moves.</li>
      <li>${["general", "hero", "infantry", "cavalry", "archers", "zombie"].map((k) => html`<span class="mf-legend-kind"><svg width="14" height="14" viewBox="0 0 12 12" aria-hidden="true"><${KindIcon} kind=${k} x=${0} y=${0} colour="#333" /></svg> ${KIND_TITLES[k]}</span>`)}</li>
      <li>Targets: dot = move, corners = fight, reticle = shoot, dashed ring and star = Heroic Ability, ringed dot = teleport, burst = explode. Shaded squares: the selected unit's Range.</li>
      <li>◇ objective (framed in its holder's colour, dashed when nobody holds it), hatched: deployment zones, dark: impassable terrain.</li>
    </ul>
  </details>`;
}

// -- the event log -------------------------------------------------------------------------

function eventUnit(event, key, ctx) {
  const n = event[key];
  const units = ctx && ctx.view && Array.isArray(ctx.view.units) ? ctx.view.units : lastUnits;
  if (typeof n === "number") {
    const unit = units ? units[n] : null;
    const letter = FILES[n] ? FILES[n].toUpperCase() : String(n);
    return unit ? `${unit.name} (${unit.slot})` : `unit ${letter}`;
  }
  if (typeof n === "string") return `unit ${n}`;
  return "a unit";
}

function rolls(list) {
  return Array.isArray(list) && list.length ? ` [${list.join(" ")}]` : "";
}

export function describeEvent(event, ctx = {}) {
  if (!event || typeof event !== "object") return event === null || event === undefined ? null : String(event);
  const players = (ctx && ctx.players) || [];
  const sides = (ctx && ctx.sides) || sideNames((ctx && ctx.view) || {});
  const who = (seat) => playerName(players, seat, sides);
  const u = (key) => eventUnit(event, key, ctx);
  switch (event.kind) {
    case "move":
      return `${who(event.seat)}: ${u("unit")} moves ${event.from} → ${event.to} (${event.cost} OP)`;
    case "impact":
      return `${u("unit")} charges into ${u("target")}: ${event.damage} damage${event.pinned ? " (pinned against the square behind)" : ""}`;
    case "fight":
    case "shoot": {
      const verb = event.kind === "fight" ? "fights" : "shoots at";
      const auto = event.auto_sixes ? `, ${event.auto_sixes} automatic 6s` : "";
      const bonus = event.to_hit_bonus ? ` (+${event.to_hit_bonus})` : "";
      return `${who(event.seat)}: ${u("unit")} ${verb} ${u("target")}: ${event.dice} dice${auto}, ${event.to_hit}+ to hit${bonus}${rolls(event.hit_rolls)} → ${event.hits} hit${event.hits === 1 ? "" : "s"}; ${event.armour}+ to break${rolls(event.break_rolls)} → ${event.damage} damage`;
    }
    case "damage":
      return `${u("unit")} is down to ${event.hp} HP`;
    case "heal":
      return `${u("unit")} is healed to ${event.hp} HP`;
    case "destroyed":
      return `${u("unit")} of ${who(event.seat)} is destroyed on ${event.square}`;
    case "general_killed":
      return `${who(event.seat)}'s General has fallen: 6 points to ${who(1 - event.seat)}`;
    case "zombie":
      return `${u("unit")} rises on ${event.square} as ${who(event.seat)}'s Zombie`;
    case "ability":
      return `${who(event.seat)}: ${u("unit")} uses ${event.name || "its Heroic Ability"} on ${event.target === event.unit ? "itself" : u("target")}`;
    case "faction_ability":
      return `${who(event.seat)} uses the ${event.faction || ""} Faction Ability (5 Morale)`.replace("  ", " ");
    case "teleport":
      return `${who(event.seat)}: ${u("unit")} teleports to ${event.square}`;
    case "explode":
      return `${who(event.seat)}: ${u("unit")} blows up on ${event.square}`;
    case "ability_done":
      return `${who(event.seat)} stops picking units`;
    case "score": {
      const parts = [];
      if (event.objectives) parts.push(`${event.objectives} for objectives`);
      if (event.general) parts.push(`${event.general} for the General on one`);
      if (event.general_killed) parts.push(`${event.general_killed} for the enemy General`);
      const score = Array.isArray(event.score) ? ` (${event.score.join("–")})` : "";
      return `${who(event.seat)} scores ${event.total}${parts.length ? `: ${parts.join(", ")}` : ""}${score}`;
    }
    case "turn": {
      // The rules heal 1 HP (rules.json's effects.objective_hero_heal) at the start of a
      // turn to each wounded unit on an objective where a friendly Hero stands.
      const healed = Array.isArray(event.healed) && event.healed.length
        ? `; +1 HP each on an objective with their Hero: ${event.healed.map((n) => eventUnit({ n }, "n", ctx)).join(", ")}` : "";
      return `${who(event.seat)}'s turn (${event.op} OP)${healed}`;
    }
    case "game_over": {
      const winners = event.winners || [];
      const how = event.reason === "lead" ? leadWords(event.scores, winners[0]) : event.reason === "turn_limit" ? "at the turn limit" : event.reason ? `(${event.reason})` : "";
      if (!winners.length) return `The match ends in a draw ${how}`.trim();
      return `${winners.map(who).join(" and ")} win${winners.length === 1 ? "s" : ""} ${how}`.trim();
    }
    default: {
      const fields = Object.entries(event)
        .filter(([key, value]) => key !== "kind" && key !== "seat" && value !== null && typeof value !== "object")
        .map(([key, value]) => `${key} ${value}`);
      const head = event.seat === null || event.seat === undefined ? "" : `${who(event.seat)}: `;
      return `${head}${String(event.kind || "event").replace(/_/g, " ")}${fields.length ? ` (${fields.join(", ")})` : ""}`;
    }
  }
}
