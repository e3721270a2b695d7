// The AI's view of a match (docs/analysis.md): the hint panel of a solo match and the
// win-probability line, both from the server's analysis (meeple.ai.analyse, searched from
// the seat's own point of view). Shared with the replay viewer (replay.js).

import { html, useEffect, useRef, useState } from "./vendor/preact-htm.js";
import { api, seatColour, seatMark } from "./api.js";
import { loadStylesheet } from "./styles.js";

// The replay viewer's stylesheet also dresses the hint panel and the line.
export function useReplayCss() {
  loadStylesheet(new URL("./replay.css", import.meta.url).href);
}
useReplayCss();

export const percent = (p) => `${Math.round(100 * p)} %`;

// A line from version 0 to the last the server allows, fetched in the server's parts:
// ask(start) answers one part (GET /api/matches/ID/analysis?seat=N&start=K, or the same of a
// record: POST /api/replays/analysis); onPart(points, done, total) after each. Resolves to
// {ok, points} or {ok: false, code, message}; stopped() true makes it give up quietly.
export async function fetchLine(ask, { onPart, stopped = () => false } = {}) {
  let points = [];
  let start = 0;
  for (;;) {
    const reply = await ask(start);
    if (stopped()) return { ok: false, code: "stopped", message: "" };
    if (!reply.ok) return reply;
    points = points.concat(reply.data.points);
    if (onPart) onPart(points, reply.data.next === null, reply.data.versions);
    if (reply.data.next === null) return { ok: true, points };
    start = reply.data.next;
  }
}

// The `ask` of a match's line.
export function matchLine(matchId, seat) {
  return (start) => api("GET", `/api/matches/${encodeURIComponent(matchId)}/analysis?seat=${seat}&start=${start}`);
}

// The win-probability line: an SVG polyline of the seat's chance to win over the versions.
// points: [{version, win_probability (null where the seat does not decide)}]; `last` is the
// last version the axis runs to; `version` marks the move shown; onPick(version) on a click;
// `width` the drawing's width in SVG units (its height stays 160).
export function WinLine({ points, seat, last, version, onPick, width = 600 }) {
  const W = width;
  const H = 160;
  const PAD = 28;
  const known = (points || []).filter((p) => p.win_probability !== null && p.win_probability !== undefined);
  const end = Math.max(1, last !== undefined && last !== null ? last
    : (points || []).reduce((m, p) => Math.max(m, p.version), 0));
  const x = (v) => PAD + ((W - PAD - 4) * v) / end;
  const y = (p) => 4 + (H - 24) * (1 - p);
  const line = known.map((p) => `${x(p.version).toFixed(1)},${y(p.win_probability).toFixed(1)}`).join(" ");
  const colour = seatColour(seat);
  const first = known[0];
  const final = known[known.length - 1];
  const label = known.length
    ? `Seat ${seat}'s chance to win, move by move: ${percent(first.win_probability)} at move ${first.version}, `
      + `${percent(final.win_probability)} at move ${final.version}`
    : `Seat ${seat}'s chance to win: no figures yet`;
  const pick = (event) => {
    if (!onPick) return;
    const box = event.currentTarget.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * W;
    onPick(Math.max(0, Math.min(end, Math.round(((at - PAD) * end) / (W - PAD - 4)))));
  };
  const here = version !== undefined && version !== null ? (points || []).find((p) => p.version === version) : null;
  return html`<figure class="win-line" data-testid="win-line">
    <svg viewBox=${`0 0 ${W} ${H}`} role="img" aria-label=${label} onClick=${pick}
        class=${onPick ? "pickable" : ""} preserveAspectRatio="xMidYMid meet">
      <title>${label}</title>
      ${[1, 0.5, 0].map((p) => html`<g class="grid">
        <line x1=${PAD} x2=${W - 4} y1=${y(p)} y2=${y(p)} stroke-dasharray=${p === 0.5 ? "4 4" : ""} />
        <text x=${PAD - 4} y=${y(p) + 4} text-anchor="end">${Math.round(p * 100)}</text>
      </g>`)}
      <text class="axis" x=${W - 4} y=${H - 4} text-anchor="end">move ${end}</text>
      <text class="axis" x=${PAD} y=${H - 4}>move 0</text>
      ${version !== undefined && version !== null && html`<line class="now" x1=${x(version)} x2=${x(version)} y1="2" y2=${H - 20} />`}
      ${known.length > 1 && html`<polyline points=${line} fill="none" stroke=${colour} stroke-width="2.5"
        stroke-linejoin="round" data-testid="win-polyline" />`}
      ${known.length === 1 && html`<circle cx=${x(known[0].version)} cy=${y(known[0].win_probability)} r="4" fill=${colour}
        data-testid="win-polyline" />`}
      ${final && html`<text x=${x(final.version)} y=${y(final.win_probability) - 6} fill=${colour}
        text-anchor="middle" class="mark" aria-hidden="true">${seatMark(seat)}</text>`}
    </svg>
    <figcaption>
      <span class="mark" style=${`color:${colour}`} aria-hidden="true">${seatMark(seat)}</span>
      seat ${seat}'s chance to win, by move${here ? html` · move ${here.version}: <strong data-testid="win-here">${
        here.win_probability === null ? "not this seat's decision" : percent(here.win_probability)}</strong>${
        here.best ? html` (best: <code>${here.best}</code>)` : ""}` : ""}
    </figcaption>
  </figure>`;
}

// The hint of a solo match: the best actions for the caller's seat now, with their notation
// and chance to win, asked with the "Hint" button and asked again at every new version once
// shown; and, on demand, the line of the seat's chances so far.
export function HintPanel({ matchId, seat, version, mode }) {
  const [shown, setShown] = useState(false);
  const [hint, setHint] = useState(null);
  const [busy, setBusy] = useState(false);
  const [line, setLine] = useState(null);
  const asked = useRef(0);
  const solo = mode === undefined || mode === null || mode === "solo";

  useEffect(() => {
    if (!shown || !solo) return undefined;
    const ask = ++asked.current;
    setBusy(true);
    api("GET", `/api/matches/${encodeURIComponent(matchId)}/hint`).then((reply) => {
      if (ask !== asked.current) return;
      setBusy(false);
      setHint(reply.ok ? { ok: true, ...reply.data } : reply);
    });
    return () => { asked.current += 1; };
  }, [shown, matchId, version, solo]);

  useEffect(() => {
    if (!line || !solo) return undefined;
    let stopped = false;
    fetchLine(matchLine(matchId, seat), {
      stopped: () => stopped,
      onPart: (points) => setLine((old) => (old ? { ...old, points } : old)),
    }).then((reply) => {
      if (!stopped && !reply.ok) setLine((old) => (old ? { ...old, error: reply.message } : old));
    });
    return () => { stopped = true; };
  }, [line !== null, matchId, seat, version, solo]);

  if (!solo) return null;
  return html`<section class="panel hint-panel" aria-label="Hint" data-testid="hint-panel">
    <h3>Hint</h3>
    <p class="buttons">
      <button type="button" onClick=${() => (shown ? setShown(false) : setShown(true))} aria-pressed=${shown}>
        ${shown ? "Hide the hint" : "Hint"}</button>
      <button type="button" onClick=${() => setLine(line ? null : { points: [] })} aria-pressed=${line !== null}>
        ${line ? "Hide my chances" : "My chances so far"}</button>
    </p>
    ${shown && html`<div aria-live="polite">
      ${busy && html`<p role="status" class="thinking">Thinking…</p>`}
      ${!busy && hint && !hint.ok && html`<p class="note" data-testid="hint-refused">${hint.message}</p>`}
      ${!busy && hint && hint.ok && html`<div data-testid="hint">
        <p>Move ${hint.version}: your chance with the best action <strong>${percent(hint.win_probability)}</strong>${" "}
          <small>(${hint.iterations} search iterations)</small></p>
        <ol class="advice">
          ${hint.best.map((advice) => html`<li data-testid="hint-action">
            <code class="move-notation">${advice.notation}</code>
            <span class="chance">${percent(advice.win_probability)} to win</span>
            <span class="share">${percent(advice.share)} of the search</span>
          </li>`)}
        </ol>
      </div>`}
    </div>`}
    ${line && html`<div>
      ${line.error ? html`<p class="error">${line.error}</p>`
        : html`<${WinLine} points=${line.points} seat=${seat} last=${version} version=${version} />`}
    </div>`}
  </section>`;
}
