// The lobby's "Daily" card: today's challenge per game (the same for everyone), played once
// scored or practised as often as one likes, and the day's leaderboard. A second visit shows
// at once what you played (GET /api/daily/GAME's `played`): your result and your rank, or
// the unfinished attempt to go back to; practice is offered from the start.

import { html, useEffect, useState } from "./vendor/preact-htm.js";
import { api } from "./api.js";

const GAMES = [["maiterra", "Maiterra"], ["maatatahay", "Maatatahay"], ["manafields", "Manafields"]];
const ORDINAL = ["", "1st", "2nd", "3rd", "4th", "5th", "6th"];

// A finished attempt's result in words: "won" or the place among the seats.
function result(entry, seats) {
  return entry.won ? "won" : `${ORDINAL[entry.place] || `${entry.place}th`} of ${seats}`;
}

function points(score) {
  return score === null || score === undefined ? "—" : `${score}`;
}

function Played({ played, seats }) {
  if (!played.over) {
    return html`<p data-testid="daily-played">You started today's Daily: it is not finished.${" "}
      <a class="button" href=${`#/match/${played.match}`}>Go back to it</a></p>`;
  }
  return html`<p data-testid="daily-played"><strong>Played today</strong> — you ${played.won ? "won" : `came ${result(played, seats)}`}
    ${played.score !== null && played.score !== undefined ? ` with ${played.score} points` : ""};
    rank ${played.rank} of ${played.of} on today's leaderboard.${" "}
    <a href=${`#/match/${played.match}`}>Your match</a></p>`;
}

export function DailyCard() {
  const [game, setGame] = useState("maatatahay");
  const [challenge, setChallenge] = useState(null);
  const [board, setBoard] = useState([]);
  const [ladder, setLadder] = useState([]);
  const [error, setError] = useState(null);

  // Another game's card starts without the last one's answer. Reset here, on the change,
  // not in the effect below: an effect runs after the paint, which may come after a quick
  // click's answer and would wipe it.
  const choose = (next) => { setGame(next); setChallenge(null); setError(null); };
  useEffect(() => {
    api("GET", "/api/bots").then((r) => { if (r.ok) setLadder(r.data.ladder || []); });
  }, []);
  useEffect(() => {
    api("GET", `/api/daily/${game}`).then((r) => { if (r.ok) setChallenge(r.data); });
    api("GET", `/api/daily/${game}/leaderboard`).then((r) => { if (r.ok) setBoard(r.data); });
  }, [game]);

  const play = async (practice) => {
    const r = await api("POST", `/api/daily/${game}`, { practice });
    if (r.ok) { location.hash = `#/match/${r.data.id}`; return; }
    setError(r.message);
  };
  const step = challenge && ladder.find((s) => s.bot === challenge.bots);
  const level = step ? `${step.label} bots (${step.plays})` : challenge ? `${challenge.bots} bots` : "";
  const played = challenge && challenge.played;
  return html`<section class="card" aria-label="Daily">
    <h2>The Daily</h2>
    <p>One challenge a day per game, the same for everyone: your first attempt is scored, then practise it as often as you like.</p>
    <div class="field"><label for="daily-game">Game</label>
      <select id="daily-game" value=${game} onChange=${(e) => choose(e.target.value)}>
        ${GAMES.map(([g, t]) => html`<option value=${g}>${t}</option>`)}
      </select></div>
    ${challenge && html`<p data-testid="daily-challenge">${`${challenge.date}: ${challenge.seats} seats, you play the first against ${level} · your streak ${challenge.streak ?? 0} day${challenge.streak === 1 ? "" : "s"}`}</p>`}
    ${played && html`<${Played} played=${played} seats=${challenge.seats} />`}
    <div class="actions">
      ${challenge && !played && html`<button type="button" class="primary" onClick=${() => play(false)}>Play today's Daily</button>`}
      ${challenge && html`<button type="button" onClick=${() => play(true)}>Practise (not scored)</button>`}
    </div>
    <p role="alert" class="error">${error || ""}</p>
    <h3>Today's leaderboard</h3>
    ${board.length === 0 && html`<p>No finished attempts yet today.</p>`}
    ${board.length > 0 && html`<table class="ranking" data-testid="daily-leaderboard">
      <caption class="sr-only">Today's leaderboard, best first</caption>
      <thead><tr><th scope="col">Rank</th><th scope="col">Player</th><th scope="col">Score</th>
        <th scope="col">Result</th><th scope="col">Turns</th></tr></thead>
      <tbody>${board.slice(0, 10).map((e) => html`<tr class=${played && played.over && e.rank === played.rank ? "you" : ""}>
        <td>${e.rank}</td><td>${e.name}</td><td>${points(e.score)}</td>
        <td>${result(e, challenge ? challenge.seats : 2)}</td><td>${e.turns}</td></tr>`)}</tbody>
    </table>`}
  </section>`;
}
