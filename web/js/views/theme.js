// The high-contrast theme (css/contrast.css, written once): on with the system's "more contrast"
// preference (the sheet's own media query), or with the footer's switch, which sets the sheet's
// media to all or none and is remembered in localStorage ("more" or "normal"; none: the system's).

import { $ } from "../dom.js";

const KEY = "wordsqd.contrast";
const SYSTEM = "(prefers-contrast: more)"; // index.html links css/contrast.css under this

function apply(choice) {
  $("contrast-sheet").media = choice === "more" ? "all" : choice === "normal" ? "not all" : SYSTEM;
  const on = choice ? choice === "more" : window.matchMedia(SYSTEM).matches;
  $("contrast-toggle").setAttribute("aria-pressed", String(on));
}

export function bindTheme() {
  apply(localStorage.getItem(KEY));
  window.matchMedia(SYSTEM).addEventListener("change", () => apply(localStorage.getItem(KEY)));
  $("contrast-toggle").addEventListener("click", () => {
    const choice = $("contrast-toggle").getAttribute("aria-pressed") === "true" ? "normal" : "more";
    localStorage.setItem(KEY, choice);
    apply(choice);
  });
}
