// A run in play (#play): a run started or resumed elsewhere (the store's `started`), answering
// and skipping (one at a time, each naming its slot), and the game card: round, tiles, attempts,
// timer, speed bonus.
// The timer counts to the server's deadline; at zero one read lets the server complete the run.
// The run is the store's `run` (run.js keeps it): the card is drawn again each time it changes;
// the round on screen, and when it appeared, is the store's `roundShown` (the speed bonus counts
// from it). The speed meter shows once the run's rounds carry `speed_bonus` (a server that scores
// speed). What only this screen keeps (a reply on its way, the announcements made, the perfect
// mark's timer) is one object bindGame makes, handed to the functions that need it.

import { api, problem } from "../api.js";
import { tickCountdown } from "../daily.js";
import { $, say, tile } from "../dom.js";
import { clockText, roundSquare, speedBonusAt } from "../lib/game.js";
import { OUTCOME_WORDS, reasonText, roundAnnouncement, timeAnnouncement } from "../lib/words.js";
import { go } from "../router.js";
import { keepRun, runPath } from "../run.js";
import { get, set, subscribe } from "../store.js";

const TIMER_ANNOUNCEMENTS = [60, 30, 10]; // seconds left, said by the live region

/** This screen's own bookkeeping, read by no other module (one per bindGame). */
const screenState = () => ({
  busy: false, // an answer or skip is on its way: one at a time, so each names the right slot
  refetching: false, // the run is being read once its time is up
  announced: new Set(), // timer announcements made ("run id:seconds")
  markTimer: 0, // the perfect mark's timer
});

/** Whether RUN's server scores speed: its rounds carry `speed_bonus` (SPEC §3). */
const scoresSpeed = (run) => (run.history || []).some((round) => "speed_bonus" in round);

async function send(screen, suffix, body) {
  screen.busy = true;
  renderButtons(screen);
  try {
    return await api("POST", runPath(get("run")) + suffix, body, { auth: !get("run").guest });
  } finally {
    screen.busy = false;
    renderButtons(screen);
  }
}

async function submitWord(screen, event) {
  event.preventDefault();
  const run = get("run");
  if (!run || run.status !== "active" || screen.busy) return;
  // The server judges the exact text and does not trim: a stray space should not cost an attempt.
  const word = $("word").value.trim();
  if (secondsLeft(run) === 0) {
    // Past the deadline the server would refuse it (409): read the run, which completes it.
    say($("status"), "Time is up.", "bad");
    tick(screen);
    return;
  }
  if (!word) {
    say($("status"), "Type a word first.", "bad");
    $("word").focus();
    return;
  }
  const reply = await send(screen, "/answers", { round: run.round, attempt: run.attempt, word });
  let rejected = false;
  if (reply.status === 200) {
    const result = reply.body;
    const next = result.run;
    const shown = word.toUpperCase();
    if (result.accepted) {
      const combo = next.combo > 1 ? `, combo ×${next.combo}` : "";
      const speed = result.speed_bonus ? ` (${result.speed_bonus} for speed)` : "";
      say($("status"), `Accepted: ${shown}, +${result.points} points${speed}${combo}.`, "ok");
      if (run.attempt === 1) markPerfect(screen);
      if ($("word").value.trim() === word) $("word").value = ""; // keep what was typed meanwhile
    } else {
      const why = reasonText(result.reason, run.prompt, run.forbidden, word, get("daily") && get("daily").limits);
      const goesOn = next.status === "active" && next.round === run.round;
      const after = goesOn ? `${next.attempts_left} attempt${next.attempts_left === 1 ? "" : "s"} left.` : `Round ${run.round} lost.`;
      say($("status"), `Rejected: ${shown}. ${why} ${after}`, "bad");
      rejected = goesOn; // the word stays in the box, selected, to fix or retype
      if (!goesOn && $("word").value.trim() === word) $("word").value = "";
      shake();
    }
  }
  afterReply(reply, run);
  if (rejected && get("view") === "game") $("word").select();
}

/** A short shake of the word box on a rejection (none under prefers-reduced-motion: see style.css). */
function shake() {
  const box = $("word");
  box.classList.remove("shake");
  void box.offsetWidth; // restart the animation
  box.classList.add("shake");
}

/** A mark beside the prompt for a word found at the first try. */
function markPerfect(screen) {
  const mark = $("perfect-mark");
  mark.hidden = false;
  mark.classList.remove("pop");
  void mark.offsetWidth;
  mark.classList.add("pop");
  clearTimeout(screen.markTimer);
  screen.markTimer = setTimeout(() => {
    mark.hidden = true;
  }, 1500);
}

async function skipRound(screen) {
  const run = get("run");
  if (!run || run.status !== "active" || screen.busy) return;
  if (secondsLeft(run) === 0) {
    tick(screen);
    return;
  }
  const reply = await send(screen, "/skip", { round: run.round });
  if (reply.status === 200) say($("status"), `Round ${run.round} skipped: combo reset.`);
  afterReply(reply, run);
}

/** Every reply to an answer or skip carries the run: show it, so the page follows the server. */
function afterReply(reply, sentFor) {
  if (!get("run") || get("run").run_id !== sentFor.run_id) return; // logged out, or another run, meanwhile
  if (reply.body && reply.body.run) keepRun(reply.body.run, sentFor.guest);
  const run = get("run");
  if (reply.status === 409) {
    say(
      $("status"),
      run.status === "completed"
        ? run.ended_by === "expired" ? "Time is up: that was not counted." : "This run is over: that was not counted."
        : "Not counted: the run had already moved on (played in another tab?). Here is where it is now.",
      "bad",
    );
  } else if (reply.status !== 200) {
    say($("status"), problem(reply), "bad");
  }
  if (run.status === "completed") go("play");
  else {
    $("word").focus();
    keepAnswerInView(); // the verdict may have grown: keep it and the box above the keyboard
  }
}

function renderButtons(screen) {
  $("submit-word").disabled = screen.busy;
  $("skip").disabled = screen.busy;
}

function renderRun(screen) {
  const run = get("run");
  if (!run) return;
  if (run.status === "completed") {
    if (get("view") === "game") go("play"); // views/end.js has drawn it
    return;
  }
  $("run-label").textContent = run.kind === "challenge"
    ? run.official ? "Challenge" : "Challenge · practice"
    : run.guest ? "Daily · guest" : run.official ? "Daily · official" : "Daily · practice";
  $("round").textContent = run.round;
  $("rounds").textContent = run.rounds;
  $("score").textContent = run.score;
  $("combo").textContent = run.combo > 1 ? `×${run.combo}` : run.combo;
  const letters = (run.prompt || "").split("");
  const tiles = $("prompt-tiles");
  if (tiles.dataset.prompt !== `${run.round}:${run.prompt}`) {
    tiles.dataset.prompt = `${run.round}:${run.prompt}`;
    tiles.replaceChildren(...letters.map(tile));
  }
  const key = `${run.run_id}:${run.round}`;
  if (!get("roundShown") || get("roundShown").key !== key) {
    // A new round: its speed bonus counts from now (round 1 from the run's start, on the server's
    // clock), and the live region says its letters.
    set({ roundShown: { key, at: run.round === 1 ? Date.parse(run.started_at) - get("skewMs") : Date.now() } });
    $("announce").textContent = roundAnnouncement(run);
  }
  $("prompt-text").textContent = letters.join(", ");
  $("forbidden-banner").hidden = !run.forbidden;
  $("prompt-label").hidden = !!run.forbidden; // the banner takes the label's place (style.css: .round-note)
  $("forbidden-tiles").replaceChildren(...(run.forbidden || "").split("").map(tile));
  $("forbidden-tiles").setAttribute("aria-label", "Forbidden letters: " + (run.forbidden || "").split("").join(", "));
  $("attempts-left").textContent = run.attempts_left;
  const dots = [];
  const limits = get("daily") && get("daily").limits;
  const attempts = Math.max(run.attempts_left, (limits && limits.attempts_per_round) || 0);
  for (let i = 0; i < attempts; i += 1) {
    const dot = document.createElement("span");
    dot.className = "dot" + (i < attempts - run.attempts_left ? " used" : "");
    dots.push(dot);
  }
  $("attempt-dots").replaceChildren(...dots);
  renderTrail(run);
  renderButtons(screen);
  tick(screen);
}

function renderTrail(run) {
  const items = [];
  for (const round of run.history || []) {
    if (!round.outcome) continue;
    const li = document.createElement("li");
    const square = document.createElement("span");
    square.textContent = roundSquare(round);
    square.setAttribute("role", "img");
    square.setAttribute("aria-label", `Round ${round.round}: ${OUTCOME_WORDS[round.outcome]}, ${round.points} points`);
    li.append(square);
    items.push(li);
  }
  $("trail").replaceChildren(...items);
}

/** Seconds until the run's deadline, on the server's clock as this page knows it. */
function secondsLeft(run) {
  return Math.max(0, (Date.parse(run.deadline) - (Date.now() + get("skewMs"))) / 1000);
}

/** The timer counts to the server's deadline; once it passes, one read lets the server complete the run. */
function tick(screen) {
  tickCountdown();
  const run = get("run");
  if (!run || run.status !== "active") return;
  const total = (Date.parse(run.deadline) - Date.parse(run.started_at)) / 1000;
  const left = secondsLeft(run);
  $("time-left").textContent = clockText(Math.ceil(left));
  for (const mark of TIMER_ANNOUNCEMENTS) {
    const key = `${run.run_id}:${mark}`;
    if (left <= mark && left > mark - 5 && !screen.announced.has(key)) {
      screen.announced.add(key);
      $("announce").textContent = timeAnnouncement(mark);
    } else if (left <= mark - 5) {
      screen.announced.add(key); // a run resumed later says nothing about times gone by
    }
  }
  const speed = scoresSpeed(run);
  if ($("speed").hidden === speed) {
    $("speed").hidden = !speed;
    keepAnswerInView(); // the attempts line may have grown: keep the box above the keyboard
  }
  const shownAt = get("roundShown") ? get("roundShown").at : Date.now();
  const bonus = speedBonusAt((Date.now() - shownAt) / 1000, get("daily") && get("daily").scoring);
  if (speed && bonus !== null) $("speed-now").textContent = `+${bonus}`;
  $("time-left").parentElement.classList.toggle("low", left <= 15);
  $("timebar-fill").parentElement.classList.toggle("low", left <= 15);
  $("timebar-fill").style.width = `${total > 0 ? Math.min(100, (left / total) * 100) : 0}%`;
  if (left === 0 && !screen.refetching) {
    screen.refetching = true;
    api("GET", runPath(run), undefined, { auth: !run.guest }).then((reply) => {
      // keepRun shows the end screen if the player is on the game screen; elsewhere it waits.
      if (reply.status === 200 && get("run") && get("run").run_id === run.run_id) keepRun(reply.body, run.guest);
      setTimeout(() => {
        screen.refetching = false;
      }, 2000);
    });
  }
}

function keepAnswerInView() {
  if (get("view") !== "game" || document.activeElement !== $("word")) return;
  const height = window.visualViewport ? window.visualViewport.height : window.innerHeight;
  const form = $("answer-form").getBoundingClientRect();
  if (form.bottom > height || $("status").getBoundingClientRect().top < 0) {
    $("answer-form").scrollIntoView({ block: "end" });
  }
}

/** The game's buttons and keys, and the timer (four ticks a second). */
export function bindGame() {
  const screen = screenState();
  $("answer-form").addEventListener("submit", (event) => submitWord(screen, event));
  $("skip").addEventListener("click", () => skipRound(screen));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && get("view") === "game" && get("run") && get("run").status === "active") {
      event.preventDefault();
      skipRound(screen);
    }
  });
  // On a phone the keyboard takes the lower half: keep the word box, and the verdict and attempts
  // above it, in what is left of the screen.
  $("word").addEventListener("focus", keepAnswerInView);
  if (window.visualViewport) window.visualViewport.addEventListener("resize", keepAnswerInView);
  subscribe(["run"], () => renderRun(screen));
  subscribe(["started"], () => { // a run another view started (or resumes): shown here, with its word
    if (get("started").text !== undefined) say($("status"), get("started").text);
    go("play");
    $("word").focus();
  });
  setInterval(() => tick(screen), 250);
}
