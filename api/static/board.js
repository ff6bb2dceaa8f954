// The Board view: the game kept in this browser (localStorage; the service stays stateless), drawn
// by board-draw.js and scored by the rules of board-game.js. A count the Count view shows arrives as
// a "cribcount:count" event and is one tap from the player who shows next; other views peg with
// addScore().

import { $, make, say } from "./dom.js";
import { drawBoard } from "./board-draw.js";
import {
  losers, newGame, replay, restore, RuleError, score, sideCount, sideName, sideOf, undo,
} from "./board-game.js";
import { openSetup, startSetup } from "./board-setup.js";

const STORE = "cribcount.board";
const PEG_TAPS = [1, 2, 3, 4, 6];

let game = null; // {setup, events}: the one game this page keeps
let fromCount = null; // the Count view's last count, offered to whoever shows next

function load() {
  try {
    const saved = localStorage.getItem(STORE);
    return saved ? restore(JSON.parse(saved)) : null;
  } catch (err) {
    if (err instanceof RuleError || err instanceof SyntaxError) return null; // not a game: start again
    throw err;
  }
}

function save() {
  localStorage.setItem(STORE, JSON.stringify(game));
}

/** Score `event` (see board-game.js's score()), keep and show the game; a broken rule is said. */
function play(event) {
  try {
    game = score(game, event);
  } catch (err) {
    if (!(err instanceof RuleError)) throw err;
    say($("board-status"), err.message, "error");
    return false;
  }
  save();
  say($("board-status"), "");
  render();
  return true;
}

/** The game this page keeps, or null before one is started on the Board (nothing stored yet). */
export function keptGame() {
  return localStorage.getItem(STORE) ? game : null;
}

/** Peg `points` for a player or side (its index, or a player's name) with the history's `reason`. */
export function addScore(who, points, reason = "pegging") {
  if (!game) throw new RuleError("No game is being kept: start one on the Board.");
  const seat = game.setup.names.indexOf(who);
  const side = seat >= 0 ? sideOf(game.setup, seat) : who;
  return play({ type: "peg", side, points, reason });
}

// --- drawing the view --------------------------------------------------------------------------

function button(text, label, onClick, className = "") {
  const b = make("button", className, text);
  b.type = "button";
  if (label) b.setAttribute("aria-label", label);
  b.addEventListener("click", onClick);
  return b;
}

function renderSides(table) {
  const dealerSide = sideOf(game.setup, table.dealer);
  $("board-sides").replaceChildren(...table.fronts.map((points, side) => {
    const li = make("li", `side-${side}` + (side === table.winner ? " won" : ""));
    li.append(make("span", "name", sideName(game.setup, side)), make("output", "points", String(points)));
    if (side === dealerSide) li.append(make("span", "deals", `${game.setup.names[table.dealer]} deals`));
    return li;
  }));
}

function renderWinner(table) {
  const el = $("board-winner");
  el.hidden = table.winner < 0;
  if (el.hidden) return;
  const lost = losers(game, table);
  const scores = lost.map((l) => `${sideName(game.setup, l.side)} ${l.score}${l.skunk ? ` (${l.skunk})` : ""}`);
  el.textContent = `${sideName(game.setup, table.winner)} wins, ${game.setup.target} to ${scores.join(", ")}` +
    (lost.some((l) => l.skunk) ? ". A skunk!" : ".");
}

function renderShow(table) {
  const step = table.nextShow;
  const who = step ? `${game.setup.names[step.seat]}'s ${step.what}` : "";
  $("board-deal").textContent = `Hand ${table.hand}: ${game.setup.names[table.dealer]} deals. ` +
    (step ? `Next to show: ${who}.` : "Everyone has shown: next hand.");
  $("board-show-to").textContent = step ? `Peg for ${who}` : "Peg it";
  $("board-show-to").disabled = !step || table.winner >= 0;
  for (const id of ["board-claim", "board-claim-label"]) $(id).hidden = !game.setup.muggins;
  $("board-from-count").textContent = !fromCount ? ""
    : `From the Count view: ${fromCount.total} for a ${fromCount.crib ? "crib" : "hand"}` +
      (step && fromCount.crib !== (step.what === "crib") ? ` (but ${who} shows now).` : ".");
}

function renderButtons(table) {
  const over = table.winner >= 0;
  const muggable = table.muggable && game.setup.muggins && !over;
  const callers = [...Array(sideCount(game.setup)).keys()]
    .filter((side) => muggable && side !== sideOf(game.setup, table.muggable.seat));
  $("board-muggins").replaceChildren(...callers.map((side) => button(
    `Muggins! ${sideName(game.setup, side)} takes ${table.muggable.missed}`, "",
    () => play({ type: "muggins", side }), "muggins")));
  $("board-muggins").hidden = !callers.length;
  const dealerName = game.setup.names[table.dealer];
  $("board-heels").textContent = `His heels: 2 for ${dealerName}`;
  $("board-heels").disabled = over || table.heels || table.shown.length > 0;
  // A counted starter that is a jack: his heels is the dealer's, if not pegged yet.
  const jack = !!(fromCount && fromCount.hisHeels);
  $("board-heels").classList.toggle("primary", jack && !$("board-heels").disabled);
  $("board-pegging").replaceChildren(...table.fronts.map((_, side) => {
    const row = make("div", `peg-row side-${side}`);
    row.append(make("span", "name", sideName(game.setup, side)), ...PEG_TAPS.map((points) => button(
      `+${points}`, `Peg ${points} for ${sideName(game.setup, side)}`, () => addScore(side, points))));
    for (const b of row.querySelectorAll("button")) b.disabled = over;
    return row;
  }));
  const nextDealer = game.setup.names[(table.dealer + 1) % game.setup.players];
  $("board-next").textContent = `Next hand: ${nextDealer} deals`;
  $("board-next").disabled = over;
  $("board-undo").disabled = !game.events.length;
}

function renderHistory(table) {
  $("board-history").replaceChildren(...table.history.slice().reverse().map((entry) => {
    if (entry.side < 0) return make("li", "deal", `Hand ${entry.hand}: ${entry.text}`);
    const li = make("li", `side-${entry.side}`);
    li.append(make("span", "who", sideName(game.setup, entry.side)), make("span", "pts", `+${entry.points}`),
      make("span", "why", entry.text), make("span", "total", String(entry.total)));
    return li;
  }));
}

function render() {
  const table = replay(game);
  const { players, target, muggins } = game.setup;
  $("board-rules").textContent = `${players === 4 ? "4 players, partners" : `${players} players`}, ` +
    `to ${target}, muggins ${muggins ? "on" : "off"}`;
  drawBoard($("board-svg"), game.setup, table);
  renderSides(table);
  renderWinner(table);
  renderShow(table);
  renderButtons(table);
  renderHistory(table);
}

// --- wiring --------------------------------------------------------------------------------------

const number = (id) => ($(id).value.trim() === "" ? undefined : Number($(id).value));

function pegShow(event) {
  event.preventDefault();
  const step = replay(game).nextShow;
  const count = number("board-count");
  if (count === undefined) {
    say($("board-status"), "Type the count, 0 to 29, or count a photo.", "error");
    return;
  }
  const claim = game.setup.muggins ? number("board-claim") : undefined;
  if (step && play({ type: "show", seat: step.seat, what: step.what, count, claim })) {
    $("board-count").value = "";
    $("board-claim").value = "";
    fromCount = null;
    render();
  }
}

function heardCount(event) {
  const { total, crib, hisHeels } = event.detail || {};
  if (!Number.isInteger(total)) return;
  fromCount = { total, crib: !!crib, hisHeels: !!hisHeels };
  $("board-count").value = String(total);
  if (game) render();
}

/** Keep `next` as the game (new, or one entry undone) and show it. */
function keep(next) {
  game = next;
  save();
  say($("board-status"), "");
  render();
}

/** Wire the Board: the stored game (or a new one) drawn, every control, the Count view's counts. */
export function startBoard() {
  game = load();
  startSetup(keep);
  if (!game) {
    game = newGame();
    openSetup(null);
  }
  $("board-show").addEventListener("submit", pegShow);
  $("board-heels").addEventListener("click", () => play({ type: "heels" }));
  $("board-next").addEventListener("click", () => play({ type: "deal" }));
  $("board-undo").addEventListener("click", () => keep(undo(game)));
  $("board-new").addEventListener("click", () => openSetup(game.setup));
  document.addEventListener("cribcount:count", heardCount);
  render();
}
