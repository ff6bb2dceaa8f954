// The Peg view: the play tapped in card by card ("Go" where a player cannot play) and scored by
// /api/peg after every tap, so each card's points and reasons (15, 31, pairs, runs, go, last card) and
// the running count show as the play goes; then one tap pegs each player's points on the Board. No
// rules here: whose card each is and what it scores come from the server (scorer/pegging.py).

import { addScore, keptGame } from "./board.js";
import { replay, seatFromDealer, sideOf } from "./board-game.js";
import { cardGrid, markGrid } from "./cardpad.js";
import { face } from "./cards.js";
import { $, cardFace, make, say } from "./dom.js";
import { postJson, RequestError } from "./net.js";

// The server's seats, in order of play from the dealer's left, and each one's seat counted clockwise
// from the dealer (how a seat finds its player on the Board's game).
const SEAT_STEP = {
  2: { pone: 1, dealer: 0 },
  3: { left: 1, right: 2, dealer: 0 },
  4: { left: 1, across: 2, right: 3, dealer: 0 },
};
const SEAT_NAMES = { pone: "Pone", dealer: "Dealer", left: "Left", right: "Right", across: "Across" };

// sequence: the cards and "go"s tapped, the last asked about (a fast second tap builds on the first);
// accepted: the last the server scored, to fall back to; scored: its answer; sent: pegged on the Board.
const state = { sequence: [], accepted: [], scored: null, sent: false, asked: 0 };

const players = () => Number($("peg-players").value);
const status = (text, kind = "") => say($("peg-status"), text, kind);
const reasonText = (reasons) => reasons.map((r) => `${r.reason} ${r.points}`).join(", ");

// --- asking the server ---------------------------------------------------------------------------

/** Whether `start` is `tokens` or the beginning of it. */
const startsWith = (tokens, start) => start.length <= tokens.length && start.every((t, i) => t === tokens[i]);

/** Score `sequence`; kept only if the server finds it a legal play, else its reason is said. Answers may
 * come late or out of order when cards are tapped fast: the answer to the last tap is taken, and an
 * earlier one too while its play still begins the cards tapped and is longer than the one kept (an
 * undo asks for a shorter play, whose answer is the last); a refused card is taken off with any
 * tapped on top of it, and the cards before it stay (their answer may still be on its way). */
async function score(sequence) {
  const asked = ++state.asked;
  state.sequence = sequence;
  render();
  if (!sequence.length) {
    Object.assign(state, { accepted: sequence, scored: null, sent: false });
    status("");
    render();
    return;
  }
  try {
    const scored = await postJson("/api/peg", { sequence, players: players() });
    const latest = asked === state.asked;
    if (latest || (startsWith(state.sequence, sequence) && sequence.length > state.accepted.length)) {
      Object.assign(state, { accepted: sequence, scored, sent: false });
    }
    if (latest) status("");
  } catch (err) {
    if (!(err instanceof RequestError)) throw err;
    if (!startsWith(state.sequence, sequence)) return;  // undone meanwhile
    state.sequence = sequence.slice(0, -1);  // and any card tapped on top of the refused one
    status(`${err.message}. Not added.`, "error");
  }
  render();
}

const lay = (token) => score([...state.sequence, token]);

// --- drawing the view ------------------------------------------------------------------------------

/** The seat's name, with its player's on the Board when it keeps a game of as many players. */
function seatName(seat) {
  const game = keptGame();
  const step = SEAT_STEP[players()][seat];
  if (!game || game.setup.players !== players() || step === undefined) return SEAT_NAMES[seat] || seat;
  const name = game.setup.names[seatFromDealer(game, step)];
  return `${name} (${(SEAT_NAMES[seat] || seat).toLowerCase()})`;
}

function playItem(play) {
  const li = make("li", play.points ? "scored" : "");
  li.append(make("span", "who", seatName(play.player)),
    play.card ? cardFace(play.card, "face card") : make("span", "face go", "go"),
    make("span", "count", String(play.count)));
  if (play.points) li.append(make("span", "why", reasonText(play.reasons)));
  return li;
}

function renderLast(plays) {
  const last = plays[plays.length - 1];
  $("peg-count").textContent = last ? String(last.count) : "0";
  $("peg-last").textContent = !last ? "Tap each card as it is laid, from the dealer's left."
    : `${seatName(last.player)}: ${last.card ? face(last.card) : "go"}` +
      (last.points ? `, ${reasonText(last.reasons)}` : "");
}

function renderTotals() {
  const totals = state.scored ? Object.entries(state.scored.totals) : [];
  $("peg-totals").replaceChildren(...totals.map(([seat, points]) => {
    const li = make("li");
    li.append(make("span", "who", seatName(seat)), make("output", "points", String(points)));
    return li;
  }));
  const complete = !!(state.scored && state.scored.complete);
  $("peg-done").textContent = !state.scored ? ""
    : complete ? "Every card is laid." : "The play goes on: points so far.";
}

function render() {
  const plays = state.scored ? state.scored.plays : [];
  $("peg-plays").replaceChildren(...plays.map(playItem));
  renderLast(plays);
  renderTotals();
  markGrid($("peg-pad").firstChild, state.sequence.filter((t) => t !== "go"));
  $("peg-go").disabled = !state.sequence.length;
  $("peg-undo").disabled = !state.sequence.length;
  $("peg-send").disabled = !state.scored || state.sent || state.sequence.length !== state.accepted.length;
}

// --- to the board ------------------------------------------------------------------------------------

/** The Board's side for a server's seat: its seat counted clockwise from the Board's dealer (partners,
 * with 4 players, share a side). */
function boardSide(game, seat) {
  return sideOf(game.setup, seatFromDealer(game, SEAT_STEP[players()][seat]));
}

/** Peg each scoring play in the order it was made, as a pegboard would: the game can end mid-play. */
function sendToBoard() {
  const tell = (text, kind) => say($("peg-sent"), text, kind);
  const game = keptGame();
  if (!game) return tell("No game is being kept: start one on the Board, then tap again.", "error");
  if (game.setup.players !== players()) {
    return tell(`The board keeps a game of ${game.setup.players}; this play has ${players()} players.`, "error");
  }
  const scoring = state.scored.plays.filter((play) => play.points > 0);
  for (const play of scoring) {
    if (!addScore(boardSide(game, play.player), play.points, `the play: ${reasonText(play.reasons)}`)) {
      return tell(`${$("board-status").textContent} Open the Board to see where it stands.`, "error");
    }
    if (replay(keptGame()).winner >= 0) break;
  }
  state.sent = true;
  render();
  const won = replay(keptGame()).winner >= 0;
  return tell(won ? "Pegged: the game is won, see the Board." : scoring.length ? "Pegged on the Board."
    : "No points in this play: nothing to peg.", "correct");
}

function newPlay() {
  say($("peg-sent"), "");
  score([]);
}

/** Wire the Peg view; returns what to call when the view is shown (the Board's names may have changed). */
export function startPeg() {
  const pad = cardGrid((card) => lay(card), "Tap the card laid");
  $("peg-pad").append(pad);
  $("peg-go").addEventListener("click", () => lay("go"));
  $("peg-undo").addEventListener("click", () => score(state.sequence.slice(0, -1)));
  $("peg-new").addEventListener("click", newPlay);
  $("peg-players").addEventListener("change", newPlay); // the same cards are another play
  $("peg-send").addEventListener("click", sendToBoard);
  render();
  return render;
}
