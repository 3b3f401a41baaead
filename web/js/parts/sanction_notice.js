// A sanctioned player is told (SPEC §3e): what, why in the moderator's words, until when and how
// to appeal, and they appeal from there (POST /me/appeals, once per sanction). Each view that says
// it (home, board, me) mounts a notice into a box of its own markup; the notice draws itself from
// the store's `token` and `sanctions` (GET /me's, player.js reads them) and, once an appeal is
// sent, puts the sanction the server answered back into the store, where every notice hears it.

import { api, ok, problem } from "../api.js";
import { element, say } from "../dom.js";
import { holding, sanctionText } from "../lib/sanctions.js";
import { get, set, subscribe } from "../store.js";

/** An appeal of SANCTION: what the player has typed is kept in DRAFTS (by sanction), so a notice
 * drawn again keeps it; its length is GET /daily's `reason_max_length`. */
function appealForm(sanction, drafts) {
  const reason = element("textarea", { rows: "2", "aria-label": "Why the decision is wrong" });
  const longest = get("daily")?.limits?.reason_max_length;
  if (typeof longest === "number") reason.maxLength = longest;
  reason.value = drafts.get(sanction.sanction) || "";
  reason.addEventListener("input", () => drafts.set(sanction.sanction, reason.value));
  const send = element("button", { type: "button", class: "secondary small" }, "Send my appeal");
  const status = element("p", { class: "status", role: "status" });
  send.addEventListener("click", async () => {
    const text = reason.value.trim();
    if (!text) return say(status, "Say why the decision is wrong first.", "bad");
    const reply = await api("POST", "/me/appeals", { sanction: sanction.sanction, reason: text }, { auth: true });
    if (!ok(reply)) return say(status, "Not sent: " + problem(reply), "bad");
    drafts.delete(sanction.sanction);
    set({ sanctions: get("sanctions").map((s) => (s.sanction === sanction.sanction ? reply.body.sanction : s)) });
  });
  return element(
    "div",
    { class: "appeal-form", "data-appeal": sanction.sanction },
    element("label", {}, "Appeal: ", reason),
    send,
    status,
  );
}

/** BOX (a view's own, hidden while there is nothing to say) says the sanctions that hold, from
 * now on. A notice whose sanctions are as it drew them is left alone: GET /me is read again on a
 * view's show, and a redraw would take the focus (and the caret) from an appeal being typed. One
 * drawn again keeps the focus in its appeal box. */
export function mountSanctionNotice(box) {
  const drafts = new Map();
  const render = () => {
    const list = get("token") ? holding(get("sanctions"), Date.now()) : [];
    const drawn = JSON.stringify(list);
    if (box.dataset.drawn === drawn) return;
    const typing = box.contains(document.activeElement) ? document.activeElement : null;
    const focused = typing && typing.closest("[data-appeal]")?.dataset.appeal;
    box.dataset.drawn = drawn;
    box.replaceChildren();
    box.hidden = !list.length;
    for (const sanction of list) {
      const lines = sanctionText(sanction, undefined).map((text) => element("p", {}, text));
      box.append(element("div", { class: "sanction", "data-sanction": sanction.sanction }, ...lines));
      if (sanction.appeal === "none") box.append(appealForm(sanction, drafts));
    }
    const again = focused && box.querySelector(`[data-appeal="${CSS.escape(focused)}"] textarea`);
    if (again) {
      again.focus();
      again.setSelectionRange(again.value.length, again.value.length);
    }
  };
  subscribe(["token", "sanctions"], render);
  render();
}
