// web/js/lib/moderation.js: who moderates, which decisions fit a case, a run's time line.
import assert from "node:assert/strict";
import { test } from "node:test";

import { actionsFor, isModerator, timeline } from "../../web/js/lib/moderation.js";

test("the moderators' group is read from a list or API Gateway's [a b] string", () => {
  assert.ok(isModerator({ "cognito:groups": ["players", "moderators"] }));
  assert.ok(isModerator({ "cognito:groups": "[players moderators]" }));
  assert.ok(!isModerator({ "cognito:groups": "[moderators-in-training]" }));
  assert.ok(!isModerator({}) && !isModerator(null));
});

test("each kind of case gets only the decisions that fit it", () => {
  assert.deepEqual(actionsFor("word"), ["dismiss", "accept_word"]);
  assert.deepEqual(actionsFor("name"), ["dismiss", "hide_name", "rank_ban", "ban"]);
  assert.deepEqual(actionsFor("run"), ["dismiss", "void_result", "rank_ban", "ban"]);
});

test("a run's attempts are grouped by round, in round order, with the day's quantile", () => {
  const evidence = {
    attempts: [{ round: 2, word: "b" }, { round: 1, word: "a" }, { round: 2, word: "c" }],
    hard_round_quantiles_ms: { 2: 900 },
  };
  assert.deepEqual(timeline(evidence), [
    { round: 1, attempts: [{ round: 1, word: "a" }], quantile: null },
    { round: 2, attempts: [{ round: 2, word: "b" }, { round: 2, word: "c" }], quantile: 900 },
  ]);
});
