// Signing in: as a guest (a display name), with an account (name and password), or a new
// account. The session is the server's cookie.

import { html, useState } from "./vendor/preact-htm.js";
import { api } from "./api.js";
import { useGames } from "./lobby.js";
import { LearnToPlay } from "./tutorial.js";

function Form({ label, fields, submitText, onSubmit }) {
  const [values, setValues] = useState({});
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    setBusy(true);
    const problem = await onSubmit(values);
    setBusy(false);
    setError(problem || null);
  };
  const id = label.toLowerCase().replace(/[^a-z]+/g, "-");
  return html`<form class="card signin" onSubmit=${submit} aria-label=${label}>
    <h2>${label}</h2>
    ${fields.map((f) => html`<label for=${`${id}-${f.name}`}>${f.label}</label>
      <input id=${`${id}-${f.name}`} name=${f.name} type=${f.type || "text"} required=${!!f.required}
        minlength=${f.minlength} maxlength=${f.maxlength || 40} pattern=${f.pattern}
        autocomplete=${f.autocomplete} value=${values[f.name] || ""}
        onInput=${(e) => setValues({ ...values, [f.name]: e.target.value })} />
      ${f.hint && html`<small class="hint">${f.hint}</small>`}`)}
    <button type="submit" disabled=${busy}>${submitText}</button>
    <p role="alert" class="error">${error || ""}</p>
  </form>`;
}

export function SignIn({ onSignedIn }) {
  const games = useGames();
  const done = (reply) => {
    if (!reply.ok) return reply.message;
    onSignedIn(reply.data.account);
    return null;
  };
  const nameField = { name: "name", label: "Account name", required: true, minlength: 3,
    pattern: "[\\p{L}\\p{M}\\p{N}][\\p{L}\\p{M}\\p{N}_.\\-]*", autocomplete: "username",
    hint: "3 to 40 letters, digits, _ . -; not ending in \"bot\"" };
  return html`<div class="signin-page">
    <p class="intro">Play Maiterra, Maatatahay and Manafields against bots or people.</p>
    <${LearnToPlay} games=${games} />
    <div class="columns">
      <${Form} label="Play as a guest" submitText="Play as a guest"
        fields=${[{ name: "display_name", label: "Display name", maxlength: 40, autocomplete: "nickname" }]}
        onSubmit=${async (v) => done(await api("POST", "/api/guests", { display_name: (v.display_name || "").trim() || "Guest" }))} />
      <${Form} label="Log in" submitText="Log in"
        fields=${[nameField, { name: "password", label: "Password", type: "password", required: true,
          minlength: 8, maxlength: 200, autocomplete: "current-password" }]}
        onSubmit=${async (v) => done(await api("POST", "/api/sessions", { name: v.name, password: v.password }))} />
      <${Form} label="Register" submitText="Register"
        fields=${[nameField,
          { name: "display_name", label: "Name shown to others (optional)", maxlength: 40, autocomplete: "nickname" },
          { name: "password", label: "Password", type: "password", required: true, minlength: 10,
            maxlength: 200, autocomplete: "new-password",
            hint: "at least 10 characters, not your name nor a common password" }]}
        onSubmit=${async (v) => {
          const body = { name: v.name, password: v.password };
          if ((v.display_name || "").trim()) body.display_name = v.display_name.trim();
          return done(await api("POST", "/api/accounts", body));
        }} />
    </div>
  </div>`;
}
