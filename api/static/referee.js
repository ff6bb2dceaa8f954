// The Referee view: one photo of the whole table at the show. The server splits the cards into the
// hands, the crib and the starter and suggests whose is which; the player confirms or changes each
// role, moves a card between groups, types each claim and muggins call, and reads the rulings. Every
// fix is ruled again from the cards the page holds (/api/referee/table), never from the photo again.
// No rules here: the counts and the rulings come from the server (scorer/referee.py).

import { addScore, keptGame } from "./board.js";
import { seatFromDealer, sideOf } from "./board-game.js";
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

const state = { table: null, cards: [], image: null, roles: {}, moves: [], moving: -1, lit: null, asked: 0 };

const players = () => Number($("referee-players").value);
const seat = () => $("referee-seat").value;
const muggins = () => $("referee-muggins").checked;
const status = (text, kind = "") => say($("referee-status"), text, kind);

// --- asking the server ---------------------------------------------------------------------------

async function readPhoto(file) {
  const asked = ++state.asked;
  Object.assign(state, { table: null, roles: {}, moves: [], moving: -1, lit: null });
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
  if (!state.cards.length) return;
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
    else if (body.cards) state.table = null;
    status(body.cards ? `${err.message}. Retake the photo with every card's corners in view, or set the ` +
      "number of players." : err.message, "error");
  }
  render();
}

function took(table) {
  state.table = table;
  if (table.image) state.image = table.image;
  state.cards = table.cards;
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
  if (!table || !state.image) return;
  svg.setAttribute("viewBox", `0 0 ${state.image.width} ${state.image.height}`);
  const shine = lit();
  state.cards.forEach((c, row) => {
    const [x0, y0, x1, y1] = c.xyxy;
    const cls = row === table.starter ? "starter" : shine.has(c.card) ? "lit" : "card";
    svg.append(makeSvg("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, class: cls }));
  });
  const size = Math.round(state.image.height / 22);
  for (const g of table.groups) {
    const [x0, y0, x1, y1] = g.xyxy;
    const pad = size / 3;
    svg.append(makeSvg("rect", { x: x0 - pad, y: y0 - pad, width: x1 - x0 + 2 * pad, height: y1 - y0 + 2 * pad,
      class: `group role-${g.role.replace(/\W+/g, "-")}` }));
    const label = makeSvg("text", { x: x1 + pad * 2, y: (y0 + y1) / 2, "font-size": size });
    label.textContent = `${NAMES[g.role] || g.role} ${g.total === null ? "?" : g.total}`;
    svg.append(label);
  }
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

function cardChips(g) {
  const ul = make("ul", "referee-cards");
  for (const row of g.rows) {
    const b = make("button", "chip" + (state.moving === row ? " moving" : ""));
    b.type = "button";
    b.append(cardFace(state.cards[row].card));
    b.setAttribute("aria-label", `Move the ${spoken(state.cards[row].card)}`);
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
  box.hidden = state.moving < 0 || !state.table;
  if (box.hidden) return;
  box.append(make("span", "", `Move ${face(state.cards[state.moving].card)} to`));
  const targets = state.table.groups.map((g) => [`group ${g.number}`, g.number]).concat([["the starter", null]]);
  for (const [text, group] of targets) {
    const b = make("button", "", text);
    b.type = "button";
    b.addEventListener("click", () => {
      state.moves = [...state.moves, { row: state.moving, group }];
      state.moving = -1;
      rerule();
    });
    box.append(b);
  }
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
  li.append(head, cardChips(g), items, claimInputs(g));
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
  drawBoxes();
  moveChoices();
  if (!table) return;
  $("referee-unclear").replaceChildren(...table.unclear.map((reason) => make("li", "", reason)));
  $("referee-roles").textContent = `Roles suggested: ${table.roles_reason}. Tap a role to change it.`;
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
}
