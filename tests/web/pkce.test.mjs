// web/js/lib/pkce.js: the Cognito login's PKCE (RFC 7636) and the id token's claims.
import assert from "node:assert/strict";
import { test } from "node:test";

import { base64url, jwtClaims, pkceChallenge, randomVerifier } from "../../web/js/lib/pkce.js";

test("the S256 challenge is RFC 7636's example, and verifiers are random", async () => {
  // RFC 7636 Appendix B.
  assert.equal(await pkceChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  const [first, second] = [randomVerifier(), randomVerifier()];
  assert.notEqual(first, second);
  assert.equal(first.length, 43);
  assert.match(first, /^[A-Za-z0-9_-]+$/);
});

test("base64url has no padding and the URL-safe alphabet", () => {
  assert.equal(base64url(new Uint8Array([251, 255, 191])), "-_-_");
  assert.equal(base64url(new Uint8Array([1])), "AQ");
});

test("a token's claims are read, UTF-8 included; anything else is no claim", () => {
  const part = (data) => Buffer.from(JSON.stringify(data)).toString("base64url");
  const token = `${part({ alg: "HS256" })}.${part({ sub: "s1", "cognito:username": "Zoë" })}.c2ln`;
  assert.deepEqual(jwtClaims(token), { sub: "s1", "cognito:username": "Zoë" });
  assert.deepEqual(jwtClaims("not a token"), {});
});
