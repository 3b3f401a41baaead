// The page's text boxes and rules text say the server's limits (GET /daily `limits`) until its
// reply comes, then take them from it (views/home.js): each `maxlength` marked data-maxlength, in
// index.html or in a view a module builds, is the server's own number.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { limits } from "./server_numbers.mjs";

const WEB = new URL("../../web/", import.meta.url).pathname;
const PAGES = [
  "index.html",
  ...readdirSync(join(WEB, "js"), { recursive: true })
    .filter((name) => name.endsWith(".js"))
    .map((name) => join("js", name)),
];

test("every length-limited text box names its limit, and says the server's number", () => {
  const marked = [];
  for (const page of PAGES) {
    const text = readFileSync(join(WEB, page), "utf8");
    for (const [, length, name] of text.matchAll(/maxlength="(\d+)" data-maxlength="(\w+)"/g)) {
      assert.equal(Number(length), limits[name], `${page}: ${name}`);
      marked.push(name);
    }
    const unmarked = [...text.matchAll(/maxlength="\d+"(?! data-maxlength)[^>]*id="(\w[\w-]*)"|id="([\w-]+)"[^>]*maxlength="\d+"(?! data-maxlength)/g)]
      .map((match) => match[1] || match[2])
      .filter((id) => id !== "username"); // make run's login name: a local stand-in, not the API's
    assert.deepEqual(unmarked, [], page);
  }
  assert.deepEqual(
    [...new Set(marked)].sort(),
    ["display_name_max_length", "league_name_max_length", "reason_max_length"],
  );
});
