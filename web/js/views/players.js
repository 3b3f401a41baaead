// A player's own data (SPEC §5) under Stats: "Download my data" (GET /me/export) and "Delete my
// account" (DELETE /me, after a confirmation).

import { api, ok, problem } from "../api.js";
import { $, element, say } from "../dom.js";

async function downloadData() {
  const reply = await api("GET", "/me/export", undefined, { auth: true });
  if (!ok(reply)) return say($("data-status"), problem(reply), "bad");
  const blob = new Blob([JSON.stringify(reply.body, null, 2)], { type: "application/json" });
  const link = element("a", { href: URL.createObjectURL(blob), download: "wordsqd-my-data.json" });
  link.click();
  URL.revokeObjectURL(link.href);
  say($("data-status"), "Your data is downloading.", "ok");
}

async function deleteAccount() {
  const sure = window.confirm(
    "Delete your account? Your profile, name, runs, stats and leagues are erased for good; your " +
      "results stay on the boards as \"deleted player\". This cannot be undone.",
  );
  if (!sure) return;
  const reply = await api("DELETE", "/me", undefined, { auth: true });
  if (!ok(reply)) return say($("data-status"), problem(reply), "bad");
  localStorage.clear();
  sessionStorage.clear();
  location.replace(location.pathname + "#home");
  location.reload();
}

export function bindPlayers() {
  $("download-data").addEventListener("click", downloadData);
  $("delete-account").addEventListener("click", deleteAccount);
}
