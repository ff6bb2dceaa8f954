// The page's one way to call the server, with one error rule: any answer but a 2xx with JSON, or no
// answer at all, throws a RequestError whose message can be put on screen as it is. The service
// answers every error as JSON {"detail": "one line"}, so the message is that line where there is one.

export class RequestError extends Error {
  constructor(message, status = 0, body = null) {
    super(message);
    this.name = "RequestError";
    this.status = status; // 0: the server was not reached
    this.body = body; // the error's JSON: /api/count's and /api/discard's 422s still carry the cards seen
  }
}

async function post(url, init) {
  let res;
  try {
    res = await fetch(url, { method: "POST", ...init });
  } catch (err) {
    throw new RequestError(`Could not reach the server: ${err.message}`);
  }
  const body = await res.json().catch(() => null);
  if (res.ok && body !== null) return body;
  const detail = body && typeof body.detail === "string" ? body.detail
    : res.ok ? "The server's answer was not JSON." : `The server answered ${res.status}.`;
  throw new RequestError(detail, res.status, body);
}

/** POST `body` as JSON; resolves to the answer's JSON or throws a RequestError. */
export function postJson(url, body) {
  return post(url, { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

/** POST a multipart form (a photo); resolves to the answer's JSON or throws a RequestError. */
export function postForm(url, form) {
  return post(url, { body: form });
}
