// The client's shell: the router on the hash, the header, sign-in and log-out.
//   #/              the lobby (or the sign-in)
//   #/room/ID       a room as it fills
//   #/match/ID      a match (?watch: as a spectator)
//   #/replay[/ID]   the replay viewer (replay.js, when present)
//   #/tutorial/GAME a guided first match; #/rules/GAME the game's rules (tutorial.js); no login
// Board modules (boards/<game>.js) draw each game; see docs/web.md for their contract.

import { html, render, useEffect, useState } from "./vendor/preact-htm.js";
import { api } from "./api.js";
import { SignIn } from "./signin.js";
import { Lobby } from "./lobby.js";
import { RoomPage } from "./room.js";
import { MatchPage, useOptionalModule } from "./matchpage.js";
import { RulesPage, TutorialPage } from "./tutorial.js";

export function parseRoute(hash) {
  const text = (hash || "#/").replace(/^#/, "");
  const [path, query = ""] = text.split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  return { parts, query: new URLSearchParams(query) };
}

function useRoute() {
  const [hash, setHash] = useState(location.hash || "#/");
  useEffect(() => {
    const onChange = () => setHash(location.hash || "#/");
    addEventListener("hashchange", onChange);
    return () => removeEventListener("hashchange", onChange);
  }, []);
  return parseRoute(hash);
}

function Replay({ matchId, onSignedIn }) {
  const module = useOptionalModule("./replay.js");
  if (!module || typeof module.ReplayPage !== "function") {
    return html`<section class="card"><h2>Replay</h2><p>Loading the replay viewer…</p>
      ${matchId && html`<p><a href=${`/api/matches/${matchId}/record`} download=${`meeple-${matchId}.json`}>Download the record</a></p>`}</section>`;
  }
  const Page = module.ReplayPage;
  return matchId ? html`<${Page} matchId=${matchId} />` : html`<${Page} onSignedIn=${onSignedIn} />`;
}

function App() {
  const { parts, query } = useRoute();
  const [account, setAccount] = useState(undefined);
  useEffect(() => {
    // /api/session answers 200 {account: null} when signed out (/api/me would log a 401).
    api("GET", "/api/session").then((reply) => setAccount(reply.ok ? reply.data.account : null));
  }, []);
  useEffect(() => {
    const titles = { room: "Room", replay: "Replay" };
    if (!["match", "tutorial", "rules"].includes(parts[0])) document.title = `${titles[parts[0]] || "Lobby"} · meeple`;
    const main = document.querySelector("main");
    if (main) main.focus({ preventScroll: true });
  }, [parts.join("/")]);
  if (account === undefined) return html`<p role="status">Loading…</p>`;
  const logout = async () => {
    await api("DELETE", "/api/sessions");
    setAccount(null);
    location.hash = "#/";
  };
  let page;
  if (parts[0] === "match" && parts[1]) {
    page = html`<${MatchPage} key=${parts[1]} matchId=${parts[1]} watch=${query.has("watch") || !account} />`;
  } else if (parts[0] === "tutorial" && parts[1]) {
    page = html`<${TutorialPage} key=${parts[1]} game=${parts[1]} />`;
  } else if (parts[0] === "rules" && parts[1]) {
    page = html`<${RulesPage} key=${parts[1]} game=${parts[1]} />`;
  } else if (parts[0] === "replay") {
    page = html`<${Replay} key=${parts[1] || ""} matchId=${parts[1]} onSignedIn=${setAccount} />`;
  } else if (!account) {
    page = html`<${SignIn} onSignedIn=${setAccount} />`;
  } else if (parts[0] === "room" && parts[1]) {
    page = html`<${RoomPage} key=${parts[1]} roomId=${parts[1]} account=${account} />`;
  } else {
    page = html`<${Lobby} account=${account} />`;
  }
  return html`<a class="skip" href="#main" onClick=${(e) => { e.preventDefault(); document.querySelector("main").focus(); }}>Skip to the page</a>
    <header class="top">
      <a class="home" href="#/">meeple</a>
      <nav aria-label="Site"><a href="#/">Lobby</a> <a href="#/replay">Replay</a></nav>
      ${account && html`<span class="who">${account.display_name}</span>
        <span class="kind">${account.kind === "guest" ? "guest" : account.name}</span>
        <button type="button" onClick=${logout}>Log out</button>`}
    </header>
    <main id="main" tabindex="-1">${page}</main>`;
}

render(html`<${App} />`, document.getElementById("app"));
