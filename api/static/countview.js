// The Count view drawn from its state (count.js owns the state and what a tap does): the card
// chips, the starter choices, the scoring items and the boxes on the photo. Nothing here calls the
// server; each function redraws its part whole.

import { face, isRed, percent, spoken } from "./cards.js";
import { $, cardFace, make, makeSvg, say } from "./dom.js";

function litCards(state) {
  if (!state.show || state.lit < 0 || !state.show.items[state.lit]) return new Set();
  return new Set(state.show.items[state.lit].cards);
}

function chip(c, sub, label) {
  const b = make("button", "chip");
  b.type = "button";
  b.dataset.card = c.card || "";
  b.classList.toggle("missing", !c.card);
  b.classList.toggle("unsure", !!c.check);
  b.append(cardFace(c.card), make("span", "sub", sub));
  b.setAttribute("aria-label", label);
  return b;
}

const listed = (buttons) => buttons.map((b) => {
  const li = make("li");
  li.append(b);
  return li;
});

function cardChip(state, c, i, lit, fix) {
  const isStarter = i === state.starter;
  const sub = isStarter ? "starter" : !c.card ? "add" : c.confidence === null ? "typed" : percent(c.confidence);
  const sure = c.confidence === null ? "" : `, ${percent(c.confidence)} sure`;
  const b = chip(c, sub,
    `${isStarter ? "Starter: " : ""}${c.card ? spoken(c.card) : "not set"}${sure}. Tap to correct.`);
  b.dataset.index = String(i);
  b.classList.toggle("starter", isStarter);
  b.classList.toggle("lit", !!c.card && lit.has(c.card));
  b.addEventListener("click", () => fix(i));
  return b;
}

/** The show's chips (tap one to fix it) and the starter choices. */
export function renderCards(state, handlers) {
  const lit = litCards(state);
  $("chips").replaceChildren(...listed(state.cards.map((c, i) => cardChip(state, c, i, lit, handlers.fix))));
  $("starter-chooser").hidden = false;
  $("starter-choices").replaceChildren(...state.cards.map((c, i) => {
    const input = make("input");
    input.type = "radio";
    input.name = "starter";
    input.value = String(i);
    input.checked = i === state.starter;
    input.setAttribute("aria-label", `Starter is ${c.card ? spoken(c.card) : "the card not set yet"}`);
    input.addEventListener("change", () => handlers.starter(i));
    const label = make("label");
    label.append(input, make("span", isRed(c.card) ? "red" : "", face(c.card)));
    return label;
  }));
}

const ROLE = ["hand 1", "hand 2", "hand 3", "hand 4", "starter"];

/** Every card of a photo of more than a show, to tap the 4 hand cards and then the starter. */
export function renderChoosing(state, handlers) {
  const n = state.chosen.length;
  $("choose-note").textContent = `${state.seen.length} cards seen: ` +
    (n < 4 ? `tap the 4 cards of the show (${n} of 4), then the starter.` : "now tap the starter.");
  $("chips").replaceChildren(...listed(state.seen.map((c, i) => {
    const at = state.chosen.indexOf(i);
    const sub = at >= 0 ? ROLE[at] : c.confidence === null ? "" : percent(c.confidence);
    const b = chip(c, sub, `${c.card ? spoken(c.card) : "a card not read"}: ` +
      (at >= 0 ? `${ROLE[at]}, tap to take it back.` : "tap to choose it."));
    b.setAttribute("aria-pressed", String(at >= 0));
    b.classList.toggle("starter", at === 4);
    b.addEventListener("click", () => handlers.choose(i));
    return b;
  })));
  $("starter-chooser").hidden = true;
}

function itemButton(state, item, k, light) {
  const b = make("button");
  b.type = "button";
  b.dataset.item = String(k);
  b.setAttribute("aria-pressed", k === state.lit ? "true" : "false");
  b.append(make("span", "what", `${item.kind} ${item.cards.map(face).join(" ")}`),
    make("span", "pts", `+${item.points}`), make("span", "why", item.reason));
  b.setAttribute("aria-label", `${item.kind}, ${item.points} points: ${item.reason}`);
  b.addEventListener("click", () => light(k));
  return b;
}

/** The total, the spoken count, his heels, the items and the claim's verdict ("–" while no show). */
export function renderShow(state, handlers) {
  const show = state.show;
  $("choose-note").hidden = !state.choosing;
  $("total").textContent = show ? String(show.total) : "–";
  $("announcement").textContent = show ? show.announcement + "." : "";
  const heels = $("heels");
  heels.hidden = !(show && show.his_heels);
  if (show && show.his_heels) {
    heels.textContent = `His heels: the starter is a jack, ${show.his_heels} to the dealer ` +
      "(not part of this count).";
  }
  const rows = listed((show ? show.items : []).map((item, k) => itemButton(state, item, k, handlers.light)));
  if (show && !show.items.length) rows.push(make("li", "none", "Nothing scores: that's a nineteen hand."));
  $("items").replaceChildren(...rows);
  const claim = show ? show.claim : null;
  const verdict = !claim ? "" : claim.verdict === "correct" ? "correct" : "wrong";
  say($("verdict"), claim ? claim.message : "", verdict);
}

/** Each card's corner boxed on the photo with its face: the starter's in orange, a lit item's in yellow. */
export function drawBoxes(state) {
  const svg = $("boxes");
  svg.replaceChildren();
  if (!state.image) return;
  const { width, height } = state.image;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const lit = litCards(state);
  const fontPx = Math.max(width, height) / 28;
  const cards = state.choosing ? state.seen : state.cards;
  const starter = state.choosing ? state.chosen[4] : state.starter;
  cards.forEach((c, i) => {
    if (!c.xyxy) return;
    const [x0, y0, x1, y1] = c.xyxy;
    // Index boxes are small: pad them so the outline frames the corner, not the glyph.
    const pad = Math.max(x1 - x0, y1 - y0) * 0.08;
    const r = makeSvg("rect",
      { x: x0 - pad, y: y0 - pad, width: x1 - x0 + 2 * pad, height: y1 - y0 + 2 * pad, rx: pad });
    if (i === starter) r.classList.add("starter");
    if (c.card && lit.has(c.card)) r.classList.add("lit");
    const t = makeSvg("text", { x: x0, y: Math.max(y0 - pad - fontPx * 0.25, fontPx), "font-size": fontPx });
    t.textContent = face(c.card) + (i === starter ? " ★" : "");
    svg.append(r, t);
  });
}
