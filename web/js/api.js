// The API of SPEC §5: every call goes through api(), with a timeout (lib/http.js); a player's
// call carries the id token, renewed first when it is about to expire, and after a 401 once.

import { ensureFreshToken, learnServerTime, renewToken } from "./auth.js";
import { creation, exchange, newIdempotencyKey, pageFetch, resendable, withOneRetry } from "./lib/http.js";
import { get } from "./store.js";

/** One call to the API: resolves to {status, body, date} (status 0: no reply). `auth` adds the
 * player's token; an answer, a skip or a creation (with its own Idempotency-Key) that got no reply
 * is sent once more (the server replays it). */
export async function api(method, path, body, { auth = false } = {}) {
  if (auth && get("token")) await ensureFreshToken();
  const key = creation(method, path) ? newIdempotencyKey() : undefined;
  let reply = await request(method, path, body, auth, key);
  if (reply.status === 401 && auth && get("token")) {
    if (await renewToken()) reply = await request(method, path, body, auth, key);
  }
  return reply;
}

async function request(method, path, body, auth, key) {
  const headers = {};
  if (key !== undefined) headers["Idempotency-Key"] = key;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (auth && get("token")) headers.Authorization = "Bearer " + get("token");
  // no-cache: a board or a run read must show what this player just did (boards are cacheable).
  const init = { method, headers, cache: "no-cache" };
  if (body !== undefined) init.body = JSON.stringify(body);
  const reply = await withOneRetry(() => exchange(pageFetch, path, init), resendable(method, path));
  learnServerTime(reply.date);
  return reply;
}

export const ok = (reply) => reply.status === 200 || reply.status === 201;

export function problem(reply) {
  if (reply.status === 0) return "The server cannot be reached. Check your connection and try again.";
  const error = reply.body && reply.body.error;
  if (reply.status === 429) return "Too many requests right now: wait a moment and try again.";
  return error ? error.message : `The server answered ${reply.status}.`;
}
