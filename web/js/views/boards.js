// Daily boards (#board): a date's board a page at a time, the player's own row and rank, and a
// live board read again while the player's just-finished result is not on it yet. boardRows()
// draws any board (challenges and leagues use it too).

import { api, problem } from "../api.js";
import { $, emptyRow, tableRow } from "../dom.js";
import { BOARD_CATCH_UP_MS, BOARD_CATCH_UP_TRIES } from "../lib/game.js";
import { formatDate, rankText, unrankedText } from "../lib/words.js";
import { onShow } from "../router.js";
import { get, set } from "../store.js";
import { loadHistory } from "./account.js";
import { showCorrections } from "./corrections.js";

let boardCursor = null; // the next page of the board on screen

/** Draw ROWS of a board into TABLE (after its rows when APPEND); the player's own row marked. */
export function boardRows(table, rows, closed, append) {
  const body = table.tBodies[0];
  if (!append) body.replaceChildren();
  table.classList.toggle("closed", closed);
  const drawn = [];
  for (const row of rows) {
    const tr = tableRow(
      ["Rank", row.rank, "num rank"],
      ["Player", row.display_name, "player"],
      ["Score", row.score, "num score"],
      ["Combo", row.best_combo, "num combo"],
      ["Longest", row.longest_word_length, "num longest"],
      ["Words", (row.words || []).join(", ").toUpperCase(), "words"],
    );
    tr.cells[1].title = row.display_name; // shown whole on hover when a narrow row cuts it short
    tr.cells[5].title = tr.cells[5].textContent;
    if (get("token") && row.display_name === get("displayName")) {
      tr.className = "mine";
      tr.tabIndex = -1; // "Jump to my row" moves focus here
      tr.setAttribute("aria-label", `Your row: rank ${row.rank}, ${row.score} points`);
    }
    body.append(tr);
    drawn.push([row, tr]);
  }
  if (!body.rows.length) body.append(emptyRow(table, "No official results yet: be the first!"));
  // views/reports.js: the rows under review, and the Report action
  document.dispatchEvent(new CustomEvent("wordsqd:rows", { detail: { table, rows: drawn, append } }));
}

export async function loadBoard(fresh, attempt = 0) {
  const day = $("board-day").value; // YYYY-MM-DD, or "" for today's board
  const query = new URLSearchParams({ limit: "50" });
  if (!fresh && boardCursor) query.set("cursor", boardCursor);
  const reply = await api("GET", "/leaderboard/daily" + (day ? "/" + day : "") + "?" + query);
  if (reply.status !== 200) {
    $("board-status").textContent = "";
    boardRows($("board"), [], false, false);
    $("board").tBodies[0].replaceChildren(emptyRow($("board"), "This board is unavailable: " + problem(reply)));
    $("board-more").hidden = true;
    return;
  }
  const page = reply.body;
  set({ boardDate: page.date });
  $("board-date").textContent = formatDate(page.date);
  $("board-status").textContent = page.status;
  boardRows($("board"), page.rows, page.status !== "live", !fresh);
  showCorrections($("board"), page.corrections);
  boardCursor = page.next_cursor;
  $("board-more").hidden = !page.next_cursor;
  if (fresh) showMyRow(page.date);
  const mineDue = fresh && page.status === "live" && !page.next_cursor && get("token") && get("officialDates").has(page.date);
  if (mineDue && !showsMine(page.rows)) {
    catchUp(attempt, () => get("view") === "board" && get("boardDate") === page.date, () => loadBoard(true, attempt + 1));
  }
}

export function showsMine(rows) {
  return rows.some((row) => row.display_name === get("displayName"));
}

/** Read a board again shortly (attempt ATTEMPT of BOARD_CATCH_UP_TRIES) if STILL_WANTED then. */
export function catchUp(attempt, stillWanted, readAgain) {
  if (attempt >= BOARD_CATCH_UP_TRIES) return;
  setTimeout(() => {
    if (stillWanted()) readAgain();
  }, BOARD_CATCH_UP_MS);
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
    bar.hidden = false;
    $("jump-mine").hidden = false;
    document.dispatchEvent(new CustomEvent("wordsqd:my-rank", { detail: { me, box } }));
  }
}

/** Scroll to the player's own row (reading more pages until it is there), and focus it. */
async function jumpToMine() {
  for (let pages = 0; !$("board").querySelector("tr.mine") && boardCursor && pages < 20; pages += 1) {
    await loadBoard(false);
  }
  const mine = $("board").querySelector("tr.mine");
  if (!mine) return;
  mine.scrollIntoView({ block: "center" });
  mine.focus({ preventScroll: true });
}

/** The board's controls; a new Daily read while today's board is on screen shows its board. */
export function bindBoards() {
  $("board-day").addEventListener("change", () => loadBoard(true));
  $("board-today").addEventListener("click", () => {
    $("board-day").value = "";
    loadBoard(true);
  });
  $("board-refresh").addEventListener("click", () => loadBoard(true));
  $("board-more").addEventListener("click", () => loadBoard(false));
  $("jump-mine").addEventListener("click", jumpToMine);
  document.addEventListener("wordsqd:new-daily", () => {
    if (get("view") === "board" && !$("board-day").value) loadBoard(true);
  });
  onShow("board", () => loadBoard(true));
}
