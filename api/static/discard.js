// The Discard view: photograph the dealt cards (or tap them in), choose dealer or pone, and see every
// way to keep four ranked, the cards to throw boxed on the photo. Photo -> multipart POST
// /api/discard; every change after it (a card tapped in or out, the seat, the players) -> the same
// route with JSON cards. The photo stays in memory.

import { RANKS, SUIT_NAMES, SUITS, face, isRed, isRedSuit, percent, spoken } from "./cards.js";
import { $, cardFace, make, makeSvg, say, showPhoto } from "./dom.js";
import { postForm, postJson } from "./net.js";

const deal = {
  cards: [],       // ["5H", ...] in the order read or tapped
  boxes: {},       // card -> [x0, y0, x1, y1] on the photo, for cards read from it
  image: null,     // {width, height} of the photo
  advice: null,    // the last DiscardOut
  chosen: 0,       // index of the highlighted choice
  rank: null,      // rank tapped, waiting for its suit
  request: 0,      // newest request: older answers are ignored
};
const seat = () => document.querySelector('input[name="deal-seat"]:checked').value;
const players = () => Number($("deal-players").value);
const wanted = () => (players() === 2 ? 6 : 5);
const status = (text, kind) => say($("deal-status"), text, kind);

// --- the dealt cards: chips to remove, ranks then suits to add -----------------------------

function drawDealt() {
  $("deal-cards").replaceChildren(...deal.cards.map((card) => {
    const b = make("button", "chip" + (isRed(card) ? " red-card" : ""));
    b.type = "button";
    b.setAttribute("aria-label", `${card}: tap to take it out`);
    b.append(cardFace(card), make("span", "sub", "remove"));
    b.addEventListener("click", () => { deal.cards = deal.cards.filter((c) => c !== card); changed(); });
    const li = make("li");
    li.append(b);
    return li;
  }));
  $("deal-count").textContent = `${deal.cards.length} of ${wanted()}`;
}

function pressRank(rank) {
  deal.rank = rank;
  for (const x of $("deal-ranks").children) x.setAttribute("aria-pressed", String(x.textContent === rank));
}

function buildPad() {
  for (const r of RANKS) {
    const b = make("button", "", r);
    b.type = "button";
    b.setAttribute("aria-pressed", "false");
    b.addEventListener("click", () => pressRank(deal.rank === r ? null : r));
    $("deal-ranks").append(b);
  }
  for (const [s, glyph] of Object.entries(SUITS)) {
    const b = make("button", isRedSuit(s) ? "red" : "", glyph);
    b.type = "button";
    b.setAttribute("aria-label", SUIT_NAMES[s]);
    b.addEventListener("click", () => addCard(s));
    $("deal-suits").append(b);
  }
}

function addCard(suit) {
  if (!deal.rank) {
    status("Tap a rank first, then its suit.", "error");
    return;
  }
  const card = deal.rank + suit;
  pressRank(null);
  if (deal.cards.includes(card)) {
    status(`${face(card)} is there already: a deck holds each card once.`, "error");
  } else if (deal.cards.length >= wanted()) {
    status(`${players()} players are dealt ${wanted()} cards: take one out first.`, "error");
  } else {
    deal.cards.push(card);
    changed();
  }
}

function changed() {
  drawDealt();
  if (deal.cards.length === wanted()) {
    advise();
    return;
  }
  deal.advice = null;
  $("advice").hidden = true;
  drawBoxes();
  status(toDeal(), deal.cards.length > wanted() ? "error" : "");
}

// What the deal still needs. Cards over the number are never dropped for the player: which one
// goes is theirs to say.
function toDeal() {
  const more = wanted() - deal.cards.length;
  const dealt = `${players()} players are dealt ${wanted()}`;
  if (more < 0) return `${dealt}: tap ${-more === 1 ? "the card" : `the ${-more} cards`} to take out.`;
  return `Add ${more} more card${more === 1 ? "" : "s"} (${dealt}), or take some out.`;
}

// --- the advice ------------------------------------------------------------------------------

async function advise() {
  const mine = ++deal.request;
  status("Ranking every way to keep four…");
  try {
    const advice = await postJson("/api/discard", { cards: deal.cards, seat: seat(), players: players() });
    if (mine === deal.request) show(advice);
  } catch (err) {
    if (mine === deal.request) status(err.message, "error");
  }
}

function showPreview(file) {
  showPhoto($("deal-preview"), file, () => { $("deal-figure").hidden = true; });
  $("deal-figure").hidden = false;
  $("deal-hint").hidden = true;
}

async function readPhoto(file) {
  showPreview(file);
  const mine = ++deal.request;
  status("Reading the cards…");
  const form = new FormData();
  form.append("photo", file);
  form.append("seat", seat());
  form.append("players", String(players()));
  let advice = null;
  let failure = null;
  try {
    advice = await postForm("/api/discard", form);
  } catch (err) {
    failure = err;
  }
  if (mine !== deal.request) return;
  // A 422 (not the cards of a deal) still carries the cards seen: show them, to tap in or out.
  const read = advice || (failure && failure.body);
  if (!read) {
    status(failure.message, "error");
    return;
  }
  const seen = (read.cards || []).filter((c) => c.card);
  deal.image = read.image || null;
  deal.boxes = Object.fromEntries(seen.map((c) => [c.card, c.xyxy]));
  deal.cards = seen.map((c) => c.card);
  drawDealt();
  if (failure) {
    deal.advice = null;
    $("advice").hidden = true;
    drawBoxes();
    status(failure.message + (seen.length ? " Tap cards in or out below to fix it." : ""), "error");
    return;
  }
  const unsure = advice.cards.filter((c) => c.check).map((c) => `${face(c.card)} (${percent(c.confidence)})`);
  show(advice, unsure.length ? `Check ${unsure.join(", ")}: not sure. ` : "");
}

function show(advice, note = "") {
  deal.advice = advice;
  deal.chosen = 0;
  const best = advice.choices[0];
  status(note + `Throw ${best.throw.map(face).join(" ")}: ${best.reason}.`);
  drawAdvice();
  drawBoxes();
}

function choiceButton(c, i) {
  const b = make("button", "choice");
  b.type = "button";
  b.setAttribute("aria-pressed", String(i === deal.chosen));
  const throwRow = make("span", "throw");
  throwRow.append("Throw ", ...c.throw.map((card) => cardFace(card, "mini thrown")));
  const keepRow = make("span", "keep");
  keepRow.append("keep ", ...c.keep.map((card) => cardFace(card, "mini")));
  const hand = `hand ${c.hand.mean.toFixed(1)} (${c.hand.minimum}–${c.hand.maximum})`;
  const figures = make("span", "figures", `${hand} · crib ${c.crib.toFixed(1)} · net ${c.net.toFixed(1)}`);
  b.append(throwRow, keepRow, figures);
  const like = twin(deal.advice.choices, i);
  if (like) {
    b.append(make("span", "why", `As throwing ${like.throw.map(face).join(" ")}, to a tenth of a point: ` +
      "only the suit differs."));
  } else if (i < 3) {
    b.append(make("span", "why", c.reason));
  }
  // Spoken in full: "5♠" and "5♥" must not both be read as "throw 5".
  b.setAttribute("aria-label", `Throw ${c.throw.map(spoken).join(" and ")}; keep ` +
    `${c.keep.map(spoken).join(", ")}; net ${c.net.toFixed(1)}`);
  b.addEventListener("click", () => {
    deal.chosen = i;
    for (const [k, x] of [...$("advice-list").querySelectorAll("button.choice")].entries()) {
      x.setAttribute("aria-pressed", String(k === i));
    }
    drawBoxes();
  });
  return b;
}

// The figures a choice shows, as shown.
const shown = (c) => [c.reason, c.hand.mean.toFixed(1), c.hand.minimum, c.hand.maximum, c.crib.toFixed(1),
  c.net.toFixed(1)].join("|");

// An earlier choice that reads the same in every figure shown (5S or 5H thrown): a suit apart.
function twin(choices, i) {
  return choices.slice(0, i).find((d) => shown(d) === shown(choices[i]));
}

function drawAdvice() {
  const dealer = deal.advice.seat === "dealer";
  $("advice-net").textContent = dealer ? "net = hand + your crib" : "net = hand − the dealer's crib";
  $("advice-list").replaceChildren(...deal.advice.choices.map((c, i) => {
    const li = make("li");
    li.append(choiceButton(c, i));
    return li;
  }));
  $("advice").hidden = false;
}

// A label's top-left on the photo, clear of those placed already: above its box, stacked higher
// while it would cover another (fanned cards lie close), or below the box at the photo's top edge.
function labelSpot(placed, [x0, y0, , y1], width, fontPx, text) {
  const w = fontPx * 0.62 * text.length;
  const h = fontPx * 1.15;
  const x = Math.max(0, Math.min(x0, width - w));
  const clear = (y) => !placed.some(([a, b, c, d]) => x < c && x + w > a && y < d && y + h > b);
  let y = y0 - 8 - h;
  while (y >= 0 && !clear(y)) y -= h;
  if (y < 0) for (y = y1 + 8; !clear(y); y += h);
  placed.push([x, y, x + w, y + h]);
  return { x, y: y + fontPx };  // SVG text is placed by its baseline
}

// The photo's boxes: the chosen choice's throw in orange and labelled, the kept cards in green.
function drawBoxes() {
  const svg = $("deal-boxes");
  svg.replaceChildren();
  if (!deal.image) return;
  svg.setAttribute("viewBox", `0 0 ${deal.image.width} ${deal.image.height}`);
  const thrown = deal.advice ? deal.advice.choices[deal.chosen].throw : [];
  const fontPx = Math.max(deal.image.width / 28, 14);
  const placed = [];
  for (const [card, [x0, y0, x1, y1]] of Object.entries(deal.boxes)) {
    if (!deal.cards.includes(card)) continue;
    const rect = makeSvg("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0,
      class: thrown.includes(card) ? "throw" : "keep", "data-card": card });
    svg.append(rect);
    if (thrown.includes(card)) {
      const text = "throw " + face(card);
      const label = makeSvg("text", { ...labelSpot(placed, [x0, y0, x1, y1], deal.image.width, fontPx, text),
        "font-size": fontPx, "data-card": card });
      label.textContent = text;
      svg.append(label);
    }
  }
}

/** Wire the Discard view's controls; once, at start. */
export function startDiscard() {
  buildPad();
  drawDealt();
  $("deal-photo").addEventListener("change", (e) => {
    if (e.target.files[0]) readPhoto(e.target.files[0]);
    e.target.value = "";
  });
  for (const input of document.querySelectorAll('input[name="deal-seat"]')) {
    input.addEventListener("change", () => { if (deal.cards.length === wanted()) advise(); });
  }
  $("deal-players").addEventListener("change", changed);
}
