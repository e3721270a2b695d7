// The guided first match (#/tutorial/<game>): the step's text beside the game's board.
// The steps come from GET /api/tutorials/<game>; the board's submit(action) goes to
// POST /api/tutorials/<game>/check, which answers {ok, message, view, legal, next} and stores
// nothing. A wrong action is explained and the position stays; a right one shows what the
// step teaches, then "Next step" opens the next prepared position.

import { html, useCallback, useEffect, useState } from "./vendor/preact-htm.js";
import { api } from "./api.js";
import { loadBoard } from "./match.js";

export function TutorialPage({ game }) {
  const [data, setData] = useState(null);
  const [failed, setFailed] = useState(null);
  const [module, setModule] = useState(null);
  const [index, setIndex] = useState(0);
  const [frame, setFrame] = useState(null); // {view, legal, deciding, events}
  const [message, setMessage] = useState(null); // {kind, text}
  const [passed, setPassed] = useState(false);
  const [typed, setTyped] = useState("");

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
    setTyped("");
    document.title = `${data.title} tutorial · step ${index + 1} · meeple`;
  }, [data, index]);

  const submit = useCallback(async (action) => {
    if (!step || passed) return { ok: false, code: "tutorial/done", message: "this step is done" };
    const reply = await api("POST", `/api/tutorials/${encodeURIComponent(game)}/check`, { step: index, action });
    if (!reply.ok) {
      setMessage({ kind: "error", text: reply.message });
      return { ok: false, code: reply.code, message: reply.message };
    }
    const answer = reply.data;
    setMessage({ kind: answer.ok ? "success" : "error", text: answer.message });
    if (!answer.ok) return { ok: false, code: "tutorial/not_yet", message: answer.message };
    setFrame({ view: answer.view, legal: answer.legal, deciding: answer.deciding, events: answer.events });
    setPassed(true);
    return { ok: true };
  }, [game, index, step, passed]);
  const say = useCallback((text, kind = "info") => setMessage(text ? { kind, text } : null), []);

  if (failed) return html`<section class="card"><p role="alert" class="error">${failed}</p><a href="#/">Back to the lobby</a></section>`;
  if (!data || !module || !frame) return html`<p role="status">Loading the tutorial…</p>`;
  const Board = module.default;
  const last = index + 1 >= data.steps.length;
  const boardProps = {
    game: data.game, seat: step.seat, players: [], version: index, view: frame.view,
    legal: passed ? [] : frame.legal, deciding: frame.deciding, events: frame.events, outcome: null,
    readonly: passed, submit, say,
  };
  const play = (e) => {
    e.preventDefault();
    if (typed.trim()) submit(typed.trim());
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
          <p data-testid="tutorial-text">${step.text}</p>
          <div role="alert" class=${`message ${message ? message.kind : ""}`} data-testid="tutorial-message">${message ? message.text : ""}</div>
          ${passed ? (last
            ? html`<p><strong>Tutorial complete.</strong> <a href="#/">Play a match</a></p>`
            : html`<button type="button" data-testid="tutorial-next" onClick=${() => setIndex(index + 1)}>Next step</button>`)
            : html`<form onSubmit=${play}>
                <label for="tutorial-notation">Your action (notation)</label>
                <input id="tutorial-notation" autocomplete="off" value=${typed} onInput=${(e) => setTyped(e.target.value)} />
                <button type="submit">Play</button>
                <button type="button" onClick=${() => setMessage({ kind: "info", text: `Try: ${step.example}` })}>Hint</button>
              </form>`}
        </section>
        <p><a href="#/">Back to the lobby</a></p>
      </aside>
    </div>
  </section>`;
}
