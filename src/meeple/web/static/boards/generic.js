// The board every game falls back to: the legal actions as buttons, by their notation.
// It is also the shape of a board module (docs/web.md, "Board modules").

import { html } from "../vendor/preact-htm.js";

export default function Board({ legal, submit, readonly }) {
  return html`<div class="generic-board">
    <ul class="legal" aria-label="Legal actions">
      ${legal.map((action) => html`<li><button data-action=${action.id} disabled=${readonly}
        onClick=${() => submit(action.id)}>${action.text}</button></li>`)}
    </ul>
  </div>`;
}

export function describeEvent(event) {
  return event && typeof event === "object" ? event.text || event.type || JSON.stringify(event) : String(event);
}
