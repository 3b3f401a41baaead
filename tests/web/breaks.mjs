// Deliberate breaks: each rule's test names the sources it must catch, one test a source.
import assert from "node:assert/strict";
import { test } from "node:test";

/** One test for each source of BREAKS: CHECK finds at least one fault in it ("WHAT is caught"). */
export function eachCaught(what, check, breaks) {
  for (const source of breaks) {
    test(`${what} is caught: ${source}`, () => assert.ok(check(source).length > 0, source));
  }
}
