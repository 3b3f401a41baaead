// The run in play, kept: a run the server sent becomes the store's `run` (views/game.js and
// views/end.js draw it as it changes), its id is remembered for a reload, its clock learnt from
// the server's; a completed official Daily adds its date to what history says.

import { api } from "./api.js";
import { get, RUN_KEY, set } from "./store.js";

export function runPath(run) {
  return (run.guest ? "/guest/runs/" : "/runs/") + encodeURIComponent(run.run_id);
}

/** RUN (a reply's) is the run in play now; GUEST: played on the guest routes. */
export function keepRun(run, guest) {
  Object.assign(run, { guest });
  sessionStorage.setItem(RUN_KEY, JSON.stringify({ run_id: run.run_id, guest, skewMs: get("skewMs") }));
  set({ ...(run.status === "completed" ? completion(run) : {}), run });
}

/** The fields a completed RUN changes, set with it at once. */
function completion(run) {
  const fields = { completed: run };
  if (run.official && !run.guest && run.kind === "daily" && !get("officialDates").has(run.date)) {
    fields.officialDates = new Set([...get("officialDates"), run.date]);
    if (run.ranked === false) fields.unrankedDates = new Map([...get("unrankedDates"), [run.date, run.unranked_reason]]);
    fields.historyLoaded = false; // a new official result: history and stats have changed
    fields.stats = undefined;
  }
  return fields;
}

/** A new run started on the server's clock just now: its timer counts on that clock. */
export function learnSkew(reply, sentAt) {
  const receivedAt = Date.now();
  if (reply.status === 201) {
    set({ skewMs: Date.parse(reply.body.started_at) - (sentAt + receivedAt) / 2 });
    return;
  }
  const saved = JSON.parse(sessionStorage.getItem(RUN_KEY) || "null");
  if (saved && saved.run_id === reply.body.run_id) set({ skewMs: saved.skewMs || 0 });
  else if (reply.date) set({ skewMs: Date.parse(reply.date) + 500 - (sentAt + receivedAt) / 2 });
}

/** The run this tab was playing before a reload, read again. */
export async function resumeSavedRun() {
  const saved = JSON.parse(sessionStorage.getItem(RUN_KEY) || "null");
  if (!saved || (!saved.guest && !get("token"))) return;
  const reply = await api("GET", runPath(saved), undefined, { auth: !saved.guest });
  if (reply.status !== 200) {
    sessionStorage.removeItem(RUN_KEY);
    return;
  }
  set({ skewMs: saved.skewMs || 0 });
  set({ run: Object.assign(reply.body, { guest: saved.guest }) });
}
