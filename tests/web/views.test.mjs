// The client's one way for each thing (issue 53 item 4), read from the parsed modules: views talk
// through the store (no view imports another, no page event sent or heard), and every view's
// markup is its <section> in index.html (no module writes HTML from a string). Each rule is shown
// its deliberate breaks, and their neighbours, at the end.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { WEB, importsOf, nodes, tree } from "./es_modules.mjs";
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

test("no view imports another: only main.js binds the views", () => {
  const imports = MODULES.filter((module) => module !== "js/main.js").flatMap((module) =>
    importsOf(module)
      .filter((found) => found.target && found.target.startsWith("js/views/"))
      .map((found) => `${module}:${found.line}: ${found.target}`),
  );
  assert.deepEqual(imports, []);
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
