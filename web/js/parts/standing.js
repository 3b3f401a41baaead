// Where an official Daily result stands, on the end screen (SPEC §4a): the day's distribution as
// labelled columns with their counts (the player's band marked by a shape, not colour alone),
// the ladder's six steps with the one reached and the points to the next, and plain rank words
// on small boards (lib/standing.js says them).

import { element } from "../dom.js";
import { bandColumns, ladderText, ladderView } from "../lib/standing.js";
import { distributionText } from "../lib/words.js";

const LABELS_SHOWN = 6; // column labels at most on one line (every other, or fewer, beyond that)

/** The distribution's columns into HOLDER: each a bar with its count above and its band's first
 * score below; MINE marked "▲ you". The columns are aria-hidden: TEXT, beside them, says it. */
export function bandChart(holder, bands, bandPoints, mine) {
  const columns = bandColumns(bands, bandPoints, mine);
  const top = Math.max(1, ...columns.map((column) => column.count));
  const every = Math.ceil(columns.length / LABELS_SHOWN);
  const box = element("div", { class: "band-cols", "aria-hidden": "true" });
  columns.forEach((column, index) => {
    const bar = element("span", { class: "band-bar" });
    bar.style.height = `${column.count ? Math.max(4, (100 * column.count) / top) : 0}%`;
    const label = column.mine ? "▲ you" : index % every === 0 ? String(column.from) : "";
    box.append(element("div", { class: column.mine ? "band-col mine" : "band-col" },
      element("span", { class: "band-count" }, column.count ? String(column.count) : ""),
      element("span", { class: "band-track" }, bar),
      element("span", { class: "band-label" }, label)));
  });
  const description = element("p", { class: "sr-only chart-text" }, distributionText(bands, bandPoints, mine));
  holder.replaceChildren(box, description);
}

/** For ME (GET /leaderboard/daily/me) and the day's DISTRIBUTION (its bands already holding ME):
 * the chart into CHART, the ladder's steps into LADDER (a list) and the ladder in words into TEXT
 * (the end screen's, which it owns). */
export function drawStanding(me, distribution, { chart, ladder: steps, text }) {
  const { bands, band_points: bandPoints, ladder } = distribution;
  bandChart(chart, bands, bandPoints, me.band);
  const view = ladderView(ladder, me, bands, bandPoints);
  steps.replaceChildren(...view.steps.map((step) => {
    const item = element("li", { class: step.current ? "current" : step.reached ? "reached" : "" },
      step.current ? "◆ " : step.reached ? "✓ " : "", step.name,
      element("span", { class: "step-least" }, step.percentile ? ` ${step.percentile}%+` : " any"));
    if (step.current) item.setAttribute("aria-current", "step");
    return item;
  }));
  text.textContent = ladderText(view, me);
}
