// Each view's markup is its own (issue 53 item 4): an element inside a view's <section> of
// index.html is read by that view's modules only (a part a view mounts is handed its box), and an
// element outside the views (the header, the footer, the report dialog) by one module. What a
// module reads is each literal id it names: $("id"), getElementById("id"), querySelector("#id").
// Each rule is shown its deliberate breaks, and their neighbours, at the end.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { WEB, nodes, tree } from "./es_modules.mjs";
import { eachCaught } from "./breaks.mjs";

// Who owns each part of the page: a view's <section> (router.js's VIEWS) or a panel of its own.
const OWNERS = {
  "view-home": ["js/views/home.js"],
  "view-game": ["js/views/game.js"],
  "view-end": ["js/views/end.js"],
  "view-board": ["js/views/boards.js"],
  "view-me": ["js/views/stats.js", "js/views/players.js", "js/views/reminder.js"], // stats, data, reminder
  "view-challenges": ["js/views/challenges.js"],
  "view-leagues": ["js/views/leagues.js"],
  "view-archive": ["js/views/archive.js"],
  "view-moderation": ["js/views/moderation.js"],
  "view-recap": ["js/views/recap.js"],
  "name-panel": ["js/views/account.js"],
};

/** Each id of PAGE (HTML) -> the outermost owned <section> it lies in (the section's own id too),
 * or null outside them. */
export function idPlaces(page) {
  const places = new Map();
  const open = []; // the <section>s open at this point: their ids (or "")
  for (const [, closing, tag, attributes] of page.matchAll(/<(\/?)([a-zA-Z][\w-]*)([^>]*)>/g)) {
    if (tag.toLowerCase() === "section" && closing) {
      open.pop();
      continue;
    }
    const id = attributes.match(/\sid="([^"]+)"/)?.[1] ?? "";
    if (tag.toLowerCase() === "section") open.push(id);
    if (id) places.set(id, open.find((section) => section in OWNERS) ?? null);
  }
  return places;
}

const GETTERS = new Set(["$", "getElementById"]);
const SELECTORS = new Set(["querySelector", "querySelectorAll", "closest"]);

/** The ids SOURCE names in a call: $("x"), document.getElementById("x"), querySelector("#x ...")
 * (a string or a template with no expression); a computed name is not read here. */
export function idsRead(source) {
  const found = [];
  for (const node of nodes(tree(source))) {
    if (node.type !== "CallExpression" || !node.arguments.length) continue;
    const callee = node.callee.type === "MemberExpression" ? node.callee.property.name : node.callee.name;
    const argument = node.arguments[0];
    const text =
      argument.type === "Literal"
        ? argument.value
        : argument.type === "TemplateLiteral" && !argument.expressions.length
          ? argument.quasis[0].value.cooked
          : null;
    if (typeof text !== "string") continue;
    if (GETTERS.has(callee)) found.push(text);
    if (SELECTORS.has(callee)) found.push(...[...text.matchAll(/#([\w-]+)/g)].map((match) => match[1]));
  }
  return found;
}

const isGetter = (node) =>
  (node.type === "Identifier" && node.name === "$") ||
  (node.type === "MemberExpression" && !node.computed && node.property.name === "getElementById");

/** The lines where SOURCE hands an id getter on ($ or getElementById, not called): the ids it
 * would read, `["a", "b"].map($)`, are not seen by idsRead. */
export function gettersPassed(source) {
  const found = [];
  for (const node of nodes(tree(source))) {
    const values =
      node.type === "CallExpression" ? [...node.arguments]
      : node.type === "VariableDeclarator" ? [node.init]
      : node.type === "AssignmentExpression" ? [node.right]
      : node.type === "ArrayExpression" ? [...node.elements]
      : node.type === "Property" ? [node.value]
      : node.type === "MemberExpression" ? [node.object] // $.bind(...), getElementById.call(...)
      : [];
    for (const value of values) if (value && isGetter(value)) found.push(`${value.loc.start.line}: ${source.slice(value.start, value.end)}`);
  }
  return found;
}

/** What MODULE (reading IDS) reads of the page that is not its own: "module: id (place)". */
export function foreignReads(module, ids, places) {
  return ids
    .filter((id) => places.has(id))
    .filter((id) => places.get(id) !== null && !OWNERS[places.get(id)].includes(module))
    .map((id) => `${module}: ${id} (${places.get(id)})`);
}

const PAGE = readFileSync(join(WEB, "index.html"), "utf8");
const PLACES = idPlaces(PAGE);
const MODULES = readdirSync(join(WEB, "js"), { recursive: true })
  .filter((name) => name.endsWith(".js"))
  .map((name) => join("js", name).replaceAll("\\", "/"))
  .sort();
const READS = Object.fromEntries(MODULES.map((module) => [module, idsRead(readFileSync(join(WEB, module), "utf8"))]));

test("every view's section has its owners, and each owner is a module", () => {
  const views = JSON.parse(readFileSync(join(WEB, "js/router.js"), "utf8").match(/const VIEWS = (\[[^\]]*\]);/)[1]);
  assert.deepEqual(views.map((view) => `view-${view}`).filter((section) => !(section in OWNERS)), []);
  for (const section of Object.keys(OWNERS)) assert.ok(PAGE.includes(`<section id="${section}"`), section);
  assert.deepEqual(Object.values(OWNERS).flat().filter((module) => !MODULES.includes(module)), []);
});

test("an element inside a view is read by that view's modules only", () => {
  assert.deepEqual(MODULES.flatMap((module) => foreignReads(module, READS[module], PLACES)), []);
});

test("an element outside the views is read by one module", () => {
  const readers = new Map();
  for (const module of MODULES) {
    for (const id of READS[module].filter((name) => PLACES.get(name) === null)) {
      readers.set(id, new Set([...(readers.get(id) || []), module]));
    }
  }
  assert.deepEqual([...readers].filter(([, modules]) => modules.size > 1).map(([id, modules]) => `${id}: ${[...modules]}`), []);
});

test("no module hands an id getter on: each id read is named where it is read", () => {
  const passed = MODULES.filter((module) => module !== "js/dom.js").flatMap((module) =>
    gettersPassed(readFileSync(join(WEB, module), "utf8")).map((found) => `${module}:${found}`),
  );
  assert.deepEqual(passed, []);
});

test("every id a module names is on the page", () => {
  assert.deepEqual(MODULES.flatMap((module) => READS[module].filter((id) => !PLACES.has(id)).map((id) => `${module}: ${id}`)), []);
});

// The checks check: each deliberate break below, and its neighbours, is caught ---------------------

const READ_BREAKS = [
  ['$("end-board").addEventListener("click", go);', "end-board"],
  ["$('end-board');", "end-board"], // single quotes
  ["$(`end-board`);", "end-board"], // a template
  ['document.getElementById("end-board");', "end-board"],
  ['document.querySelector("#end-board");', "end-board"],
  ['box.closest("#view-end .actions");', "view-end"],
  ['document.querySelectorAll("main #end-board button");', "end-board"],
];

for (const [source, id] of READ_BREAKS) {
  test(`an id read is found: ${source}`, () => {
    assert.ok(idsRead(source).includes(id), source);
  });
}

eachCaught("an id getter handed on", gettersPassed, [
  '["sanction-home", "sanction-board"].map($).forEach(draw);',
  "const find = $;",
  "const find = document.getElementById.bind(document);",
  "boxes.forEach((id) => draw(id, $));",
  "const tools = { find: $ };",
  "const all = [$, say];",
  "let find; find = $;",
  "const find = $.bind(null);",
]);

test("an id getter called is not handed on", () => {
  assert.deepEqual(gettersPassed('$("a").hidden = true;\ndraw($("b"), document.getElementById("c"));\n'), []);
});

test("a computed id, an id in a string or a comment, and a class are not reads", () => {
  assert.deepEqual(idsRead('$("view-" + view);\n// $("end-board")\nconst s = "end-board";\nbox.querySelector(".end");\n'), []);
});

test("another view's element is caught; the view's own, a part's section and the page's are not", () => {
  const places = idPlaces(
    '<header id="top"></header><section id="view-me"><div id="history"><section id="reminder"><p id="hour"></p></section></div></section>' +
      '<section id="view-board"><div id="sanction-board"></div></section>',
  );
  assert.equal(places.get("hour"), "view-me"); // a section inside a view is the view's
  assert.equal(places.get("view-me"), "view-me");
  assert.equal(places.get("top"), null);
  assert.deepEqual(foreignReads("js/views/stats.js", ["sanction-board"], places), ["js/views/stats.js: sanction-board (view-board)"]);
  assert.deepEqual(foreignReads("js/main.js", ["history"], places), ["js/main.js: history (view-me)"]);
  assert.deepEqual(foreignReads("js/parts/board.js", ["hour"], places), ["js/parts/board.js: hour (view-me)"]);
  assert.deepEqual(foreignReads("js/views/reminder.js", ["history", "hour", "top"], places), []);
});
