// The guided first match (#/tutorial/<game>): the step's text beside the game's board.
// The steps come from GET /api/tutorials/<game>: one match, played from one seat, each step
// continuing from the one before. The board offers only the step's action (its legal list
// is cut to the step's example), so the one thing to click is the one highlighted; the
// board's submit(action) goes to POST /api/tutorials/<game>/check, which answers
// {ok, done, over, message, view, legal, next} (the position after it, the other seat's
// answer included) and stores nothing. "Next step" goes on from there. Nothing is typed.
// The last step (to_win) is the match played on to a win: the board in normal play with
// every legal action, the tutorial's opponent answering each; the server keeps nothing, so
// each check sends the learner's earlier actions of the step ("played", in notation).

import { html, useCallback, useEffect, useState } from "./vendor/preact-htm.js";
import { api, gameName } from "./api.js";
import { loadBoard } from "./match.js";

// One "Learn to play" entry per game: its guided first match and its rules page. Shown on
// the sign-in page too: neither needs an account.
export function LearnToPlay({ games }) {
  const names = [...new Map((games || []).map((g) => [gameName(g.id), g.title || gameName(g.id)])).entries()];
  return html`<section class="card learn" aria-label="Learn to play">
    <h2>Learn to play</h2>
    <ul>${names.map(([name, title]) => html`<li>
      <a href=${`#/tutorial/${name}`} data-testid=${`learn-${name}`}>Learn to play ${title}</a>
      · <a href=${`#/rules/${name}`} data-testid=${`rules-${name}`}>${title} rules</a></li>`)}</ul>
  </section>`;
}

// A game's rules page (#/rules/<game>): docs/rules/<game>.md as the server renders it
// (GET /api/rules/<game>; markdown-it with HTML off, so the page holds no HTML of the text's
// own and setting it as markup is safe).
export function RulesPage({ game }) {
  const [page, setPage] = useState(null);
  const [failed, setFailed] = useState(null);
  useEffect(() => {
    api("GET", `/api/rules/${encodeURIComponent(game)}`).then((reply) => {
      if (!reply.ok) { setFailed(reply.message); return; }
      setPage(reply.data);
      document.title = `${reply.data.title} rules · meeple`;
    });
  }, [game]);
  if (failed) return html`<section class="card"><p role="alert" class="error">${failed}</p><a href="#/">Back to the lobby</a></section>`;
  if (!page) return html`<p role="status">Loading the rules…</p>`;
  return html`<article class="card rules-page" aria-label=${`${page.title} rules`}>
    <p class="rules-links"><a href=${`#/tutorial/${page.game}`}>Learn to play ${page.title}</a> · <a href="#/">Back to the lobby</a></p>
    <div class="rules-text" dangerouslySetInnerHTML=${{ __html: page.html }}></div>
  </article>`;
}

// A step's text as prose: a quoted rule in its own voice, a name of the notation (written
// between backquotes in the data) in bold, never with its backquotes.
function prose(text) {
  return String(text).split("`").map((part, i) => (i % 2 ? html`<strong>${part}</strong>` : part));
}

export function TutorialPage({ game }) {
  const [data, setData] = useState(null);
  const [failed, setFailed] = useState(null);
  const [module, setModule] = useState(null);
  const [index, setIndex] = useState(0);
  const [frame, setFrame] = useState(null); // {view, legal, deciding, events}
  const [message, setMessage] = useState(null); // {kind, text}
  const [passed, setPassed] = useState(false);
  const [played, setPlayed] = useState([]); // the learner's actions on a step played to a win
  const [turn, setTurn] = useState(0); // counts the board's positions, for its version

  useEffect(() => {
    api("GET", `/api/tutorials/${encodeURIComponent(game)}`).then((reply) => {
      if (!reply.ok) { setFailed(reply.message); return; }
      setData(reply.data);
      loadBoard(reply.data.game).then(setModule);
    });
  }, [game]);

  const step = data ? data.steps[index] : null;
  useEffect(() => {
    if (!step) return;
    setFrame({ view: step.view, legal: step.legal, deciding: step.deciding, events: [] });
    setMessage(null);
    setPassed(false);
    setPlayed([]);
    document.title = `${data.title} tutorial · step ${index + 1} · meeple`;
  }, [data, index]);

  const submit = useCallback(async (action) => {
    if (!step || passed) return { ok: false, code: "tutorial/done", message: "this step is done" };
    const toWin = step.to_win;
    const text = typeof action === "number" ? ((frame.legal.find((a) => a.id === action) || {}).text ?? action) : action;
    const body = toWin ? { step: index, action: text, played } : { step: index, action };
    const reply = await api("POST", `/api/tutorials/${encodeURIComponent(game)}/check`, body);
    if (!reply.ok) {
      setMessage({ kind: "error", text: reply.message });
      return { ok: false, code: reply.code, message: reply.message };
    }
    const answer = reply.data;
    if (!answer.ok) {
      setMessage({ kind: "error", text: answer.message });
      return { ok: false, code: "tutorial/not_yet", message: answer.message };
    }
    setFrame({ view: answer.view, legal: answer.legal, deciding: answer.deciding, events: answer.events });
    setTurn((n) => n + 1);
    if (toWin && !answer.done) {
      setPlayed([...played, text]);
      setMessage(answer.over ? { kind: "error", text: answer.message } : null);
      return { ok: true };
    }
    setMessage({ kind: "success", text: answer.message });
    setPassed(true);
    return { ok: true };
  }, [game, index, step, passed, played, frame]);
  const again = useCallback(() => {
    setFrame({ view: step.view, legal: step.legal, deciding: step.deciding, events: [] });
    setPlayed([]);
    setMessage(null);
    setTurn((n) => n + 1);
  }, [step]);
  const say = useCallback((text, kind = "info") => setMessage(text ? { kind, text } : null), []);

  if (failed) return html`<section class="card"><p role="alert" class="error">${failed}</p><a href="#/">Back to the lobby</a></section>`;
  if (!data || !module || !frame) return html`<p role="status">Loading the tutorial…</p>`;
  const Board = module.default;
  const last = index + 1 >= data.steps.length;
  // The learner's seat is "You"; the other answers each move (the first legal action).
  const players = Array.from({ length: data.seats }, (_, seat) =>
    ({ seat, name: seat === step.seat ? "you" : "the tutorial's opponent" }));
  // A step asks for one action: only it is offered. Played on to a win: every legal one.
  const offered = step.to_win ? frame.legal : frame.legal.filter((a) => a.text === step.example);
  const lost = step.to_win && !passed && frame.legal.length === 0;
  const boardProps = {
    game: data.game, seat: step.seat, players, version: turn, view: frame.view,
    legal: passed ? [] : offered, deciding: frame.deciding, events: frame.events, outcome: null,
    readonly: passed, submit, say,
  };
  return html`<section class="match tutorial" aria-label="Tutorial">
    <header class="match-head">
      <h2>${data.title}: a guided first match</h2>
      <span class="facts">step <span data-testid="tutorial-step">${index + 1}</span> of ${data.steps.length}</span>
    </header>
    <div class="match-grid">
      <div class="board-area"><${Board} key=${index} ...${boardProps} /></div>
      <aside class="side">
        <section class="panel" aria-label="Step">
          <h3 data-testid="tutorial-title">${step.title}</h3>
          <p data-testid="tutorial-text">${prose(step.text)}</p>
          <div role="alert" class=${`message ${message ? message.kind : ""}`} data-testid="tutorial-message">${message ? message.text : ""}</div>
          ${passed ? (last
            ? html`<p><strong>Tutorial complete.</strong> <a href="#/">Play a match</a></p>`
            : html`<button type="button" data-testid="tutorial-next" onClick=${() => setIndex(index + 1)}>Next step</button>`)
            : lost
              ? html`<button type="button" data-testid="tutorial-again" onClick=${again}>Start this position again</button>`
              : step.to_win
                ? html`<p class="hint">Play on: every move the rules allow is yours to choose.</p>`
                : html`<p class="hint">Your move is highlighted on the board: click it.</p>`}
        </section>
        <p><a href=${`#/rules/${game}`}>${data.title} rules</a> · <a href="#/">Back to the lobby</a></p>
      </aside>
    </div>
  </section>`;
}
