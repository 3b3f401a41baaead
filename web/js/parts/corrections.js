// A final board's corrections (SPEC §4, docs/moderation.md): a decision made after a board became
// final changes none of its rows and is listed instead. A final page links its list
// (`"corrections"`: a path); this shows it under the board, read when the player opens it.

import { api, problem } from "../api.js";
import { $, element } from "../dom.js";

const ACTIONS = {
  void_result: "result voided",
  rank_ban: "kept off the boards",
  ban: "banned",
  hide_name: "name hidden",
};

/** Under TABLE's board: a "Corrections" section for a final board whose page links PATH (null:
 * none, and any section shown before is taken away). */
export function showCorrections(table, path) {
  const id = table.id + "-corrections";
  const old = $(id);
  if (old && old.dataset.path === path) return;
  if (old) old.remove();
  if (!path) return;
  const list = element("ul", { class: "corrections-list" });
  const box = element("details", { id, class: "corrections" }, element("summary", {}, "Corrections after this board became final"), list);
  box.dataset.path = path;
  box.addEventListener("toggle", () => box.open && !list.childElementCount && fill(list, path));
  table.closest(".table-wrap").after(box);
}

async function fill(list, path) {
  const reply = await api("GET", path);
  if (reply.status !== 200) {
    list.replaceChildren(element("li", {}, "Unavailable: " + problem(reply)));
    return;
  }
  const items = reply.body.items;
  if (!items.length) {
    list.replaceChildren(element("li", {}, "None: every row stands as it was when the board became final."));
    return;
  }
  list.replaceChildren(
    ...items.map((item) => {
      const when = new Date(item.decided_at).toLocaleDateString([], { dateStyle: "medium" });
      const rank = item.rank ? `rank ${item.rank}, ` : "";
      return element("li", {}, `${rank}${item.display_name}: ${ACTIONS[item.action] || item.action} (${item.reason_code}, ${when})`);
    }),
  );
}
