// The client's shell: the router, the sign-in, the lobby and the match page.
// Board modules (boards/<game>.js) draw each game; see docs/web.md for their contract.

import { html, render, useEffect, useState, useCallback } from "./vendor/preact-htm.js";
import { api } from "./api.js";
import { MatchSocket, loadBoard } from "./match.js";

function useRoute() {
  const [hash, setHash] = useState(location.hash || "#/");
  useEffect(() => {
    const onChange = () => setHash(location.hash || "#/");
    addEventListener("hashchange", onChange);
    return () => removeEventListener("hashchange", onChange);
  }, []);
  return hash.slice(1).split("/").filter(Boolean);
}

function SignIn({ onSignedIn }) {
  const [name, setName] = useState("");
  const [error, setError] = useState(null);
  const submit = async (event) => {
    event.preventDefault();
    const reply = await api("POST", "/api/guests", { display_name: name || "Guest" });
    if (reply.ok) onSignedIn(reply.data.account);
    else setError(reply.message);
  };
  return html`<form class="card" onSubmit=${submit} aria-label="Play as a guest">
    <h2>Play as a guest</h2>
    <label>Display name <input name="display_name" value=${name} maxlength="40"
      onInput=${(e) => setName(e.target.value)} /></label>
    <button type="submit">Play as a guest</button>
    ${error && html`<p role="alert" class="error">${error}</p>`}
  </form>`;
}

function Lobby({ account }) {
  const [games, setGames] = useState([]);
  const [game, setGame] = useState("");
  const [error, setError] = useState(null);
  useEffect(() => {
    api("GET", "/api/games").then((reply) => {
      if (reply.ok) {
        setGames(reply.data);
        if (reply.data.length) setGame(reply.data[0].id);
      }
    });
  }, []);
  const solo = async (event) => {
    event.preventDefault();
    const reply = await api("POST", "/api/matches/solo", { game });
    if (reply.ok) location.hash = `#/match/${reply.data.id}`;
    else setError(reply.message);
  };
  return html`<section class="card">
    <h2>Solo match</h2>
    <form onSubmit=${solo} aria-label="Solo match">
      <label>Game <select name="game" value=${game} onChange=${(e) => setGame(e.target.value)}>
        ${games.map((g) => html`<option value=${g.id}>${g.title || g.id}</option>`)}
      </select></label>
      <button type="submit">Start a solo match</button>
    </form>
    ${error && html`<p role="alert" class="error">${error}</p>`}
  </section>`;
}

function MatchPage({ matchId }) {
  const [frame, setFrame] = useState(null);
  const [Board, setBoard] = useState(null);
  const [message, setMessage] = useState(null);
  const [socket, setSocket] = useState(null);

  useEffect(() => {
    let current = null;
    const sock = new MatchSocket(matchId, (incoming) => {
      if (incoming.type === "snapshot") {
        current = { ...incoming, events: (incoming.missed || []).flatMap((m) => m.events) };
      } else if (incoming.type === "update" && current) {
        current = { ...current, ...incoming };
      } else if (incoming.type === "clock" && current) {
        current = { ...current, deadline: incoming.deadline };
      } else if (incoming.type === "presence" && current) {
        current = { ...current, away: incoming.away };
      } else if (incoming.type === "error" && !incoming.ref) {
        setMessage({ kind: "error", text: incoming.message });
        return;
      } else {
        return;
      }
      setFrame(current);
    });
    setSocket(sock);
    return () => sock.close();
  }, [matchId]);

  useEffect(() => {
    if (frame && !Board) loadBoard(frame.game).then((module) => setBoard(() => module.default));
  }, [frame && frame.game]);

  const say = useCallback((text, kind = "info") => setMessage({ kind, text }), []);
  const submit = useCallback(async (action) => {
    const result = await socket.submit(action);
    if (!result.ok) say(result.message, "error");
    else setMessage(null);
    return result;
  }, [socket]);

  if (!frame || !Board) return html`<p>Loading the match…</p>`;
  return html`<section class="match">
    <h2>${frame.game} · version <span data-testid="version">${frame.version}</span></h2>
    ${message && html`<p role=${message.kind === "error" ? "alert" : "status"}
      class=${message.kind}>${message.text}</p>`}
    <${Board} game=${frame.game} seat=${frame.seat} view=${frame.view} legal=${frame.legal || []}
      deciding=${frame.deciding || []} players=${frame.players || []} events=${frame.events || []}
      outcome=${frame.outcome} version=${frame.version} submit=${submit} say=${say}
      readonly=${frame.seat === null || frame.seat === undefined} />
  </section>`;
}

function App() {
  const route = useRoute();
  const [account, setAccount] = useState(undefined);
  useEffect(() => {
    api("GET", "/api/me").then((reply) => setAccount(reply.ok ? reply.data : null));
  }, []);
  if (account === undefined) return html`<p>Loading…</p>`;
  let page;
  if (route[0] === "match" && route[1]) page = html`<${MatchPage} matchId=${route[1]} />`;
  else if (!account) page = html`<${SignIn} onSignedIn=${setAccount} />`;
  else page = html`<${Lobby} account=${account} />`;
  return html`<header class="top"><a href="#/">meeple</a>
      ${account && html`<span class="who">${account.display_name}</span>`}</header>
    <main>${page}</main>`;
}

render(html`<${App} />`, document.getElementById("app"));
