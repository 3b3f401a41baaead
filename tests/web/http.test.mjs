// web/js/lib/http.js: every request has a timeout; only an answer or a skip is sent again, once.
import assert from "node:assert/strict";
import { test } from "node:test";

import { creation, exchange, newIdempotencyKey, resendable, withOneRetry } from "../../web/js/lib/http.js";

const reply = (status, body, date = "Thu, 03 Dec 2026 12:00:00 GMT") =>
  new Response(JSON.stringify(body), { status, headers: { Date: date } });

test("a reply is its status, its JSON body and its Date", async () => {
  const got = await exchange(async () => reply(201, { run_id: "r1" }), "/daily/runs", { method: "POST" });
  assert.deepEqual(got, { status: 201, body: { run_id: "r1" }, date: "Thu, 03 Dec 2026 12:00:00 GMT" });
  const empty = await exchange(async () => new Response(null, { status: 204 }), "/x");
  assert.deepEqual(empty, { status: 204, body: null, date: null });
});

test("no network is status 0", async () => {
  const got = await exchange(async () => {
    throw new TypeError("Failed to fetch");
  }, "/daily");
  assert.deepEqual(got, { status: 0, body: null, date: null });
});

test("a request with no reply within the timeout is aborted and counts as unanswered", async () => {
  let signal = null;
  const hanging = (url, init) =>
    new Promise((_, reject) => {
      signal = init.signal;
      init.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
    });
  const got = await exchange(hanging, "/daily", {}, 10);
  assert.equal(got.status, 0);
  assert.ok(signal.aborted, "the request was aborted, not left running");
});

test("a reply whose body does not arrive within the timeout counts as unanswered", async () => {
  const slowBody = (url, init) => {
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"accepted": '));
        init.signal.addEventListener("abort", () => controller.error(new DOMException("aborted", "AbortError")));
      },
    });
    return Promise.resolve(new Response(body, { status: 200 }));
  };
  assert.deepEqual(await exchange(slowBody, "/runs/r1/answers", {}, 10), { status: 0, body: null, date: null });
});

test("only an answer, a skip or a creation may be sent again: the server replays them", () => {
  for (const path of ["/runs/r1/answers", "/guest/runs/r-1_x/answers", "/runs/r1/skip", "/guest/runs/r1/skip"]) {
    assert.ok(resendable("POST", path) && !creation("POST", path), path);
  }
  for (const path of ["/challenges", "/leagues"]) assert.ok(resendable("POST", path) && creation("POST", path), path);
  for (const [method, path] of [
    ["POST", "/daily/runs"], // a new run each time
    ["POST", "/guest/daily/runs"],
    ["POST", "/leagues/join"],
    ["POST", "/challenges/c1/runs"],
    ["GET", "/challenges"],
    ["POST", "/reports"],
    ["PUT", "/me"],
    ["DELETE", "/me"],
    ["GET", "/runs/r1/answers"],
    ["POST", "/runs/r1/answers/extra"],
    ["POST", "/runs/r1/answers?x=1"],
  ]) {
    assert.ok(!resendable(method, path), `${method} ${path}`);
  }
});

test("an answer that got no reply is sent once more, and only once", async () => {
  const sent = [];
  const answers = [{ status: 0 }, { status: 200, body: { accepted: true } }];
  const got = await withOneRetry(async () => {
    sent.push("answer");
    return answers[sent.length - 1];
  }, true);
  assert.deepEqual(got, { status: 200, body: { accepted: true } });
  assert.equal(sent.length, 2);

  sent.length = 0;
  const never = await withOneRetry(async () => {
    sent.push("answer");
    return { status: 0 };
  }, true);
  assert.equal(never.status, 0);
  assert.equal(sent.length, 2); // not a third time: the page says the server cannot be reached
});

test("a reply, even a refusal, is never sent again; nor a request that is not resendable", async () => {
  for (const [first, resend] of [[{ status: 409 }, true], [{ status: 500 }, true], [{ status: 0 }, false]]) {
    let sent = 0;
    const got = await withOneRetry(async () => {
      sent += 1;
      return first;
    }, resend);
    assert.equal(got, first);
    assert.equal(sent, 1);
  }
});

test("an Idempotency-Key is 32 hex digits, new each time, from the page's random numbers", () => {
  const keys = new Set(Array.from({ length: 50 }, () => newIdempotencyKey()));
  assert.equal(keys.size, 50);
  for (const key of keys) assert.match(key, /^[0-9a-f]{32}$/); // the server's pattern: 8 to 64 of [A-Za-z0-9_-]
  const zeros = { getRandomValues: (bytes) => bytes.fill(0xab) };
  assert.equal(newIdempotencyKey(zeros), "ab".repeat(16));
});
