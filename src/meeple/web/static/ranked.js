// The lobby's "Ranked" card: queue for a ranked match (game and seat count, and in a game
// whose seats each play a faction the one you play, or drawn), the time waited and the
// rating range, cancel; once matched, the match opens. The leaderboard below. Ranked is for
// registered accounts: a guest is told so instead of being offered the queue.

import { html, useEffect, useState } from "./vendor/preact-htm.js";
import { api } from "./api.js";
import { FactionPicker, factionTitle } from "./lobby.js";

const RANKED = [
  ["maiterra", 2], ["maiterra", 3], ["maiterra", 4], ["maatatahay", 2], ["manafields", 2],
];
const TITLES = { maiterra: "Maiterra", maatatahay: "Maatatahay", manafields: "Manafields" };
const title = factionTitle;

// The factions a seat of the game may play, when each seat plays one (its options faction0,
// faction1, ... with the same choices, as the server reads them); null otherwise.
function factionChoices(games, game, seats) {
  const info = games.filter((g) => g.name === game).sort((a, b) => b.version - a.version)[0];
  if (!info) return null;
  const specs = [];
  for (let seat = 0; seat < seats; seat += 1) {
    specs.push((info.options || []).find((o) => o.name === `faction${seat}`));
  }
  const first = specs[0];
  if (!first || !first.choices) return null;
  const same = specs.every((o) => o && JSON.stringify(o.choices) === JSON.stringify(first.choices));
  return same ? first.choices : null;
}

export function RankedCard({ account }) {
  const guest = !account || account.kind === "guest";
  const [choice, setChoice] = useState(0);
  const [games, setGames] = useState([]);
  const [faction, setFaction] = useState("");
  const [queue, setQueue] = useState({ status: "none" });
  const [board, setBoard] = useState([]);
  const [error, setError] = useState(null);
  const [game, seats] = RANKED[choice];
  const factions = factionChoices(games, game, seats);

  useEffect(() => {
    if (!guest) api("GET", "/api/ranked/queue").then((r) => { if (r.ok) setQueue(r.data); });
    api("GET", "/api/games").then((r) => { if (r.ok) setGames(r.data); });
  }, []);
  useEffect(() => {
    api("GET", `/api/ranked/leaderboard?game=${game}&seats=${seats}`).then((r) => { if (r.ok) setBoard(r.data); });
  }, [game, seats]);
  useEffect(() => {
    if (queue.status === "matched" && queue.fresh) location.hash = `#/match/${queue.match}`;
    if (queue.status !== "queued") return undefined;
    const timer = setTimeout(async () => {
      const r = await api("GET", "/api/ranked/queue");
      if (r.ok) setQueue({ ...r.data, fresh: true });
    }, 1000);
    return () => clearTimeout(timer);
  }, [queue]);

  const join = async () => {
    setError(null);
    const body = { game, seats };
    if (factions && faction) body.faction = faction;
    const r = await api("POST", "/api/ranked/queue", body);
    if (r.ok) setQueue({ ...r.data, fresh: true });
    else setError(r.message);
  };
  const cancel = async () => {
    await api("DELETE", "/api/ranked/queue");
    setQueue({ status: "none" });
  };
  return html`<section class="card" aria-label="Ranked">
    <h2>Ranked</h2>
    <p>Everyone against everyone, 90 seconds a round; rated by OpenSkill.</p>
    <div class="field"><label for="ranked-game">Game</label>
      <select id="ranked-game" value=${choice} disabled=${queue.status === "queued"}
        onChange=${(e) => setChoice(Number(e.target.value))}>
        ${RANKED.map(([g, s], i) => html`<option value=${i}>${TITLES[g]}, ${s} seats</option>`)}
      </select></div>
    ${factions && queue.status !== "queued" && html`<${FactionPicker} legend="Your faction" name="ranked-faction"
      choices=${factions} value=${faction} onChange=${setFaction} extra="Drawn for me" />`}
    ${guest
      ? html`<p data-testid="ranked-status">Ranked is for registered accounts: log out and register to play rated matches.</p>`
      : queue.status === "queued"
      ? html`<p data-testid="ranked-status">Waiting ${Math.round(queue.waited)} s${queue.faction ? ` as ${title(queue.faction)}` : ""} · ${queue.queued} in the queue · range ±${queue.range}</p>
        <button type="button" onClick=${cancel}>Cancel</button>`
      : html`<button type="button" onClick=${join}>Find a ranked match</button>`}
    ${queue.status === "timeout" && html`<p data-testid="ranked-status">No match found in time; try again.</p>`}
    ${queue.status === "matched" && html`<p data-testid="ranked-status"><a href=${`#/match/${queue.match}`}>Your ranked match</a>${queue.faction ? ` · you play ${title(queue.faction)}` : ""}</p>`}
    <p role="alert" class="error">${error || ""}</p>
    <h3>Leaderboard</h3>
    ${board.length === 0 && html`<p>No rated players yet.</p>`}
    <ol data-testid="ranked-leaderboard">${board.slice(0, 10).map((e) => html`<li>
      ${e.name}${e.bot ? " (bot)" : ""} · ${e.ordinal.toFixed(1)}${e.provisional ? "?" : ""} · ${e.games} games</li>`)}</ol>
  </section>`;
}
