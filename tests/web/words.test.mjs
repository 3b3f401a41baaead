// web/js/lib/words.js: what the page says, in words.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  distributionText,
  invitationText,
  isDefaultName,
  nameErrorText,
  nameRuleProblem,
  rankText,
  reasonText,
  recapCellText,
  recapRoundText,
  roundAnnouncement,
  unrankedText,
} from "../../web/js/lib/words.js";
import { limits } from "./server_numbers.mjs";

const REASONS = ["empty", "too_long", "not_letters", "letter_order", "forbidden_letter", "not_a_word", "already_used"];

test("every rejection reason is explained in words", () => {
  const texts = Object.fromEntries(REASONS.map((reason) => [reason, reasonText(reason, "TMR", "AEO", "tamer", limits)]));
  assert.equal(texts.letter_order, "The letters T, M, R must appear in this order (other letters may come between).");
  assert.equal(texts.forbidden_letter, "It uses the forbidden letter A and E: this round bans A, E, O.");
  assert.equal(texts.already_used, "Already used: each word counts once per run.");
  assert.equal(texts.not_a_word, "Not in the WordSQD dictionary.");
  assert.equal(texts.too_long, `Too long: a word has at most ${limits.max_word_length} letters.`);
  assert.match(texts.not_letters, /A to Z/);
  assert.match(texts.empty, /empty/);
  assert.equal(new Set(Object.values(texts)).size, REASONS.length);
  for (const text of Object.values(texts)) assert.ok(!text.includes("_"), text); // words, not codes
  assert.match(reasonText("letter_order", "ALL"), /each repeated letter as its own copy/);
});

test("too long names no number until the server has sent its limits", () => {
  assert.equal(reasonText("too_long", "TMR", "", "x", null), "Too long for a word.");
});

test("a name the server's rules refuse is said before asking, and nothing without the rules", () => {
  const { display_name_min_length: min, display_name_max_length: max } = limits;
  assert.equal(nameRuleProblem("ab", limits), `A name has ${min} to ${max} characters.`);
  assert.equal(nameRuleProblem("a".repeat(max + 1), limits), `A name has ${min} to ${max} characters.`);
  assert.equal(nameRuleProblem(" Ann", limits), "No space at the start or the end.");
  assert.equal(nameRuleProblem("Ann!", limits), "Letters A to Z, digits, spaces, _ and - only.");
  assert.equal(nameRuleProblem("Ann Lee_9-x", limits), null);
  assert.equal(nameRuleProblem("a".repeat(max), limits), null);
  assert.equal(nameRuleProblem("ab", null), null); // the server judges it
});

test("a refused name is said in words, the look-alikes named", () => {
  assert.match(nameErrorText("display_name_taken"), /0 and O/);
  assert.match(nameErrorText("display_name_not_allowed"), /look-alikes/);
  assert.equal(nameErrorText("invalid_display_name", "too short"), "Not a valid name: too short.");
  assert.equal(nameErrorText("other"), "The name was not saved.");
});

test("the default name is player- and four hex digits", () => {
  assert.ok(isDefaultName("player-d9aa"));
  assert.ok(!isDefaultName("player-d9aaa") && !isDefaultName("Ann") && !isDefaultName(null));
});

test("the distribution's text names every band that holds a player, and yours", () => {
  const bands = Array(21).fill(0);
  bands[0] = 3;
  bands[19] = 1;
  assert.equal(
    distributionText(bands, 100, 19),
    "Scores today, by band of 100 points. 0–99: 3 players; 1900–1999: 1 player (you).",
  );
  assert.equal(distributionText(Array(21).fill(0), 100, 0), "No ranked scores yet.");
  assert.equal(rankText(12, 31), "rank 12 of 31");
  assert.equal(rankText(12, 0), "rank 12");
});

test("a round is announced with its letters and forbidden letters", () => {
  assert.equal(
    roundAnnouncement({ round: 8, rounds: 10, prompt: "BRD", forbidden: "AEI" }),
    "Round 8 of 10: B, R, D, in this order. Forbidden round: no A, E, I, double points.",
  );
});

test("an unranked result says why, by its reason", () => {
  assert.match(unrankedText("voided"), /^Not ranked: a moderator reviewed it/);
  assert.match(unrankedText("implausible_speed", "Your result"), /^Your result is not ranked: some answers came faster/);
});

test("a challenge's heading is an invitation unless it is yours", () => {
  const challenge = { challenge_id: "abcdefgh1234", creator_name: "Ann", creator_score: 1010 };
  assert.equal(invitationText(challenge, "Bob"), "Ann challenged you: beat 1,010");
  assert.equal(invitationText(challenge, "Ann"), "Your challenge: your score to beat is 1,010");
  assert.equal(invitationText({ ...challenge, creator_score: null }, "Bob"), "Ann challenged you");
  assert.equal(invitationText({ challenge_id: "abcdefgh1234" }, null), "Challenge abcdefgh");
});

test("a recap round and a review cell say how the day went", () => {
  const round = {
    round: 1, prompt: "TMR", forbidden: "", answered: 3, lost_or_skipped: 1, lost_or_skipped_share: 0.25,
    top_words: [{ word: "timer", players: 2 }, { word: "tamer", players: 1 }], longest_word: "tambourine",
    missed_common: ["tumor"],
  }; // prettier-ignore
  assert.equal(
    recapRoundText(round, 4),
    "Round 1 · TMR: 3 of 4 found a word, 25% lost or skipped it; most played TIMER (2), TAMER (1); longest TAMBOURINE.",
  );
  assert.equal(recapCellText("accepted", "timer", round, { others: 0 }), "TIMER: nobody else played it. Most played: TIMER, TAMER");
  assert.equal(recapCellText("lost", null, round, null), "Would have fitted: TUMOR, TIMER, TAMER");
});
