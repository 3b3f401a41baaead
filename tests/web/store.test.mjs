// web/js/store.js: what the views share, read and changed through get and set only.
import assert from "node:assert/strict";
import { test } from "node:test";

import { get, loggedIn, set } from "../../web/js/store.js";

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
