// Stats and history (#me): GET /me's stats, the player's official results a page at a time with
// a chart of the last 30 Daily scores and what a moderator's decision did to them, and the
// display name.

import { api } from "../api.js";
import { $, barChart, element, emptyRow, say, tableRow } from "../dom.js";
import { challengeLink } from "../lib/game.js";
import { correctedRank, PENDING_TEXT } from "../lib/sanctions.js";
import { averageText, formatDate, freezesText, streakText } from "../lib/words.js";
import { mountNumbers } from "../parts/numbers.js";
import { mountSanctionNotice } from "../parts/sanction_notice.js";
import { loadHistory, loadProfile, putName } from "../player.js";
import { onShow } from "../router.js";
import { get } from "../store.js";

async function loadMe() {
  $("me-guest").hidden = !!get("token");
  $("me-player").hidden = !get("token");
  if (!get("token")) return;
  await loadProfile();
  renderMe();
}

function renderMe() {
  $("display-name").textContent = get("displayName") || "";
  const stats = get("stats");
  $("stats-missing").hidden = !!stats;
  const value = (v) => (v === null || v === undefined ? "–" : v);
  $("stat-played").textContent = value(stats && stats.played);
  $("stat-current").textContent = value(stats && stats.current_streak);
  $("stat-max").textContent = value(stats && stats.max_streak);
  $("stat-best").textContent = value(stats && stats.best_score);
  $("stat-last").textContent = stats && stats.last_played ? formatDate(stats.last_played) : "–";
  $("stat-last").className = "small";
  $("stat-freezes").textContent = stats ? freezesText(stats) : "–";
  $("stats-streak").textContent = stats ? streakText(stats) : "";
  const scores = get("historyItems").filter((item) => item.kind === "daily").map((item) => item.score);
  $("stat-average").textContent = averageText(scores, !get("historyCursor"));
  const table = $("history");
  const notes = [];
  const rows = get("historyItems").map((item) => {
    let played;
    if (item.kind === "challenge") {
      played = element("a", { href: challengeLink(location.origin, item.challenge_id) }, `Challenge, ${formatDate(item.date)}`);
    } else {
      played = `Daily, ${formatDate(item.date)}`;
    }
    // Under review, voided, or a rank a decision moved: said in the row and under the table.
    if (item.review === "pending") {
      played = element("span", {}, played, " ", element("span", { class: "badge review", title: PENDING_TEXT }, "in review"));
      notes.push(`${item.date}: ${PENDING_TEXT}`);
    }
    if (item.unranked_reason === "voided") notes.push(`${item.date}: voided by a moderator, so off the board and out of every rank; it still counts in your stats.`);
    const corrected = correctedRank(item);
    if (corrected) notes.push(`${item.date}: ${corrected}: a moderator's decision about a result above yours moved it.`);
    const rank = item.unranked_reason === "voided" ? "voided" : item.unranked_reason ? "not ranked" : item.rank ?? "live";
    return tableRow(
      ["Played", played],
      ["Score", item.score, "num"],
      ["Best combo", item.best_combo, "num"],
      ["Longest", item.longest_word_length, "num"],
      ["Rank", corrected ? `${item.rank_before_correction} → ${item.rank}` : rank, "num"],
    );
  });
  table.tBodies[0].replaceChildren(...rows);
  $("history-review").replaceChildren(...notes.map((note) => element("li", {}, note)));
  $("history-review").hidden = notes.length === 0;
  // A live Daily's rank, as it stands (history gives the final rank only once the board closes).
  get("historyItems").forEach((item, index) => {
    if (item.kind === "daily" && item.rank === null && !item.unranked_reason) showLiveRank(item.date, rows[index].cells[4]);
  });
  if (!rows.length) table.tBodies[0].append(emptyRow(table, "No official results yet: play today's Daily!"));
  renderScoreChart();
  $("history-more").hidden = !get("historyCursor");
}

/** The player's last 30 official Daily scores, oldest first (history is newest first). */
function renderScoreChart() {
  const dailies = get("historyItems").filter((item) => item.kind === "daily").slice(0, 30).reverse();
  $("score-chart-card").hidden = dailies.length === 0;
  if (!dailies.length) return;
  const text = "Your last " + dailies.length + " official Daily scores, oldest first: " +
    dailies.map((item) => `${formatDate(item.date)}: ${item.score}`).join("; ") + ".";
  barChart($("score-chart"), dailies.map((item) => item.score), -1, text);
}

async function showLiveRank(date, cell) {
  const reply = await api("GET", `/leaderboard/daily/me?date=${encodeURIComponent(date)}`, undefined, { auth: true });
  if (reply.status === 200 && cell.isConnected) {
    cell.textContent = `${reply.body.rank}${reply.body.players ? ` of ${reply.body.players}` : ""} so far`;
  }
}

async function saveName(event) {
  event.preventDefault();
  const why = await putName($("new-name").value);
  if (why) {
    say($("name-status"), "Name not saved: " + why, "bad");
    return;
  }
  $("new-name").value = "";
  say($("name-status"), `Saved: boards now show you as ${get("displayName")}.`, "ok");
  renderMe();
}

export function bindStats() {
  $("history-more").addEventListener("click", async () => {
    await loadHistory(false);
    renderMe();
  });
  $("name-form").addEventListener("submit", saveName);
  mountNumbers($("view-me")); // the name's rules
  mountSanctionNotice($("sanction-me")); // above the history (SPEC §3e)
  onShow("me", loadMe);
}
