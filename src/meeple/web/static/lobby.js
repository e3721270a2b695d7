// The lobby: my matches (your turn first), the open rooms, join by code, watch a match,
// a solo match against bots and a custom room.

import { html, useEffect, useState, useCallback } from "./vendor/preact-htm.js";
import { api, gameName, gameTitle } from "./api.js";
import { LearnToPlay } from "./tutorial.js";
import { RankedCard } from "./ranked.js";
import { DailyCard } from "./daily.js";

let gamesCache = null;
let botsCache = null;
let healthCache = null;

export function useGames() {
  const [games, setGames] = useState(gamesCache || []);
  useEffect(() => {
    if (gamesCache) return;
    api("GET", "/api/games").then((reply) => {
      if (reply.ok) { gamesCache = reply.data; setGames(reply.data); }
    });
  }, []);
  return games;
}

export function useBots() {
  const [bots, setBots] = useState(botsCache);
  useEffect(() => {
    if (botsCache) return;
    api("GET", "/api/bots").then((reply) => {
      if (reply.ok) { botsCache = reply.data; setBots(reply.data); }
    });
  }, []);
  return bots;
}

function useHealth() {
  const [health, setHealth] = useState(healthCache);
  useEffect(() => {
    if (healthCache) return;
    api("GET", "/api/health").then((reply) => {
      if (reply.ok) { healthCache = reply.data; setHealth(reply.data); }
    });
  }, []);
  return health;
}

// Poll a GET every `ms` while the lobby is shown.
function usePoll(path, ms) {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const load = useCallback(async () => {
    const reply = await api("GET", path);
    if (reply.ok) { setData(reply.data); setError(null); } else setError(reply.message);
  }, [path]);
  useEffect(() => {
    load();
    const timer = setInterval(() => { if (!document.hidden) load(); }, ms);
    return () => clearInterval(timer);
  }, [load, ms]);
  return [data, error, load];
}

// The games as choices: one per game, its current rules (the newest version); the older
// versions of the one chosen are offered under "Advanced".
function gameChoices(games) {
  const newest = new Map();
  for (const g of games) {
    if (!newest.has(g.name) || newest.get(g.name).version < g.version) newest.set(g.name, g);
  }
  return [...newest.values()].map((g) => ({ value: g.id, name: g.name, label: g.title || g.name }));
}

// The versions of one game's rules, newest first.
function versionsOf(games, name) {
  return games.filter((g) => g.name === name).sort((a, b) => b.version - a.version);
}

// Two teams at n seats, seat 0 always in team 1: "112", "121", "122", ...
function teamPresets(seats) {
  const found = [];
  for (let mask = 1; mask < 1 << (seats - 1); mask++) {
    let text = "1";
    for (let s = 1; s < seats; s++) text += mask & (1 << (s - 1)) ? "2" : "1";
    found.push(text);
  }
  return found.sort();
}

// The names a game gives its seats where they are fixed before a match (Maiterra's four
// houses' colours, as its board draws them; Maatatahay's two tribes), so the forms' seats
// and teams read as the board will name them; else "seat N" (Manafields' sides are the
// factions chosen in the same form).
const SEAT_WORDS = { maiterra: ["Red", "Blue", "Green", "Gold"], maatatahay: ["Balan", "Wazu"] };

function seatWord(game, seat) {
  const words = SEAT_WORDS[gameName(game || "")];
  return words && words[seat] ? words[seat] : `seat ${seat}`;
}

// A teams option ("1212") in words: "Red & Green vs Blue & Gold".
export function teamsInWords(game, teams) {
  const sides = {};
  [...teams].forEach((t, seat) => { (sides[t] = sides[t] || []).push(seatWord(game, seat)); });
  return Object.values(sides).map((names) => names.join(" & ")).join(" vs ");
}

// The factions a game's seats choose from, when each seat plays one (options faction0,
// faction1, ...), with a line on each from the rule text: its passive rule and its Faction
// Ability (5 Morale).
export const FACTIONS = {
  humans: ["Humans", "Troops next to a friend deal +1 Damage in a fight; ability: until your next turn each of your units counts as 3 for holding objectives"],
  elves: ["Elves", "a unit still next to an enemy after a fight may move for free (not Cavalry); ability: teleport 3 units to empty objective squares"],
  orcs: ["Orcs", "injured Troops roll 7 more dice in a fight; ability: the first 3 Fight Orders this turn cost no Order Points"],
  undead: ["Undead", "an enemy dying within 5 squares of an Undead Hero rises as your Zombie; ability: 3 Zombies blow up, 3 Damage to every unit next to them"],
};

export function factionTitle(name) {
  return FACTIONS[name] ? FACTIONS[name][0] : String(name).charAt(0).toUpperCase() + String(name).slice(1);
}

// A picker of the factions: one radio button each, named, with its line.
export function FactionPicker({ legend, name, choices, value, onChange, extra }) {
  return html`<fieldset class="factions" data-testid=${name}>
    <legend>${legend}</legend>
    ${extra && html`<label class="faction"><input type="radio" name=${name} value="" checked=${value === ""}
      onChange=${() => onChange("")} /> <b>${extra}</b></label>`}
    ${choices.map((f) => html`<label class="faction"><input type="radio" name=${name} value=${f} checked=${value === f}
      onChange=${() => onChange(f)} /> <b>${factionTitle(f)}</b>${FACTIONS[f] ? html` <small>${FACTIONS[f][1]}</small>` : ""}</label>`)}
  </fieldset>`;
}

// The bots a form offers (GET /api/bots's ladder, weakest first), each by its strength.
export function ladderOf(bots) {
  return bots && bots.ladder ? bots.ladder : [];
}

export function levelWords(step) {
  return `${step.label} — ${step.plays}`;
}

function defaults(info) {
  const options = {};
  for (const o of info.options || []) options[o.name] = o.default;
  return options;
}

// The game, seats and options of a new match; `setup` = {game, seats, options}.
function GameSetup({ games, setup, onChange, idPrefix, mine }) {
  const choices = gameChoices(games);
  const info = games.find((g) => g.id === setup.game);
  const versions = info ? versionsOf(games, info.name) : [];
  const pick = (gameId) => {
    const next = games.find((g) => g.id === gameId);
    onChange({ game: gameId, seats: next ? next.min_seats : 2, options: next ? defaults(next) : {} });
  };
  useEffect(() => {
    if (!info && choices.length) pick(choices[0].value);
  }, [games.length]);
  if (!info) return html`<p>Loading the games…</p>`;
  const setOption = (name, value) => onChange({ ...setup, options: { ...setup.options, [name]: value } });
  const seatCounts = [];
  for (let n = info.min_seats; n <= info.max_seats; n++) seatCounts.push(n);
  const id = (name) => `${idPrefix}-${name}`;
  const isFaction = (o) => /^faction\d+$/.test(o.name) && o.choices;
  const factions = (info.options || []).filter(isFaction);
  const rules = (info.options || []).filter((o) => o.name !== "teams" && !isFaction(o));
  return html`
    <div class="field"><label for=${id("game")}>Game</label>
      <select id=${id("game")} name="game" value=${versions.length && versions[0].id} onChange=${(e) => pick(e.target.value)}>
        ${choices.map((c) => html`<option value=${c.value}>${c.label}</option>`)}
      </select></div>
    ${seatCounts.length > 1 && html`<div class="field"><label for=${id("seats")}>Seats</label>
      <select id=${id("seats")} name="seats" value=${setup.seats}
        onChange=${(e) => onChange({ ...setup, seats: Number(e.target.value),
          options: { ...setup.options, ...(info.options.some((o) => o.name === "teams") ? { teams: "" } : {}) } })}>
        ${seatCounts.map((n) => html`<option value=${n}>${n} seats</option>`)}
      </select></div>`}
    ${(info.options || []).some((o) => o.name === "teams") && setup.seats >= 3 && html`<div class="field">
      <label for=${id("teams")}>Teams</label>
      <select id=${id("teams")} name="teams" value=${setup.options.teams || ""} onChange=${(e) => setOption("teams", e.target.value)}>
        <option value="">Everyone against everyone</option>
        ${teamPresets(setup.seats).map((t) => html`<option value=${t}>${teamsInWords(info.name, t)}</option>`)}
      </select></div>`}
    ${factions.map((o) => {
      const seat = Number(o.name.slice("faction".length));
      const legend = mine === undefined ? `Faction of ${seatWord(info.name, seat)}${seat === 0 ? " (plays first)" : ""}`
        : seat === mine ? "Your faction" : `The bot's faction (${seatWord(info.name, seat)})`;
      return html`<${FactionPicker} legend=${legend} name=${id(o.name)} choices=${o.choices}
        value=${setup.options[o.name]} onChange=${(f) => setOption(o.name, f)} />`;
    })}
    ${rules.length > 0 && html`<details class="options"><summary>Rule options (${rules.length})</summary>
      ${rules.map((o) => optionField(o, setup.options[o.name], setOption, id))}
    </details>`}
    ${versions.length > 1 && html`<details class="options"><summary>Advanced: rules version</summary>
      <div class="field"><label for=${id("version")}>Rules version</label>
        <select id=${id("version")} name="version" value=${setup.game} onChange=${(e) => pick(e.target.value)}>
          ${versions.map((v, i) => html`<option value=${v.id}>version ${v.version}${i === 0 ? " (current rules)" : " (older rules)"}</option>`)}
        </select></div>
    </details>`}`;
}

// One rule option: a choice (select), a yes/no (checkbox), a number or a text.
function optionField(o, value, setOption, id) {
  const label = o.name.replace(/_/g, " ");
  if (o.choices) {
    return html`<div class="field"><label for=${id(o.name)}>${label}</label>
      <select id=${id(o.name)} name=${o.name} value=${String(value)} aria-describedby=${id(`${o.name}-hint`)}
        onChange=${(e) => setOption(o.name, e.target.value)}>
        ${o.choices.map((c) => html`<option value=${String(c)}>${String(c)}</option>`)}
      </select><small class="hint" id=${id(`${o.name}-hint`)}>${o.description}</small></div>`;
  }
  if (typeof o.default === "boolean") {
    return html`<div class="field check"><label><input type="checkbox" name=${o.name} checked=${!!value}
      onChange=${(e) => setOption(o.name, e.target.checked)} /> ${label}</label>
      <small class="hint">${o.description}</small></div>`;
  }
  if (typeof o.default === "number") {
    return html`<div class="field"><label for=${id(o.name)}>${label}</label>
      <input id=${id(o.name)} type="number" name=${o.name} min=${o.low} max=${o.high} value=${value}
        onInput=${(e) => setOption(o.name, Number(e.target.value))} />
      <small class="hint">${o.description}</small></div>`;
  }
  return html`<div class="field"><label for=${id(o.name)}>${label}</label>
    <input id=${id(o.name)} name=${o.name} value=${value || ""} onInput=${(e) => setOption(o.name, e.target.value)} />
    <small class="hint">${o.description}</small></div>`;
}

function cleanOptions(setup) {
  const options = { ...setup.options };
  if ("teams" in options && (!options.teams || setup.seats < 3)) delete options.teams;
  return options;
}

function SoloForm({ games }) {
  const bots = useBots();
  const [setup, setSetup] = useState({ game: "", seats: 2, options: {} });
  const [mine, setMine] = useState(0);
  const [levels, setLevels] = useState({});
  const [error, setError] = useState(null);
  const seats = [];
  for (let s = 0; s < setup.seats; s++) seats.push(s);
  const seat = Math.min(mine, setup.seats - 1);
  const start = (bots && (bots.first_match || bots.default)) || "";
  const submit = async (event) => {
    event.preventDefault();
    const others = seats.filter((s) => s !== seat);
    const body = { game: setup.game, seats: setup.seats, options: cleanOptions(setup), seat };
    // One name per other seat, in seat order: an unchosen seat gets the form's first level,
    // an easy one (a newcomer's first match is one they can win).
    if (bots) body.bots = others.map((s) => levels[s] || start);
    const reply = await api("POST", "/api/matches/solo", body);
    if (reply.ok) location.hash = `#/match/${reply.data.id}`;
    else setError(reply.message);
  };
  return html`<form class="card" onSubmit=${submit} aria-label="Solo match">
    <h2>Solo match</h2>
    <${GameSetup} games=${games} setup=${setup} idPrefix="solo" mine=${seat} onChange=${(s) => { setSetup(s); setError(null); }} />
    <div class="field"><label for="solo-seat">Your seat</label>
      <select id="solo-seat" name="seat" value=${seat} onChange=${(e) => setMine(Number(e.target.value))}>
        ${seats.map((s) => html`<option value=${s}>${seatWord(setup.game, s)}${s === 0 ? " (plays first)" : ""}</option>`)}
      </select></div>
    ${seats.filter((s) => s !== seat).map((s) => html`<div class="field">
      <label for=${`solo-bot-${s}`}>Bot at ${seatWord(setup.game, s)}</label>
      <select id=${`solo-bot-${s}`} value=${levels[s] || start} onChange=${(e) => setLevels({ ...levels, [s]: e.target.value })}>
        ${ladderOf(bots).map((step) => html`<option value=${step.bot}>${levelWords(step)}</option>`)}
      </select></div>`)}
    <button type="submit" disabled=${!setup.game}>Start a solo match</button>
    <p role="alert" class="error">${error || ""}</p>
  </form>`;
}

function RoomForm({ games }) {
  const health = useHealth();
  const [setup, setSetup] = useState({ game: "", seats: 2, options: {} });
  const [timer, setTimer] = useState("90");
  const [isPublic, setPublic] = useState(true);
  const [mode, setMode] = useState("custom");
  const [error, setError] = useState(null);
  const submit = async (event) => {
    event.preventDefault();
    const body = { game: setup.game, seats: setup.seats, options: cleanOptions(setup),
      timer: mode === "days" || timer === "off" ? null : Number(timer), public: isPublic, mode };
    const reply = await api("POST", "/api/rooms", body);
    if (reply.ok) location.hash = `#/room/${reply.data.id}`;
    else setError(reply.message);
  };
  return html`<form class="card" onSubmit=${submit} aria-label="Custom room">
    <h2>Custom room</h2>
    <${GameSetup} games=${games} setup=${setup} idPrefix="room" onChange=${(s) => { setSetup(s); setError(null); }} />
    <div class="field"><label for="room-mode">Kind of table</label>
      <select id="room-mode" name="mode" value=${mode} onChange=${(e) => setMode(e.target.value)}>
        <option value="custom">Live online</option>
        <option value="days">Over days (no timer)</option>
        ${health && health.lan && html`<option value="lan">Wi-Fi room</option>`}
      </select></div>
    <div class="field"><label for="room-timer">Turn timer</label>
      <select id="room-timer" name="timer" value=${mode === "days" ? "off" : timer} disabled=${mode === "days"}
        onChange=${(e) => setTimer(e.target.value)}>
        <option value="60">60 seconds</option>
        <option value="90">90 seconds</option>
        <option value="120">120 seconds</option>
        <option value="off">Off</option>
      </select></div>
    <div class="field check"><label><input type="checkbox" name="public" checked=${isPublic}
      onChange=${(e) => setPublic(e.target.checked)} /> Listed in the lobby (otherwise joined by its code only)</label></div>
    <button type="submit" disabled=${!setup.game}>Open the room</button>
    <p role="alert" class="error">${error || ""}</p>
  </form>`;
}

function JoinByCode() {
  const [code, setCode] = useState("");
  const [error, setError] = useState(null);
  const submit = async (event) => {
    event.preventDefault();
    const reply = await api("POST", "/api/rooms/join", { code: code.trim().toUpperCase() });
    if (reply.ok) location.hash = `#/room/${reply.data.id}`;
    else setError(reply.message);
  };
  return html`<form class="card inline" onSubmit=${submit} aria-label="Join by code">
    <h2>Join by code</h2>
    <label for="join-code">Room code</label>
    <input id="join-code" name="code" value=${code} maxlength="12" autocomplete="off"
      onInput=${(e) => setCode(e.target.value)} required />
    <button type="submit">Join</button>
    <p role="alert" class="error">${error || ""}</p>
  </form>`;
}

function WatchForm() {
  const [id, setId] = useState("");
  const submit = (event) => {
    event.preventDefault();
    if (id.trim()) location.hash = `#/match/${encodeURIComponent(id.trim())}?watch`;
  };
  return html`<form class="card inline" onSubmit=${submit} aria-label="Watch a match">
    <h2>Watch a match</h2>
    <label for="watch-id">Match id</label>
    <input id="watch-id" name="match" value=${id} maxlength="40" autocomplete="off"
      onInput=${(e) => setId(e.target.value)} required />
    <button type="submit">Watch</button>
    <p><a href="#/replay">Replay a record file</a></p>
  </form>`;
}

export async function rematch(matchId) {
  const reply = await api("POST", `/api/rooms/rematch/${encodeURIComponent(matchId)}`);
  if (!reply.ok) return reply;
  location.hash = reply.data.status === "waiting" ? `#/room/${reply.data.id}` : `#/match/${reply.data.id}`;
  return reply;
}

const STATUS_ORDER = { playing: 0, waiting: 1, over: 2, closed: 3 };

// A match's kind of table (its `mode`) in words.
const MODE_WORDS = {
  solo: "solo", custom: "live room", days: "over days", lan: "Wi-Fi room", ranked: "ranked",
  daily: "the Daily", tutorial: "tutorial",
};
const RESULT_WORDS = { won: "You won", lost: "You lost", drew: "A draw" };

// What the state column says: your turn, a finished match's result for you, else its status.
function stateOf(m) {
  if (m.your_turn) return html`<strong class="badge">Your turn</strong>`;
  if (m.status === "over" && m.result) return html`<span class=${`result ${m.result}`}>${RESULT_WORDS[m.result]}</span>`;
  return { playing: "playing", waiting: "waiting for players", over: "over" }[m.status] || m.status;
}

function MyMatches({ games }) {
  const [matches, error] = usePoll("/api/matches", 5000);
  const [problem, setProblem] = useState(null);
  if (!matches) return html`<section class="card" aria-label="Your matches"><h2>Your matches</h2><p>${error || "Loading…"}</p></section>`;
  const sorted = [...matches].filter((m) => m.status !== "closed").sort((a, b) =>
    (b.your_turn ? 1 : 0) - (a.your_turn ? 1 : 0) || (STATUS_ORDER[a.status] ?? 9) - (STATUS_ORDER[b.status] ?? 9));
  return html`<section class="card" aria-label="Your matches">
    <h2>Your matches</h2>
    ${sorted.length === 0 && html`<p>No matches yet: start a solo match or open a room.</p>`}
    <ul class="rows" data-testid="my-matches">
      ${sorted.map((m) => html`<li class=${`row ${m.your_turn ? "your-turn" : ""}`} data-match=${m.id}>
        <span class="what"><strong>${gameTitle(games, m.game)}</strong>
          ${m.mode && html` · ${MODE_WORDS[m.mode] || m.mode}`} · ${seatWord(m.game, m.seat)}
          ${m.version !== undefined && html` · move ${m.version}`}</span>
        <span class="state">${stateOf(m)}</span>
        <span class="acts">
          ${m.status === "playing" && html`<a class="button" href=${`#/match/${m.id}`}>${m.your_turn ? "Play" : "Open"}</a>`}
          ${m.status === "waiting" && html`<a class="button" href=${`#/room/${m.id}`}>Room</a>`}
          ${m.status === "over" && html`
            <a class="button" href=${`#/match/${m.id}`}>Result</a>
            <a class="button" href=${`#/replay/${m.id}`}>Replay</a>
            <a class="button" href=${`/api/matches/${m.id}/record`} download=${`meeple-${gameName(m.game)}-${m.id}.json`}>Record</a>
            <button type="button" onClick=${async () => { const r = await rematch(m.id); if (!r.ok) setProblem(r.message); }}>Rematch</button>`}
        </span>
      </li>`)}
    </ul>
    <p role="alert" class="error">${problem || ""}</p>
  </section>`;
}

function OpenRooms({ games, account }) {
  const [rooms, error, reload] = usePoll("/api/rooms", 4000);
  const [problem, setProblem] = useState(null);
  const join = async (room) => {
    const mine = room.players.some((p) => p.account === account.id);
    if (!mine) {
      const reply = await api("POST", `/api/rooms/${room.id}/join`, {});
      if (!reply.ok) { setProblem(reply.message); reload(); return; }
    }
    location.hash = `#/room/${room.id}`;
  };
  return html`<section class="card" aria-label="Open rooms">
    <h2>Open rooms</h2>
    ${!rooms && html`<p>${error || "Loading…"}</p>`}
    ${rooms && rooms.length === 0 && html`<p>No open rooms right now.</p>`}
    <ul class="rows" data-testid="open-rooms">
      ${(rooms || []).map((r) => {
        const taken = r.players.filter((p) => !p.open).length;
        const host = r.players.find((p) => p.seat === 0);
        const mine = r.players.some((p) => p.account === account.id);
        return html`<li class="row" data-room=${r.id}>
          <span class="what"><strong>${gameTitle(games, r.game)}</strong> · ${taken}/${r.seats} seats
            · ${r.timer ? `${r.timer} s timer` : "no timer"}${r.options && r.options.teams ? ` · ${teamsInWords(r.game, r.options.teams)}` : ""}</span>
          <span class="state">host ${host ? host.name : "?"}</span>
          <span class="acts">${mine || taken < r.seats
            ? html`<button type="button" onClick=${() => join(r)}>${mine ? "Open" : "Join"}</button>`
            : html`<span class="full">full</span>`}</span>
        </li>`;
      })}
    </ul>
    <p role="alert" class="error">${problem || ""}</p>
  </section>`;
}

export function Lobby({ account }) {
  const games = useGames();
  return html`<div class="lobby">
    <div class="column">
      <${MyMatches} games=${games} />
      <${OpenRooms} games=${games} account=${account} />
      <div class="pair"><${JoinByCode} /><${WatchForm} /></div>
    </div>
    <div class="column">
      <${SoloForm} games=${games} />
      <${RoomForm} games=${games} />
      <${LearnToPlay} games=${games} />
      <${RankedCard} account=${account} />
      <${DailyCard} />
    </div>
  </div>`;
}
