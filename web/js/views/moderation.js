// The moderators' view (#moderation, SPEC §3e, docs/moderation.md): the review queue, a case's
// evidence and time line, the six decisions and the audit log. Shown to moderators only (the ID
// token's `cognito:groups` names `moderators`); the API refuses everyone else (403), the page only
// spares them a view they cannot use.

import { api, ok, problem } from "../api.js";
import { $, element, emptyTable, say } from "../dom.js";
import { ACTIONS, actionsFor, isModerator, localTime, timeline, whoseOf, whyOf } from "../lib/moderation.js";
import { jwtClaims } from "../lib/pkce.js";
import { mountNumbers } from "../parts/numbers.js";
import { go, onShow } from "../router.js";
import { get, set, subscribe } from "../store.js";

const SVG = "http://www.w3.org/2000/svg";
const moderator = () => !!get("token") && isModerator(jwtClaims(get("token")));
const seconds = (ms) => (ms / 1000).toFixed(2) + " s";

function cellRow(...cells) {
  return element("tr", {}, ...cells.map(([label, value]) => element("td", { "data-label": label }, value ?? "")));
}

function bindView() {
  for (const [action, label] of ACTIONS) {
    const button = element("button", { type: "button", class: "secondary", "data-action": action }, label);
    button.addEventListener("click", () => decide(action, label));
    $("decision-buttons").append(button);
  }
  $("case-kind").addEventListener("change", () => loadQueue(true));
  $("cases-refresh").addEventListener("click", () => loadQueue(true));
  $("cases-more").addEventListener("click", () => loadQueue(false));
  $("log-more").addEventListener("click", () => loadLog(false));
}

/** Who is logged in decides whether the moderators' tab shows. */
function showTab() {
  $("moderation-tab").hidden = !moderator();
}

async function loadQueue(fresh) {
  const query = new URLSearchParams({ limit: "50" });
  if ($("case-kind").value) query.set("kind", $("case-kind").value);
  if (!fresh && get("moderationQueue").cursor) query.set("cursor", get("moderationQueue").cursor);
  const reply = await api("GET", "/moderation/cases?" + query, undefined, { auth: true });
  if (!ok(reply)) return say($("moderation-status"), problem(reply), "bad");
  const cases = new Map(fresh ? [] : get("moderationQueue").cases);
  for (const item of reply.body.items) cases.set(item.case_id, item);
  set({ moderationQueue: { cursor: reply.body.next_cursor, cases } });
  $("cases-more").hidden = !reply.body.next_cursor;
  renderQueue();
}

function renderQueue() {
  const rows = [...get("moderationQueue").cases.values()].map((item) => {
    const button = element("button", { type: "button", class: "ghost small", "data-case": item.case_id, "aria-label": `Open the case about ${item.shown}` }, "Open");
    button.addEventListener("click", () => showCase(item));
    const source = { find_time: "find time", appeal: "appeal" }[item.source] || "reports";
    // A case about the moderator, or one they reported or decided, is another moderator's (403 own_case).
    const own = item.evidence && item.evidence.own_case ? element("span", { class: "hint" }, " another moderator's") : "";
    const about = element("span", { class: "wrap-anywhere" }, whoseOf(item) || item.shown);
    return cellRow(["Opened", localTime(item.opened_at)], ["Kind", item.kind], ["About", about],
      ["Reports", String(item.count)], ["Source", source], ["Case", element("span", {}, button, own)]);
  });
  const body = $("cases").tBodies[0];
  body.replaceChildren(...rows);
  if (!rows.length) body.append(cellRow(["Cases", "No open case: the queue is empty."]));
}

function showCase(item) {
  set({ moderationCase: item });
  $("case-card").hidden = false;
  const kind = { run: "Run", name: "Name", word: "Word", appeal: "Appeal" }[item.kind];
  $("case-title").textContent = `${kind}: ${item.shown}`;
  $("case-line").textContent = `${item.count} report${item.count === 1 ? "" : "s"} · opened ${localTime(item.opened_at)} · ` +
    ({ find_time: "found by the find-time pass", appeal: "a player's appeal" }[item.source] || "from players' reports");
  $("case-whose").textContent = whoseOf(item) ? `Whose: ${whoseOf(item)}` : "";
  $("case-why").textContent = `Why: ${whyOf(item)}`;
  $("case-evidence").replaceChildren(...evidenceOf(item));
  const fits = actionsFor(item.kind);
  const own = !!(item.evidence && item.evidence.own_case);
  for (const button of $("decision-buttons").children) button.disabled = own || !fits.includes(button.dataset.action);
  for (const button of $("decision-buttons").children) button.hidden = !fits.includes(button.dataset.action);
  $("decision-reason").value = "";
  say($("moderation-status"), own ? "This case is about you, your report or your decision: another moderator decides it." : "");
  $("case-title").focus();
}

function evidenceOf(item) {
  const e = item.evidence;
  const reporters = element("p", { class: "hint" }, `Reporters: ${(e.reporters || []).length}`);
  if (item.kind === "word") {
    return [element("p", {}, `The word ${e.word.toUpperCase()} is ${e.in_dictionary ? "already" : "not"} in the dictionary.`), reporters];
  }
  if (item.kind === "name") return [element("p", {}, `The name "${e.name}", skeleton "${e.skeleton}".`), reporters];
  if (item.kind === "appeal") {
    const s = e.sanction || {};
    return [element("p", { class: "wrap-anywhere" }, `The sanction: ${String(s.action || "").replace("_", " ")}, decided ${localTime(s.decided_at)} for "${s.reason || ""}".`)];
  }
  const rounds = timeline(e);
  const note = element("p", { class: "hint" }, e.hard_round_quantiles_ms
    ? "Each answer's time from its round being shown, against its word's typing floor (no person is faster) and, on the day's hard rounds, the quantile of everyone's answers the find-time pass used."
    : "Each answer's time from its round being shown, against its word's typing floor (no person is faster). The day's quantiles come with cases the find-time pass opened.");
  const table = emptyTable({ class: "reflow evidence", id: "case-attempts" }, "The run's attempts",
    ["Round", "Word", "Result", "Time", "Floor", "Day's quantile"]);
  for (const { round, attempts, quantile } of rounds) {
    for (const a of attempts) {
      table.tBodies[0].append(cellRow(["Round", String(round)], ["Word", a.word.toUpperCase()], ["Result", a.accepted ? "accepted" : "refused"],
        ["Time", seconds(a.elapsed_ms)], ["Floor", seconds(a.floor_ms)], ["Day's quantile", quantile === null ? "–" : seconds(quantile)]));
    }
  }
  if (!rounds.length) table.tBodies[0].append(cellRow(["Round", "No attempt: every round was skipped or lost."]));
  return [timelineChart(rounds), note, element("div", { class: "table-wrap" }, table), reporters];
}

/** The run on a time line: a line per round, its attempts as dots (green accepted, red refused)
 * at their time, the typing floor as a tick, the day's quantile as a taller tick. */
function timelineChart(rounds) {
  const times = rounds.flatMap(({ attempts, quantile }) => [...attempts.flatMap((a) => [a.elapsed_ms, a.floor_ms]), quantile || 0]);
  const scale = Math.max(5000, ...times) * 1.05;
  const width = 600;
  const left = 40;
  const line = 22;
  const svg = document.createElementNS(SVG, "svg");
  const height = line * rounds.length + 24;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "timeline");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "The run's answers on a time line (the table below gives each figure)");
  const x = (ms) => left + ((width - left - 10) * ms) / scale;
  const add = (tag, attributes, title) => {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    if (title) {
      const t = document.createElementNS(SVG, "title");
      t.textContent = title;
      node.append(t);
    }
    svg.append(node);
    return node;
  };
  rounds.forEach(({ round, attempts, quantile }, index) => {
    const y = 12 + index * line;
    add("text", { x: 0, y: y + 4, class: "label" }).textContent = `R${round}`;
    add("line", { x1: left, x2: width - 10, y1: y, y2: y, class: "track" });
    if (quantile !== null) add("line", { x1: x(quantile), x2: x(quantile), y1: y - 9, y2: y + 9, class: "quantile" }, `day's quantile ${seconds(quantile)}`);
    for (const a of attempts) {
      add("line", { x1: x(a.floor_ms), x2: x(a.floor_ms), y1: y - 5, y2: y + 5, class: "floor" }, `floor for ${a.word.length} letters ${seconds(a.floor_ms)}`);
      add("circle", { cx: x(a.elapsed_ms), cy: y, r: 5, class: a.accepted ? "accepted" : "refused" }, `${a.word.toUpperCase()} ${seconds(a.elapsed_ms)}`);
    }
  });
  const axis = 12 + rounds.length * line;
  for (let s = 0; s * 1000 <= scale; s += scale > 30000 ? 10 : scale > 10000 ? 5 : 1) {
    add("text", { x: x(s * 1000), y: axis + 6, class: "tick" }).textContent = `${s}s`;
  }
  return svg;
}

async function decide(action, label) {
  const item = get("moderationCase");
  if (!item) return;
  const reason = $("decision-reason").value.trim();
  if (!reason) return say($("moderation-status"), "Give a reason first: the player and the log keep it.", "bad");
  const body = { action, reason };
  if (action === "rank_ban") {
    const day = $("decision-until").value;
    if (!day) return say($("moderation-status"), "A rank ban needs the date it ends.", "bad");
    body.until = `${day}T00:00:00.000Z`;
  }
  if (!window.confirm(`${label}: the case about ${item.shown}? This cannot be undone.`)) return;
  const reply = await api("POST", `/moderation/cases/${encodeURIComponent(item.case_id)}/decision`, body, { auth: true });
  if (!ok(reply)) return say($("moderation-status"), "Not decided: " + problem(reply), "bad");
  const queue = get("moderationQueue");
  set({
    moderationQueue: { ...queue, cases: new Map([...queue.cases].filter(([id]) => id !== item.case_id)) },
    moderationCase: null,
  });
  $("case-card").hidden = true;
  renderQueue();
  say($("moderation-status"), `Decided: ${label.toLowerCase()}, the case about ${item.shown}.`, "ok");
  loadLog(true);
}

async function loadLog(fresh) {
  const query = new URLSearchParams({ limit: "50" });
  if (!fresh && get("moderationLogCursor")) query.set("cursor", get("moderationLogCursor"));
  const reply = await api("GET", "/moderation/log?" + query, undefined, { auth: true });
  if (!ok(reply)) return say($("moderation-status"), problem(reply), "bad");
  const rows = reply.body.items.map((entry) => {
    const decision = entry.action.replace("_", " ") + (entry.until ? ` until ${entry.until.slice(0, 10)}` : "");
    // Names, not ids: the moderator's and the player's as they show now (the target of a run or an
    // appeal is an id: the player's name says whose it was).
    const target = entry.subject_name || (entry.kind === "word" || entry.kind === "name" ? entry.target : "–");
    return cellRow(["When", localTime(entry.decided_at)], ["Moderator", entry.moderator_name || entry.moderator.slice(0, 8)],
      ["Kind", entry.kind], ["Target", element("span", { class: "wrap-anywhere" }, target)], ["Decision", decision],
      ["Reason", element("span", { class: "wrap-anywhere" }, entry.reason)]);
  });
  const body = $("mod-log").tBodies[0];
  if (fresh) body.replaceChildren();
  body.append(...rows);
  set({ moderationLogCursor: reply.body.next_cursor });
  $("log-more").hidden = !reply.body.next_cursor;
}

/** Build the moderators' view and its tab's rule; a view shown by anyone else goes home. */
export function bindModeration() {
  bindView();
  mountNumbers($("view-moderation"));
  showTab();
  subscribe(["token"], showTab);
  onShow("moderation", () => {
    if (!moderator()) {
      // Not a moderator: the API would refuse every call (403), so none is made.
      history.replaceState(null, "", location.pathname + location.search + "#home");
      go("home");
      return;
    }
    loadQueue(true);
    loadLog(true);
  });
}
