// web/js/lib/sanctions.js and the moderator's words (web/js/lib/moderation.js): what a sanctioned
// player and a moderator read.
import assert from "node:assert/strict";
import { test } from "node:test";

import { whoseOf, whyOf } from "../../web/js/lib/moderation.js";
import { banned, correctedRank, holding, sanctionText } from "../../web/js/lib/sanctions.js";

const NOW = Date.parse("2026-12-06T12:00:00.000Z");

test("a sanction holds until it ends or is lifted; a voided result until lifted", () => {
  const list = [
    { action: "rank_ban", until: "2026-12-05T00:00:00.000Z" },
    { action: "void_result", until: null },
    { action: "ban", until: null, lifted_at: "2026-12-06T00:00:00.000Z" },
  ];
  assert.deepEqual(holding(list, NOW).map((s) => s.action), ["void_result"]);
  assert.ok(!banned(list, NOW) && banned([{ action: "ban", until: null }], NOW));
});

test("a sanction says what, why, until when and how to appeal", () => {
  const [what, why, until, appeal] = sanctionText(
    { action: "ban", what: "Your account is banned", reason: "abuse", until: null, appeal: "none" }, "en-US");
  assert.equal(what, "Your account is banned.");
  assert.equal(why, "Why: abuse");
  assert.equal(until, "For good.");
  assert.match(appeal, /appeal it once/);
});

test("a case says whose it is and why in words", () => {
  const item = { kind: "run", source: "find_time", shown: "2026-12-06: even_pacing",
    evidence: { subject: "5d6965f1-aaaa", display_name: "Zed" } };
  assert.equal(whoseOf(item), "Zed (player 5d6965f1-aaaa)");
  assert.match(whyOf(item), /even pace/);
  const reported = { kind: "name", source: "report", shown: "Rude", evidence: { reasons: [{ reason: "rude" }] } };
  assert.equal(whyOf(reported), '"rude"');
});

test("a rank a decision moved after the close reads old → new, corrected", () => {
  assert.equal(correctedRank({ rank: 2, rank_before_correction: 3 }), "rank 3 → 2, corrected");
  assert.equal(correctedRank({ rank: 3, rank_before_correction: 2 }), "rank 2 → 3, corrected");
  assert.equal(correctedRank({ rank: 2, rank_before_correction: null }), null);
  assert.equal(correctedRank({ rank: null, unranked_reason: "voided", rank_before_correction: null }), null);
});
