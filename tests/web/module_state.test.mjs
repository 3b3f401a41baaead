// Where the page's state lives (issue 53 item 4): what a view shows, and what another module may
// need, is a named field of web/js/store.js; what one view keeps for itself (a timer, a reply on
// its way) is an object its bind function makes. So no module of web/js declares a module-level
// `let` or `var` (a `var` anywhere outside a function is one) but those below, each with its
// reason; an entry no longer declared fails too. The rule is shown its deliberate breaks, and
// their neighbours, at the end.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { WEB, boundNames, tree } from "./es_modules.mjs";
import { eachCaught } from "./breaks.mjs";

// "module: name" -> why it is not a store field nor a view's own object.
const MODULE_LETS = {
  "js/auth.js: renewTimer": "the page's one login has one renewal timer (a timer handle)",
  "js/auth.js: renewing": "the renewal on its way, one promise every caller awaits (one renewal at a time)",
  "js/daily.js: refetchAt": "when the page's one Daily may be read again after the countdown ends (a throttle)",
};

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

/** Each `let` and `var` of SOURCE that lives as long as the module: a `let` or `var` outside
 * every function (at the top, exported, in a top-level block or loop), as "line: name". */
export function moduleLets(source) {
  const found = [];
  const visit = (node) => {
    if (!node || typeof node.type !== "string" || FUNCTIONS.has(node.type)) return;
    if (node.type === "VariableDeclaration" && node.kind !== "const") {
      for (const declarator of node.declarations) {
        for (const name of boundNames(declarator.id)) found.push(`${declarator.loc.start.line}: ${name}`);
      }
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "loc") continue;
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === "object") visit(value);
    }
  };
  visit(tree(source));
  return found;
}

const MODULES = readdirSync(join(WEB, "js"), { recursive: true })
  .filter((name) => name.endsWith(".js"))
  .map((name) => join("js", name).replaceAll("\\", "/"))
  .sort();

test("no module keeps state in a module-level let or var: it is the store's, or a view's own object", () => {
  const declared = MODULES.flatMap((module) =>
    moduleLets(readFileSync(join(WEB, module), "utf8")).map((found) => `${module}: ${found.split(": ")[1]}`),
  );
  assert.deepEqual(
    declared.filter((entry) => !(entry in MODULE_LETS)),
    [],
    "make it a store field (store.js, with a comment), derive it from the store, or keep it in an object the view's bind function makes; else allow it in MODULE_LETS with its reason",
  );
  assert.deepEqual(Object.keys(MODULE_LETS).filter((entry) => !declared.includes(entry)), [], "no longer declared: take it off MODULE_LETS");
});

// The check checks: each deliberate break below, and its neighbours, is caught or let pass -------

eachCaught("a module-level let or var", moduleLets, [
  "let busy = false;",
  "var busy = false;",
  "export let busy = false;",
  "export var busy = false;",
  "let busy;", // no value yet
  "const a = 1;\nlet busy = false;", // after a const
  "{\n  let busy = false;\n}", // a top-level block lives as long as the module
  "if (ready) {\n  var busy = false;\n}", // a var outside a function is the module's, wherever written
  "for (let i = 0; i < 3; i += 1) {}",
  "let { a, b: busy } = state;", // destructured
  "let [first, ...rest] = items;",
]);

test("each of several declarators is named, destructured ones too", () => {
  assert.deepEqual(moduleLets("let a = 0, b = 1;\nvar c;\nexport let { d, e: f = 2, ...g } = h, [i, , j] = k;\n"), [
    "1: a",
    "1: b",
    "2: c",
    "3: d",
    "3: f",
    "3: g",
    "3: i",
    "3: j",
  ]);
});

test("a const, and a let or var inside a function, arrow or method, is no module state", () => {
  const source = [
    "const screen = { busy: false };",
    "export const a = 1, b = [];",
    "function f() { let busy = false; var x = 1; for (let i = 0; i < 2; i += 1) {} return busy; }",
    "export function g() { let busy = true; return () => { let y = busy; return y; }; }",
    "const h = () => { var z = 0; return z; };",
    "const o = { m() { let n = 1; return n; } };",
    "class C { m() { let n = 1; return n; } }",
    'const s = "let busy = false;"; // let in a string or a comment: no declaration',
  ].join("\n");
  assert.deepEqual(moduleLets(source), []);
});
