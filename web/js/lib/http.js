// The one way the page makes a request: every request has a timeout (an AbortController), and a
// request that got no reply is sent once more only when the server makes that safe. Pure: FETCH
// is passed in (the page's own, or a stand-in in tests/web/http.test.mjs); nothing runs on import.

/** How long a request may take, its reply's body included, before it counts as unanswered. */
export const TIMEOUT_MS = 15000;

/** The page's own fetch, called only when a request is made. */
export const pageFetch = (url, init) => globalThis.fetch(url, init);

/** One request to URL: resolves to {status, body, date}, status 0 when no reply came (no network,
 * or none within TIMEOUT_MS: the request is then aborted); BODY is the reply's JSON, else null. */
export async function exchange(fetchFn, url, init = {}, timeoutMs = TIMEOUT_MS) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetchFn(url, { ...init, signal: controller.signal });
    let body = null;
    try {
      body = await response.json();
    } catch {
      // An empty or non-JSON body; a body cut short by the timeout is no reply at all.
      if (controller.signal.aborted) return { status: 0, body: null, date: null };
    }
    return { status: response.status, body, date: response.headers.get("Date") };
  } catch {
    return { status: 0, body: null, date: null };
  } finally {
    clearTimeout(timer);
  }
}

/** Whether a request that got no reply may be sent again as it was: an answer names its slot
 * (round and attempt) and a skip its round, and the server answers a repeat of one it already
 * applied with the same reply as the first time (SPEC §5 "Retries are safe"); so does a creation,
 * by its Idempotency-Key. */
export function resendable(method, path) {
  const slot = /^\/(guest\/)?runs\/[^/?#]+\/(answers|skip)$/;
  return creation(method, path) || (method === "POST" && slot.test(path));
}

/** Whether a request creates a challenge or a league: it carries an Idempotency-Key, new for each
 * creation and the same when sent again, so the server makes one item however often it comes. */
export function creation(method, path) {
  return method === "POST" && /^\/(challenges|leagues)$/.test(path);
}

/** A new Idempotency-Key: 128 random bits as 32 hex digits (getRandomValues, unlike randomUUID,
 * works on a page served over plain HTTP too). */
export function newIdempotencyKey(crypto = globalThis.crypto) {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** SEND (one request), and once more when it got no reply and RESEND says that is safe. */
export async function withOneRetry(send, resend) {
  const reply = await send();
  return reply.status === 0 && resend ? send() : reply;
}
