// The replay viewer (#/replay/ID, #/replay): every version of a finished match, or of a
// record file opened here, on the game's own board (readonly), with step buttons, a scrub
// slider, the keyboard (Left/Right/Home/End), the list of every action by its notation, the
// events of the step shown, and the win-probability line of a seat on demand (docs/analysis.md).

import { html, useCallback, useEffect, useMemo, useRef, useState } from "./vendor/preact-htm.js";
import { api, seatColour, seatMark } from "./api.js";
import { describe, seatLabel, seatSides } from "./events.js";
import { loadBoard } from "./match.js";
import { WinLine, fetchLine, matchLine, useReplayCss } from "./analysis.js";

useReplayCss();

// POST a record file's text as it is to `path` (the server reads and checks it).
async function postRecord(path, text) {
  let reply;
  try {
    reply = await fetch(path, {
      method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" }, body: text,
    });
  } catch (err) {
    return { ok: false, code: "network", message: "the server cannot be reached" };
  }
  let data = null;
  try { data = await reply.json(); } catch (err) { data = null; }
  if (!reply.ok) {
    const detail = (data && data.detail) || {};
    return { ok: false, code: detail.code || `http/${reply.status}`, message: detail.message || reply.statusText };
  }
  return { ok: true, data };
}

// A record file's steps: the server reads records for signed-in players only, so a newcomer
// who opens one is signed in as a guest first (as "Play as a guest" does; onSignedIn tells the
// header), then asked again.
async function uploadRecord(path, text, onSignedIn) {
  const reply = await postRecord(path, text);
  if (reply.ok || reply.code !== "auth/required") return reply;
  const guest = await api("POST", "/api/guests", { display_name: "Guest" });
  if (!guest.ok) return guest;
  if (onSignedIn) onSignedIn(guest.data.account);
  return postRecord(path, text);
}

// The step buttons' icons (drawn: not every font has the media-control characters).
const ICONS = {
  first: "M3 2h2v12H3zM14 2v12L6 8z",
  back: "M12 2v12L4 8z",
  forward: "M4 2v12l8-6z",
  last: "M11 2h2v12h-2zM2 2v12l8-6z",
};
const icon = (name) => html`<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false"><path d=${ICONS[name]} fill="currentColor" /></svg>`;

function OpenRecord({ onText, problem }) {
  const onChange = async (event) => {
    const file = event.target.files && event.target.files[0];
    if (file) onText(await file.text(), file.name);
  };
  return html`<section class="card replay-open">
    <h2>Replay a match</h2>
    <p>Open a match record (the file <code>meeple play --save</code> writes or a finished match's
      "Download the record" gives) to step through it here. Nothing is stored on the server; if
      you are not signed in, opening one signs you in as a guest.</p>
    <label class="file">Open a record file
      <input type="file" accept=".json,.jsonl,application/json" data-testid="record-file" onChange=${onChange} />
    </label>
    ${problem && html`<p role="alert" class="error" data-testid="replay-error">${problem}</p>`}
  </section>`;
}

// The steps and their controls. `replay` is the server's answer (docs/analysis.md).
function Viewer({ replay, matchId, text, viewSeat, setViewSeat, title }) {
  const steps = replay.steps;
  const last = steps.length - 1;
  const [version, setVersion] = useState(0);
  const [module, setModule] = useState(null);
  const [message, setMessage] = useState(null);
  const [analysis, setAnalysis] = useState(null); // {seat, points, done, total, error}
  const [lineSeat, setLineSeat] = useState(viewSeat === null || viewSeat === undefined ? 0 : viewSeat);
  const list = useRef(null);
  const step = steps[Math.max(0, Math.min(last, version))];
  const go = useCallback((v) => setVersion(Math.max(0, Math.min(last, v))), [last]);
  // A step from the version shown now (keys pressed faster than the page redraws add up).
  const stepBy = useCallback((delta) => setVersion((v) => Math.max(0, Math.min(last, v + delta))), [last]);

  useEffect(() => { loadBoard(replay.game).then(setModule); }, [replay.game]);
  useEffect(() => { if (version > last) setVersion(last); }, [last]);

  // Left/Right step, Home/End jump: anywhere on the page but in a text field or a list.
  useEffect(() => {
    const onKey = (event) => {
      const target = event.target;
      const tag = target && target.tagName;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (tag === "TEXTAREA" || tag === "SELECT" || (tag === "INPUT" && target.type !== "range")) return;
      if (tag === "INPUT") return; // the slider moves itself and tells us through onInput
      const moves = { ArrowLeft: -1, ArrowRight: 1 };
      if (event.key in moves) stepBy(moves[event.key]);
      else if (event.key === "Home") go(0);
      else if (event.key === "End") go(last);
      else return;
      event.preventDefault();
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, [last, go, stepBy]);

  // Keep the current action in sight in the list.
  useEffect(() => {
    const current = list.current && list.current.querySelector("[aria-current=step]");
    if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
  }, [version]);

  // The line: fetched part by part when asked for; dropped when the seat changes.
  useEffect(() => {
    if (!analysis || analysis.seat === undefined) return undefined;
    let stopped = false;
    const seat = analysis.seat;
    const ask = matchId ? matchLine(matchId, seat)
      : (start) => postRecord(`/api/replays/analysis?seat=${seat}&start=${start}`, text);
    fetchLine(ask, {
      stopped: () => stopped,
      onPart: (points, done, total) => setAnalysis((old) => (old && old.seat === analysis.seat ? { ...old, points, done, total } : old)),
    }).then((reply) => {
      if (!stopped && !reply.ok) setAnalysis((old) => (old ? { ...old, error: reply.message, done: true } : old));
    });
    return () => { stopped = true; };
  }, [analysis && analysis.seat, matchId, text]);

  const players = replay.players || [];
  // Seats by side, then who plays them ("Balan (Ana)"), as the match page names them.
  const sides = seatSides(module, step.view);
  const seatWords = (seat) => seatLabel(players, seat, sides);
  const ctx = { players, seat: viewSeat, view: step.view, sides };
  const lines = module ? (step.events || []).map((e) => describe(module, e, ctx)).filter((l) => l) : [];
  const atEnd = version === last;
  const boardProps = {
    game: replay.game, seat: viewSeat, players, version: step.version, view: step.view, legal: [],
    deciding: step.deciding || [], events: step.events || [], outcome: atEnd ? replay.outcome : null,
    readonly: true,
    submit: async () => ({ ok: false, code: "replay/readonly", message: "this is a replay: nothing is played" }),
    say: (text, kind = "info") => setMessage(text ? { text, kind } : null),
  };
  const Board = module && module.default;
  const winners = replay.outcome ? replay.outcome.winners || [] : [];
  return html`<section class="replay" aria-label="Replay" data-testid="replay">
    <header class="replay-head">
      <h2>${title} <small>${replay.game}</small></h2>
      <label>Seen by
        <select data-testid="view-seat" value=${viewSeat === null ? "" : String(viewSeat)}
            onChange=${(e) => setViewSeat(e.target.value === "" ? null : Number(e.target.value))}>
          <option value="">everyone (every event)</option>
          ${players.map((p) => html`<option value=${String(p.seat)}>${seatWords(p.seat)}</option>`)}
        </select>
      </label>
    </header>
    <div class="replay-controls" role="group" aria-label="Step through the match">
      <button type="button" onClick=${() => go(0)} disabled=${version === 0} aria-label="First" title="First (Home)">${icon("first")}</button>
      <button type="button" onClick=${() => stepBy(-1)} disabled=${version === 0} aria-label="Back" title="Back (Left)">${icon("back")}</button>
      <input type="range" min="0" max=${last} value=${version} aria-label="Move" data-testid="scrub"
        aria-valuetext=${`move ${version} of ${last}`}
        onInput=${(e) => go(Number(e.target.value))} />
      <button type="button" onClick=${() => stepBy(1)} disabled=${atEnd} aria-label="Forward" title="Forward (Right)">${icon("forward")}</button>
      <button type="button" onClick=${() => go(last)} disabled=${atEnd} aria-label="Last" title="Last (End)">${icon("last")}</button>
      <span class="where" aria-live="polite">move <span data-testid="replay-version">${step.version}</span> of ${last}</span>
    </div>
    <p class="step-line" data-testid="step-line">${step.notation === null
      ? "The start of the match"
      : html`<span class="mark" style=${`color:${seatColour(step.seat)}`} aria-hidden="true">${seatMark(step.seat)}</span>
        ${seatWords(step.seat)} played <code class="move-notation">${step.notation}</code>`}
      ${atEnd && replay.outcome && html` · <strong data-testid="replay-outcome">${replay.outcome.draw ? "a draw"
        : `${winners.map(seatWords).join(" and ")} ${winners.length > 1 ? "win" : "wins"}`}</strong>`}</p>
    ${message && html`<p role="status" class=${message.kind}>${message.text}</p>`}
    <section class="panel analysis" aria-label="Win probability">
      <h3>Chance to win</h3>
      <p class="buttons">
          <label>Seat
            <select value=${String(lineSeat)} data-testid="line-seat" onChange=${(e) => {
              const s = Number(e.target.value);
              setLineSeat(s);
              if (analysis) setAnalysis({ seat: s, points: [] });
            }}>
              ${players.map((p) => html`<option value=${String(p.seat)}>${seatWords(p.seat)}</option>`)}
            </select>
          </label>
          <button type="button" onClick=${() => setAnalysis({ seat: lineSeat, points: [] })}
            disabled=${analysis && analysis.seat === lineSeat && !analysis.error}>Analyse</button>
          ${analysis && !analysis.done && html`<span role="status" class="thinking">Analysing… ${
            analysis.total ? `${analysis.points.length} of ${analysis.total + 1} moves` : ""}</span>`}
        </p>
        ${analysis && analysis.error && html`<p class="error" role="alert">${analysis.error}</p>`}
        ${analysis && analysis.points.length > 0 && html`<${WinLine} points=${analysis.points} seat=${analysis.seat}
          last=${last} version=${step.version} onPick=${go} width=${1200} />`}
        ${analysis && analysis.done && !analysis.error && html`<p class="note">Where the seat decides, the figure
          is the search's estimate from what that seat could see; the last is the result. Moves where another
          seat decides have no figure of their own.</p>`}
    </section>
    <div class="replay-grid">
      <div class="board-area" data-testid="replay-board">
        ${Board ? html`<${Board} ...${boardProps} />` : html`<p role="status">Loading the board…</p>`}
      </div>
      <aside class="replay-side">
        <section class="panel" aria-label="Actions">
          <h3>Actions</h3>
          <ol class="moves" ref=${list} data-testid="moves">
            <li value="0"><button type="button" onClick=${() => go(0)} aria-current=${version === 0 ? "step" : null}>start</button></li>
            ${steps.slice(1).map((s) => html`<li value=${s.version}>
              <button type="button" onClick=${() => go(s.version)} aria-current=${s.version === version ? "step" : null}
                  data-version=${s.version} aria-label=${`move ${s.version}, ${seatWords(s.seat)}: ${s.notation}`}>
                <span class="mark" style=${`color:${seatColour(s.seat)}`} aria-hidden="true">${seatMark(s.seat)}</span>${s.notation}
              </button></li>`)}
          </ol>
        </section>
        <section class="panel" aria-label="Events of this move">
          <h3>This move</h3>
          ${lines.length ? html`<ul class="events" data-testid="step-events">${lines.map((l) => html`<li>${l}</li>`)}</ul>`
            : html`<p class="note">No events.</p>`}
        </section>
      </aside>
    </div>
  </section>`;
}

// The page: a finished match's replay (matchId), a record given (record: text or object), or
// a file input to open one. onSignedIn(account): a guest was made to read a record file.
export function ReplayPage({ matchId, record, onSignedIn }) {
  const [replay, setReplay] = useState(null);
  const [problem, setProblem] = useState(null);
  const [text, setText] = useState(record ? (typeof record === "string" ? record : JSON.stringify(record)) : null);
  const [name, setName] = useState(null);
  const [viewSeat, setViewSeat] = useState(null);

  useEffect(() => {
    let live = true;
    setProblem(null);
    const seat = viewSeat;
    let ask;
    if (matchId) {
      const query = seat === null ? "" : `?seat=${seat}`;
      ask = api("GET", `/api/matches/${encodeURIComponent(matchId)}/replay${query}`);
    } else if (text !== null) {
      ask = uploadRecord(`/api/replays${seat === null ? "" : `?seat=${seat}`}`, text, onSignedIn);
    } else {
      setReplay(null);
      return undefined;
    }
    ask.then((reply) => {
      if (!live) return;
      if (reply.ok) setReplay(reply.data);
      else { setReplay(null); setProblem(reply.code === "match/not_over"
        ? "This match is still being played: its replay opens once it is over." : reply.message); }
    });
    return () => { live = false; };
  }, [matchId, text, viewSeat]);

  const [opened, setOpened] = useState(0); // files opened: a new one starts a new viewer
  const onText = (fileText, fileName) => {
    setViewSeat(null); setName(fileName); setText(fileText); setOpened((n) => n + 1);
  };
  const changeSeat = (seat) => setViewSeat(seat);
  const title = useMemo(() => (matchId ? `Replay of match ${matchId}` : `Replay of ${name || "a record"}`), [matchId, name]);

  if (!matchId && (text === null || !replay)) {
    return html`<${OpenRecord} onText=${onText} problem=${problem} />`;
  }
  if (problem) {
    return html`<section class="card"><p role="alert" class="error" data-testid="replay-error">${problem}</p>
      ${matchId && html`<a href=${`#/match/${matchId}`}>Back to the match</a>`}</section>`;
  }
  if (!replay) return html`<p role="status">Loading the replay…</p>`;
  return html`<div>
    <${Viewer} key=${matchId || `file-${opened}`} replay=${replay} matchId=${matchId} text=${text} viewSeat=${viewSeat} setViewSeat=${changeSeat} title=${title} />
    ${!matchId && html`<${OpenRecord} onText=${onText} problem=${problem} />`}
  </div>`;
}
