// Reports (SPEC §3e): a player reports a board row (its result or its name) or a word the game
// refused; the board, the end screen and history say when a result is under review. Hooked to
// the other views by their events: `wordsqd:rows`, `wordsqd:my-rank`, `wordsqd:history`,
// `wordsqd:view`, `wordsqd:account`.

import { api, ok, problem } from "../api.js";
import { $, element, say } from "../dom.js";
import { correctedRank } from "../lib/sanctions.js";
import { isDefaultName } from "../lib/words.js";
import { get } from "../store.js";

const PENDING_TEXT = "Under review: a moderator is looking at this result, and its rank may still change.";

let reporting = null; // {kind: "row"|"word", scope, name, word, guestRun}

function buildReportDialog() {
  const dialog = element("dialog", { id: "report-dialog", class: "card report-dialog", "aria-labelledby": "report-title" });
  dialog.innerHTML = `
    <form id="report-form">
      <h2 id="report-title">Report</h2>
      <p id="report-what"></p>
      <fieldset id="report-kinds" class="report-kinds">
        <legend>What is wrong?</legend>
        <label><input type="radio" name="report-kind" value="run" checked> How this result was played</label>
        <label><input type="radio" name="report-kind" value="name"> The player's name</label>
      </fieldset>
      <label for="report-reason">Why? (a moderator reads it)</label>
      <textarea id="report-reason" maxlength="200" data-maxlength="reason_max_length" rows="3" required></textarea>
      <p id="report-status" class="status" role="status" aria-live="polite"></p>
      <div class="actions">
        <button id="report-send" class="primary">Send report</button>
        <button type="button" id="report-cancel" class="ghost">Cancel</button>
      </div>
    </form>`;
  document.body.append(dialog);
  $("report-form").addEventListener("submit", sendReport);
  $("report-cancel").addEventListener("click", () => dialog.close());
}

function openReport(what) {
  reporting = what;
  const row = what.kind === "row";
  $("report-title").textContent = row ? `Report ${what.name}` : `Report "${what.word.toUpperCase()}" as a word`;
  $("report-what").textContent = row
    ? `${what.name}'s row on the board of ${what.scope}. Reports go to a moderator; nothing changes until one decides.`
    : "The game refused this word. If it is a real English word, a moderator may add it to the next dictionary.";
  $("report-kinds").hidden = !row;
  $("report-reason").value = row ? "" : "This is a word";
  $("report-send").hidden = false;
  $("report-cancel").textContent = "Cancel";
  say($("report-status"), "");
  $("report-dialog").showModal();
  $("report-reason").focus();
}

async function sendReport(event) {
  event.preventDefault();
  const what = reporting;
  const reason = $("report-reason").value.trim();
  if (!what || !reason) return say($("report-status"), "Say why, in a few words.", "bad");
  let reply;
  if (what.kind === "word" && what.guestRun) {
    const body = { kind: "word", target: what.word, reason, run_id: what.guestRun };
    reply = await api("POST", "/guest/reports", body);
  } else {
    const kind = what.kind === "word" ? "word" : document.querySelector("input[name=report-kind]:checked").value;
    const target = what.kind === "word" ? what.word : kind === "name" ? what.name : `${what.scope}:${what.name}`;
    reply = await api("POST", "/reports", { kind, target, reason }, { auth: true });
  }
  if (!ok(reply)) return say($("report-status"), "Not sent: " + problem(reply), "bad");
  say($("report-status"), "Report sent, thank you: a moderator will look at it.", "ok");
  $("report-send").hidden = true;
  $("report-cancel").textContent = "Close";
  if (what.button) {
    what.button.disabled = true;
    what.button.textContent = "Reported";
  }
}

/** A board's scope for a run report: the Daily date on screen, or the challenge's id. */
function scopeOf(table) {
  if (table.id === "board") return get("boardDate");
  if (table.id === "challenge-board") return get("challenge") && get("challenge").challenge_id;
  if (table.id === "league-board") return table.dataset.date || null; // a league board is its date's Daily
  return null;
}

/** Mark the rows under review; in report mode, give each other named row a Report button. */
function onRows(event) {
  const { table, rows } = event.detail;
  const scope = scopeOf(table);
  if (table.id === "league-board") addControls(table);
  for (const [row, tr] of rows) {
    const cell = tr.cells[1];
    // Marks go before the name: a long name is what the one-line row cuts short.
    if (row.review === "pending") {
      tr.classList.add("pending");
      cell.prepend(element("span", { class: "review-mark", title: PENDING_TEXT }, "in review ·"));
    }
    const reportable = scope && get("token") && !tr.classList.contains("mine") && !isDefaultName(row.display_name) &&
      row.display_name !== "deleted player";
    if (!reportable) continue;
    const button = element("button", { type: "button", class: "ghost small report-row", "aria-label": `Report ${row.display_name}` }, "Report");
    button.addEventListener("click", () => openReport({ kind: "row", scope, name: row.display_name, button }));
    cell.prepend(button);
  }
  const pending = table.querySelectorAll("tr.pending").length;
  const hint = $(table.id + "-review-hint");
  if (hint) hint.hidden = pending === 0;
}

function addBoardControls() {
  for (const id of ["board", "challenge-board"]) addControls($(id));
}

/** Under TABLE: the hint that explains its rows under review, and the toggle of its Report
 * buttons (made once; the league board's when it is first drawn). */
function addControls(table) {
  const id = table.id;
  if ($(id + "-report")) return;
  const hint = element("p", { id: id + "-review-hint", class: "hint review-hint" }, "In review: " + PENDING_TEXT);
  hint.hidden = true;
  table.closest(".table-wrap").after(hint);
  // Report buttons stay out of sight until asked for: a board's rows stay one line on a phone.
  const toggle = element("button", { type: "button", id: id + "-report", class: "ghost small", "aria-pressed": "false" }, "Report a row");
  toggle.addEventListener("click", () => {
    const on = toggle.getAttribute("aria-pressed") !== "true";
    toggle.setAttribute("aria-pressed", String(on));
    toggle.textContent = on ? "Done reporting" : "Report a row";
    table.classList.toggle("reporting", on);
  });
  if (id === "board") $("board-refresh").after(toggle);
  else table.closest(".table-wrap").before(toggle);
}

/** The end screen and the board's own line: the caller's result is under review. */
function onMyRank(event) {
  const { me, box } = event.detail;
  if (me.review === "pending") box.textContent += " " + PENDING_TEXT;
}

/** History: a result under review, voided, or whose rank a decision moved says so under the table. */
function onHistory(event) {
  const { items, rows } = event.detail;
  const notes = [];
  items.forEach((item, index) => {
    const played = rows[index] && rows[index].cells[0];
    if (item.review === "pending" && played) {
      played.append(" ", element("span", { class: "badge review", title: PENDING_TEXT }, "in review"));
      notes.push(`${item.date}: ${PENDING_TEXT}`);
    }
    if (item.unranked_reason === "voided") notes.push(`${item.date}: voided by a moderator, so off the board and out of every rank; it still counts in your stats.`);
    const corrected = correctedRank(item);
    if (corrected && rows[index]) {
      rows[index].cells[4].textContent = `${item.rank_before_correction} → ${item.rank}`;
      notes.push(`${item.date}: ${corrected}: a moderator's decision about a result above yours moved it.`);
    }
  });
  const box = $("history-review");
  box.replaceChildren(...notes.map((note) => element("li", {}, note)));
  box.hidden = notes.length === 0;
}

/** The end screen: each word refused as not a word gets a Report button. */
function showRefusedWords() {
  const run = get("run");
  const box = $("refused-words");
  const list = $("refused-list");
  const refused = new Set();
  for (const round of (run && run.history) || []) {
    for (const attempt of round.attempts) if (!attempt.accepted && attempt.reason === "not_a_word") refused.add(attempt.word.toLowerCase());
  }
  const canReport = run && (run.guest || get("token"));
  list.replaceChildren(...[...refused].filter(() => canReport).map((word) => {
    const button = element("button", { type: "button", class: "ghost small", "aria-label": `Report: this is a word (${word.toUpperCase()})` }, "Report: this is a word");
    button.addEventListener("click", () => openReport({ kind: "word", word, guestRun: run.guest ? run.run_id : null, button }));
    return element("li", {}, element("b", {}, word.toUpperCase()), " ", button);
  }));
  box.hidden = list.children.length === 0;
}

function addPlayerParts() {
  const refused = element("div", { id: "refused-words", class: "refused-words" });
  refused.hidden = true;
  refused.innerHTML = `<h2>Words the game refused</h2>
    <p class="hint">Is one of them a real English word? Report it: a moderator may add it to the dictionary.</p>
    <ul id="refused-list" class="refused-list"></ul>`;
  document.querySelector("#view-end details.review").before(refused);
  const notes = element("ul", { id: "history-review", class: "hint history-review" });
  notes.hidden = true;
  $("history").closest(".table-wrap").after(notes);
}

/** Reporting rows is for players (a guest reports only words of their own run). */
function showReportButtons() {
  $("board-report").hidden = $("challenge-board-report").hidden = !get("token");
}

/** Build the report dialog and the parts the other views carry, and listen to their events. */
export function bindReports() {
  buildReportDialog();
  addPlayerParts();
  addBoardControls();
  showReportButtons();
  document.addEventListener("wordsqd:account", showReportButtons);
  document.addEventListener("wordsqd:rows", onRows);
  document.addEventListener("wordsqd:my-rank", onMyRank);
  document.addEventListener("wordsqd:history", onHistory);
  document.addEventListener("wordsqd:view", (event) => {
    if (event.detail === "end") showRefusedWords();
  });
}
