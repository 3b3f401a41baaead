// The web client's modules (web/js), read as the browser reads them (es_modules.mjs: acorn's
// parse): each at most 400 lines (css too), every import in any form (`import`, `export ... from`,
// `import()`) naming a module that exists, no import circle, nothing run on import but main.js,
// one module that reaches the network (lib/http.js), and no server rule copied. Each rule is shown
// its deliberate breaks, and their neighbours, at the end.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { WEB, copiedRules, importsIn, importsOf, networkCalls } from "./es_modules.mjs";
import { limits, scoring } from "./server_numbers.mjs";
import { eachCaught } from "./breaks.mjs";

const MAX_LINES = 400;
const NETWORK = "js/lib/http.js"; // the one module that calls fetch (pageFetch)
const SERVER = { ...scoring, ...limits };
// Numbers that equal a server's and are not its rule, each with its reason ("module: value").
const NOT_SERVER_NUMBERS = {
  "js/lib/standing.js: 20": "the players a percentile is said from: the page's wording, not a limit",
  "js/views/boards.js: 20": "at most 20 pages read to find the player's own row",
  "js/views/recap.js: 20": "at most 20 pages of history read to find a day",
  "js/views/game.js: 30": "a spoken time-left announcement (60, 30, 10 seconds)",
  "js/views/stats.js: 30": "the last 30 Dailies the chart draws",
  "js/views/moderation.js: 12": "an SVG chart's margin in pixels",
  "js/views/reminder.js: 12": "a 12-hour clock",
};

function files(folder, ending) {
  return readdirSync(join(WEB, folder), { recursive: true })
    .filter((name) => name.endsWith(ending))
    .map((name) => join(folder, name).replaceAll("\\", "/"))
    .sort();
}

const MODULES = files("js", ".js");
const SOURCES = Object.fromEntries(MODULES.map((module) => [module, readFileSync(join(WEB, module), "utf8")]));
const IMPORTS = Object.fromEntries(MODULES.map((module) => [module, importsOf(module)]));
const targets = (module) => IMPORTS[module].map((found) => found.target);

test("the client is modules: an entry, the store, the API, the router, views and pure helpers", () => {
  for (const module of ["js/main.js", "js/store.js", "js/api.js", "js/auth.js", "js/router.js"]) {
    assert.ok(MODULES.includes(module), module);
  }
  assert.ok(MODULES.filter((module) => module.startsWith("js/views/")).length >= 8);
  assert.ok(MODULES.filter((module) => module.startsWith("js/lib/")).length >= 5);
});

test("every module and style sheet has at most 400 lines", () => {
  const long = [...MODULES, ...files("css", ".css")]
    .map((name) => [name, readFileSync(join(WEB, name), "utf8").split("\n").length - 1])
    .filter(([, lines]) => lines > MAX_LINES);
  assert.deepEqual(long, []);
});

test("every import, in any form, names a module of the client by a written path", () => {
  for (const module of MODULES) {
    for (const { form, target, line } of IMPORTS[module]) {
      assert.ok(target !== null, `${module}:${line}: ${form} of a computed name`);
      assert.ok(MODULES.includes(target), `${module}:${line}: ${form} ${target}`);
    }
  }
});

test("no module imports itself back, however far round", () => {
  const cycles = [];
  const visit = (module, path) => {
    if (path.includes(module)) {
      cycles.push([...path.slice(path.indexOf(module)), module].join(" -> "));
      return;
    }
    for (const next of targets(module).filter((target) => MODULES.includes(target))) visit(next, [...path, module]);
  };
  for (const module of MODULES) visit(module, []);
  assert.deepEqual(cycles, []);
});

test("nothing imports main.js, and lib/ imports nothing of the page", () => {
  for (const module of MODULES) assert.ok(!targets(module).includes("js/main.js"), module);
  for (const module of MODULES.filter((name) => name.startsWith("js/lib/"))) {
    assert.deepEqual(targets(module).filter((target) => !target?.startsWith("js/lib/")), [], module);
  }
});

test("one module reaches the network: lib/http.js, through which the API calls go", () => {
  const calls = MODULES.filter((module) => module !== NETWORK).flatMap((module) =>
    networkCalls(SOURCES[module]).map((call) => `${module}:${call}`),
  );
  assert.deepEqual(calls, []);
  assert.ok(networkCalls(SOURCES[NETWORK]).length > 0, "lib/http.js no longer calls fetch: move NETWORK");
});

test("no server rule is copied: the numbers come from GET /daily", () => {
  const copied = MODULES.flatMap((module) =>
    copiedRules(SOURCES[module], SERVER).map((found) => `${module}: ${found.split(": ")[1]}`),
  );
  assert.deepEqual(
    copied.filter((found) => !(found in NOT_SERVER_NUMBERS)),
    [],
    "take the number from the store's limits or scoring, or allow it in NOT_SERVER_NUMBERS with its reason",
  );
  const unused = Object.keys(NOT_SERVER_NUMBERS).filter((entry) => !copied.includes(entry));
  assert.deepEqual(unused, [], "no longer written: take it off NOT_SERVER_NUMBERS");
});

test("every module but main.js loads with no page: nothing runs on import", async () => {
  assert.equal(globalThis.document, undefined);
  for (const module of MODULES.filter((name) => name !== "js/main.js")) {
    await import(join(WEB, module)); // would throw on a document, window or location touched at load
  }
});

// The checks check: each deliberate break below, and its neighbours, is caught ---------------------

const IMPORT_BREAKS = [
  ['import { a } from "./x.js";', "import", "./x.js"],
  ["import { a } from './x.js';", "import", "./x.js"], // single quotes
  ['import {\n  a,\n  b,\n} from "./x.js";', "import", "./x.js"], // over lines
  ['import * as x from "./x.js";', "import", "./x.js"],
  ['import x from "./x.js"', "import", "./x.js"], // no semicolon
  ['import "./x.js";', "import", "./x.js"], // for its effect
  ['export { a } from "./x.js";', "export from", "./x.js"],
  ["export * from './x.js';", "export from", "./x.js"],
  ['export * as x from "./x.js";', "export from", "./x.js"],
  ['const x = await import("./x.js");', "import()", "./x.js"], // dynamic
  ["const x = () => import(`./x.js`);", "import()", "./x.js"],
  ['const x = (name) => import("./" + name);', "import()", null], // computed: refused
];

for (const [source, form, specifier] of IMPORT_BREAKS) {
  test(`an import is read: ${source}`, () => {
    assert.deepEqual(
      importsIn(source).map((found) => [found.form, found.source]),
      [[form, specifier]],
    );
  });
}

test("an import-like text in a string or a comment is no import", () => {
  assert.deepEqual(importsIn('// import "./x.js";\nconst s = \'import { a } from "./y.js"\';\n'), []);
});

eachCaught("a second way to the network", networkCalls, [
  "fetch(url);",
  "globalThis.fetch(url);",
  'window["fetch"](url);',
  "self.fetch(url);",
  "const get = fetch;",
  "const { fetch: get } = globalThis;",
  "new XMLHttpRequest();",
  "new WebSocket(url);",
  "navigator.sendBeacon(url, body);",
]);

eachCaught("a copied server number", (source) => copiedRules(source, SERVER), [
  "const MAX_NAME = 20;", // display_name_max_length
  "if (word.length > 45) say();", // max_word_length
  "const ok = name.length >= 3;", // display_name_min_length: a small number, compared with a length
  "const over = 200 < reason.length;",
  "const best = 2085;", // max_score
  'element("textarea", { maxlength: "200" });', // reason_max_length, as an attribute's value
  "box.setAttribute(\"maxlength\", `45`);",
  `const pattern = /${limits.display_name_pattern}/;`,
  `const pattern = new RegExp(${JSON.stringify(limits.display_name_pattern)});`,
]);

test("a status, a small number or a number from the reply is no copy", () => {
  const source = "if (reply.status === 200) go(limits.max_word_length, 1, 2);\nconst x = word.length > 0;\n";
  assert.deepEqual(copiedRules(source, SERVER), []);
});
