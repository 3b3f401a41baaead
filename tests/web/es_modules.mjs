// The web client's modules read as the browser reads them: parsed by acorn (package.json; `make
// web-tests` installs it), not matched by pattern. What each module imports in every form (`import`
// with any quotes, `export ... from`, `export * from`, dynamic `import()`) and exports, and the
// nodes the web rules look at (the network calls, the numbers). tests/web/modules.test.mjs,
// views.test.mjs and module_state.test.mjs hold the rules.
import { parse } from "acorn";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const WEB = resolve(dirname(fileURLToPath(import.meta.url)), "../../web");

const trees = new Map();

/** SOURCE's syntax tree, as an ES module (parsed once for every rule that reads it). */
export const tree = (source) => {
  if (!trees.has(source)) trees.set(source, parse(source, { ecmaVersion: "latest", sourceType: "module", locations: true }));
  return trees.get(source);
};

/** Every node under NODE, itself first. */
export function* nodes(node) {
  if (!node || typeof node.type !== "string") return;
  yield node;
  for (const [key, value] of Object.entries(node)) {
    if (key === "loc") continue;
    if (Array.isArray(value)) for (const item of value) yield* nodes(item);
    else if (value && typeof value === "object" && typeof value.type === "string") yield* nodes(value);
  }
}

const nameOf = (node) => (node.type === "Identifier" ? node.name : node.value); // `a` or `"a"`

/** The names a specifier list takes from its module: `a` of `{ a as b }`, "default", or "*". */
const namesTaken = (specifiers) =>
  specifiers.map((specifier) =>
    specifier.type === "ImportDefaultSpecifier"
      ? "default"
      : specifier.type === "ImportNamespaceSpecifier"
        ? "*"
        : nameOf(specifier.imported ?? specifier.local),
  );

/** What SOURCE imports: { form, source (the specifier, or null when computed), names (what it
 * takes: each name, "default", or "*" for the whole module), line } for each `import ... from`,
 * side-effect `import "x"`, `export ... from`, `export * from` and `import()`. */
export function importsIn(source) {
  const found = [];
  for (const node of nodes(tree(source))) {
    const line = node.loc.start.line;
    if (node.type === "ImportDeclaration") {
      found.push({ form: "import", source: node.source.value, names: namesTaken(node.specifiers), line });
    } else if (node.type === "ExportNamedDeclaration" && node.source) {
      found.push({ form: "export from", source: node.source.value, names: namesTaken(node.specifiers), line });
    } else if (node.type === "ExportAllDeclaration") {
      found.push({ form: "export from", source: node.source.value, names: ["*"], line });
    } else if (node.type === "ImportExpression") {
      const literal = node.source.type === "Literal" ? node.source.value : null;
      const template = node.source.type === "TemplateLiteral" && node.source.expressions.length === 0;
      const specifier = literal ?? (template ? node.source.quasis[0].value.cooked : null);
      found.push({ form: "import()", source: specifier, names: ["*"], line });
    }
  }
  return found;
}

/** The names a declarator's pattern binds: `a`, `{ a, b: c }`, `[d, ...e]`, `{ f = 1 }`. */
export function boundNames(pattern) {
  switch (pattern.type) {
    case "Identifier":
      return [pattern.name];
    case "ObjectPattern":
      return pattern.properties.flatMap((property) => boundNames(property.type === "RestElement" ? property : property.value));
    case "ArrayPattern":
      return pattern.elements.filter(Boolean).flatMap(boundNames);
    case "RestElement":
      return boundNames(pattern.argument);
    case "AssignmentPattern":
      return boundNames(pattern.left);
    default:
      return [];
  }
}

/** The names SOURCE exports ("default" for a default export, "*" for `export * from`). */
export function exportsIn(source) {
  const found = [];
  for (const node of tree(source).body) {
    if (node.type === "ExportDefaultDeclaration") found.push("default");
    else if (node.type === "ExportAllDeclaration") found.push(node.exported ? nameOf(node.exported) : "*");
    else if (node.type === "ExportNamedDeclaration") {
      const declared = node.declaration;
      if (declared && declared.type === "VariableDeclaration") {
        for (const declarator of declared.declarations) found.push(...boundNames(declarator.id));
      } else if (declared) found.push(declared.id.name);
      found.push(...node.specifiers.map((specifier) => nameOf(specifier.exported)));
    }
  }
  return found;
}

/** MODULE's (a path under web/, "js/x.js") imports, each target as a path under web/ too. */
export const importsOf = (module) => importsAs(module, readFileSync(join(WEB, module), "utf8"));

/** The imports of SOURCE, read as MODULE's (each target as a path under web/). */
export const importsAs = (module, source) =>
  importsIn(source).map((found) => ({
    ...found,
    target:
      found.source === null
        ? null
        : found.source.startsWith(".")
          ? relative(WEB, resolve(WEB, dirname(module), found.source)).replaceAll("\\", "/")
          : found.source,
  }));

const GLOBALS = new Set(["globalThis", "window", "self"]);

/** The lines where SOURCE reaches the network itself: `fetch`, `globalThis.fetch`, `window["fetch"]`,
 * an `XMLHttpRequest`, a `WebSocket`, an `EventSource` or `navigator.sendBeacon`. */
export function networkCalls(source) {
  const names = new Set(["fetch", "XMLHttpRequest", "WebSocket", "EventSource", "sendBeacon"]);
  const found = [];
  for (const node of nodes(tree(source))) {
    let name = null;
    if (node.type === "Identifier" && names.has(node.name)) name = node.name;
    if (node.type === "MemberExpression") {
      const key = node.computed ? (node.property.type === "Literal" ? node.property.value : null) : node.property.name;
      if (names.has(key)) name = key;
      if (node.object.type === "Identifier" && GLOBALS.has(node.object.name) && names.has(key)) name = key;
    }
    if (name) found.push(`${node.loc.start.line}: ${name}`);
  }
  // A member's property is an Identifier too: count each place once.
  return [...new Set(found)];
}

const COMPARISONS = new Set(["<", "<=", ">", ">=", "===", "!==", "==", "!="]);

/** Each number SOURCE writes: { value, line, with }, WITH the member it is compared with
 * ("length" in `name.length > 20`, "status" in `reply.status === 200`), else null. */
export function numbersIn(source) {
  const compared = new Map();
  const member = (node) => (node.type === "MemberExpression" && !node.computed ? node.property.name : null);
  const all = [...nodes(tree(source))];
  for (const node of all) {
    if (node.type === "BinaryExpression" && COMPARISONS.has(node.operator)) {
      if (member(node.left)) compared.set(node.right, member(node.left));
      if (member(node.right)) compared.set(node.left, member(node.right));
    }
  }
  return all
    .filter((node) => node.type === "Literal" && typeof node.value === "number")
    .map((node) => ({ value: node.value, line: node.loc.start.line, with: compared.get(node) ?? null }));
}

/** The numbers and strings of the server's rules (GET /daily's `scoring` and `limits`) that SOURCE
 * copies: a number at least 12 (smaller ones are everywhere: loops, indexes) unless it is an HTTP
 * status (`reply.status === 200`); any number but 0 and 1 compared with a `.length` (the limits
 * are lengths); any string or pattern equal to one of the server's, or a string of such a number
 * (an attribute's value). Each as "line: value". */
export function copiedRules(source, server) {
  const numbers = new Set(Object.values(server).filter((value) => typeof value === "number"));
  const strings = new Set(Object.values(server).filter((value) => typeof value === "string"));
  const found = numbersIn(source)
    .filter(({ value, with: member }) =>
      member === "length" ? value > 1 : numbers.has(value) && value >= 12 && member !== "status",
    )
    .map(({ value, line }) => `${line}: ${value}`);
  for (const node of nodes(tree(source))) {
    const text =
      node.type === "Literal"
        ? node.regex ? node.regex.pattern : node.value
        : node.type === "TemplateLiteral" && !node.expressions.length ? node.quasis[0].value.cooked : null;
    if (typeof text === "string" && strings.has(text)) found.push(`${node.loc.start.line}: ${text}`);
    // A number written as a string (an attribute's value: maxlength "200").
    else if (typeof text === "string" && /^\d+$/.test(text) && numbers.has(Number(text)) && Number(text) >= 12) {
      found.push(`${node.loc.start.line}: ${text}`);
    }
  }
  return found;
}
