// The Referee view: one photo of the whole table at the show. The server splits the cards into the
// hands, the crib and the starter and suggests whose is which; the player confirms or changes each
// role, moves a card between groups, fixes a card read wrong, adds one the photo missed (a tap where it
// lies, then the card), takes off one that is not a card, types each claim and muggins call, and
// reads the rulings. Every fix is ruled again from the cards the page holds (/api/referee/table),
// never from the photo again.
// No rules here: the counts and the rulings come from the server (scorer/referee.py).

import { addScore, keptGame } from "./board.js";
import { seatFromDealer, sideOf } from "./board-game.js";
import { pickCard } from "./cardpad.js";
import { face, spoken } from "./cards.js";
import { $, cardFace, make, makeSvg, say, showPhoto } from "./dom.js";
import { postForm, postJson, RequestError } from "./net.js";

const ROLES = {
  2: ["pone", "dealer", "crib"],
  3: ["pone", "second", "dealer", "crib"],
  4: ["pone", "dealer's partner", "pone's partner", "dealer", "crib"],
};
const NAMES = { pone: "Pone", second: "Second", dealer: "Dealer", crib: "Crib",
  "dealer's partner": "Dealer's partner", "pone's partner": "Pone's partner" };
// Seats clockwise from the dealer's left: how a role finds its seat on the board's game.
const SEAT_STEP = { dealer: 0, pone: 1, second: 2, "dealer's partner": 2, "pone's partner": 3 };

const state = { table: null, cards: [], image: null, roles: {}, moves: [], moving: -1, lit: null, asked: 0,
  adding: false };

const players = () => Number($("referee-players").value);
const seat = () => $("referee-seat").value;
const muggins = () => $("referee-muggins").checked;
const status = (text, kind = "") => say($("referee-status"), text, kind);
// Every hand of four, the crib and the starter (the page's tables are four-card cribbage).
const tableSize = () => 4 * players() + 5;

// --- asking the server ---------------------------------------------------------------------------

async function readPhoto(file) {
  const asked = ++state.asked;
  Object.assign(state, { table: null, cards: [], roles: {}, moves: [], moving: -1, lit: null, adding: false });
  showPreview(file);
  render();
  status("Reading the table…");
  const form = new FormData();
  form.append("photo", file); // the whole table needs every pixel: sent as taken, not shrunk
  form.append("players", String(players()));
  form.append("seat", seat());
  form.append("muggins", muggins() ? "true" : "false");
  await answer(asked, () => postForm("/api/referee", form));
}

function claims() {
  const out = {};
  for (const input of document.querySelectorAll("[data-claim]")) {
    if (input.value.trim() !== "") out[input.dataset.claim] = Number(input.value);
  }
  return out;
}

function calls() {
  return [...document.querySelectorAll("[data-call]")].filter((input) => input.value.trim() !== "")
    .map((input) => ({ role: input.dataset.call, points: Number(input.value) }));
}

/** Rule the table again from the cards the page holds, with the player's roles, moves and claims. */
async function rerule() {
  if (!state.cards.length) return render();
  const asked = ++state.asked;
  const cards = state.cards.map((c) => ({ card: c.card, xyxy: c.xyxy, confidence: c.confidence }));
  const body = { players: players(), seat: seat(), muggins: muggins(), cards, roles: state.roles,
    moves: state.moves, claims: claims(), calls: calls() };
  status("Ruling…");
  await answer(asked, () => postJson("/api/referee/table", body));
}

async function answer(asked, ask) {
  try {
    const table = await ask();
    if (asked !== state.asked) return;
    took(table);
    status(table.unclear.length ? "Check the groups: tap a card to move it." : "");
  } catch (err) {
    if (asked !== state.asked) return;
    if (!(err instanceof RequestError)) throw err;
    const body = err.body || {};
    if (body.table) took(body.table); // groups that cannot be counted: shown, to move a card
    else if (body.cards) seen(body);
    else if (state.cards.length !== tableSize()) state.table = null; // the cards held are not a table yet
    status(state.table ? err.message : `${err.message}. ${toFix()}`, "error");
  }
  render();
}

function took(table) {
  state.table = table;
  if (table.image) state.image = table.image;
  state.cards = table.cards;
}

/** A photo read without the table's number of cards: the cards seen, kept to be fixed here. */
function seen(body) {
  state.table = null;
  state.cards = body.cards;
  if (body.image) state.image = body.image;
}

function toFix() {
  const have = state.cards.length;
  const want = tableSize();
  if (have < want) {
    return `Tap “Add a missed card”, then the photo where it lies; or retake the photo with every card's ` +
      "corners in view, or set the number of players.";
  }
  return have > want ? "Tap a card that is not one of the table's to take it off, or set the number of players."
    : "Tap a card to fix it.";
}

// --- fixing the cards ------------------------------------------------------------------------------

async function fixCard(row) {
  const current = state.cards[row].card;
  const taken = state.cards.map((c) => c.card).filter((c) => c && c !== current);
  const card = await pickCard(current, "Which card is it?", taken);
  state.moving = -1;
  if (!card) return render();
  state.cards = state.cards.map((c, i) => (i === row ? { ...c, card, confidence: 1, check: false } : c));
  return rerule();
}

function dropCard(row) {
  state.cards = state.cards.filter((_, i) => i !== row);
  // The player's moves name cards by row: the rows after the one taken off move up.
  state.moves = state.moves.filter((m) => m.row !== row).map((m) => (m.row > row ? { ...m, row: m.row - 1 } : m));
  Object.assign(state, { roles: {}, moving: -1 });
  return rerule();
}

function startAdding() {
  state.adding = !state.adding;
  status(state.adding ? "Tap the photo where the missed card lies." : toFix(), state.adding ? "" : "error");
  render();
}

/** A card's box as the others are (their median size), centred where the player tapped. */
function boxAt(x, y) {
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const sizes = state.cards.map(({ xyxy: [x0, y0, x1, y1] }) => [x1 - x0, y1 - y0]);
  const w = sizes.length ? median(sizes.map(([sw]) => sw)) : state.image.width / 20;
  const h = sizes.length ? median(sizes.map(([, sh]) => sh)) : state.image.height / 20;
  const x0 = Math.max(0, x - w / 2);
  const y0 = Math.max(0, y - h / 2);
  return [x0, y0, Math.min(state.image.width, x0 + w), Math.min(state.image.height, y0 + h)];
}

async function addAt(event) {
  if (!state.adding || !state.image) return;
  const rect = $("referee-boxes").getBoundingClientRect();
  const x = ((event.clientX - rect.left) / rect.width) * state.image.width;
  const y = ((event.clientY - rect.top) / rect.height) * state.image.height;
  state.adding = false;
  const card = await pickCard(null, "Which card lies there?", state.cards.map((c) => c.card).filter(Boolean));
  if (!card) return startAdding();
  state.cards = [...state.cards, { card, xyxy: boxAt(x, y), confidence: 1, check: false }];
  state.roles = {};
  return rerule();
}

// --- drawing ---------------------------------------------------------------------------------------

function showPreview(file) {
  showPhoto($("referee-preview"), file);
  $("referee-figure").hidden = false;
  $("referee-hint").hidden = true;
}

function lit() {
  const table = state.table;
  const cards = new Set(state.lit ? state.lit : []);
  if (!state.lit && table) for (const r of table.rulings) for (const item of r.missed) item.cards.forEach((c) => cards.add(c));
  return cards;
}

function drawBoxes() {
  const svg = $("referee-boxes");
  const table = state.table;
  svg.replaceChildren();
  if (!state.image) return;
  svg.setAttribute("viewBox", `0 0 ${state.image.width} ${state.image.height}`);
  const shine = lit();
  state.cards.forEach((c, row) => {
    const [x0, y0, x1, y1] = c.xyxy;
    const cls = table && row === table.starter ? "starter" : shine.has(c.card) ? "lit" : "card";
    svg.append(makeSvg("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, class: cls }));
  });
  if (!table) return;
  const size = Math.round(state.image.height / 22);
  const placed = [];
  for (const g of table.groups) {
    const [x0, y0, x1, y1] = g.xyxy;
    const pad = size / 3;
    svg.append(makeSvg("rect", { x: x0 - pad, y: y0 - pad, width: x1 - x0 + 2 * pad, height: y1 - y0 + 2 * pad,
      class: `group role-${g.role.replace(/\W+/g, "-")}` }));
    const text = `${NAMES[g.role] || g.role} ${g.total === null ? "?" : g.total}`;
    const label = makeSvg("text", { ...groupLabelSpot(g.xyxy, pad * 2, size * 0.62 * text.length, size, placed),
      "font-size": size });
    label.textContent = text;
    svg.append(label);
  }
}

/** Where a group's name and total go: right of the group, else left of, above or below it; the first
 * place inside the photo and clear of the labels already `placed` (a group at the photo's right edge
 * had its label cut off, and two groups side by side had theirs overlap). */
function groupLabelSpot([x0, y0, x1, y1], gap, textWidth, size, placed) {
  const { width, height } = state.image;
  const middle = (y0 + y1) / 2 + size / 3;
  const across = Math.max(0, Math.min(x0, width - textWidth));
  const spots = [
    { x: x1 + gap, y: middle, left: x1 + gap },
    { x: x0 - gap, y: middle, left: x0 - gap - textWidth, "text-anchor": "end" },
    { x: across, y: y0 - gap, left: across },
    { x: across, y: y1 + gap + size, left: across },
  ].map((spot) => ({ ...spot, box: [spot.left, spot.y - size, spot.left + textWidth, spot.y + size * 0.3] }));
  const inside = spots.filter(({ box: [a, b, c, d] }) => a >= 0 && b >= 0 && c <= width && d <= height);
  const clear = inside.find(({ box: [a, b, c, d] }) => !placed.some(([e, f, g, h]) => a < g && c > e && b < h && d > f));
  const { box, left, ...spot } = clear || inside[0] || spots[2];
  placed.push(box);
  return spot;
}

function roleChooser(g) {
  const select = make("select", "role");
  select.setAttribute("aria-label", `Whose is group ${g.number}`);
  for (const role of ROLES[state.table.players]) {
    const option = make("option", "", NAMES[role] + (role === g.suggested && !g.given ? " (suggested)" : ""));
    option.value = role;
    option.selected = role === g.role;
    select.append(option);
  }
  select.addEventListener("change", () => { state.roles = { ...state.roles, [g.number]: select.value }; rerule(); });
  return select;
}

/** The chips of the cards at ``rows``: a tap offers to move the card (on a table), fix it or take it off;
 * a card read unsurely (to check) is drawn dashed. */
function cardChips(rows) {
  const ul = make("ul", "referee-cards");
  for (const row of rows) {
    const c = state.cards[row];
    const b = make("button", "chip" + (state.moving === row ? " moving" : "") + (c.check ? " unsure" : ""));
    b.type = "button";
    b.append(cardFace(c.card));
    const what = c.card ? spoken(c.card) : "unread card";
    b.setAttribute("aria-label", `${state.table ? "Move or fix" : "Fix"} the ${what}`);
    b.addEventListener("click", () => { state.moving = state.moving === row ? -1 : row; render(); });
    const li = make("li");
    li.append(b);
    ul.append(li);
  }
  return ul;
}

function moveChoices() {
  const box = $("referee-move");
  box.replaceChildren();
  box.hidden = state.moving < 0 || state.moving >= state.cards.length;
  if (box.hidden) return;
  const row = state.moving;
  const button = (text, act) => {
    const b = make("button", "", text);
    b.type = "button";
    b.addEventListener("click", act);
    box.append(b);
  };
  if (state.table) {
    box.append(make("span", "", `Move ${face(state.cards[row].card)} to`));
    const targets = state.table.groups.map((g) => [`group ${g.number}`, g.number]).concat([["the starter", null]]);
    for (const [text, group] of targets) {
      button(text, () => {
        state.moves = [...state.moves, { row, group }];
        state.moving = -1;
        rerule();
      });
    }
  }
  button("Another card…", () => fixCard(row));
  button("Not a card", () => dropCard(row));
}

/** The cards seen on a photo that is not yet a table (too few or too many): to fix, add or take off. */
function seenCards() {
  const box = $("referee-seen");
  box.hidden = Boolean(state.table) || !state.cards.length;
  if (box.hidden) return;
  $("referee-seen-cards").replaceChildren(...cardChips(state.cards.map((_, row) => row)).children);
  $("referee-add").hidden = state.cards.length >= tableSize();
  $("referee-add").setAttribute("aria-pressed", String(state.adding));
}

function claimInputs(g) {
  const box = make("div", "referee-claim");
  const input = (what, label, min) => {
    const el = make("input");
    Object.assign(el, { type: "number", inputmode: "numeric", min, max: 29, step: 1, placeholder: "–" });
    el.dataset[what] = g.role;
    el.setAttribute("aria-label", `${label} for ${NAMES[g.role] || g.role}`);
    return el;
  };
  const claim = input("claim", "Claimed", 0);
  const lab = make("label", "", "Claimed ");
  lab.append(claim);
  box.append(lab);
  if (muggins()) {
    const call = input("call", "Muggins for", 1);
    const labCall = make("label", "", "Muggins for ");
    labCall.append(call);
    box.append(labCall);
  }
  return box;
}

function groupItem(g) {
  const li = make("li", `referee-group role-${g.role.replace(/\W+/g, "-")}`);
  const head = make("div", "head");
  head.append(make("span", "number", `Group ${g.number}`), roleChooser(g),
    make("output", "total", g.total === null ? "?" : String(g.total)));
  const items = make("ol", "items");
  for (const item of g.items) {
    const b = make("button", "item", `${item.kind} ${item.cards.map(face).join(" ")} · ${item.points}`);
    b.type = "button";
    b.addEventListener("click", () => { state.lit = state.lit === item.cards ? null : item.cards; render(); });
    const row = make("li");
    row.append(b);
    items.append(row);
  }
  li.append(head, cardChips(g.rows), items, claimInputs(g));
  return li;
}

function keepTyped(render) {
  // Redrawing the groups must not lose a claim being typed.
  const typed = [...document.querySelectorAll("[data-claim],[data-call]")]
    .map((el) => [el.dataset.claim ? "claim" : "call", el.dataset.claim || el.dataset.call, el.value]);
  render();
  for (const [what, role, value] of typed) {
    const el = document.querySelector(`[data-${what}="${CSS.escape(role)}"]`);
    if (el) el.value = value;
  }
}

function render() {
  const table = state.table;
  $("referee-form").hidden = !table;
  $("referee-figure").classList.toggle("adding", state.adding);
  drawBoxes();
  seenCards();
  moveChoices();
  if (!table) return;
  $("referee-unclear").replaceChildren(...table.unclear.map((reason) => make("li", "", reason)));
  $("referee-roles").textContent = `Roles suggested: ${table.roles_reason}. Tap a role to change it.`;
  const starter = table.starter === null ? [] : [cardChips([table.starter])];
  $("referee-starter").replaceChildren(...starter);
  const order = table.order;
  const groups = [...table.groups].sort((a, b) => order.indexOf(a.role) - order.indexOf(b.role));
  keepTyped(() => $("referee-groups").replaceChildren(...groups.map(groupItem)));
  const heels = table.his_heels ? [make("li", "heels", `His heels: ${table.his_heels} to the dealer.`)] : [];
  $("referee-rulings").replaceChildren(...heels, ...table.rulings.map((r) => make("li", r.kind.replace(/\W+/g, "-"),
    r.message)));
  $("referee-rules").textContent = table.rules;
  $("referee-pegs").textContent = table.pegs.map(([side, points]) => `${NAMES[side] || side} ${points}`).join(", ");
  $("referee-send").disabled = !table.counted;
}

// --- to the board ------------------------------------------------------------------------------------

/** The board's side for a role: its seat counted clockwise from the board's dealer. */
function boardSide(game, role) {
  return sideOf(game.setup, seatFromDealer(game, SEAT_STEP[role]));
}

function sendToBoard() {
  const table = state.table;
  const tell = (text, kind) => say($("referee-sent"), text, kind);
  const game = keptGame();
  if (!game) return tell("No game is being kept: start one on the Board, then tap again.", "error");
  if (game.setup.players !== table.players) {
    return tell(`The board keeps a game of ${game.setup.players}; this table has ${table.players} players.`, "error");
  }
  // Pegged as a pegboard is: his heels first, then each ruling in the order of the show, so no one
  // peg is more than a show holds (a dealer's hand and crib together may pass 29).
  const pegs = [
    ...(table.his_heels ? [["dealer", table.his_heels, "his heels"]] : []),
    ...table.rulings.flatMap((r) => r.pegs.map(([side, points]) => [side, points, NAMES[r.role] || r.role])),
  ];
  // addScore() says a refused peg (the game won, more than 29 points) on the Board and answers false.
  for (const [side, points, what] of pegs) {
    if (points > 0 && !addScore(boardSide(game, side), points, `the show (referee): ${what}`)) {
      return tell(`${$("board-status").textContent} Open the Board to see where it stands.`, "error");
    }
  }
  const back = pegs.filter(([, points]) => points < 0);
  return tell(back.length ? "Pegged. Points backward are moved on the Board by hand." : "Pegged on the Board.",
    "correct");
}

function seatChoices() {
  const select = $("referee-seat");
  const was = select.value;
  select.replaceChildren(...ROLES[players()].filter((role) => role !== "crib").map((role) => {
    const option = make("option", "", NAMES[role]);
    option.value = role;
    option.selected = role === was;
    return option;
  }));
}

/** Open the Referee view on `file`, a photo of the whole table taken in another view, for `count`
 * players: it is read as if taken here. */
export function refereePhoto(file, count) {
  $("referee-players").value = String(count);
  seatChoices();
  location.hash = "#referee";
  readPhoto(file);
}

/** Start the Referee view: the photo, the table's settings, the rule and board buttons. */
export function startReferee() {
  seatChoices();
  $("referee-players").addEventListener("change", seatChoices);
  $("referee-photo").addEventListener("change", (e) => { if (e.target.files[0]) readPhoto(e.target.files[0]); });
  for (const id of ["referee-players", "referee-seat", "referee-muggins"]) {
    $(id).addEventListener("change", () => { state.roles = {}; state.moves = []; rerule(); });
  }
  $("referee-form").addEventListener("submit", (e) => { e.preventDefault(); rerule(); });
  $("referee-send").addEventListener("click", sendToBoard);
  $("referee-add").addEventListener("click", startAdding);
  $("referee-figure").addEventListener("click", addAt);
}
