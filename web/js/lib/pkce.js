// PKCE (RFC 7636) and JWT decoding for the Cognito login: pure functions (Web Crypto only when
// called, nothing run on import), checked by node --test (tests/web/pkce.test.mjs).

/** Base64url without padding (RFC 4648 §5), as PKCE and JWTs use it. */
export function base64url(bytes) {
  let binary = "";
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A PKCE code verifier: 32 random bytes, 43 characters (RFC 7636 §4.1). */
export function randomVerifier() {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** The S256 code challenge of a verifier: base64url(SHA-256(verifier)) (RFC 7636 §4.2). */
export async function pkceChallenge(verifier) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url(digest);
}

/** The claims of a JWT (not verified: the API verifies it; the page only shows the name). */
export function jwtClaims(token) {
  try {
    const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const json = decodeURIComponent(
      atob(part).split("").map((c) => "%" + c.charCodeAt(0).toString(16).padStart(2, "0")).join(""),
    );
    return JSON.parse(json);
  } catch {
    return {};
  }
}
