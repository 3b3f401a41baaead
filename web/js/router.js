// The views: one <section id="view-NAME"> shown at a time, chosen by the URL hash (#home, #play,
// #board, #me, #challenges, #leagues, #archive, #moderation, #recap). A view module says what to do when
// its view is shown with onShow(); the view on screen is the store's `view`.

import { $ } from "./dom.js";
import { get, set } from "./store.js";

const VIEWS = ["home", "game", "end", "board", "me", "challenges", "leagues", "archive", "moderation", "recap"];
const shown = new Map(); // view -> what runs when it is shown

/** Run CALLBACK each time the view NAME is shown. */
export function onShow(name, callback) {
  shown.set(name, callback);
}

function showView(name) {
  if (!VIEWS.includes(name)) name = "home";
  set({ view: name });
  for (const view of VIEWS) $("view-" + view).hidden = view !== name;
  const tab = name === "game" || name === "end" ? "home" : name;
  for (const link of document.querySelectorAll("[data-view-link]")) {
    if (link.dataset.viewLink === tab) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const callback = shown.get(name);
  if (callback) callback();
}

/** Show the view the address names (#play: the run in play, or its end). */
export function route() {
  const hash = location.hash.replace(/^#/, "") || "home";
  if (hash === "play") {
    const run = get("run");
    if (!run) return showView("home");
    return showView(run.status === "active" ? "game" : "end");
  }
  showView(hash);
}

/** Show a view now and put it in the address (pushState fires no hashchange; Back does). */
export function go(hash) {
  if (location.hash !== "#" + hash) history.pushState(null, "", location.pathname + location.search + "#" + hash);
  route();
}
