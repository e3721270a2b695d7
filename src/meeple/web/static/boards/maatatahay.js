// The Maatatahay board (docs/rules/maatatahay.md): the 5×5 map with its warriors, arrows,
// crystals, Temple Relics and the hot tile, the Spirit Track, and the panels a seat plays
// from: the stream of pairs, who places first, its warrior to place, and how the placement
// ends (facing and the crystals kept in storage). Every action is built by clicking, and
// matched against the seat's legal actions by their notation (docs/notation.md).

import { html, useState, useEffect, useMemo, useCallback, useRef } from "../vendor/preact-htm.js";
import { loadStylesheet } from "../styles.js";

loadStylesheet(new URL("./maatatahay.css", import.meta.url).href);

// ---------------------------------------------------------------- the game's constants

const SIZE = 5;
const FILES = "abcde";
const TRIBES = ["Balan", "Wazu"];
const LETTERS = ["B", "W"];
const FACINGS = ["N", "E", "S", "W"];
const FACING_WORDS = { N: "north", E: "east", S: "south", W: "west" };
const DIRS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
const STEP = { N: [0, 1], NE: [1, 1], E: [1, 0], SE: [1, -1], S: [0, -1], SW: [-1, -1], W: [-1, 0], NW: [-1, 1] };
const LOST_TO_END = 6;
const STORAGE_LIMIT = 4;
const TRACK_LENGTH = 12;
// The twelve warriors of each tribe (data/rules.json): id -> [name, fangs, diamonds].
const TILES = {
  1: ["Elder", 1, 2], 2: ["Convert", 1, 2], 3: ["Scout", 1, 1], 4: ["Watcher", 1, 1],
  5: ["Herald", 1, 1], 6: ["Spearman", 2, 1], 7: ["Shieldbearer", 2, 1], 8: ["Skirmisher", 2, 1],
  9: ["Hunter", 2, 2], 10: ["Guardian", 3, 2], 11: ["Champion", 3, 2], 12: ["Chieftain", 4, 3],
};
const ABILITIES = {
  elder: "+1 strength for each living friendly warrior orthogonally next to it",
  convert: "+1 strength for each living enemy warrior diagonally next to it",
};
const REASONS = {
  six_lost: "a seat lost six warriors",
  board_full: "one free space or fewer is left",
  all_played: "every warrior has been played",
};

// ---------------------------------------------------------------- geometry of the drawing

const CELL = 100;
const LEFT = 26;
const TOP = 10;
const BOARD = CELL * SIZE;
const TRACK_Y = TOP + BOARD + 30;
const WIDTH = LEFT + BOARD + 10;
const HEIGHT = TRACK_Y + 58;

const spaceName = (col, row) => `${FILES[col]}${row + 1}`;
const spaceIndex = (name) => (Number(name[1]) - 1) * SIZE + FILES.indexOf(name[0]);
const cellX = (col) => LEFT + col * CELL;
const cellY = (row) => TOP + (SIZE - 1 - row) * CELL;

// Map arrows (Decision 3): one pointing in at each edge space, two at a corner.
function mapArrows(col, row) {
  const from = [];
  if (row === SIZE - 1) from.push("N");
  if (row === 0) from.push("S");
  if (col === 0) from.push("W");
  if (col === SIZE - 1) from.push("E");
  return from;
}

function rotate(direction, quarterTurns) {
  const index = DIRS.indexOf(direction);
  return index < 0 ? direction : DIRS[(index + 2 * quarterTurns + 8) % 8];
}

// The arrows of a tile turned to face `facing` (tile arrows are given facing N).
const turnArrows = (arrows, facing) => (arrows || []).map((a) => rotate(a, FACINGS.indexOf(facing)));

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function crystalsWords(energy, spirit) {
  const parts = [];
  if (energy) parts.push(`${energy} Energy`);
  if (spirit) parts.push(`${spirit} Spirit`);
  return parts.length ? parts.join(" and ") : "no crystals";
}

// The seat's tribe, then who plays it ("Balan (Ana)", "Wazu (heuristic bot)"), as the shell's
// seatLabel words it.
function seatName(players, seat) {
  const tribe = TRIBES[seat] || `seat ${seat}`;
  const player = (players || []).find((p) => p && p.seat === seat);
  return player && player.name ? `${tribe} (${player.name})` : tribe;
}

// What the board calls each seat: the shell names seats by these too.
export function seatSides() {
  return TRIBES;
}

// ---------------------------------------------------------------- the legal actions, parsed

function parseLegal(legal) {
  const out = { pick: new Map(), first: new Map(), place: new Map(), finish: new Map() };
  for (const action of legal || []) {
    const text = String(action.text || "").trim();
    let m;
    if ((m = /^pick (\d)$/i.exec(text))) out.pick.set(Number(m[1]), action);
    else if ((m = /^first ([BW])$/i.exec(text))) out.first.set(m[1].toUpperCase(), action);
    else if ((m = /^([a-e][1-5])(?: s(\d))?$/i.exec(text))) {
      const space = m[1].toLowerCase();
      if (!out.place.has(space)) out.place.set(space, []);
      out.place.get(space).push({ paid: Number(m[2] || 0), action });
    } else if ((m = /^([NESW]) keep (\d)e(\d)s$/i.exec(text))) {
      const facing = m[1].toUpperCase();
      if (!out.finish.has(facing)) out.finish.set(facing, []);
      out.finish.get(facing).push({ energy: Number(m[2]), spirit: Number(m[3]), action });
    }
  }
  for (const options of out.place.values()) options.sort((a, b) => a.paid - b.paid);
  return out;
}

// The Energy a warrior placed on `name` would get from friendly arrows and map arrows.
function supportAt(board, name, seat) {
  const index = spaceIndex(name);
  const col = index % SIZE;
  const row = Math.floor(index / SIZE);
  let arrows = mapArrows(col, row).length;
  for (const space of board) {
    const w = space.warrior;
    if (!w || !w.alive || w.seat !== seat) continue;
    const at = spaceIndex(space.space);
    for (const a of w.arrows || []) {
      if (!STEP[a]) continue;
      const [dx, dy] = STEP[a];
      if ((at % SIZE) + dx === col && Math.floor(at / SIZE) + dy === row) arrows += 1;
    }
  }
  return arrows;
}

// ---------------------------------------------------------------- SVG pieces

function arrowPoints(direction, cx, cy, half) {
  // A triangle on the tile's edge (or corner), pointing out of it.
  const [dx, dy0] = STEP[direction];
  const dy = -dy0;
  const diagonal = dx !== 0 && dy !== 0;
  const reach = diagonal ? half - 2 : half;
  const bx = cx + dx * reach;
  const by = cy + dy * reach;
  const len = 11;
  const wing = 8;
  const norm = Math.hypot(dx, dy);
  const ux = dx / norm;
  const uy = dy / norm;
  const tip = [bx + ux * len, by + uy * len];
  const left = [bx - uy * wing - ux * 2, by + ux * wing - uy * 2];
  const right = [bx + uy * wing - ux * 2, by - ux * wing - uy * 2];
  return [tip, left, right].map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" ");
}

function Crystal({ x, y, kind, count }) {
  const label = count > 1 ? String(count) : "";
  return html`<g class=${`mh-crystal mh-${kind}`}>
    <circle cx=${x} cy=${y} r="5.5" />
    ${label && html`<text x=${x + 8} y=${y + 4.5} class="mh-count">${label}</text>`}
  </g>`;
}

function Crystals({ x, y, energy, spirit }) {
  const items = [];
  if (energy) items.push(["energy", energy]);
  if (spirit) items.push(["spirit", spirit]);
  const step = 26;
  const start = x - ((items.length - 1) * step) / 2 - 4;
  return items.map(([kind, count], i) => html`<${Crystal} x=${start + i * step} y=${y} kind=${kind} count=${count} />`);
}

function Temple({ x, y, scale = 1 }) {
  return html`<g class="mh-temple" transform=${`translate(${x} ${y}) scale(${scale})`}>
    <path d="M-20 -6 L0 -20 L20 -6 Z" />
    <rect x="-17" y="-5" width="34" height="4" />
    <rect x="-14" y="-1" width="5" height="16" />
    <rect x="-2.5" y="-1" width="5" height="16" />
    <rect x="9" y="-1" width="5" height="16" />
    <rect x="-19" y="15" width="38" height="5" />
  </g>`;
}

// One warrior tile centred in the cell at (x, y); `w` as in the view (or a preview of one).
// `compact` leaves out the name and the crystals (the panels' small tiles name it beside).
function WarriorTile({ x, y, w, ghost = false, hot = false, compact = false }) {
  const cx = x + CELL / 2;
  const cy = y + CELL / 2;
  const half = 38;
  const tribe = w.seat === 1 ? "wazu" : "balan";
  const rx = w.seat === 0 ? 14 : 4;
  if (!w.alive) {
    return html`<g class=${`mh-tile mh-dead mh-${tribe}`}>
      <rect x=${cx - half} y=${cy - half} width=${half * 2} height=${half * 2} rx=${rx} class="mh-tile-body" />
      <rect x=${cx - half} y=${cy - half} width=${half * 2} height=${half * 2} rx=${rx} fill="url(#mh-hatch)" />
      <circle cx=${cx - half + 13} cy=${cy - half + 13} r="10" class="mh-badge" />
      <text x=${cx - half + 13} y=${cy - half + 17.5} class="mh-badge-letter">${LETTERS[w.seat]}</text>
      <text x=${cx} y=${cy + 9} class="mh-dead-mark">✝</text>
      <text x=${cx} y=${cy + half - 7} class="mh-name">face down</text>
    </g>`;
  }
  const arrows = (w.arrows || []).filter((a) => STEP[a]);
  const [fx, fy0] = STEP[FACINGS.includes(w.facing) ? w.facing : "N"];
  const fy = -fy0;
  const notch = `${cx + fx * (half - 3) - fy * 7},${cy + fy * (half - 3) - fx * 7} ${cx + fx * (half - 10)},${cy + fy * (half - 10)} ${cx + fx * (half - 3) + fy * 7},${cy + fy * (half - 3) + fx * 7}`;
  const name = String(w.name || "");
  const classes = ["mh-tile", `mh-${tribe}`];
  if (ghost) classes.push("mh-ghost");
  if (hot) classes.push("mh-hot");
  if (w.surrounded) classes.push("mh-surrounded");
  const strengthY = compact ? cy + 15 : cy + 7;
  return html`<g class=${classes.join(" ")}>
    ${hot && html`<rect x=${cx - half - 7} y=${cy - half - 7} width=${half * 2 + 14} height=${half * 2 + 14} rx=${rx + 4} class="mh-hot-ring" />`}
    ${w.surrounded && html`<rect x=${cx - half - 4.5} y=${cy - half - 4.5} width=${half * 2 + 9} height=${half * 2 + 9} rx=${rx + 4} class="mh-closed" />`}
    <rect x=${cx - half} y=${cy - half} width=${half * 2} height=${half * 2} rx=${rx} class="mh-tile-body" />
    ${arrows.map((a) => html`<polygon class="mh-arrow" points=${arrowPoints(a, cx, cy, half)} />`)}
    <polygon class="mh-facing" points=${notch} />
    <circle cx=${cx - half + 13} cy=${cy - half + 13} r="10" class="mh-badge" />
    <text x=${cx - half + 13} y=${cy - half + 17.5} class="mh-badge-letter">${LETTERS[w.seat]}</text>
    <path class="mh-diamond" d=${`M${cx + half - 27} ${cy - half + 13} l5.5 -7 l5.5 7 l-5.5 7 Z`} />
    <text x=${cx + half - 6} y=${cy - half + 18} class="mh-diamonds">${w.diamonds}</text>
    <text x=${cx} y=${strengthY} class=${compact ? "mh-strength mh-strength-big" : "mh-strength"}>${w.strength}</text>
    ${!compact && html`<${Crystals} x=${cx} y=${cy + 18} energy=${w.energy} spirit=${w.spirit} />`}
    ${!compact && html`<text x=${cx} y=${cy + half - 5} class=${`mh-name${name.length > 9 ? " mh-name-long" : ""}`}>${name}</text>`}
  </g>`;
}

// A small tile for the panels (stream, pair, your warrior), arrows facing N or as given.
function MiniTile({ tile, seat, facing = "N", size = 64 }) {
  if (!tile) return null;
  const w = {
    seat,
    alive: true,
    name: tile.name,
    diamonds: tile.diamonds,
    strength: tile.fangs,
    energy: 0,
    spirit: 0,
    facing,
    arrows: turnArrows(tile.arrows, facing),
  };
  return html`<svg class="mh-mini" viewBox="0 0 100 100" width=${size} height=${size} aria-hidden="true">
    <${WarriorTile} x=${0} y=${0} w=${w} compact=${true} />
  </svg>`;
}

function tileWords(tile) {
  if (!tile) return "";
  const arrows = (tile.arrows || []).length ? `arrows ${tile.arrows.join(" ")}` : "no arrows";
  const ability = tile.ability ? `; ${ABILITIES[tile.ability] || tile.ability}` : "";
  return `${tile.name}: ${plural(tile.fangs, "fang")}, ${plural(tile.diamonds, "diamond")}, ${arrows}${ability}`;
}

function warriorWords(w) {
  if (!w) return "";
  if (!w.alive) return `a face-down ${TRIBES[w.seat]} warrior (dead)`;
  const crystals = w.energy || w.spirit ? `, carrying ${crystalsWords(w.energy, w.spirit)}` : "";
  const arrows = (w.arrows || []).length ? `, arrows ${w.arrows.join(" ")}` : "";
  return `${TRIBES[w.seat]} ${w.name}, strength ${w.strength}, ${plural(w.diamonds, "diamond")}, facing ${FACING_WORDS[w.facing] || w.facing}${arrows}${crystals}${w.surrounded ? ", surrounded" : ""}`;
}

// ---------------------------------------------------------------- the board component

export default function Board(props) {
  const { view, legal = [], seat = null, players = [], readonly = false, submit, say, version, outcome } = props;
  const parsed = useMemo(() => parseLegal(readonly ? [] : legal), [legal, readonly]);
  const [pending, setPending] = useState(null); // {space, paid, facing} while placing
  const [finish, setFinish] = useState(null); // {facing, energy, spirit} while ending a placement
  const [message, setMessage] = useState(null); // {kind, text}
  const [busy, setBusy] = useState(false);
  const facingMemo = useRef("N");

  const phase = view ? view.phase : null;
  const mine = seat !== null && seat !== undefined && !readonly;
  const myTurn = mine && (view?.deciding || []).includes(seat) && legal.length > 0;

  // A new version clears what was being built for the old one.
  // The facing chosen while placing carries into the finish phase, and no further.
  useEffect(() => {
    setPending(null);
    setBusy(false);
    setMessage(null);
    if (phase !== "finish") facingMemo.current = "N";
  }, [version]);

  // The finish phase starts with the facing chosen while placing and the most crystals kept.
  useEffect(() => {
    if (phase !== "finish" || !myTurn) {
      setFinish(null);
      return;
    }
    // A facing the legal list lacks (a tutorial offers one action) gives way to one it has.
    const facing = parsed.finish.has(facingMemo.current) ? facingMemo.current
      : parsed.finish.has("N") ? "N" : [...parsed.finish.keys()][0] || "N";
    const options = parsed.finish.get(facing) || [];
    const best = [...options].sort((a, b) => b.energy + b.spirit - (a.energy + a.spirit) || b.spirit - a.spirit)[0];
    setFinish(best ? { facing, energy: best.energy, spirit: best.spirit } : null);
  }, [version, phase, myTurn]);

  const tell = useCallback((text, kind = "error") => {
    setMessage({ kind, text });
  }, []);

  const play = useCallback(async (action, text) => {
    if (readonly) {
      tell("You are watching this match: spectators do not play.");
      return;
    }
    if (busy) return;
    setBusy(true);
    let result;
    try {
      const late = new Promise((resolve) => setTimeout(() => resolve({ ok: false, message: "No answer from the server yet: check the connection and try again." }), 10000));
      result = await Promise.race([submit(action), late]);
    } catch (error) {
      result = { ok: false, message: String(error && error.message ? error.message : error) };
    }
    setBusy(false);
    if (result && result.ok) {
      setMessage(null);
      setPending(null);
    } else {
      tell((result && result.message) || `${text} was not accepted.`);
    }
  }, [submit, readonly, busy, tell]);

  const cancel = useCallback(() => {
    setPending(null);
    setMessage({ kind: "info", text: "Cancelled." });
  }, []);

  useEffect(() => {
    const onKey = (event) => {
      if (event.key === "Escape" && pending) cancel();
      if ((event.key === "r" || event.key === "R") && !event.ctrlKey && !event.metaKey && !event.altKey) {
        const target = event.target;
        if (target && (["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || target.isContentEditable)) return;
        if (pending) turnPending(1);
        else if (finish) turnFinish(1);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  });

  if (!view || !Array.isArray(view.board)) {
    return html`<div class="mh-board"><p>Waiting for the board…</p></div>`;
  }

  const board = view.board;
  const myTile = mine && view.pair ? view.pair[seat] : null;
  const decidingNames = (view.deciding || []).map((s) => seatName(players, s)).join(", ");

  // Why a click cannot be played, or null when the board cannot tell (the server will).
  function whyNot(kind) {
    if (readonly) return "You are watching this match: spectators do not play.";
    if (view.outcome || outcome) return "The match is over.";
    if (!myTurn) return decidingNames ? `Not your turn: ${decidingNames} decides now.` : "Not your turn.";
    if (kind === phase) return null;
    if (phase === "pick") return "First pick a pair of warriors from the stream.";
    if (phase === "order") return "First say which tribe places first.";
    if (phase === "place") return "Place your warrior first: click a highlighted space on the map.";
    if (phase === "finish") return `Finish placing the warrior on ${view.hot}: choose its facing and the crystals to keep, then confirm.`;
    return null;
  }

  function turnPending(step) {
    setPending((p) => {
      if (!p) return p;
      const facing = FACINGS[(FACINGS.indexOf(p.facing) + step + 4) % 4];
      facingMemo.current = facing;
      return { ...p, facing };
    });
  }

  function turnFinish(step) {
    setFinish((f) => {
      if (!f) return f;
      const facing = FACINGS[(FACINGS.indexOf(f.facing) + step + 4) % 4];
      return withFacing(f, facing);
    });
  }

  function withFacing(f, facing) {
    facingMemo.current = facing;
    const options = parsed.finish.get(facing) || [];
    const same = options.find((o) => o.energy === f.energy && o.spirit === f.spirit);
    if (same || !options.length) return { ...f, facing };
    return { facing, energy: options[0].energy, spirit: options[0].spirit };
  }

  function clickSpace(name) {
    const index = spaceIndex(name);
    const space = board[index];
    if (phase === "finish" && name === view.hot && finish) {
      turnFinish(1);
      return;
    }
    if (pending && pending.space === name) {
      turnPending(1);
      return;
    }
    const why = whyNot("place");
    if (why) {
      tell(why);
      return;
    }
    const options = parsed.place.get(name);
    if (!options) {
      if (space.warrior) tell(`${name} already holds a warrior: place yours on a free space.`);
      else if (space.relic) {
        const cost = (view.relic_costs?.[name] || [])[seat];
        const store = view.storage?.[seat] || { energy: 0, spirit: 0 };
        tell(`You cannot buy the Temple Relic on ${name}: it costs ${cost} crystals, at least 1 of them Spirit, and your storage holds ${crystalsWords(store.energy, store.spirit)}.`);
      } else {
        play(name, name); // the server's answer says why
      }
      return;
    }
    const facing = pending ? pending.facing : "N";
    facingMemo.current = facing;
    setPending({ space: name, paid: options[0].paid, facing });
    setMessage(null);
  }

  function confirmPending() {
    if (!pending) return;
    const options = parsed.place.get(pending.space) || [];
    const chosen = options.find((o) => o.paid === pending.paid) || options[0];
    if (!chosen) {
      tell(`${pending.space} is not a legal space now.`);
      return;
    }
    play(chosen.action.id, chosen.action.text);
  }

  function finishAction() {
    if (!finish) return null;
    const options = parsed.finish.get(finish.facing) || [];
    return options.find((o) => o.energy === finish.energy && o.spirit === finish.spirit) || null;
  }

  function confirmFinish() {
    const chosen = finishAction();
    if (!chosen) {
      tell("That facing and storage are not legal: storage keeps at most 4 crystals.");
      return;
    }
    play(chosen.action.id, chosen.action.text);
  }

  function pickPair(number) {
    const why = whyNot("pick");
    if (why) return tell(why);
    const action = parsed.pick.get(number);
    if (!action) return play(`pick ${number}`, `pick ${number}`);
    play(action.id, action.text);
  }

  function chooseFirst(letter) {
    const why = whyNot("order");
    if (why) return tell(why);
    const action = parsed.first.get(letter);
    if (!action) return play(`first ${letter}`, `first ${letter}`);
    play(action.id, action.text);
  }

  // ------------------------------------------------------------ the map

  const cells = [];
  for (let row = SIZE - 1; row >= 0; row--) {
    for (let col = 0; col < SIZE; col++) {
      const name = spaceName(col, row);
      const space = board[row * SIZE + col] || { space: name };
      cells.push(renderCell(col, row, name, space));
    }
  }

  function renderCell(col, row, name, space) {
    const x = cellX(col);
    const y = cellY(row);
    const legalHere = parsed.place.has(name) && phase === "place";
    const isPending = pending && pending.space === name;
    const isHot = view.hot === name;
    const crystals = space.crystals || { energy: 0, spirit: 0 };
    let content = [];
    let label = name;
    if (space.warrior) {
      let w = space.warrior;
      if (isHot && finish) {
        const store = view.storage?.[seat] || { energy: 0, spirit: 0 };
        const addE = store.energy - finish.energy;
        const addS = store.spirit - finish.spirit;
        const base = turnArrows(w.arrows, FACINGS[(4 - FACINGS.indexOf(w.facing || "N")) % 4]);
        w = { ...w, facing: finish.facing, arrows: turnArrows(base, finish.facing), energy: w.energy + addE, spirit: w.spirit + addS, strength: w.strength + addE };
      }
      content.push(html`<${WarriorTile} x=${x} y=${y} w=${w} hot=${isHot} ghost=${isHot && !!finish} />`);
      label = `${name}: ${warriorWords(w)}${isHot ? " (being placed)" : ""}`;
    } else {
      if (space.relic && !isPending) {
        const costs = view.relic_costs?.[name] || [];
        content.push(html`<${Temple} x=${x + CELL / 2} y=${y + CELL / 2 - 8} />`);
        if (costs.length) {
          content.push(html`<text x=${x + CELL / 2} y=${y + CELL - 14} class="mh-cost">
            <tspan class="mh-cost-b">B${costs[0]}</tspan> · <tspan class="mh-cost-w">W${costs[1]}</tspan></text>`);
        }
        label = `${name}: Temple Relic, costs Balan ${costs[0]}, Wazu ${costs[1]} crystals`;
      } else if ((crystals.energy || crystals.spirit) && !isPending) {
        content.push(html`<${Crystals} x=${x + CELL / 2} y=${y + CELL / 2} energy=${crystals.energy} spirit=${crystals.spirit} />`);
        label = `${name}: ${crystalsWords(crystals.energy, crystals.spirit)} crystal${crystals.energy + crystals.spirit === 1 ? "" : "s"}`;
      } else {
        label = `${name}: empty`;
      }
      if (isPending && myTile) {
        const ghost = {
          seat,
          alive: true,
          name: myTile.name,
          diamonds: myTile.diamonds,
          strength: myTile.fangs + Math.min(supportAt(board, name, seat), view.supply ?? 99),
          energy: Math.min(supportAt(board, name, seat), view.supply ?? 99),
          spirit: 0,
          facing: pending.facing,
          arrows: turnArrows(myTile.arrows, pending.facing),
        };
        content.push(html`<${WarriorTile} x=${x} y=${y} w=${ghost} ghost=${true} />`);
      }
    }
    const arrowsIn = mapArrows(col, row).map((side) => {
      const cx = x + CELL / 2;
      const cy = y + CELL / 2;
      const [dx, dy0] = STEP[side];
      const dy = -dy0;
      const bx = cx + dx * 47;
      const by = cy + dy * 47;
      const pts = [[bx - dx * 6, by - dy * 6], [bx + dy * 7, by + dx * 7], [bx - dy * 7, by - dx * 7]];
      return html`<polygon class="mh-map-arrow" points=${pts.map((p) => p.join(",")).join(" ")} />`;
    });
    const interactive = !readonly;
    const action = legalHere
      ? (space.relic ? "buy the Temple Relic and place your warrior here" : "place your warrior here")
      : isHot && finish ? "turn the warrior a quarter turn" : null;
    const classes = ["mh-cell", (row + col) % 2 ? "mh-cell-dark" : "mh-cell-light"];
    if (legalHere) classes.push("mh-target");
    if (isPending) classes.push("mh-pending");
    if (isHot) classes.push("mh-hot-cell");
    const onKey = (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        clickSpace(name);
      }
    };
    return html`<g class=${classes.join(" ")} data-space=${name}
        tabindex=${interactive && (legalHere || (isHot && finish) || isPending) ? "0" : undefined}
        role=${interactive ? "button" : "img"} aria-label=${action ? `${label}; ${action}` : label}
        onClick=${() => clickSpace(name)} onKeyDown=${interactive ? onKey : undefined}>
      <rect x=${x} y=${y} width=${CELL} height=${CELL} class="mh-cell-bg" />
      ${arrowsIn}
      ${legalHere && html`<rect x=${x + 4} y=${y + 4} width=${CELL - 8} height=${CELL - 8} rx="8" class="mh-target-mark" />`}
      ${content}
      <rect x=${x + 2} y=${y + 2} width=${CELL - 4} height=${CELL - 4} rx="6" class="mh-focus" />
    </g>`;
  }

  const track = Number(view.spirit_track || 0);
  const trackCells = [];
  const trackW = BOARD / (TRACK_LENGTH + 1);
  for (let i = 0; i <= TRACK_LENGTH; i++) {
    const x = LEFT + i * trackW;
    const here = Math.min(track, TRACK_LENGTH) === i;
    trackCells.push(html`<g class=${`mh-track-cell${here ? " mh-track-here" : ""}`}>
      <rect x=${x + 1} y=${TRACK_Y + 16} width=${trackW - 2} height="26" rx="4" />
      <text x=${x + trackW / 2} y=${TRACK_Y + 34}>${i === TRACK_LENGTH && track > TRACK_LENGTH ? track : i}</text>
    </g>`);
  }

  const svg = html`<svg class="mh-map" viewBox=${`0 0 ${WIDTH} ${HEIGHT}`} role="group"
      aria-label=${`Maatatahay map, round ${view.round}, Spirit Track at ${track}`}>
    <defs>
      <pattern id="mh-hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <line x1="0" y1="0" x2="0" y2="8" class="mh-hatch-line" />
      </pattern>
    </defs>
    <rect x=${LEFT - 4} y=${TOP - 4} width=${BOARD + 8} height=${BOARD + 8} rx="8" class="mh-frame" />
    ${cells}
    ${[0, 1, 2, 3, 4].map((row) => html`<text x=${LEFT - 13} y=${cellY(row) + CELL / 2 + 5} class="mh-coord">${row + 1}</text>`)}
    ${[0, 1, 2, 3, 4].map((col) => html`<text x=${cellX(col) + CELL / 2} y=${TOP + BOARD + 20} class="mh-coord">${FILES[col]}</text>`)}
    <text x=${LEFT} y=${TRACK_Y + 10} class="mh-track-title">Spirit Track · ${track} ${track === 1 ? "warrior has" : "warriors have"} died</text>
    ${trackCells}
  </svg>`;

  // ------------------------------------------------------------ the panels

  const prompt = promptText();
  function promptText() {
    if (view.outcome || outcome) return "The match is over.";
    if (readonly) return `Round ${view.round}: ${decidingNames || "nobody"} decides.`;
    if (!myTurn) return `Round ${view.round}: waiting for ${decidingNames || "the other seat"}.`;
    if (phase === "pick") return "Your turn: pick a pair of warriors from the stream.";
    if (phase === "order") {
      const pair = view.pair || [];
      const equal = pair[0] && pair[1] && pair[0].fangs === pair[1].fangs;
      return equal
        ? "Equal fangs: as the active seat, you decide which tribe places first."
        : "You received the weaker warrior: you decide which tribe places first.";
    }
    if (phase === "place") return pending ? `Place ${myTile ? myTile.name : "your warrior"} on ${pending.space}? Click it again to turn it (or press R), then confirm.` : `Your turn: click a highlighted space to place ${myTile ? myTile.name : "your warrior"}.`;
    if (phase === "finish") return `Turn the warrior on ${view.hot} (click it or press R) and choose the crystals to keep in storage, then confirm.`;
    return "";
  }

  let pendingText = null;
  if (pending) {
    const options = parsed.place.get(pending.space) || [];
    const chosen = options.find((o) => o.paid === pending.paid) || options[0];
    pendingText = chosen ? chosen.action.text : pending.space;
  }
  const finishChosen = finishAction();

  const over = view.outcome || outcome;
  const classes = ["mh-board"];
  if (myTurn) classes.push("mh-my-turn");
  return html`<div class=${classes.join(" ")} data-testid="maatatahay-board" data-phase=${phase}
      data-version=${version} data-my-turn=${myTurn ? "true" : "false"}>
    <div class="mh-map-wrap">${svg}</div>
    <div class="mh-side">
      <section class=${`mh-prompt${myTurn ? " mh-prompt-turn" : ""}`} aria-live="polite">
        <p class="mh-prompt-text" data-testid="mh-prompt">${prompt}</p>
        ${pending && renderPendingPanel()}
        ${phase === "finish" && finish && myTurn && renderFinishPanel()}
        ${message && html`<p class=${`mh-message mh-${message.kind}`} role=${message.kind === "error" ? "alert" : "status"}
          data-testid="mh-message">${message.text}</p>`}
      </section>
      ${over && renderOutcome(over)}
      ${phase === "order" && renderOrder()}
      ${renderSeats()}
      ${renderStream()}
      ${renderTable()}
      ${renderLegend()}
    </div>
  </div>`;

  function renderPendingPanel() {
    const options = parsed.place.get(pending.space) || [];
    const space = board[spaceIndex(pending.space)];
    const cost = (view.relic_costs?.[pending.space] || [])[seat];
    const support = Math.min(supportAt(board, pending.space, seat), view.supply ?? 99);
    const ground = space && space.crystals ? space.crystals : { energy: 0, spirit: 0 };
    return html`<div class="mh-pending-panel">
      <div class="mh-row">
        ${myTile && html`<${MiniTile} tile=${myTile} seat=${seat} facing=${pending.facing} size=${56} />`}
        <div>
          <div><b>${myTile ? myTile.name : "Warrior"}</b> → <b>${pending.space}</b>, facing ${FACING_WORDS[pending.facing]}</div>
          <div class="mh-small">${space && space.relic ? `Temple Relic: pay ${plural(cost, "crystal")}, draw 2 from the bag` : `picks up ${crystalsWords(ground.energy, ground.spirit)}`}${support ? `; support gives +${support} Energy` : ""}</div>
        </div>
      </div>
      ${options.length > 1 || (options[0] && options[0].paid) ? html`<div class="mh-row mh-wrap" role="group" aria-label="How to pay for the Temple Relic">
        ${options.map((o) => html`<button type="button" class=${`mh-choice${o.paid === pending.paid ? " mh-chosen" : ""}`}
          aria-pressed=${o.paid === pending.paid ? "true" : "false"} data-paid=${o.paid}
          onClick=${() => setPending({ ...pending, paid: o.paid })}>Pay ${o.paid} Spirit + ${cost - o.paid} Energy</button>`)}
      </div>` : null}
      ${renderFacingButtons(pending.facing, (f) => { facingMemo.current = f; setPending({ ...pending, facing: f }); })}
      <div class="mh-row mh-wrap">
        <button type="button" class="mh-confirm" data-testid="mh-confirm" disabled=${busy} onClick=${confirmPending}>
          Place: <code>${pendingText}</code></button>
        <button type="button" class="mh-cancel" onClick=${cancel}>Cancel (Esc)</button>
      </div>
      <p class="mh-small">The facing is settled in the second step, with the crystals you keep.</p>
    </div>`;
  }

  function renderFacingButtons(current, choose) {
    return html`<div class="mh-row mh-wrap mh-facings" role="group" aria-label="Facing">
      <button type="button" class="mh-choice" aria-label="Turn counter-clockwise" onClick=${() => choose(FACINGS[(FACINGS.indexOf(current) + 3) % 4])}>⟲</button>
      ${FACINGS.map((f) => html`<button type="button" class=${`mh-choice${f === current ? " mh-chosen" : ""}`}
        aria-pressed=${f === current ? "true" : "false"} data-facing=${f} aria-label=${`Face ${FACING_WORDS[f]}`}
        onClick=${() => choose(f)}>${f}</button>`)}
      <button type="button" class="mh-choice" aria-label="Turn clockwise" onClick=${() => choose(FACINGS[(FACINGS.indexOf(current) + 1) % 4])}>⟳</button>
    </div>`;
  }

  function renderFinishPanel() {
    const store = view.storage?.[seat] || { energy: 0, spirit: 0 };
    const options = parsed.finish.get(finish.facing) || [];
    const allowed = (e, s) => options.some((o) => o.energy === e && o.spirit === s);
    const setKeep = (e, s) => {
      if (allowed(e, s)) setFinish({ ...finish, energy: e, spirit: s });
    };
    const hot = view.hot ? board[spaceIndex(view.hot)]?.warrior : null;
    const addE = store.energy - finish.energy;
    const addS = store.spirit - finish.spirit;
    const stepper = (kind, value, total, other) => html`<div class="mh-stepper" role="group" aria-label=${`${kind} kept in storage`}>
      <span class=${`mh-swatch mh-${kind.toLowerCase()}`} aria-hidden="true"></span>
      <span class="mh-stepper-label">${kind}</span>
      <button type="button" class="mh-choice" aria-label=${`Keep one ${kind} fewer`} data-testid=${`mh-keep-${kind.toLowerCase()}-less`}
        disabled=${kind === "Energy" ? !allowed(value - 1, other) : !allowed(other, value - 1)}
        onClick=${() => (kind === "Energy" ? setKeep(value - 1, other) : setKeep(other, value - 1))}>−</button>
      <output aria-live="polite">${value}</output><span class="mh-small">of ${total}</span>
      <button type="button" class="mh-choice" aria-label=${`Keep one ${kind} more`} data-testid=${`mh-keep-${kind.toLowerCase()}-more`}
        disabled=${kind === "Energy" ? !allowed(value + 1, other) : !allowed(other, value + 1)}
        onClick=${() => (kind === "Energy" ? setKeep(value + 1, other) : setKeep(other, value + 1))}>+</button>
    </div>`;
    return html`<div class="mh-finish-panel">
      ${renderFacingButtons(finish.facing, (f) => setFinish(withFacing(finish, f)))}
      <div class="mh-small">Keep in storage (at most ${STORAGE_LIMIT}); the rest goes onto the warrior:</div>
      ${stepper("Energy", finish.energy, store.energy, finish.spirit)}
      ${stepper("Spirit", finish.spirit, store.spirit, finish.energy)}
      <div class="mh-small">Onto the warrior: ${crystalsWords(addE, addS)}${hot ? ` → strength ${hot.strength + addE}` : ""}</div>
      <div class="mh-row mh-wrap">
        <button type="button" class="mh-confirm" data-testid="mh-confirm" disabled=${busy || !finishChosen} onClick=${confirmFinish}>
          Confirm: <code>${finishChosen ? finishChosen.action.text : "—"}</code></button>
      </div>
    </div>`;
  }

  function renderOrder() {
    const decider = view.decider;
    const pair = view.pair || [];
    const canChoose = myTurn && parsed.first.size > 0;
    return html`<section class="mh-panel" aria-label="Who places first">
      <h3>Who places first?</h3>
      <p class="mh-small">${seatName(players, decider)} decides: ${pair[0] && pair[1] && pair[0].fangs !== pair[1].fangs ? "it received the weaker warrior" : "equal fangs, so the active seat decides"}.</p>
      <div class="mh-row mh-wrap">
        ${LETTERS.map((letter, s) => html`<button type="button" class=${`mh-first mh-first-${s}`} data-testid=${`mh-first-${letter}`}
          disabled=${busy || !canChoose}
          onClick=${() => chooseFirst(letter)}>
          <span class=${`mh-dot mh-dot-${s}`}>${letter}</span> ${TRIBES[s]} places first <code>first ${letter}</code></button>`)}
      </div>
    </section>`;
  }

  function renderSeats() {
    return html`<section class="mh-seats" aria-label="Seats">
      ${[0, 1].map((s) => {
        const store = view.storage?.[s] || { energy: 0, spirit: 0 };
        const relics = view.relics?.[s] || [];
        const lost = view.lost?.[s] || 0;
        const tile = view.pair ? view.pair[s] : null;
        const deciding = (view.deciding || []).includes(s);
        return html`<div class=${`mh-seat mh-seat-${s}${deciding ? " mh-deciding" : ""}`} data-testid=${`mh-seat-${s}`}>
          <div class="mh-seat-head">
            <span class=${`mh-dot mh-dot-${s}`} aria-hidden="true">${LETTERS[s]}</span>
            <span class="mh-seat-name">${seatName(players, s)}</span>
            <span class="mh-small">${[s === seat ? "you" : "", view.active === s ? "active" : ""].filter(Boolean).join(" · ")}</span>
            ${deciding && html`<span class="mh-tag">to decide</span>`}
            <span class="mh-score" title="points if the match ended now">${(view.scores || [])[s] ?? 0}<small> pts</small></span>
          </div>
          <div class="mh-seat-body">
            <span title="storage">Storage <span class="mh-inline-crystal mh-energy" aria-hidden="true"></span>${store.energy}
              <span class="mh-inline-crystal mh-spirit" aria-hidden="true"></span>${store.spirit}
              <span class="mh-sr">${crystalsWords(store.energy, store.spirit)}</span></span>
            <span>Relics ${relics.length}${relics.length ? ` (#${relics.join(", #")})` : ""}</span>
            <span data-testid=${`mh-lost-${s}`} title=${`The match ends after a turn in which a tribe has lost ${LOST_TO_END} warriors or more`}>Warriors lost${" "}<span class="mh-pips" aria-hidden="true">${Array.from({ length: Math.max(lost, LOST_TO_END) }, (_, i) => html`<i class=${i < lost ? (i < LOST_TO_END ? "mh-pip-on" : "mh-pip-on mh-pip-over") : ""}></i>`)}</span>${" "}${lost} <small>(${LOST_TO_END} end the match)</small></span>
            <span>Deck ${(view.decks || [])[s] ?? 0}</span>
          </div>
          ${tile && html`<div class="mh-seat-tile">
            <${MiniTile} tile=${tile} seat=${s} size=${44} />
            <span class="mh-small">${s === seat && phase === "place" && myTurn ? "Your warrior to place: " : "Warrior of this round: "}${tileWords(tile)}</span>
          </div>`}
        </div>`;
      })}
    </section>`;
  }

  function renderStream() {
    const stream = view.stream || [];
    const picking = phase === "pick";
    return html`<section class="mh-panel" aria-label="The stream">
      <h3>Stream ${picking && myTurn ? html`<span class="mh-tag">pick one</span>` : null}</h3>
      ${stream.length === 0 ? html`<p class="mh-small">The stream is empty.</p>` : null}
      <div class="mh-stream">
        ${stream.map((pair, i) => {
          const number = i + 1;
          const legalPick = parsed.pick.has(number);
          const label = `Pair ${number}: Balan ${tileWords(pair[0])}; Wazu ${tileWords(pair[1])}${legalPick ? " — pick this pair" : ""}`;
          return html`<button type="button" class=${`mh-pair${legalPick ? " mh-pair-legal" : ""}`} data-testid=${`mh-pick-${number}`}
            aria-label=${label} disabled=${busy} onClick=${() => pickPair(number)}>
            <span class="mh-pair-number">${number}</span>
            <span class="mh-pair-tiles">
              ${[0, 1].map((s) => html`<span class="mh-pair-tile"><${MiniTile} tile=${pair[s]} seat=${s} size=${54} />
                <span class="mh-pair-name">${pair[s] ? pair[s].name : ""}</span></span>`)}
            </span>
            ${legalPick ? html`<code>pick ${number}</code>` : null}
          </button>`;
        })}
      </div>
    </section>`;
  }

  function renderTable() {
    const bag = view.bag || { energy: 0, spirit: 0 };
    return html`<section class="mh-panel mh-table-info">
      <span>Round ${view.round}</span>
      <span>Free spaces ${view.free_spaces}</span>
      <span>Bag <span class="mh-inline-crystal mh-energy" aria-hidden="true"></span>${bag.energy} <span class="mh-inline-crystal mh-spirit" aria-hidden="true"></span>${bag.spirit}</span>
      <span>Supply <span class="mh-inline-crystal mh-energy" aria-hidden="true"></span>${view.supply}</span>
    </section>`;
  }

  function renderOutcome(result) {
    const breakdown = result.detail?.breakdown || [];
    return html`<section class="mh-panel mh-outcome" data-testid="mh-outcome">
      <h3>${outcomeWords(result, players)}</h3>
      ${breakdown.length ? html`<table class="mh-score-table">
        <thead><tr><th></th><th>Diamonds</th><th>Spirit</th><th>Relics</th><th>Total</th></tr></thead>
        <tbody>${breakdown.map((b, s) => html`<tr><th><span class=${`mh-dot mh-dot-${s}`} aria-hidden="true">${LETTERS[s]}</span> ${seatName(players, s)}</th><td>${b.diamonds}</td><td>${b.spirit}</td><td>${b.relics}</td><td><b>${b.total}</b></td></tr>`)}</tbody>
      </table>` : null}
    </section>`;
  }

  function renderLegend() {
    return html`<details class="mh-panel mh-legend">
      <summary>Key to the board</summary>
      <ul>
        <li><span class="mh-dot mh-dot-0">B</span> Balan (round tiles) · <span class="mh-dot mh-dot-1">W</span> Wazu (square tiles)</li>
        <li>Big number: strength (fangs + Energy on it + ability) · <span class="mh-key-diamond">◆</span> diamonds it scores alive</li>
        <li>Triangles on a tile's edge: its support arrows, turned the way it faces; the small notch inside shows the facing</li>
        <li><span class="mh-inline-crystal mh-energy"></span> Energy crystal (adds strength) · <span class="mh-inline-crystal mh-spirit"></span> Spirit crystal (1 point on a living warrior)</li>
        <li>Dashed line around a tile: the warrior is closed on all four sides · hatched tile ✝: face down, dead</li>
        <li>Temple: an unclaimed Temple Relic; “B4 · W3” is its cost to each tribe · grey triangles at the edge: map arrows (+1 Energy each)</li>
        <li>Green dashed spaces: where you may place now · yellow ring: the warrior being placed</li>
      </ul>
    </details>`;
  }
}

function outcomeWords(result, players) {
  const winners = result.winners || [];
  const reason = REASONS[result.reason] || result.reason || "";
  const scores = (result.scores || []).map((s) => Math.round(Number(s))).join("–");
  if (result.draw || !winners.length) return `The match is a draw${scores ? ` (${scores})` : ""}${reason ? `: ${reason}` : ""}.`;
  const names = winners.map((s) => seatName(players, s)).join(" and ");
  return `${names} ${winners.length === 1 ? "wins" : "win"}${scores ? ` ${scores}` : ""}${reason ? `: ${reason}` : ""}.`;
}

// ---------------------------------------------------------------- the event log

export function describeEvent(event, ctx = {}) {
  if (!event || typeof event !== "object") return event == null ? null : String(event);
  const players = ctx.players || [];
  const who = (s) => (typeof s === "number" ? seatName(players, s) : "The table");
  const tileName = (id) => (TILES[id] ? TILES[id][0] : `warrior ${id}`);
  const tileShort = (id) => (TILES[id] ? `${TILES[id][0]} (${plural(TILES[id][1], "fang")})` : `warrior ${id}`);
  const n = (v) => Number(v) || 0;
  switch (event.kind) {
    case "pick": {
      const [b, w] = event.tiles || [];
      return `${who(event.seat)} picks pair ${event.pair}: Balan ${tileShort(b)}, Wazu ${tileShort(w)}.`;
    }
    case "order":
      return event.first === event.seat
        ? `${who(event.seat)} chooses to place first.`
        : `${who(event.seat)} lets ${who(event.first)} place first.`;
    case "place":
      return `${who(event.seat)} places ${tileName(event.tile)} on ${event.space}.`;
    case "collect":
      return `${who(event.seat)} picks up ${crystalsWords(n(event.energy), n(event.spirit))} into storage.`;
    case "relic": {
      const paid = event.paid || {};
      const drawn = event.drawn || {};
      return `${who(event.seat)} takes the Temple Relic on ${event.space} (relic #${event.order}), pays ${crystalsWords(n(paid.energy), n(paid.spirit))} and draws ${crystalsWords(n(drawn.energy), n(drawn.spirit))}.`;
    }
    case "support":
      return `${plural(n(event.arrows), "support arrow")} give${n(event.arrows) === 1 ? "s" : ""} ${who(event.seat)}'s warrior ${n(event.energy)} Energy.`;
    case "finish": {
      const added = event.added || {};
      const put = n(added.energy) || n(added.spirit) ? `, puts ${crystalsWords(n(added.energy), n(added.spirit))} on it` : "";
      return `${who(event.seat)} turns the warrior on ${event.space} to face ${FACING_WORDS[event.facing] || event.facing}${put}.`;
    }
    case "fight":
      return `Fight on ${event.space}: ${who(event.seat)}'s surrounded warrior, strength ${event.strength} against ${event.against}, ${event.survives ? "survives" : "dies"}.`;
    case "death":
      return `${who(event.seat)}'s warrior on ${event.space} dies and is turned face down.`;
    case "spirit_transfer":
      return `${plural(n(event.spirit), "Spirit crystal")} of the dead go${n(event.spirit) === 1 ? "es" : ""} to the warrior on ${event.to}.`;
    case "spirit_removed":
      return `${plural(n(event.spirit), "Spirit crystal")} of the dead leave${n(event.spirit) === 1 ? "s" : ""} the game.`;
    case "spirit_track":
      return n(event.advance)
        ? `End of the round: the Spirit Track moves ${n(event.advance)} forward, to ${n(event.at)}.`
        : `End of the round: no warrior died; the Spirit Track stays at ${n(event.at)}.`;
    case "game_over":
      return `The match is over: ${outcomeWords(event, players)}`;
    default: {
      const fields = Object.entries(event)
        .filter(([k, v]) => k !== "kind" && k !== "seat" && v !== null && typeof v !== "object")
        .map(([k, v]) => `${k} ${v}`)
        .join(", ");
      const kind = String(event.kind || event.type || "event").replace(/_/g, " ");
      return `${typeof event.seat === "number" ? `${who(event.seat)}: ` : ""}${kind}${fields ? ` (${fields})` : ""}`;
    }
  }
}
