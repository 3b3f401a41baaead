// What the page knows and its views share: the login, the player, today's Daily, the run in play,
// the view on screen, and each view's state (a board's cursor, the league on screen, the recap's
// day). Read with get("name"), changed with set({name: value}); a name not listed here is a
// mistake and throws. subscribe(names, fn) runs fn after each set() that changed one of NAMES:
// views talk through these fields, not through each other. A value changes by being replaced (a
// Set or an array changed in place notifies nobody). Nothing runs on import but this object's
// creation.

/** sessionStorage: {run_id, guest, skewMs} of the run in play (this tab only). */
export const RUN_KEY = "wordsqd.run";

const PLAYER = () => ({
  loginLost: false, // a renewal failed: the page says so until the player logs in again
  run: null, // the run in play or just finished, with `guest`
  displayName: null,
  stats: undefined, // GET /me's stats; undefined until read, null when the server has none
  sanctions: [], // GET /me's sanctions: what a moderator decided about this player (SPEC §3e)
  officialDates: new Set(), // Daily dates with an official result of this player (from history)
  unrankedDates: new Map(), // those of them on no board: date -> unranked_reason (SPEC §3b, §3e)
  historyItems: [],
  historyCursor: null,
  historyLoaded: false,
  myChallenges: [], // the challenges this player made (GET /me/challenges)
  reminder: null, // GET /me/reminder: the hour set (null: none) and the server's push key (views/reminder.js)
});

const state = {
  config: { auth: "local" }, // config.json: how to log in
  token: null, // the player's id token (null: a guest)
  refreshToken: null,
  username: "",
  ...PLAYER(),
  daily: null, // GET /daily: the date, the shape, and the game's numbers (scoring, limits)
  countdown: "--:--:--", // the time to the next Daily, as shown (daily.js ticks it)
  skewMs: 0, // the server's clock minus this browser's, learnt from a run's started_at
  serverOffsetMs: 0, // the same, to the second, from the last reply's Date (auth.js: tokens expire on it)
  view: "home", // the view on screen (router.js)
  loginAsked: 0, // counts the asks to log in (views/account.js opens the login on each)
  started: null, // a run another view started or resumes: {text} the game says (if any) as it takes the screen
  roundShown: null, // the round on the game's screen: {key: "run id:round", at: when it showed (this browser's clock; its speed bonus counts from it)}
  completed: null, // the run that last completed on this page (views/archive.js keeps practice scores)
  boardDate: null, // the date of the board on screen
  boardDay: null, // the date another view asks #board to show next ("": today's)
  boardCursor: null, // the next page of the board on screen
  challenge: null, // the challenge on screen (GET /challenges/{id})
  challengeAsked: null, // the id of a challenge another module asks #challenges to open next (null again once read)
  league: null, // the league on screen
  archive: null, // the calendar on screen: {first, today, month, scores: Map(date -> text)}
  recapDate: null, // the day the recap view shows (null: the last closed day)
  recap: null, // the recap on screen: {date, recap, mine, missed}
  practice: null, // a practice asked for from the recap: {date, round (null: the missed ones), what}
  report: null, // a report asked for: {kind: "row"|"word", scope, name, word, guestRun, sent()}
  moderationQueue: { cursor: null, cases: new Map() }, // the moderators' open cases read so far
  moderationLogCursor: null, // the audit log's next page
  moderationCase: null, // the case open in the moderators' view
};

const subscribers = []; // [names (a Set), fn]

function known(name) {
  if (!Object.hasOwn(state, name)) throw new Error(`store: no field "${name}"`);
}

/** The value of NAME. */
export function get(name) {
  known(name);
  return state[name];
}

/** Change the fields FIELDS names, at once; then run, once each, the subscribers of those that
 * changed (a value replaced by another, `!==`). */
export function set(fields) {
  Object.keys(fields).forEach(known);
  const changed = Object.keys(fields).filter((name) => state[name] !== fields[name]);
  Object.assign(state, fields);
  if (!changed.length) return;
  for (const [names, fn] of [...subscribers]) {
    if (changed.some((name) => names.has(name))) fn();
  }
}

/** Run FN after each set() that changes one of NAMES; returns what stops it. */
export function subscribe(names, fn) {
  names.forEach(known);
  const entry = [new Set(names), fn];
  subscribers.push(entry);
  return () => subscribers.splice(subscribers.indexOf(entry), 1);
}

/** Whether a player is logged in (else a guest plays). */
export const loggedIn = () => !!state.token;

/** Forget everything of the player who was logged in: a run belongs to whoever started it. */
export function forgetPlayer() {
  sessionStorage.removeItem(RUN_KEY);
  set(PLAYER());
}
