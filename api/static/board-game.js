// The game of cribbage as a score keeper plays it (../shared/RULES.md, "Game" and "Muggins"): pure
// functions, state in, state out, nothing drawn and nothing stored here (board.js does both).
// A game is its setup and the list of everything scored; the pegs, the dealer, the winner and what
// undo takes back are all read from that list, so undo is dropping its last entry.

export const GAME_HOLES = [121, 61];
export const PLAYERS = [2, 3, 4]; // 4: two sides of partners, who share one track

export class RuleError extends Error {
  constructor(message) {
    super(message);
    this.name = "RuleError";
  }
}

const DEFAULT_NAMES = ["Player 1", "Player 2", "Player 3", "Player 4"];

/** A new game: `names` one per seat, clockwise; the first dealer is the low cut. */
export function newGame({ players = 2, target = 121, muggins = false, names = [], firstDealer = 0 } = {}) {
  if (!PLAYERS.includes(players)) throw new RuleError("A game is for 2, 3 or 4 players.");
  if (!GAME_HOLES.includes(target)) throw new RuleError("A game goes to 121 or 61.");
  if (!(firstDealer >= 0 && firstDealer < players)) {
    throw new RuleError("The first dealer sits at the table.");
  }
  const seatNames = DEFAULT_NAMES.slice(0, players).map((name, seat) => (names[seat] || "").trim() || name);
  return { setup: { players, target, muggins: !!muggins, names: seatNames, firstDealer }, events: [] };
}

/** Four players are two sides, seats 0 and 2 against 1 and 3; otherwise each player is a side. */
export const sideOf = (setup, seat) => (setup.players === 4 ? seat % 2 : seat);
export const sideCount = (setup) => (setup.players === 4 ? 2 : setup.players);

/** "Ann" or, for partners, "Ann & Cy". */
export function sideName(setup, side) {
  return setup.names.filter((_, seat) => sideOf(setup, seat) === side).join(" & ");
}

/** Skunk (RULES.md, "Game"): to 121 the loser below 91, double below 61; to 61, below 31. */
export function skunkOf(target, loserScore) {
  if (target === 121) return loserScore < 61 ? "double skunk" : loserScore < 91 ? "skunk" : "";
  return loserScore < 31 ? "skunk" : "";
}

/** The skunk lines a board draws: [hole, name] with the loser skunked below the hole. */
export const skunkLines = (target) =>
  (target === 121 ? [[91, "skunk"], [61, "double skunk"]] : [[31, "skunk"]]);

/** Who shows, in order: from the dealer's left, clockwise, the dealer last, then the dealer's crib. */
export function showOrder(setup, dealer) {
  const steps = [];
  for (let i = 1; i <= setup.players; i++) steps.push({ seat: (dealer + i) % setup.players, what: "hand" });
  steps.push({ seat: dealer, what: "crib" });
  return steps;
}

// --- reading the list --------------------------------------------------------------------------

function emptyTable(setup) {
  const sides = sideCount(setup);
  return {
    fronts: Array(sides).fill(0), backs: Array(sides).fill(0), dealer: setup.firstDealer, hand: 1,
    shown: [], heels: false, winner: -1, history: [], muggable: null,
  };
}

function peg(table, setup, side, points, text) {
  const front = Math.min(table.fronts[side] + points, setup.target); // the game hole is the last
  if (points > 0) {
    table.backs[side] = table.fronts[side];
    table.fronts[side] = front;
  }
  table.history.push({ side, points, text, total: table.fronts[side], hand: table.hand });
  if (front >= setup.target && table.winner < 0) table.winner = side;
}

const showName = (setup, seat, what) => `${setup.names[seat]}'s ${what}`;

/** What a show entry pegs: the count, or under muggins what was claimed (an over-claim is put back). */
function showPoints(setup, event) {
  if (!setup.muggins || event.claim === undefined || event.claim === event.count) return [event.count, ""];
  if (event.claim > event.count) return [event.count, `, claimed ${event.claim}, put back to ${event.count}`];
  return [event.claim, `, claimed ${event.claim} of ${event.count}`];
}

const STEP = {
  deal(table, setup) {
    table.dealer = (table.dealer + 1) % setup.players; // the deal passes to the left
    table.hand += 1;
    table.shown = [];
    table.heels = false;
    table.history.push({ side: -1, points: 0, text: `${setup.names[table.dealer]} deals`, hand: table.hand });
  },
  heels(table, setup) {
    table.heels = true;
    peg(table, setup, sideOf(setup, table.dealer), 2, `his heels (${setup.names[table.dealer]} dealt)`);
  },
  peg(table, setup, event) {
    peg(table, setup, event.side, event.points, event.reason || "pegging");
  },
  show(table, setup, event) {
    const [points, claimed] = showPoints(setup, event);
    table.shown.push(`${event.seat}:${event.what}`);
    peg(table, setup, sideOf(setup, event.seat), points, showName(setup, event.seat, event.what) + claimed);
    if (points < event.count) {
      table.muggable = { seat: event.seat, what: event.what, missed: event.count - points };
    }
  },
  muggins(table, setup, event, missed) {
    const { seat, what, missed: points } = missed;
    peg(table, setup, event.side, points, `muggins: ${points} missed in ${showName(setup, seat, what)}`);
  },
};

/** Everything the board shows, read from the game: pegs, dealer, who shows next, winner, history. */
export function replay(game) {
  const table = emptyTable(game.setup);
  for (const event of game.events) {
    const missed = table.muggable;
    table.muggable = null; // muggins is called at once, before anything else is scored
    STEP[event.type](table, game.setup, event, missed);
  }
  const notShown = (step) => !table.shown.includes(`${step.seat}:${step.what}`);
  table.nextShow = showOrder(game.setup, table.dealer).find(notShown) || null;
  return table;
}

/** The seat `step` places clockwise from the dealer now (0: the dealer, 1: the dealer's left): how a
 * seat another view names (pone, dealer, ...) finds its player on the game. */
export const seatFromDealer = (game, step) => (replay(game).dealer + step) % game.setup.players;

/** The losers with their skunks once the game is won: [{side, score, skunk}]. */
export function losers(game, table = replay(game)) {
  if (table.winner < 0) return [];
  return table.fronts.map((score, side) => ({ side, score, skunk: skunkOf(game.setup.target, score) }))
    .filter((l) => l.side !== table.winner);
}

// --- adding to the list ------------------------------------------------------------------------

function checkPoints(points, low, high, what) {
  if (!Number.isInteger(points) || points < low || points > high) {
    throw new RuleError(`${what} is a whole number from ${low} to ${high}.`);
  }
}

// No hand or crib counts 19, 25, 26 or 27 (RULES.md): a typed one is a mistake.
const IMPOSSIBLE = [19, 25, 26, 27];

function checkShow(game, table, event) {
  const step = table.nextShow;
  if (!step) throw new RuleError("Every hand and the crib are shown: deal the next hand.");
  checkPoints(event.count, 0, 29, "A count");
  if (IMPOSSIBLE.includes(event.count)) throw new RuleError(`No hand counts ${event.count}.`);
  if (event.claim !== undefined) checkPoints(event.claim, 0, 29, "A claim");
  if (event.seat !== step.seat || event.what !== step.what) {
    throw new RuleError(`${showName(game.setup, step.seat, step.what)} counts first: ` +
      "pone first, then round to the dealer, then the crib.");
  }
}

function check(game, table, event) {
  if (table.winner >= 0) {
    throw new RuleError(`The game is over: ${sideName(game.setup, table.winner)} won. Start a new game.`);
  }
  if (event.type === "show") checkShow(game, table, event);
  if (event.type === "peg") {
    if (!(event.side >= 0 && event.side < sideCount(game.setup))) {
      throw new RuleError("No such player or side.");
    }
    checkPoints(event.points, 1, 29, "Points pegged");
  }
  if (event.type === "heels" && table.heels) throw new RuleError("His heels is pegged once a hand.");
  if (event.type === "heels" && table.shown.length) {
    throw new RuleError("His heels is pegged before the play.");
  }
  if (event.type === "muggins") checkMuggins(game, table, event);
}

function checkMuggins(game, table, event) {
  const missed = table.muggable;
  if (!game.setup.muggins) throw new RuleError("Muggins is off in this game.");
  if (!missed) throw new RuleError("Nothing was missed in the last count.");
  if (sideOf(game.setup, missed.seat) === event.side) {
    throw new RuleError("Muggins is called on the other side.");
  }
}

/** The game with `event` scored; a RuleError says why it cannot be (the game left as it was).
 * Events: {type: "show", seat, what: "hand"|"crib", count, claim?}, {type: "peg", side, points, reason?},
 * {type: "heels"}, {type: "muggins", side}, {type: "deal"}. */
export function score(game, event) {
  if (!STEP[event.type]) throw new RuleError(`Unknown score: ${event.type}.`);
  check(game, replay(game), event);
  return { setup: game.setup, events: [...game.events, event] };
}

/** The game without its last entry. */
export function undo(game) {
  return { setup: game.setup, events: game.events.slice(0, -1) };
}

/** A stored game read back: the same game, or a RuleError if it is not one (stale or edited storage). */
export function restore(saved) {
  const game = newGame(saved && saved.setup);
  for (const event of (saved && saved.events) || []) {
    if (!event || typeof event !== "object") throw new RuleError("A stored score is not one.");
    game.events = score(game, event).events;
  }
  return game;
}
