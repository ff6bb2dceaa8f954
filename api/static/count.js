// The Count view: photo -> /api/count; every correction after it (a card, the starter, hand or
// crib, a claim) -> /api/score. The photo goes only to this server and is shown from a local object
// URL; the view keeps the five cards and which one is the starter, nothing else.

import { face, isRed, percent, spoken } from "./cards.js";
import { $, cardFace, make, makeSvg, say } from "./dom.js";
import { postForm, postJson } from "./net.js";
import { pickCard } from "./picker.js";

const state = {
  cards: [],          // [{card: "5H" | null, confidence: 0..1 | null (typed), check: bool, xyxy: box | null}]
  starter: -1,        // index into cards
  image: null,        // {width, height} of the upright photo
  show: null,         // last ShowOut
  lit: -1,            // index of the highlighted item
  request: 0,         // newest scoring request: older answers are ignored
  photo: 0,           // newest photo: a count of an older one is ignored
};

const status = (text, kind) => say($("status"), text, kind);
const crib = () => document.querySelector('input[name="what"]:checked').value === "crib";
const readings = (cards) =>
  cards.map((c) => ({ card: c.card, confidence: c.confidence, check: c.check, xyxy: c.xyxy }));

// A card seen beyond the show's number, set aside uncounted by the server: say which, so a wrong
// choice is seen (the player taps the card it should replace).
function showAside(cards, seen) {
  const el = $("aside-note");
  el.textContent = cards.map((c) => `Set aside: ${face(c.card)} (${percent(c.confidence)} sure), ` +
    `the least sure of ${seen} cards seen. If it is one of the show, tap the card it replaces.`).join(" ");
  el.hidden = cards.length === 0;
}

function noteStarter(text, unsure) {
  const note = $("starter-note");
  note.textContent = text;
  note.classList.toggle("unsure", unsure);
}

// --- photo -> count -----------------------------------------------------------------------

function showPreview(file) {
  const url = URL.createObjectURL(file);
  const img = $("preview");
  img.onload = () => URL.revokeObjectURL(url);
  img.onerror = () => {
    // Not every browser draws every photo the server reads (Chrome, an iPhone's HEIC): say so.
    URL.revokeObjectURL(url);
    $("photo-view").hidden = true;
    $("no-preview").hidden = false;
  };
  img.src = url;
  $("photo-view").hidden = false;
  $("no-preview").hidden = true;
  $("empty-hint").hidden = true;
}

async function countPhoto(file) {
  showPreview(file);
  $("result").hidden = true;
  say($("verdict"), "");
  $("boxes").replaceChildren();
  status("Reading the cards…");
  const form = new FormData();
  form.append("photo", file);
  form.append("crib", crib() ? "true" : "false");
  const photo = ++state.photo;
  state.request += 1; // a scoring answer for the cards before this photo no longer applies
  try {
    const data = await postForm("/api/count", form);
    if (photo === state.photo) counted(data);
  } catch (err) {
    if (photo !== state.photo) return;
    showAside([], 0);
    status(err.message, "error");
    if (err.body && Array.isArray(err.body.cards) && err.body.image) notAShow(err.body);
  }
}

function counted(data) {
  state.image = data.image;
  state.cards = readings(data.cards);
  state.starter = data.cards.findIndex((c) => c.is_starter);
  const s = data.starter;
  noteStarter(s.sure ? `Starter ${face(s.card)}: ${s.reason} (${percent(s.confidence)} sure).`
    : `Not sure which card is the starter (${s.reason}). Choose it below.`, !s.sure);
  showAside(data.set_aside, data.cards.length + data.set_aside.length);
  status("");
  showResult(data.show);
}

// Not a show (the 422's detail is on screen): box what was seen; four cards and no starter get an
// empty starter chip to fill in by hand.
function notAShow(data) {
  state.image = data.image;
  state.cards = readings(data.cards);
  state.starter = -1;
  drawBoxes();
  if (state.cards.length !== 4) return;
  state.cards.push({ card: null, confidence: null, check: false, xyxy: null });
  state.starter = 4;
  state.show = null;
  noteStarter("Tap the ? card to say what the starter is.", true);
  renderCards();
  renderShow(null);
  $("result").hidden = false;
}

// --- cards -> score -----------------------------------------------------------------------

async function rescore() {
  if (state.cards.length !== 5 || state.starter < 0 || state.cards.some((c) => !c.card)) {
    renderCards();
    return;
  }
  const hand = state.cards.filter((_, i) => i !== state.starter).map((c) => c.card);
  const body = { hand, starter: state.cards[state.starter].card, crib: crib() };
  const claim = $("claim").value.trim();
  if (claim !== "") body.claim = Number(claim);
  const ticket = ++state.request;
  try {
    const show = await postJson("/api/score", body);
    if (ticket !== state.request) return;
    status("");
    showResult(show);
  } catch (err) {
    if (ticket !== state.request) return;
    status(err.message, "error");
    renderCards();
  }
}

function showResult(show) {
  state.show = show;
  state.lit = -1;
  $("result").hidden = false;
  renderCards();
  renderShow(show);
  drawBoxes();
}

async function fixCard(i) {
  const which = i === state.starter ? "the starter" : "this card";
  const was = state.cards[i].card;
  const card = await pickCard(was, was ? `Fix ${which}: ${face(was)} is…` : `What is ${which}?`);
  if (!card) return;
  state.cards[i] = { card, confidence: null, check: false, xyxy: state.cards[i].xyxy };
  await rescore();
  drawBoxes();
}

// --- rendering ----------------------------------------------------------------------------

function cardChip(c, i, lit) {
  const isStarter = i === state.starter;
  const b = make("button", "chip");
  b.type = "button";
  b.dataset.index = String(i);
  b.dataset.card = c.card || "";
  b.classList.toggle("starter", isStarter);
  b.classList.toggle("missing", !c.card);
  b.classList.toggle("unsure", !!c.check);
  b.classList.toggle("lit", !!c.card && lit.has(c.card));
  const sub = isStarter ? "starter" : c.confidence === null ? "typed" : percent(c.confidence);
  b.append(cardFace(c.card), make("span", "sub", sub));
  const sure = c.confidence === null ? "" : `, ${percent(c.confidence)} sure`;
  b.setAttribute("aria-label",
    `${isStarter ? "Starter: " : ""}${c.card ? spoken(c.card) : "not set"}${sure}. Tap to correct.`);
  b.addEventListener("click", () => fixCard(i));
  return b;
}

function renderCards() {
  const lit = litCards();
  $("chips").replaceChildren(...state.cards.map((c, i) => {
    const li = make("li");
    li.append(cardChip(c, i, lit));
    return li;
  }));
  renderStarterChoices();
}

function renderStarterChoices() {
  $("starter-choices").replaceChildren(...state.cards.map((c, i) => {
    const input = make("input");
    input.type = "radio";
    input.name = "starter";
    input.value = String(i);
    input.checked = i === state.starter;
    input.setAttribute("aria-label", `Starter is ${c.card ? spoken(c.card) : "the card not set yet"}`);
    input.addEventListener("change", () => {
      state.starter = i;
      rescore();
    });
    const label = make("label");
    label.append(input, make("span", isRed(c.card) ? "red" : "", face(c.card)));
    return label;
  }));
}

function itemButton(item, k) {
  const b = make("button");
  b.type = "button";
  b.dataset.item = String(k);
  b.setAttribute("aria-pressed", k === state.lit ? "true" : "false");
  b.append(make("span", "what", `${item.kind} ${item.cards.map(face).join(" ")}`),
    make("span", "pts", `+${item.points}`), make("span", "why", item.reason));
  b.setAttribute("aria-label", `${item.kind}, ${item.points} points: ${item.reason}`);
  b.addEventListener("click", () => {
    state.lit = state.lit === k ? -1 : k;
    renderShow(state.show);
    renderCards();
    drawBoxes();
  });
  return b;
}

function renderShow(show) {
  $("total").textContent = show ? String(show.total) : "–";
  $("announcement").textContent = show ? show.announcement + "." : "";
  const heels = $("heels");
  heels.hidden = !(show && show.his_heels);
  if (show && show.his_heels) {
    heels.textContent = `His heels: the starter is a jack, ${show.his_heels} to the dealer ` +
      "(not part of this count).";
  }
  const rows = (show ? show.items : []).map((item, k) => {
    const li = make("li");
    li.append(itemButton(item, k));
    return li;
  });
  if (show && !show.items.length) rows.push(make("li", "none", "Nothing scores: that's a nineteen hand."));
  $("items").replaceChildren(...rows);
  const claim = show ? show.claim : null;
  const verdict = !claim ? "" : claim.verdict === "correct" ? "correct" : "wrong";
  say($("verdict"), claim ? claim.message : "", verdict);
}

function litCards() {
  if (!state.show || state.lit < 0 || !state.show.items[state.lit]) return new Set();
  return new Set(state.show.items[state.lit].cards);
}

function drawBoxes() {
  const svg = $("boxes");
  svg.replaceChildren();
  if (!state.image) return;
  const { width, height } = state.image;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const lit = litCards();
  const fontPx = Math.max(width, height) / 28;
  state.cards.forEach((c, i) => {
    if (!c.xyxy) return;
    const [x0, y0, x1, y1] = c.xyxy;
    // Index boxes are small: pad them so the outline frames the corner, not the glyph.
    const pad = Math.max(x1 - x0, y1 - y0) * 0.08;
    const r = makeSvg("rect",
      { x: x0 - pad, y: y0 - pad, width: x1 - x0 + 2 * pad, height: y1 - y0 + 2 * pad, rx: pad });
    if (i === state.starter) r.classList.add("starter");
    if (c.card && lit.has(c.card)) r.classList.add("lit");
    const t = makeSvg("text", { x: x0, y: Math.max(y0 - pad - fontPx * 0.25, fontPx), "font-size": fontPx });
    t.textContent = face(c.card) + (i === state.starter ? " ★" : "");
    svg.append(r, t);
  });
}

// --- speech and wiring --------------------------------------------------------------------

function speak() {
  if (!state.show || !("speechSynthesis" in window)) return;
  window.speechSynthesis.cancel();
  let text = state.show.announcement;
  if (state.show.his_heels) text += `. And two for his heels.`;
  window.speechSynthesis.speak(new SpeechSynthesisUtterance(text));
}

function checkClaim(event) {
  event.preventDefault();
  if ($("claim").value.trim() === "") {
    say($("verdict"), "Type the count you made, 0 to 29.", "wrong");
    return;
  }
  rescore();
}

/** Wire the Count view's controls; once, at start. */
export function startCount() {
  if (!("speechSynthesis" in window)) $("speak").hidden = true;
  $("speak").addEventListener("click", speak);
  $("photo").addEventListener("change", (e) => {
    const file = e.target.files && e.target.files[0];
    if (file) countPhoto(file);
    e.target.value = "";   // the same photo can be chosen again
  });
  for (const r of document.querySelectorAll('input[name="what"]')) r.addEventListener("change", rescore);
  $("claim-form").addEventListener("submit", checkClaim);
}
