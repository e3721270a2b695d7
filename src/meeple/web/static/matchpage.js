// The match page (#/match/ID, #/match/ID?watch): players and who decides, the shared clock,
// the board (boards/<game>.js, else the generic one), the legal actions by notation, the
// event log, the outcome with rematch and record. Rebuilt from the snapshot on every load.

import { html, useCallback, useEffect, useErrorBoundary, useMemo, useRef, useState } from "./vendor/preact-htm.js";
import { api, clockText, gameName, gameTitle, seatMark, seatPalette, teamOf } from "./api.js";
import { MatchSocket, loadBoard } from "./match.js";
import { Clock, GraceClocks, secondsLeft } from "./clock.js";
import { EventLog, seatLabel, seatSides } from "./events.js";
import { rematch, useGames } from "./lobby.js";

// Renders its child; if the child throws, shows `fallback` (a board or panel never breaks
// the page).
function Guard({ children, fallback, name }) {
  const [error] = useErrorBoundary();
  if (error) {
    return html`<div class="guarded"><p class="error">The ${name} failed: ${String(error.message || error)}</p>${fallback || ""}</div>`;
  }
  return children;
}

// A lazily imported optional module (replay.js, analysis.js): null until loaded or if absent.
export function useOptionalModule(path) {
  const [module, setModule] = useState(null);
  useEffect(() => {
    let live = true;
    import(path).then((m) => { if (live) setModule(m); }).catch(() => {});
    return () => { live = false; };
  }, [path]);
  return module;
}

function Players({ frame, options, palette, sides }) {
  const { players = [], deciding = [], away = [], leaving = [], view, outcome, seat } = frame;
  const planning = view && view.phase === "plan";
  const rows = view && Array.isArray(view.seats) ? view.seats : [];
  const winners = outcome ? outcome.winners || [] : [];
  return html`<section class="panel players" aria-label="Players">
    <h3>Players</h3>
    <ul>
      ${players.map((p) => {
        const row = rows.find((r) => r && r.seat === p.seat);
        const decides = deciding.includes(p.seat);
        const ended = !outcome && planning && (row && typeof row.ended === "boolean" ? row.ended : !decides);
        const team = teamOf(options, p.seat);
        const status = outcome ? (winners.includes(p.seat) ? "winner" : "")
          : decides ? "decides now" : ended ? "ended the turn" : "waits";
        const who = `${p.name}${p.bot && !/\bbot\b/.test(p.name) ? ", a bot" : ""}${p.seat === seat ? ", you" : ""}`;
        const gone = away.includes(p.seat) ? " · away (a bot plays)"
          : leaving.some((l) => l.seat === p.seat) ? " · left the match" : "";
        return html`<li class=${`player ${decides ? "deciding" : ""}`} data-seat=${p.seat}
            style=${`--seat:${palette[p.seat % palette.length]}`}>
          <span class="mark" aria-hidden="true">${seatMark(p.seat)}</span>
          <span class="name">${sides[p.seat] || `Seat ${p.seat + 1}`} (${who})</span>
          ${team && html`<span class="meta">team ${team}</span>`}
          <span class="status" data-testid=${`status-${p.seat}`}>${status}${gone}</span>
        </li>`;
      })}
    </ul>
  </section>`;
}

// How the person last acted: the focus follows the actions only for keyboard use (a phone's
// on-screen keyboard should not pop up by itself).
let lastInput = "pointer";
addEventListener("keydown", () => { lastInput = "keyboard"; }, true);
addEventListener("pointerdown", () => { lastInput = "pointer"; }, true);

// The generic legal-action list: a notation input (Enter plays it) filtering the buttons.
function LegalActions({ legal, submit, readonly, over }) {
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const query = text.trim().toLowerCase();
  const shown = query ? legal.filter((a) => a.text.toLowerCase().includes(query)) : legal;
  const panel = useRef(null);
  // A keyboard user working in the actions keeps the focus there while the list changes
  // under it (a button played and gone, the box gone while others decide, back again).
  const focused = useRef(false);
  useEffect(() => {
    const here = panel.current;
    if (!here || !focused.current || lastInput !== "keyboard") return;
    const active = document.activeElement;
    if (active !== here && here.contains(active)) return;
    const box = document.getElementById("notation");
    if (box) box.focus({ preventScroll: true });
    else if (active !== here) here.focus({ preventScroll: true });
  });
  const onFocusIn = () => { focused.current = true; };
  const onFocusOut = (event) => {
    // Leaving for another part of the page (not for nothing: an element removed under it).
    if (event.relatedTarget && !panel.current.contains(event.relatedTarget)) focused.current = false;
  };
  const play = async (action) => {
    setBusy(true);
    const result = await submit(action);
    setBusy(false);
    if (result && result.ok) setText("");
  };
  const onSubmit = (event) => {
    event.preventDefault();
    if (!query) return;
    const exact = legal.find((a) => a.text.toLowerCase() === query);
    if (exact) play(exact.id);
    else if (shown.length === 1) play(shown[0].id);
    else play(text.trim());
  };
  const LIMIT = 60;
  return html`<section class="panel legal-panel" aria-label="Legal actions" ref=${panel} tabindex="-1"
      onfocusin=${onFocusIn} onfocusout=${onFocusOut}>
    <h3>Your actions ${legal.length ? html`<small>(${legal.length})</small>` : ""}</h3>
    ${over ? html`<p>The match is over.</p>` : readonly ? html`<p>You are watching.</p>` : legal.length === 0 ? html`<p>Nothing to decide now.</p>` : html`
      <form class="notation" onSubmit=${onSubmit}>
        <label for="notation">Play by notation</label>
        <input id="notation" name="notation" value=${text} autocomplete="off" spellcheck="false"
          aria-describedby="notation-help" onInput=${(e) => setText(e.target.value)} />
        <button type="submit" disabled=${busy || !query}>Play</button>
        <small id="notation-help" class="hint">Type to filter; Enter plays the action typed (or the only one left).</small>
      </form>
      <ul class="legal" aria-label="Legal actions list">
        ${shown.slice(0, LIMIT).map((a) => html`<li><button type="button" data-action=${a.id} disabled=${busy}
          onClick=${() => play(a.id)}>${a.text}</button></li>`)}
      </ul>
      ${shown.length > LIMIT && html`<p class="hint">${shown.length - LIMIT} more: type to narrow the list.</p>`}`}
  </section>`;
}

function Outcome({ frame, matchId, game, palette, sides }) {
  const { outcome, players = [], seat } = frame;
  const [problem, setProblem] = useState(null);
  if (!outcome) return null;
  const winners = outcome.winners || [];
  const scores = outcome.scores || [];
  const mine = seat !== null && seat !== undefined;
  const headline = outcome.draw ? "A draw"
    : winners.length ? `${winners.map((s) => seatLabel(players, s, sides)).join(" and ")} ${winners.length > 1 ? "win" : "wins"}`
    : "The match is over";
  return html`<section class="panel outcome" aria-label="Outcome" data-testid="outcome">
    <h3>${headline}${mine && winners.includes(seat) ? " — well played!" : ""}</h3>
    ${outcome.reason && html`<p>${String(outcome.reason).replace(/_/g, " ")}</p>`}
    ${scores.length > 0 && html`<table class="scores"><thead><tr><th scope="col">Seat</th><th scope="col">Score</th></tr></thead>
      <tbody>${scores.map((score, s) => html`<tr><td><span class="mark" style=${`color:${palette[s % palette.length]}`} aria-hidden="true">${seatMark(s)}</span>
        ${seatLabel(players, s, sides)}</td><td>${score}</td></tr>`)}</tbody></table>`}
    <p class="actions">
      ${mine && html`<button type="button" class="primary" onClick=${async () => {
        const r = await rematch(matchId); if (!r.ok) setProblem(r.message);
      }}>Rematch</button>`}
      <a class="button" href=${`/api/matches/${matchId}/record`} download=${`meeple-${gameName(game)}-${matchId}.json`}>Download the record</a>
      <a class="button" href=${`#/replay/${matchId}`}>Replay</a>
      <a class="button" href="#/">Lobby</a>
    </p>
    <p role="alert" class="error">${problem || ""}</p>
  </section>`;
}

// The kinds of table (docs/server.md), as the match's heading names them.
const MODE_WORDS = { solo: "solo", custom: "live online", lan: "Wi-Fi room", days: "over days",
  ranked: "ranked", daily: "the Daily", tutorial: "tutorial" };

// Log lines for what changed in who is at the table: a player who left (the grace period
// starts), a bot taking the seat, the player back. before/after: {away, leaving} lists.
export function presenceNotes(before, after, players, sides) {
  const notes = [];
  const label = (seat) => seatLabel(players, seat, sides);
  const nameOf = (seat) => {
    const player = (players || []).find((p) => p && p.seat === seat);
    return player && player.name ? player.name : "its player";
  };
  const pending = (frame) => new Set((frame.leaving || []).map((l) => l.seat));
  const away = (frame) => new Set(frame.away || []);
  const [wasAway, isAway, wasLeaving, isLeaving] = [away(before), away(after), pending(before), pending(after)];
  for (const { seat, deadline } of after.leaving || []) {
    if (wasLeaving.has(seat) || wasAway.has(seat)) continue;
    const left = secondsLeft(deadline);
    notes.push({ kind: "presence", note: `${label(seat)} has left the match: a bot takes the seat${left === null ? "" : ` in ${clockText(left)}`} unless ${nameOf(seat)} is back.` });
  }
  for (const seat of isAway) {
    if (!wasAway.has(seat)) notes.push({ kind: "presence", note: `A bot now plays ${label(seat)}: ${nameOf(seat)} is away, and takes the seat back on returning.` });
  }
  for (const seat of wasAway) {
    if (!isAway.has(seat)) notes.push({ kind: "presence", note: `${nameOf(seat)} is back and plays ${sides[seat] || label(seat)} again; the bot has stopped.` });
  }
  for (const seat of wasLeaving) {
    if (!isLeaving.has(seat) && !isAway.has(seat)) notes.push({ kind: "presence", note: `${nameOf(seat)} is back in time: no bot plays ${sides[seat] || label(seat)}.` });
  }
  return notes;
}

// The warning before a person leaves a live timed match: a bot takes the seat after the
// grace period (docs/server.md, "Presence").
function leaveWarning(graceSeconds, side) {
  return `Leave the match? Its clock keeps running: if you are not back within ${clockText(graceSeconds)}, `
    + `a bot takes your seat (${side}) and plays it until you return.`;
}

const TIMEOUT_NOTE = {
  simultaneous: "Time is up: every seat still deciding hands in the orders it has queued, as they stand; a seat with none passes.",
  sequential: "Time is up: the seat's bot takes its decisions until the turn passes.",
};

export function MatchPage({ matchId, watch }) {
  const games = useGames();
  const [frame, setFrame] = useState(null);
  const [entries, setEntries] = useState([]);
  const [boardEvents, setBoardEvents] = useState([]);
  const [module, setModule] = useState(null);
  const [message, setMessage] = useState(null);
  const [link, setLink] = useState("connecting");
  const [gone, setGone] = useState(null);
  const [summary, setSummary] = useState(null);
  const socket = useRef(null);
  const logged = useRef(0); // the newest version in the log
  const sidesNow = useRef([]); // the seats' sides as last drawn, for the presence notes

  useEffect(() => {
    setFrame(null); setEntries([]); setBoardEvents([]); setGone(null); setMessage(null);
    logged.current = 0;
    let current = null;
    const addVersions = (list) => {
      const fresh = list.filter((m) => m.version > logged.current);
      if (!fresh.length) return;
      logged.current = fresh[fresh.length - 1].version;
      setEntries((old) => [...old, ...fresh.map((m) => ({ version: m.version, events: m.events || [] }))]);
    };
    const noteChanges = (before, after, players) => {
      const notes = presenceNotes(before, after, players, sidesNow.current);
      if (notes.length) setEntries((old) => [...old, ...notes]);
    };
    const sock = new MatchSocket(matchId, (incoming) => {
      switch (incoming.type) {
        case "open":
          setLink("open");
          return;
        case "snapshot": {
          const first = current === null;
          const missed = incoming.missed || [];
          if (!first) noteChanges(current, incoming, incoming.players);
          current = { ...incoming };
          addVersions(missed);
          const last = missed.length ? missed[missed.length - 1] : null;
          setBoardEvents(first ? (last && last.version === incoming.version ? last.events : []) : missed.flatMap((m) => m.events));
          setLink("open");
          break;
        }
        case "update":
          if (!current) return;
          current = { ...current, ...incoming };
          if (incoming.outcome) current.status = "over";
          addVersions([{ version: incoming.version, events: incoming.events || [] }]);
          setBoardEvents(incoming.events || []);
          break;
        case "clock":
          if (!current) return;
          current = { ...current, deadline: incoming.deadline, turn_seconds: incoming.turn_seconds };
          break;
        case "presence":
          if (!current) return;
          noteChanges(current, incoming, current.players);
          current = { ...current, away: incoming.away || [], leaving: incoming.leaving || [] };
          break;
        case "error":
          if (!incoming.ref) setMessage({ kind: "error", text: incoming.message });
          return;
        case "closed":
          if (incoming.code === 4404) {
            api("GET", `/api/rooms/${encodeURIComponent(matchId)}`).then((reply) => {
              if (reply.ok && reply.data.status === "waiting") location.hash = `#/room/${matchId}`;
              else setGone("There is no such match.");
            });
          } else if (incoming.code === 4403) setGone("You do not hold that seat in this match.");
          else {
            if (incoming.code === 1009) {
              setMessage({ kind: "error", text: "Your last message was too long for the server and was not read; reconnecting." });
            }
            setLink("reconnecting");
          }
          return;
        default:
          return;
      }
      setFrame(current);
    }, { watch, since: 0 });
    socket.current = sock;
    api("GET", `/api/matches/${encodeURIComponent(matchId)}`).then((reply) => { if (reply.ok) setSummary(reply.data); });
    return () => sock.close();
  }, [matchId, watch]);

  const game = frame && frame.game;
  useEffect(() => {
    if (game) loadBoard(game).then((m) => setModule(m));
  }, [game]);

  // The clock at zero: the server hands in; the log says so (once per deadline).
  const deadline = frame && !frame.outcome ? frame.deadline : null;
  const simultaneous = useMemo(() => {
    const info = games.find((g) => g.id === game);
    return info ? info.simultaneous : false;
  }, [games, game]);
  const noted = useRef(new Set());
  useEffect(() => {
    const left = secondsLeft(deadline);
    if (left === null || noted.current.has(deadline)) return undefined;
    const timer = setTimeout(() => {
      noted.current.add(deadline);
      setEntries((old) => [...old, { note: TIMEOUT_NOTE[simultaneous ? "simultaneous" : "sequential"], kind: "timeout" }]);
    }, Math.max(0, left * 1000));
    return () => clearTimeout(timer);
  }, [deadline, simultaneous]);

  // The tab's title says whose turn it is (also for a screen reader's list of tabs).
  const mineNow = !!frame && frame.seat !== null && frame.seat !== undefined && !frame.outcome
    && (frame.deciding || []).includes(frame.seat);
  useEffect(() => {
    if (!frame) return;
    const what = frame.outcome ? "over" : mineNow ? "your turn" : `move ${frame.version}`;
    document.title = `${gameTitle(games, frame.game)} · ${what} · meeple`;
  }, [frame && frame.game, frame && frame.version, mineNow, !!(frame && frame.outcome), games.length]);

  // A live timed match: leaving the page (closing it, reloading, another address, a link to
  // another part of the app) asks first, since a bot takes the seat after the grace period.
  const grace = frame && frame.seat !== null && frame.seat !== undefined && !frame.outcome
    && frame.turn_seconds && typeof frame.grace_seconds === "number" ? frame.grace_seconds : null;
  const mySide = grace === null ? null : (seatSides(module, frame.view)[frame.seat] || `Seat ${frame.seat + 1}`);
  useEffect(() => {
    if (grace === null) return undefined;
    const text = leaveWarning(grace, mySide);
    const onUnload = (event) => {
      event.preventDefault();
      event.returnValue = text;
      return text;
    };
    const onClick = (event) => {
      const link = event.target && event.target.closest ? event.target.closest("a[href]") : null;
      if (!link || link.hasAttribute("download") || link.target === "_blank") return;
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const href = link.getAttribute("href") || "";
      if (href === "#" || href.startsWith(`#/match/${matchId}`)) return;
      if (!confirm(text)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    addEventListener("beforeunload", onUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      removeEventListener("beforeunload", onUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [grace, mySide, matchId]);

  const say = useCallback((text, kind = "info") => setMessage(text ? { kind, text } : null), []);
  const submit = useCallback(async (action) => {
    if (!socket.current) return { ok: false, code: "network", message: "not connected" };
    const result = await socket.current.submit(action);
    if (!result.ok) setMessage({ kind: "error", text: result.message });
    else setMessage(null);
    return result;
  }, []);

  if (gone) return html`<section class="card"><p role="alert" class="error">${gone}</p><a href="#/">Back to the lobby</a></section>`;
  if (!frame || !module) return html`<p role="status">Loading the match…</p>`;

  const Board = module.default;
  const seat = frame.seat === undefined ? null : frame.seat;
  const readonly = seat === null || !!frame.outcome;
  const options = (summary && summary.options) || (frame.view && frame.view.options) || {};
  const legal = frame.legal || [];
  const boardProps = {
    game: frame.game, seat, players: frame.players || [], version: frame.version, view: frame.view,
    legal, deciding: frame.deciding || [], events: boardEvents, outcome: frame.outcome || null,
    readonly, submit, say,
  };
  const palette = seatPalette(module, frame.view);
  const sides = seatSides(module, frame.view);
  sidesNow.current = sides;
  const label = (s) => seatLabel(frame.players, s, sides);
  const hint = summary && summary.mode === "solo" && seat !== null && !frame.outcome;
  const yourTurn = seat !== null && (frame.deciding || []).includes(seat) && !frame.outcome;
  return html`<section class="match" aria-label="Match">
    <header class="match-head">
      <h2>${gameTitle(games, frame.game)} <small>${frame.game}</small></h2>
      <span class="facts">${summary && MODE_WORDS[summary.mode] ? `${MODE_WORDS[summary.mode]} · ` : ""}move <span data-testid="version">${frame.version}</span>${" · "}${seat === null ? "watching"
        : html`you are <span class="mark" style=${`color:${palette[seat % palette.length]}`} aria-hidden="true">${seatMark(seat)}</span> ${sides[seat] || `Seat ${seat + 1}`}`}${yourTurn
        ? html`${" · "}<strong class="badge">your turn</strong>` : ""}${link !== "open" ? html`${" · "}<span class="link" role="status">${link}…</span>` : ""}</span>
      ${!readonly && html`<a class="jump" href="#" onClick=${(e) => {
        e.preventDefault();
        const target = document.getElementById("notation") || document.querySelector(".legal-panel");
        if (target) { if (!target.hasAttribute("tabindex") && target.id !== "notation") target.setAttribute("tabindex", "-1"); target.focus(); }
      }}>Jump to your actions</a>`}
    </header>
    <div role="alert" class=${`message ${message ? message.kind : ""}`} data-testid="message">${message ? message.text : ""}</div>
    <${Clock} deadline=${frame.deadline} turnSeconds=${frame.turn_seconds} over=${!!frame.outcome} />
    <${GraceClocks} leaving=${frame.leaving || []} label=${label} over=${!!frame.outcome} />
    <div class="match-grid">
      <div class="board-area">
        <${Guard} name="board" fallback=${html`<${GenericFallback} ...${boardProps} />`}>
          <${Board} ...${boardProps} />
        <//>
      </div>
      <aside class="side">
        <${Players} frame=${frame} options=${options} palette=${palette} sides=${sides} />
        <${Outcome} frame=${frame} matchId=${matchId} game=${frame.game} palette=${palette} sides=${sides} />
        ${hint && html`<${Hint} matchId=${matchId} seat=${seat} version=${frame.version} mode=${summary.mode} />`}
        <${LegalActions} legal=${legal} submit=${submit} readonly=${seat === null} over=${!!frame.outcome} />
        <${EventLog} entries=${entries} module=${module} players=${frame.players} seat=${seat} view=${frame.view} palette=${palette} />
      </aside>
    </div>
  </section>`;
}

function GenericFallback(props) {
  const [module, setModule] = useState(null);
  useEffect(() => { import("./boards/generic.js").then(setModule); }, []);
  return module ? html`<${module.default} ...${props} />` : null;
}

function Hint(props) {
  const module = useOptionalModule("./analysis.js");
  if (!module || typeof module.HintPanel !== "function") return null;
  const Panel = module.HintPanel;
  return html`<${Guard} name="hint panel"><${Panel} ...${props} /><//>`;
}
