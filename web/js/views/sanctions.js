// A sanctioned player is told (SPEC §3e): what, why in the moderator's words, until when and how
// to appeal, on the home page, beside their board row and above their history; and they appeal
// from there (POST /me/appeals, once per sanction). GET /me's `sanctions` (player.js keeps
// them; views/home.js keeps a banned player's start button from promising a run it would refuse).

import { api, ok, problem } from "../api.js";
import { $, element, say } from "../dom.js";
import { holding, sanctionText } from "../lib/sanctions.js";
import { get, set, subscribe } from "../store.js";

// The notices' boxes, one in each view that says it (index.html).
const notices = () => ["sanction-home", "sanction-board", "sanction-me"].map($);

// What the player has typed into an appeal, by sanction: a notice drawn again (the profile read
// again on a view's show) keeps it.
const drafts = new Map();

function appealForm(sanction, box) {
  const reason = element("textarea", { maxlength: "200", rows: "2", "aria-label": "Why the decision is wrong" });
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
    box,
  );
}

/** Every notice, from the sanctions GET /me last said (none when logged out). A notice whose
 * sanctions are as it drew them is left alone: GET /me is read again on a view's show, and a
 * redraw would take the focus (and the caret) from an appeal being typed. One drawn again keeps
 * the focus in its appeal box. */
export function renderSanctions() {
  const now = Date.now();
  const list = get("token") ? holding(get("sanctions"), now) : [];
  const drawn = JSON.stringify(list);
  for (const box of notices()) {
    if (box.dataset.drawn === drawn) continue;
    const typing = box.contains(document.activeElement) ? document.activeElement : null;
    const focused = typing && typing.closest("[data-appeal]")?.dataset.appeal;
    box.dataset.drawn = drawn;
    box.replaceChildren();
    box.hidden = !list.length;
    for (const sanction of list) {
      const lines = sanctionText(sanction, undefined).map((text) => element("p", {}, text));
      box.append(element("div", { class: "sanction", "data-sanction": sanction.sanction }, ...lines));
      if (sanction.appeal === "none") box.append(appealForm(sanction, element("span")));
    }
    const again = focused && box.querySelector(`[data-appeal="${CSS.escape(focused)}"] textarea`);
    if (again) {
      again.focus();
      again.setSelectionRange(again.value.length, again.value.length);
    }
  }
}

export function bindSanctions() {
  subscribe(["token", "sanctions"], renderSanctions); // player.js reads them with GET /me
}
