// The client's one way for each thing (issue 53 item 4), read from the parsed modules: views talk
// through the store (a view exports its bind function only, main.js alone imports it and nothing
// else of a view, no page event sent or heard), and every view's markup is its <section> in
// index.html (no module writes HTML from a string). Each rule is shown its deliberate breaks, and
// their neighbours, at the end.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { WEB, exportsIn, importsAs, importsOf, nodes, tree } from "./es_modules.mjs";
import { eachCaught } from "./breaks.mjs";

const MODULES = readdirSync(join(WEB, "js"), { recursive: true })
  .filter((name) => name.endsWith(".js"))
  .map((name) => join("js", name).replaceAll("\\", "/"));
const source = (module) => readFileSync(join(WEB, module), "utf8");

const HTML_WRITERS = new Set(["innerHTML", "outerHTML", "insertAdjacentHTML", "createContextualFragment"]);

/** The lines where SOURCE writes markup from a string (innerHTML and its kin). */
export function markupWrites(text) {
  const found = [];
  for (const node of nodes(tree(text))) {
    if (node.type !== "MemberExpression") continue;
    const key = node.computed ? (node.property.type === "Literal" ? node.property.value : null) : node.property.name;
    if (HTML_WRITERS.has(key)) found.push(`${node.loc.start.line}: ${key}`);
  }
  return found;
}

/** The lines where SOURCE sends or hears a page event of its own: a CustomEvent, a
 * dispatchEvent, or a listener on an event name with a colon ("wordsqd:view"). */
export function pageEvents(text) {
  const found = [];
  for (const node of nodes(tree(text))) {
    if (node.type === "Identifier" && node.name === "CustomEvent") found.push(`${node.loc.start.line}: CustomEvent`);
    if (node.type === "MemberExpression" && !node.computed && node.property.name === "dispatchEvent") {
      found.push(`${node.loc.start.line}: dispatchEvent`);
    }
    const listener = node.type === "CallExpression" && node.callee.type === "MemberExpression" && node.callee.property.name === "addEventListener";
    const name = listener && node.arguments[0];
    if (name && name.type === "Literal" && String(name.value).includes(":")) found.push(`${node.loc.start.line}: ${name.value}`);
  }
  return found;
}

const BIND = /^bind[A-Z]/; // a view's one export: bindGame, bindEnd, ...

/** What IMPORTS (importsOf MODULE's) take from a view that MODULE may not: anything unless MODULE
 * is main.js, and from main.js anything but a bind function (a view is asked through the store). */
export function viewReaches(module, imports) {
  return imports
    .filter((found) => found.target && found.target.startsWith("js/views/"))
    .flatMap((found) =>
      (module === "js/main.js" ? found.names.filter((name) => !BIND.test(name)) : found.names.length ? found.names : ["(for its effect)"]).map(
        (name) => `${module}:${found.line}: ${name} of ${found.target}`,
      ),
    );
}

/** What SOURCE (a view) exports but its bind function. */
export const viewExports = (source) => exportsIn(source).filter((name) => !BIND.test(name));

test("views talk through the store: only main.js imports a view, and only its bind function", () => {
  assert.deepEqual(MODULES.flatMap((module) => viewReaches(module, importsOf(module))), []);
  const views = MODULES.filter((module) => module.startsWith("js/views/"));
  assert.deepEqual(views.flatMap((view) => viewExports(source(view)).map((name) => `${view}: ${name}`)), []);
  const bound = importsOf("js/main.js").filter((found) => found.target.startsWith("js/views/")).map((found) => found.target);
  assert.deepEqual(bound.sort(), views.sort(), "main.js binds every view");
});

test("no module sends or hears a page event: views talk through the store's subscriptions", () => {
  assert.deepEqual(MODULES.flatMap((module) => pageEvents(source(module)).map((found) => `${module}:${found}`)), []);
});

test("no module writes markup from a string: every view's markup is in index.html", () => {
  assert.deepEqual(MODULES.flatMap((module) => markupWrites(source(module)).map((found) => `${module}:${found}`)), []);
  const page = readFileSync(join(WEB, "index.html"), "utf8");
  const router = source("js/router.js");
  const views = JSON.parse(router.match(/const VIEWS = (\[[^\]]*\]);/)[1]);
  for (const view of views) assert.ok(page.includes(`<section id="view-${view}"`), view);
});

eachCaught("markup written from a string", markupWrites, [
  "box.innerHTML = `<p>${text}</p>`;",
  "box.outerHTML = html;",
  'box["innerHTML"] = html;',
  'box.insertAdjacentHTML("beforeend", html);',
  "document.createRange().createContextualFragment(html);",
]);

eachCaught("a page event", pageEvents, [
  'document.dispatchEvent(new CustomEvent("wordsqd:rows", { detail }));',
  "const e = new CustomEvent(name);",
  "window.dispatchEvent(event);",
  'document.addEventListener("wordsqd:view", show);',
]);

test("a browser's own events and a text with an event's name are no page event", () => {
  const text = 'button.addEventListener("click", go);\nwindow.addEventListener("hashchange", route);\nconst s = "wordsqd:view";\n';
  assert.deepEqual(pageEvents(text), []);
});

eachCaught("a view asked other than through the store", ([module, text]) => viewReaches(module, importsAs(module, text)), [
  ["js/main.js", 'import { bindChallenges, openChallenge } from "./views/challenges.js";'],
  ["js/main.js", 'import * as challenges from "./views/challenges.js";'],
  ["js/main.js", 'import challenges from "./views/challenges.js";'],
  ["js/main.js", 'const { openChallenge } = await import("./views/challenges.js");'],
  ["js/main.js", 'export { openChallenge } from "./views/challenges.js";'],
  ["js/player.js", 'import { bindAccount } from "./views/account.js";'], // a bind function, but not from main.js
  ["js/views/end.js", 'import { bindChallenges } from "./challenges.js";'],
  ["js/views/end.js", 'import "./challenges.js";'],
  ["js/views/end.js", 'export * from "./challenges.js";'],
]);

eachCaught("a view that exports more than its bind function", viewExports, [
  "export async function openChallenge(id) {}\nexport function bindChallenges() {}",
  "export const shown = new Set();",
  "export const { open: openChallenge } = helpers;", // destructured
  "export default function () {}",
  "function open() {}\nexport { open };",
  'export * from "../store.js";',
]);

test("main.js binding the views, and a view exporting its bind function, pass", () => {
  const main = 'import { bindChallenges } from "./views/challenges.js";\nimport { bindGame as bind } from "./views/game.js";\nimport { get } from "./store.js";\n';
  assert.deepEqual(viewReaches("js/main.js", importsAs("js/main.js", main)), []);
  assert.deepEqual(viewReaches("js/views/end.js", importsAs("js/views/end.js", 'import { go } from "../router.js";')), []);
  assert.deepEqual(viewExports("function draw() {}\nexport function bindEnd() {}\nexport { bindEnd as bindEndAgain };"), []);
});
