// The server's numbers in a view's own markup (GET /daily's `scoring` and `limits`, the store's
// `daily`): each view that shows one mounts this on its own root. The page's text holds the same
// numbers until GET /daily answers (tests/http/test_rules_card.py).

import { scoringNumbers } from "../lib/game.js";
import { get, subscribe } from "../store.js";

/** Under ROOT, from now on: each element marked data-scoring="name" or data-limit="name" says that
 * number, and each text box marked data-maxlength="name" takes it as its length. */
export function mountNumbers(root) {
  const render = () => {
    const daily = get("daily");
    if (!daily) return;
    const numbers = {
      scoring: daily.scoring ? scoringNumbers(daily.scoring) : {},
      limit: { ...daily.limits, time_limit_seconds: daily.time_limit_seconds },
    };
    for (const kind of ["scoring", "limit"]) {
      for (const span of root.querySelectorAll(`[data-${kind}]`)) {
        const value = numbers[kind][span.dataset[kind]];
        if (typeof value === "number") span.textContent = String(value);
      }
    }
    for (const box of root.querySelectorAll("[data-maxlength]")) {
      const length = numbers.limit[box.dataset.maxlength];
      if (typeof length === "number") box.maxLength = length;
    }
  };
  subscribe(["daily"], render);
  render();
}
