// A board's rows, drawn the same for every board (Daily, challenge, league): the player's own row
// marked, a row under review marked, and in report mode a Report button on each other named row
// (its click asks the store's `report`, which views/reports.js answers). Under the table, the hint
// that explains rows under review and the toggle of the Report buttons (players only).

import { $, element, emptyRow, tableRow } from "../dom.js";
import { BOARD_CATCH_UP_MS, BOARD_CATCH_UP_TRIES } from "../lib/game.js";
import { PENDING_TEXT } from "../lib/sanctions.js";
import { isDefaultName } from "../lib/words.js";
import { get, set, subscribe } from "../store.js";

/** Draw ROWS of a board into TABLE (after its rows when APPEND); SCOPE names the board a row's
 * report is about (a Daily date or a challenge's id; null: no reports). */
export function boardRows(table, rows, { closed, append = false, scope = null }) {
  boardControls(table);
  const body = table.tBodies[0];
  if (!append) body.replaceChildren();
  table.classList.toggle("closed", closed);
  for (const row of rows) body.append(boardRow(row, scope));
  if (!body.rows.length) body.append(emptyRow(table, "No official results yet: be the first!"));
  $(table.id + "-review-hint").hidden = !table.querySelector("tr.pending");
}

// A board's columns: [label, the head cell's class, the row's value, the row cell's class].
const COLUMNS = [
  ["Rank", "rank", (row) => row.rank, "num rank"],
  ["Player", "player", (row) => row.display_name, "player"],
  ["Score", "score", (row) => row.score, "num score"],
  ["Combo", "combo", (row) => row.best_combo, "num combo"],
  ["Longest", "longest", (row) => row.longest_word_length, "num longest"],
  ["Words", "words-col", (row) => (row.words || []).join(", ").toUpperCase(), "words"],
];

function boardRow(row, scope) {
  const tr = tableRow(...COLUMNS.map(([label, , value, cell]) => [label, value(row), cell]));
  const [, player, , , , words] = tr.cells;
  player.title = row.display_name; // shown whole on hover when a narrow row cuts it short
  words.title = words.textContent;
  const mine = get("token") && row.display_name === get("displayName");
  if (mine) {
    tr.className = "mine";
    tr.tabIndex = -1; // "Jump to my row" moves focus here
    tr.setAttribute("aria-label", `Your row: rank ${row.rank}, ${row.score} points`);
  }
  // Marks go before the name: a long name is what the one-line row cuts short.
  if (row.review === "pending") {
    tr.classList.add("pending");
    player.prepend(element("span", { class: "review-mark", title: PENDING_TEXT }, "in review ·"));
  }
  const reportable = scope && get("token") && !mine && !isDefaultName(row.display_name) && row.display_name !== "deleted player";
  if (reportable) player.prepend(reportButton(scope, row.display_name));
  return tr;
}

function reportButton(scope, name) {
  const button = element("button", { type: "button", class: "ghost small report-row", "aria-label": `Report ${name}` }, "Report");
  const sent = () => {
    button.disabled = true;
    button.textContent = "Reported";
  };
  button.addEventListener("click", () => set({ report: { kind: "row", scope, name, sent } }));
  return button;
}

/** TABLE's head, and under it the hint that explains its rows under review and the toggle of its
 * Report buttons (shown to players only), made once when its view binds. */
export function boardControls(table) {
  const id = table.id;
  if ($(id + "-report")) return;
  table.tHead.replaceChildren(element("tr", {}, ...COLUMNS.map(([label, head]) => element("th", { scope: "col", class: head }, label))));
  const hint = element("p", { id: id + "-review-hint", class: "hint review-hint" }, "In review: " + PENDING_TEXT);
  hint.hidden = true;
  table.closest(".table-wrap").after(hint);
  // Report buttons stay out of sight until asked for: a board's rows stay one line on a phone.
  const toggle = element("button", { type: "button", id: id + "-report", class: "ghost small report-toggle", "aria-pressed": "false" }, "Report a row");
  const forPlayers = () => {
    toggle.hidden = !get("token"); // a guest reports only words of their own run
  };
  forPlayers();
  subscribe(["token"], forPlayers);
  toggle.addEventListener("click", () => {
    const on = toggle.getAttribute("aria-pressed") !== "true";
    toggle.setAttribute("aria-pressed", String(on));
    toggle.textContent = on ? "Done reporting" : "Report a row";
    table.classList.toggle("reporting", on);
  });
  const before = table.closest("section").querySelector("[data-report-toggle]"); // where the view wants it
  if (before) before.after(toggle);
  else table.closest(".table-wrap").before(toggle);
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
