// Reports (SPEC §3e): the dialog that sends a report of a board row (its result or its name) or
// of a word the game refused. A view asks for it by setting the store's `report` ({kind: "row",
// scope, name} or {kind: "word", word, guestRun}, with `sent()` to call once it is sent): the
// board rows' Report buttons (parts/board.js) and the end screen's refused words (views/end.js).

import { api, ok, problem } from "../api.js";
import { $, say } from "../dom.js";
import { mountNumbers } from "../parts/numbers.js";
import { get, subscribe } from "../store.js";

function bindReportDialog() {
  $("report-form").addEventListener("submit", sendReport);
  $("report-cancel").addEventListener("click", () => $("report-dialog").close());
}

function openReport() {
  const what = get("report");
  if (!what) return;
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
  const what = get("report");
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
  if (what.sent) what.sent();
}

/** Build the report dialog; it opens on each report asked for. */
export function bindReports() {
  bindReportDialog();
  mountNumbers($("report-dialog"));
  subscribe(["report"], openReport);
}
