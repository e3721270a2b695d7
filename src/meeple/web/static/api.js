// The REST interface (docs/server.md): one JSON request, one typed answer.
// A refusal resolves to {ok: false, status, code, message}; nothing throws on a 4xx.

export async function api(method, path, body) {
  const init = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let reply;
  try {
    reply = await fetch(path, init);
  } catch (err) {
    return { ok: false, status: 0, code: "network", message: "the server cannot be reached" };
  }
  let data = null;
  const text = await reply.text();
  if (text) {
    try { data = JSON.parse(text); } catch (err) { data = text; }
  }
  if (!reply.ok) {
    const detail = (data && data.detail) || {};
    const message = typeof detail === "string" ? detail
      : detail.message || (Array.isArray(detail) ? detail.map((d) => d.msg).join("; ") : reply.statusText);
    return { ok: false, status: reply.status, code: detail.code || `http/${reply.status}`, message };
  }
  return { ok: true, status: reply.status, data };
}

// The game's name in a game id ("maiterra/2" -> "maiterra"): the board module's file name.
export function gameName(gameId) {
  return String(gameId).split("/")[0];
}
