// web/js/store.js: what the views share, read and changed through get and set only.
import assert from "node:assert/strict";
import { test } from "node:test";

import { get, loggedIn, set, subscribe } from "../../web/js/store.js";

test("set changes the fields it names at once, get reads them", () => {
  set({ token: "t1", displayName: "Ann" });
  assert.equal(get("token"), "t1");
  assert.equal(get("displayName"), "Ann");
  assert.ok(loggedIn());
  set({ token: null });
  assert.ok(!loggedIn());
  assert.equal(get("displayName"), "Ann");
});

test("a name the store does not hold is a mistake, and nothing is changed", () => {
  assert.throws(() => get("tokne"), /no field "tokne"/);
  assert.throws(() => set({ view: "board", tokne: "x" }), /no field "tokne"/);
  assert.notEqual(get("view"), "board");
});

test("a subscriber runs once after a set() that changes one of its fields, and not otherwise", () => {
  const calls = [];
  const stop = subscribe(["boardDate", "boardCursor"], () => calls.push([get("boardDate"), get("boardCursor")]));
  set({ boardDate: "2026-01-02", boardCursor: "c1" }); // two of its fields: one call, after both
  set({ boardDate: "2026-01-02" }); // the same value: no change
  set({ username: "ann" }); // another field
  set({ boardCursor: null });
  stop();
  set({ boardCursor: "c2" }); // stopped
  assert.deepEqual(calls, [["2026-01-02", "c1"], ["2026-01-02", null]]);
  assert.throws(() => subscribe(["tokne"], () => {}), /no field "tokne"/);
});
