// The high-contrast theme (css/base.css): on with the system's "more contrast" preference, or
// with the footer's switch, remembered in localStorage ("more" or "normal"; none: the system's).

import { $ } from "../dom.js";

const KEY = "wordsqd.contrast";

function apply(choice) {
  if (choice) document.documentElement.dataset.contrast = choice;
  else delete document.documentElement.dataset.contrast;
  const system = window.matchMedia("(prefers-contrast: more)").matches;
  const on = choice ? choice === "more" : system;
  $("contrast-toggle").setAttribute("aria-pressed", String(on));
}

export function bindTheme() {
  apply(localStorage.getItem(KEY));
  window.matchMedia("(prefers-contrast: more)").addEventListener("change", () => apply(localStorage.getItem(KEY)));
  $("contrast-toggle").addEventListener("click", () => {
    const choice = $("contrast-toggle").getAttribute("aria-pressed") === "true" ? "normal" : "more";
    localStorage.setItem(KEY, choice);
    apply(choice);
  });
}
