// Leagues (#leagues, SPEC §3c): create, join by code or invite link (`?league=<code>`, shown to
// anyone before joining), a league's board by date, its members, a new code, leaving.

import { api, ok, problem } from "../api.js";
import { $, copyLink, element, say } from "../dom.js";
import { invitationLine, inviteLink, JOIN_PARAM, standing } from "../lib/leagues.js";
import { boardControls, boardRows } from "../parts/board.js";
import { mountNumbers } from "../parts/numbers.js";
import { onShow } from "../router.js";
import { get, set } from "../store.js";

async function loadLeagues() {
  const guest = !get("token");
  $("leagues-login").hidden = !guest;
  $("league-create").hidden = $("league-join").hidden = guest;
  const list = $("league-list");
  list.replaceChildren();
  const code = new URLSearchParams(location.search).get(JOIN_PARAM);
  // The join form holds the link's code at once, not after the invitation's reply: a player who
  // taps Join meanwhile joins with it.
  if (code && !guest) $("league-code").value = code;
  await showInvitation(code);
  if (guest) return;
  const reply = await api("GET", "/me/leagues", undefined, { auth: true });
  if (!ok(reply)) return say($("leagues-status"), problem(reply), "bad");
  for (const league of reply.body.items) {
    const button = element("button", { type: "button", class: "ghost" }, `${league.name} (${league.members})`);
    button.addEventListener("click", () => openLeague(league));
    list.append(element("li", {}, button));
  }
  if (get("league")) await openLeague(get("league"));
}

/** An invite link's league, shown to anyone: its name, creator, members and today's leader; a
 * guest is asked to log in, a player joins with one tap. */
async function showInvitation(code) {
  const card = $("league-invite");
  if (!code) {
    card.hidden = true;
    return;
  }
  const reply = await api("GET", `/leagues/invitations/${encodeURIComponent(code)}`);
  if (!ok(reply)) {
    card.hidden = true;
    return say($("leagues-status"), "That invite link no longer works: ask for a new one.", "bad");
  }
  $("league-invite-name").textContent = reply.body.name;
  $("league-invite-line").textContent = invitationLine(reply.body);
  $("league-invite-join").textContent = get("token") ? `Join ${reply.body.name}` : "Log in to join";
  card.hidden = false;
}

async function acceptInvitation() {
  if (!get("token")) {
    set({ loginAsked: get("loginAsked") + 1 });
    return;
  }
  $("league-code").value = new URLSearchParams(location.search).get(JOIN_PARAM) || "";
  await joinLeague();
}

async function openLeague(league) {
  set({ league });
  $("league-card").hidden = false;
  $("league-title").textContent = league.name;
  $("league-link").value = inviteLink(location.origin, league.code);
  $("league-rotate").hidden = !league.creator;
  const day = $("league-day").value;
  const query = day ? `?date=${encodeURIComponent(day)}` : "";
  const reply = await api("GET", `/leagues/${encodeURIComponent(league.league_id)}/board${query}`, undefined, {
    auth: true,
  });
  if (!ok(reply)) return say($("leagues-status"), problem(reply), "bad");
  const board = reply.body;
  $("league-standing").textContent = standing(board);
  // A row's report names the board's date: a league board is its date's Daily.
  boardRows($("league-board"), board.rows, { closed: board.status === "closed", scope: board.date });
  const members = $("league-members");
  members.replaceChildren(
    ...board.members.map((member) => {
      const item = element("li", {}, member.display_name + (member.creator ? " (creator)" : "") + (member.you ? " (you)" : ""));
      if (league.creator && !member.you) {
        const remove = element("button", { type: "button", class: "ghost" }, "Remove");
        remove.addEventListener("click", () => leave(member.member_id));
        item.append(" ", remove);
      }
      return item;
    }),
  );
}

async function leave(member) {
  const reply = await api("DELETE", `/leagues/${encodeURIComponent(get("league").league_id)}/members/${member}`, undefined, {
    auth: true,
  });
  if (!ok(reply)) return say($("leagues-status"), problem(reply), "bad");
  if (member === "me") {
    set({ league: null });
    $("league-card").hidden = true;
  }
  loadLeagues();
}

async function createLeague(event) {
  event.preventDefault();
  const reply = await api("POST", "/leagues", { name: $("league-name").value }, { auth: true });
  if (!ok(reply)) return say($("leagues-status"), problem(reply), "bad");
  say($("leagues-status"), `${reply.body.name} is ready: share its invite link.`, "ok");
  set({ league: reply.body });
  loadLeagues();
}

async function joinLeague(event) {
  if (event) event.preventDefault();
  const text = $("league-code").value.trim();
  const code = text.includes(JOIN_PARAM + "=") ? new URL(text, location.origin).searchParams.get(JOIN_PARAM) : text;
  const reply = await api("POST", "/leagues/join", { code }, { auth: true });
  if (!ok(reply)) return say($("leagues-status"), problem(reply), "bad");
  say($("leagues-status"), `You are in ${reply.body.name}.`, "ok");
  history.replaceState(null, "", location.pathname + "#leagues");
  $("league-invite").hidden = true;
  set({ league: reply.body });
  loadLeagues();
}

async function rotateCode() {
  const reply = await api("POST", `/leagues/${encodeURIComponent(get("league").league_id)}/code`, undefined, { auth: true });
  if (!ok(reply)) return say($("leagues-status"), problem(reply), "bad");
  say($("leagues-status"), "A new invite code: the old link no longer lets anyone in.", "ok");
  openLeague(reply.body);
}

export function bindLeagues() {
  boardControls($("league-board"));
  mountNumbers($("view-leagues"));
  $("league-create").addEventListener("submit", createLeague);
  $("league-join").addEventListener("submit", joinLeague);
  $("league-copy").addEventListener("click", () => copyLink($("league-link"), $("leagues-status")));
  $("league-invite-join").addEventListener("click", acceptInvitation);
  $("league-rotate").addEventListener("click", rotateCode);
  $("league-leave").addEventListener("click", () => leave("me"));
  $("league-day").addEventListener("change", () => get("league") && openLeague(get("league")));
  onShow("leagues", loadLeagues);
}
