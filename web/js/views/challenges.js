// Challenges (#challenges): make one, open one from its link or code, play it, its board, and
// the challenges this player made (the store's `myChallenges`; the one on screen is `challenge`).

import { api, ok, problem } from "../api.js";
import { ensureFreshToken } from "../auth.js";
import { $, copyLink, say } from "../dom.js";
import { challengeIdFrom, challengeLink } from "../lib/game.js";
import { invitationText } from "../lib/words.js";
import { boardControls, boardRows, catchUp, showsMine } from "../parts/board.js";
import { showCorrections } from "../parts/corrections.js";
import { onShow } from "../router.js";
import { keepRun, learnSkew } from "../run.js";
import { get, set } from "../store.js";

async function startChallenge() {
  const challenge = get("challenge");
  if (!challenge) return;
  if (get("token") && !(await ensureFreshToken())) return;
  if (!get("token")) {
    set({ loginAsked: get("loginAsked") + 1 });
    return;
  }
  const sentAt = Date.now();
  const reply = await api("POST", `/challenges/${encodeURIComponent(challenge.challenge_id)}/runs`, undefined, {
    auth: true,
  });
  if (!ok(reply)) {
    say($("challenge-status"), "The challenge could not start: " + problem(reply), "bad");
    return;
  }
  if (reply.body.kind !== "challenge" || reply.body.challenge_id !== challenge.challenge_id) {
    say($("challenge-status"), "The server answered with another run: not started.", "bad");
    return;
  }
  learnSkew(reply, sentAt);
  keepRun(reply.body, false);
  const text = reply.status === 200 ? "Welcome back: your run goes on." : reply.body.official ? "Challenge on: your first finished run is your result. Go!" : "Practice run: go!";
  set({ started: { text } });
}

function renderChallengeForm() {
  const player = !!get("token");
  const limits = get("daily") && get("daily").limits;
  if (limits) { // GET /daily's limits of a challenge's shape (SPEC §3a)
    const { challenge_rounds_min: min, challenge_rounds_max: max, challenge_forbidden_rounds_max: banned } = limits;
    fillSelect($("challenge-rounds"), min, max, limits.challenge_rounds_default);
    fillSelect($("challenge-forbidden"), 0, banned, limits.challenge_forbidden_rounds_default);
  }
  $("challenge-form").hidden = !player;
  $("challenge-login-hint").hidden = player;
  renderChallenge();
}

function fillSelect(select, from, to, selected) {
  if (select.options.length) return;
  for (let n = from; n <= to; n += 1) select.add(new Option(String(n), String(n), n === selected, n === selected));
}

async function createChallenge(event) {
  event.preventDefault();
  const body = {
    rounds: Number($("challenge-rounds").value),
    forbidden_rounds: Number($("challenge-forbidden").value),
  };
  const reply = await api("POST", "/challenges", body, { auth: true });
  if (reply.status !== 201) {
    say($("challenge-status"), "No challenge created: " + problem(reply), "bad");
    return;
  }
  set({ challenge: reply.body });
  loadMyChallenges();
  history.replaceState(null, "", `?challenge=${encodeURIComponent(reply.body.challenge_id)}#challenges`);
  say($("challenge-status"), "Challenge created: share the link, then play it yourself.", "ok");
  renderChallenge();
}

async function openChallenge(id, attempt = 0) {
  const reply = await api("GET", `/challenges/${encodeURIComponent(id)}`);
  if (reply.status !== 200) {
    set({ challenge: null });
    say($("challenge-status"), reply.status === 404 ? "There is no challenge with that code." : problem(reply), "bad");
    renderChallenge();
    return;
  }
  set({ challenge: reply.body });
  say($("challenge-status"), "");
  renderChallenge();
  // The player's own result, just in, may not be on the board yet (see BOARD_CATCH_UP_MS).
  const run = get("run");
  const justFinished = run && run.kind === "challenge" && run.challenge_id === id && run.official && run.status === "completed";
  if (justFinished && reply.body.status === "live" && !reply.body.next_cursor && !showsMine(reply.body.rows)) {
    const stillWanted = () => get("view") === "challenges" && get("challenge") && get("challenge").challenge_id === id;
    catchUp(attempt, stillWanted, () => openChallenge(id, attempt + 1));
  }
}

/** The challenges this player made (GET /me/challenges), newest first, for the list. */
async function loadMyChallenges() {
  let items = [];
  if (get("token")) {
    const reply = await api("GET", "/me/challenges", undefined, { auth: true });
    if (reply.status === 200) items = reply.body.items;
  }
  set({ myChallenges: items });
  renderMyChallenges();
}

function renderMyChallenges() {
  const items = get("token") ? get("myChallenges") : [];
  $("my-challenges-card").hidden = !items.length;
  $("my-challenges").replaceChildren(...items.map((item) => {
    const li = document.createElement("li");
    const open = document.createElement("a");
    open.href = challengeLink(location.origin, item.challenge_id);
    const made = new Date(item.created_at).toLocaleDateString([], { month: "short", day: "numeric" });
    open.textContent = `${item.rounds} rounds, made ${made}`;
    open.addEventListener("click", (event) => {
      event.preventDefault();
      history.replaceState(null, "", `?challenge=${encodeURIComponent(item.challenge_id)}#challenges`);
      openChallenge(item.challenge_id).then(() => $("challenge-card").scrollIntoView({ block: "start" }));
    });
    const when = document.createElement("span");
    when.className = "hint";
    when.textContent = item.open ? " · open, see its board" : " · closed, see its final board";
    li.append(open, when);
    if (get("challenge") && get("challenge").challenge_id === item.challenge_id) li.className = "current";
    return li;
  }));
}

function renderChallenge() {
  const challenge = get("challenge");
  $("challenge-card").hidden = !challenge;
  renderMyChallenges();
  if (!challenge) return;
  const forbidden = challenge.forbidden_rounds;
  $("challenge-title").textContent = invitationText(challenge, get("token") ? get("displayName") : null);
  $("challenge-kicker").textContent = challenge.open ? "Challenge · open" : "Challenge · closed";
  const closes = new Date(challenge.closes_at).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  $("challenge-shape").textContent =
    `${challenge.rounds} rounds (${forbidden ? `the last ${forbidden} forbidden` : "no forbidden rounds"}), ` +
    `${challenge.time_limit_seconds} seconds. ` + (challenge.open ? `Open until ${closes}.` : "Closed.");
  $("challenge-link").value = challengeLink(location.origin, challenge.challenge_id);
  const play = $("challenge-play");
  play.disabled = !challenge.open;
  play.textContent = !challenge.open ? "This challenge has closed" : get("token") ? "Play this challenge" : "Log in to play";
  if (challenge.creator_name && typeof challenge.creator_score !== "number" && challenge.creator_name !== get("displayName")) {
    $("challenge-shape").textContent += ` ${challenge.creator_name} has not played it yet: set the score to beat.`;
  }
  $("challenge-board-status").textContent = challenge.status;
  boardRows($("challenge-board"), challenge.rows, { closed: challenge.status !== "live", scope: challenge.challenge_id });
  showCorrections($("challenge-board"), challenge.corrections);
}

export function bindChallenges() {
  boardControls($("challenge-board"));
  $("challenge-form").addEventListener("submit", createChallenge);
  $("challenge-open-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const id = challengeIdFrom($("challenge-open").value);
    if (!id) {
      say($("challenge-status"), "That is not a challenge link or code.", "bad");
      return;
    }
    history.replaceState(null, "", `?challenge=${encodeURIComponent(id)}#challenges`);
    openChallenge(id);
  });
  $("challenge-play").addEventListener("click", startChallenge);
  $("challenge-copy").addEventListener("click", () => copyLink($("challenge-link"), $("challenge-status")));
  onShow("challenges", () => {
    // Asked by another module (the end of a challenge run, main.js for a shared link): answered,
    // back to null, once read (main.js marks the page ready then).
    const asked = get("challengeAsked");
    if (asked !== null) {
      openChallenge(asked).finally(() => {
        if (get("challengeAsked") === asked) set({ challengeAsked: null });
      });
    }
    renderChallengeForm();
    loadMyChallenges();
  });
}
