// Stats and history (#me): GET /me's stats, the player's official results a page at a time with
// a chart of the last 30 Daily scores, and the display name.

import { api } from "../api.js";
import { $, barChart, emptyRow, say, tableRow } from "../dom.js";
import { challengeLink } from "../lib/game.js";
import { averageText, formatDate, freezesText, streakText } from "../lib/words.js";
import { onShow } from "../router.js";
import { get } from "../store.js";
import { loadHistory, loadProfile, putName } from "./account.js";

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
  const rows = get("historyItems").map((item) => {
    let played;
    if (item.kind === "challenge") {
      played = document.createElement("a");
      played.href = challengeLink(location.origin, item.challenge_id);
      played.textContent = `Challenge, ${formatDate(item.date)}`;
    } else {
      played = `Daily, ${formatDate(item.date)}`;
    }
    return tableRow(
      ["Played", played],
      ["Score", item.score, "num"],
      ["Best combo", item.best_combo, "num"],
      ["Longest", item.longest_word_length, "num"],
      ["Rank", item.unranked_reason === "voided" ? "voided" : item.unranked_reason ? "not ranked" : item.rank ?? "live", "num"],
    );
  });
  table.tBodies[0].replaceChildren(...rows);
  // views/reports.js: why a result is unranked or under review
  document.dispatchEvent(new CustomEvent("wordsqd:history", { detail: { items: get("historyItems"), rows } }));
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
  onShow("me", loadMe);
}
