// The game's numbers as the server sends them in GET /daily (`scoring`, `limits`), read from
// openapi.json's defaults: tests/http/test_openapi.py keeps that document equal to the code, and
// tests/http/test_rules_card.py checks the reply carries these same numbers. No test here copies one.
import { readFileSync } from "node:fs";

const document = JSON.parse(readFileSync(new URL("../../openapi.json", import.meta.url), "utf8"));
const defaults = (schema) =>
  Object.fromEntries(
    Object.entries(document.components.schemas[schema].properties).map(([name, field]) => [name, field.default]),
  );

export const scoring = defaults("Scoring");
export const limits = defaults("Limits");
