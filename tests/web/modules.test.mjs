// The web client's modules (web/js): each at most 400 lines (css too), no import circle, and
// nothing run on import but main.js: every other module loads here, where there is no page.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), "../../web");
const MAX_LINES = 400;

function files(folder, ending) {
  return readdirSync(join(WEB, folder), { recursive: true })
    .filter((name) => name.endsWith(ending))
    .map((name) => join(folder, name).replaceAll("\\", "/"))
    .sort();
}

const MODULES = files("js", ".js");
const imports = (module) =>
  [...readFileSync(join(WEB, module), "utf8").matchAll(/^import [^"]*"([^"]+)";$/gm)].map((match) =>
    relative(WEB, resolve(WEB, dirname(module), match[1])).replaceAll("\\", "/"),
  );

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

test("no module imports itself back, however far round", () => {
  const cycles = [];
  const visit = (module, path) => {
    if (path.includes(module)) {
      cycles.push([...path.slice(path.indexOf(module)), module].join(" -> "));
      return;
    }
    for (const next of imports(module)) visit(next, [...path, module]);
  };
  for (const module of MODULES) visit(module, []);
  assert.deepEqual(cycles, []);
  for (const module of MODULES) {
    for (const target of imports(module)) assert.ok(MODULES.includes(target), `${module} imports ${target}`);
  }
});

test("nothing imports main.js, and lib/ imports nothing of the page", () => {
  for (const module of MODULES) assert.ok(!imports(module).includes("js/main.js"), module);
  for (const module of MODULES.filter((name) => name.startsWith("js/lib/"))) {
    assert.deepEqual(imports(module).filter((target) => !target.startsWith("js/lib/")), [], module);
  }
});

test("every module but main.js loads with no page: nothing runs on import", async () => {
  assert.equal(globalThis.document, undefined);
  for (const module of MODULES.filter((name) => name !== "js/main.js")) {
    await import(join(WEB, module)); // would throw on a document, window or location touched at load
  }
});
