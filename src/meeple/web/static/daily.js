// The lobby's "Daily" card: today's challenge per game (the same for everyone), play it once
// scored or practise it, and the day's leaderboard.

import { html, useEffect, useState } from "./vendor/preact-htm.js";
import { api } from "./api.js";

const GAMES = [["maiterra", "Maiterra"], ["maatatahay", "Maatatahay"], ["manafields", "Manafields"]];

export function DailyCard() {
  const [game, setGame] = useState("maatatahay");
  const [challenge, setChallenge] = useState(null);
  const [board, setBoard] = useState([]);
  const [played, setPlayed] = useState(false);
  const [error, setError] = useState(null);

  // Another game's card starts without the last one's answer. Reset here, on the change,
  // not in the effect below: an effect runs after the paint, which may come after a quick
  // click's answer and would wipe it.
  const choose = (next) => { setGame(next); setPlayed(false); setError(null); };
  useEffect(() => {
    api("GET", `/api/daily/${game}`).then((r) => { if (r.ok) setChallenge(r.data); });
    api("GET", `/api/daily/${game}/leaderboard`).then((r) => { if (r.ok) setBoard(r.data); });
  }, [game]);

  const play = async (practice) => {
    const r = await api("POST", `/api/daily/${game}`, { practice });
    if (r.ok) { location.hash = `#/match/${r.data.id}`; return; }
    if (r.code === "daily/played") setPlayed(true);
    setError(r.message);
  };
  return html`<section class="card" aria-label="Daily">
    <h2>The Daily</h2>
    <div class="field"><label for="daily-game">Game</label>
      <select id="daily-game" value=${game} onChange=${(e) => choose(e.target.value)}>
        ${GAMES.map(([g, t]) => html`<option value=${g}>${t}</option>`)}
      </select></div>
    ${challenge && html`<p data-testid="daily-challenge">${`${challenge.date}: ${challenge.seats} seats, ${challenge.bots} bots · streak ${challenge.streak ?? 0}`}</p>`}
    <button type="button" onClick=${() => play(false)}>Play today's Daily</button>
    ${played && html` <button type="button" onClick=${() => play(true)}>Practise</button>`}
    <p role="alert" class="error">${error || ""}</p>
    <h3>Today's leaderboard</h3>
    ${board.length === 0 && html`<p>No finished attempts yet today.</p>`}
    <ol data-testid="daily-leaderboard">${board.slice(0, 10).map((e) => html`<li>
      ${e.name} · ${e.won ? "won" : `place ${e.place}`} · ${e.turns} turns${e.score !== null ? ` · ${e.score} points` : ""}</li>`)}</ol>
  </section>`;
}
