// The shared turn clock: counts down to the server's deadline (an ISO 8601 UTC time).
// Everyone sees the same clock; the server hands in at zero, the page only shows it.

import { html, useEffect, useState } from "./vendor/preact-htm.js";
import { clockText } from "./api.js";

export function secondsLeft(deadline, now = Date.now()) {
  if (!deadline) return null;
  const at = Date.parse(deadline);
  return Number.isNaN(at) ? null : (at - now) / 1000;
}

export function Clock({ deadline, turnSeconds, over }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!deadline || over) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(timer);
  }, [deadline, over]);
  if (over) return null;
  if (!deadline) {
    return html`<div class="clock off" data-testid="clock">
      <span class="label">Turn clock:</span> <span>${turnSeconds ? "waits (no timed decision now)" : "none"}</span></div>`;
  }
  const left = secondsLeft(deadline, now);
  const total = turnSeconds || Math.max(left, 1);
  const fraction = Math.max(0, Math.min(1, left / total));
  const low = left <= Math.min(10, total / 6);
  // A turn shorter than 10 s (a server whose timers run faster) shows tenths.
  const fine = total < 10;
  const show = (seconds) => (fine ? `${Math.max(0, seconds).toFixed(1)} s` : clockText(seconds));
  return html`<div class=${`clock ${low ? "low" : ""} ${left <= 0 ? "zero" : ""}`} data-testid="clock"
      role="timer" aria-label="Turn clock">
    <span class="label">Turn clock</span>
    <strong class="time" data-testid="clock-time">${show(left)}</strong>
    <span class="of">of ${turnSeconds ? show(turnSeconds) : "?"}</span>
    <span class="bar" aria-hidden="true"><span style=${`width:${(fraction * 100).toFixed(1)}%`}></span></span>
    ${left <= 0 ? html`<span class="note">time is up</span>` : low ? html`<span class="note">hurry</span>` : ""}
  </div>`;
}

// The grace periods running (the presence frame's `leaving`): for each seat whose player has
// no connection, how long until a bot takes it, shown to everyone at the table.
export function GraceClocks({ leaving, label, over }) {
  const [now, setNow] = useState(Date.now());
  const running = !over && leaving && leaving.length > 0;
  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [running]);
  if (!running) return null;
  return html`<div class="grace" data-testid="grace">
    ${leaving.map(({ seat, deadline }) => {
      const left = secondsLeft(deadline, now);
      const text = left === null || left > 0
        ? html`a bot takes the seat in <strong class="time">${clockText(left || 0)}</strong> unless its player is back`
        : "a bot takes the seat now";
      return html`<p class="clock grace-clock" role="timer" data-seat=${seat}
          aria-label=${`${label(seat)}: grace period`}>
        <span class="label">${label(seat)} has left the match:</span> ${text}</p>`;
    })}
  </div>`;
}
