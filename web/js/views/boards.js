// Daily boards (#board): a date's board a page at a time, the player's own row and rank, a live
// board read again while the player's just-finished result is not on it yet, and a closed past
// day's way to its recap. The board's page cursor is the store's `boardCursor`.

import { api, problem } from "../api.js";
import { $, emptyRow } from "../dom.js";
import { PENDING_TEXT } from "../lib/sanctions.js";
import { formatDate, rankText, unrankedText } from "../lib/words.js";
import { boardControls, boardRows, catchUp, showsMine } from "../parts/board.js";
import { showCorrections } from "../parts/corrections.js";
import { mountSanctionNotice } from "../parts/sanction_notice.js";
import { loadHistory } from "../player.js";
import { go, onShow } from "../router.js";
import { get, set, subscribe } from "../store.js";

async function loadBoard(fresh, attempt = 0) {
  const day = $("board-day").value; // YYYY-MM-DD, or "" for today's board
  const query = new URLSearchParams(); // a page of the server's size (SPEC §5)
  if (!fresh && get("boardCursor")) query.set("cursor", get("boardCursor"));
  const reply = await api("GET", "/leaderboard/daily" + (day ? "/" + day : "") + "?" + query);
  if (reply.status !== 200) {
    $("board-status").textContent = "";
    boardRows($("board"), [], { closed: false });
    $("board").tBodies[0].replaceChildren(emptyRow($("board"), "This board is unavailable: " + problem(reply)));
    $("board-more").hidden = true;
    return;
  }
  const page = reply.body;
  set({ boardDate: page.date, boardCursor: page.next_cursor });
  $("board-date").textContent = formatDate(page.date);
  $("board-status").textContent = page.status;
  boardRows($("board"), page.rows, { closed: page.status !== "live", append: !fresh, scope: page.date });
  showCorrections($("board"), page.corrections);
  // A closed or final past board offers its day's recap.
  const daily = get("daily");
  $("board-recap").hidden = !(page.status !== "live" && daily && page.date < daily.date);
  $("board-more").hidden = !page.next_cursor;
  if (fresh) showMyRow(page.date);
  const mineDue = fresh && page.status === "live" && !page.next_cursor && get("token") && get("officialDates").has(page.date);
  if (mineDue && !showsMine(page.rows)) {
    catchUp(attempt, () => get("view") === "board" && get("boardDate") === page.date, () => loadBoard(true, attempt + 1));
  }
}

/** The player's own row and rank. Asked only when history says there is an official result for
 * that date: otherwise the server's answer is 404 not_ranked, which browsers log as an error. */
async function showMyRow(date) {
  const box = $("my-row");
  const bar = $("my-row-bar");
  bar.hidden = true;
  $("jump-mine").hidden = true;
  if (!get("token")) return;
  if (!get("historyLoaded")) await loadHistory(true);
  if (!get("officialDates").has(date)) {
    box.textContent = get("daily") && date === get("daily").date
      ? "You are not on today's board yet: finish the Daily while logged in."
      : "You have no official result for this date.";
    bar.hidden = false;
    return;
  }
  if (get("unrankedDates").has(date)) {
    box.textContent = unrankedText(get("unrankedDates").get(date), "Your result for this date");
    bar.hidden = false;
    return;
  }
  const reply = await api("GET", `/leaderboard/daily/me?date=${encodeURIComponent(date)}`, undefined, { auth: true });
  if (reply.status === 200 && get("boardDate") === date) {
    const me = reply.body;
    box.textContent = `You: ${rankText(me.rank, me.players)}, ${me.score} points, best combo ${me.best_combo}, longest word ${me.longest_word_length} letters.`;
    if (me.review === "pending") box.textContent += " " + PENDING_TEXT;
    bar.hidden = false;
    $("jump-mine").hidden = false;
  }
}

/** Scroll to the player's own row (reading more pages until it is there), and focus it. */
async function jumpToMine() {
  for (let pages = 0; !$("board").querySelector("tr.mine") && get("boardCursor") && pages < 20; pages += 1) {
    await loadBoard(false);
  }
  const mine = $("board").querySelector("tr.mine");
  if (!mine) return;
  mine.scrollIntoView({ block: "center" });
  mine.focus({ preventScroll: true });
}

/** The board's controls; a new Daily read while today's board is on screen shows its board. */
export function bindBoards() {
  boardControls($("board"));
  $("board-day").addEventListener("change", () => loadBoard(true));
  $("board-today").addEventListener("click", () => {
    $("board-day").value = "";
    loadBoard(true);
  });
  $("board-refresh").addEventListener("click", () => loadBoard(true));
  $("board-more").addEventListener("click", () => loadBoard(false));
  $("jump-mine").addEventListener("click", jumpToMine);
  mountSanctionNotice($("sanction-board")); // beside the player's row (SPEC §3e)
  $("board-recap").addEventListener("click", () => {
    set({ recapDate: get("boardDate") });
    go("recap");
  });
  subscribe(["daily"], () => {
    $("board-day").max = get("daily").date;
    if (get("view") === "board" && !$("board-day").value) loadBoard(true);
  });
  onShow("board", () => {
    if (get("boardDay") !== null) $("board-day").value = get("boardDay"); // asked by another view
    set({ boardDay: null });
    loadBoard(true);
  });
}
