// web/js/api.js with a stand-in fetch: every call has a timeout signal; an answer that got no
// reply is sent once more, a new run never.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { api, problem } from "../../web/js/api.js";

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** A fetch answering each call with the next of REPLIES (an Error: no reply); CALLS records them. */
function standIn(replies, calls) {
  return async (url, init) => {
    calls.push({ url, body: init.body, signal: init.signal, key: init.headers["Idempotency-Key"] });
    const next = replies[calls.length - 1];
    if (next instanceof Error) throw next;
    return new Response(JSON.stringify(next.body), { status: next.status });
  };
}

test("a guest's answer whose reply was lost is sent once more, the same, and the replay is the reply", async () => {
  const calls = [];
  globalThis.fetch = standIn([new TypeError("Failed to fetch"), { status: 200, body: { accepted: true } }], calls);
  const reply = await api("POST", "/guest/runs/r1/answers", { round: 1, attempt: 1, word: "timer" });
  assert.equal(reply.status, 200);
  assert.deepEqual(reply.body, { accepted: true });
  assert.equal(calls.length, 2);
  assert.equal(calls[0].body, calls[1].body);
  assert.ok(calls.every((call) => call.signal instanceof AbortSignal), "every request can time out");
});

test("a new run that got no reply is not started twice: the page says the server cannot be reached", async () => {
  const calls = [];
  globalThis.fetch = standIn([new TypeError("Failed to fetch"), { status: 201, body: {} }], calls);
  const reply = await api("POST", "/guest/daily/runs");
  assert.equal(reply.status, 0);
  assert.equal(calls.length, 1);
  assert.equal(problem(reply), "The server cannot be reached. Check your connection and try again.");
});

test("a creation whose reply was lost is sent once more with its key; the next creation has a new key", async () => {
  const calls = [];
  const made = { status: 201, body: { league_id: "l1" } };
  globalThis.fetch = standIn([new TypeError("Failed to fetch"), made, made], calls);
  const reply = await api("POST", "/leagues", { name: "Office" }, { auth: true });
  assert.equal(reply.status, 201);
  assert.equal(calls.length, 2);
  assert.ok(calls[0].key && calls[0].key === calls[1].key && calls[0].body === calls[1].body);
  await api("POST", "/leagues", { name: "Office" }, { auth: true });
  assert.ok(calls[2].key && calls[2].key !== calls[0].key, "a new creation, a new key");
});

test("only a creation carries a key", async () => {
  const calls = [];
  globalThis.fetch = standIn([{ status: 200, body: {} }, { status: 201, body: {} }], calls);
  await api("POST", "/leagues/join", { code: "c" }, { auth: true });
  await api("POST", "/challenges", {}, { auth: true });
  assert.equal(calls[0].key, undefined);
  assert.match(calls[1].key, /^[0-9a-f]{32}$/);
});
