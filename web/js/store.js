// What the page knows and its views share: the login, the player, today's Daily, the run in play,
// the view on screen. Read with get("name"), changed with set({name: value}); a name not listed
// here is a mistake and throws. What one view alone keeps (a board's cursor, the round's timer)
// lives in that view's module. Nothing runs on import but this object's creation.

/** sessionStorage: {run_id, guest, skewMs} of the run in play (this tab only). */
export const RUN_KEY = "wordsqd.run";

const state = {
  config: { auth: "local" }, // config.json: how to log in
  token: null, // the player's id token (null: a guest)
  refreshToken: null,
  loginLost: false, // a renewal failed: the page says so until the player logs in again
  username: "",
  displayName: null,
  stats: undefined, // GET /me's stats; undefined until read, null when the server has none
  sanctions: [], // GET /me's sanctions: what a moderator decided about this player (SPEC §3e)
  daily: null, // GET /daily: the date, the shape, and the game's numbers (scoring, limits)
  run: null, // the run in play or just finished, with `guest`
  skewMs: 0, // the server's clock minus this browser's, learnt from a run's started_at
  view: "home",
  officialDates: new Set(), // Daily dates with an official result of this player (from history)
  unrankedDates: new Map(), // those of them on no board: date -> unranked_reason (SPEC §3b, §3e)
  historyItems: [],
  historyCursor: null,
  historyLoaded: false,
  boardDate: null, // the date of the board on screen
  challenge: null, // the challenge on screen (GET /challenges/{id})
};

function known(name) {
  if (!Object.hasOwn(state, name)) throw new Error(`store: no field "${name}"`);
}

/** The value of NAME. */
export function get(name) {
  known(name);
  return state[name];
}

/** Change the fields FIELDS names, at once. */
export function set(fields) {
  Object.keys(fields).forEach(known);
  Object.assign(state, fields);
}

/** Whether a player is logged in (else a guest plays). */
export const loggedIn = () => !!state.token;

/** Forget everything of the player who was logged in: a run belongs to whoever started it. */
export function forgetPlayer() {
  sessionStorage.removeItem(RUN_KEY);
  Object.assign(state, {
    loginLost: false,
    run: null,
    displayName: null,
    stats: undefined,
    sanctions: [],
    officialDates: new Set(),
    unrankedDates: new Map(),
    historyItems: [],
    historyCursor: null,
    historyLoaded: false,
  });
}
