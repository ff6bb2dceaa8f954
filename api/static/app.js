// cribcount phone page: photo -> /api/count; every correction -> /api/score.
// Plain JS, no build step. The photo goes only to this server and is shown from a local
// object URL; the page keeps the five cards and which one is the starter, nothing else.
"use strict";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_NAMES = { A: "ace", J: "jack", Q: "queen", K: "king" };

const state = {
  cards: [],          // [{card: "5H" | null, confidence: number | null, check: bool, xyxy: [x0,y0,x1,y1] | null}]
  starter: -1,        // index into cards
  image: null,        // {width, height} of the upright photo
  show: null,         // last ShowOut
  lit: -1,            // index of the highlighted item
  editing: -1,        // index of the card the picker is changing
  pending: { rank: null, suit: null },
  request: 0,         // newest scoring request: older answers are ignored
};

const $ = (id) => document.getElementById(id);

function parse(card) {
  return card ? { rank: card.slice(0, -1), suit: card.slice(-1) } : null;
}

function face(card) {
  const c = parse(card);
  return c ? c.rank + SUITS[c.suit] : "?";
}

function spoken(card) {
  const c = parse(card);
  if (!c) return "unknown card";
  return `${RANK_NAMES[c.rank] || c.rank} of ${SUIT_NAMES[c.suit]}`;
}

function isRed(card) {
  const c = parse(card);
  return !!c && (c.suit === "H" || c.suit === "D");
}

// A card seen beyond the show's number, set aside uncounted by the server: say which, so a wrong
// choice is seen (the player taps the card it should replace).
function showAside(cards, seen) {
  const el = $("aside-note");
  el.textContent = cards.map((c) => `Set aside: ${face(c.card)} (${Math.round(c.confidence * 100)}% sure), ` +
    `the least sure of ${seen} cards seen. If it is one of the show, tap the card it replaces.`).join(" ");
  el.hidden = cards.length === 0;
}

function say(text, kind) {
  const el = $("status");
  el.textContent = text || "";
  el.className = "status" + (kind ? " " + kind : "");
}

function crib() {
  return document.querySelector('input[name="what"]:checked').value === "crib";
}

async function postJson(url, body) {
  const res = await fetch(url, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  return [res, await res.json().catch(() => ({ detail: `the server answered ${res.status}` }))];
}

// --- photo -> count -----------------------------------------------------------------------

async function countPhoto(file) {
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
  $("result").hidden = true;
  $("verdict").textContent = "";
  clearBoxes();
  say("Reading the cards…");
  const form = new FormData();
  form.append("photo", file);
  form.append("crib", crib() ? "true" : "false");
  let res, data;
  try {
    res = await fetch("/api/count", { method: "POST", body: form });
    data = await res.json().catch(() => ({ detail: `the server answered ${res.status}` }));
  } catch (err) {
    say("Could not reach the server: " + err.message, "error");
    return;
  }
  if (res.ok) {
    state.image = data.image;
    state.cards = data.cards.map((c) => ({ card: c.card, confidence: c.confidence, check: c.check, xyxy: c.xyxy }));
    state.starter = data.cards.findIndex((c) => c.is_starter);
    const s = data.starter;
    const note = $("starter-note");
    note.textContent = s.sure
      ? `Starter ${face(s.card)}: ${s.reason} (${Math.round(s.confidence * 100)}% sure).`
      : `Not sure which card is the starter (${s.reason}). Choose it below.`;
    note.className = "starter-note" + (s.sure ? "" : " unsure");
    showAside(data.set_aside, data.cards.length + data.set_aside.length);
    say("");
    showResult(data.show);
    return;
  }
  showAside([], 0);
  say(data.detail || `The server answered ${res.status}.`, "error");
  if (Array.isArray(data.cards) && data.image) {
    state.image = data.image;
    state.cards = data.cards.map((c) => ({ card: c.card, confidence: c.confidence, check: c.check, xyxy: c.xyxy }));
    state.starter = -1;
    drawBoxes();
    if (state.cards.length === 4) {
      // Four cards and no starter: add an empty starter chip to fill in by hand.
      state.cards.push({ card: null, confidence: null, check: false, xyxy: null });
      state.starter = 4;
      state.show = null;
      $("starter-note").textContent = "Tap the ? card to say what the starter is.";
      $("starter-note").className = "starter-note unsure";
      renderCards();
      renderShow(null);
      $("result").hidden = false;
    }
  }
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
  let res, data;
  try {
    [res, data] = await postJson("/api/score", body);
  } catch (err) {
    say("Could not reach the server: " + err.message, "error");
    return;
  }
  if (ticket !== state.request) return;
  if (!res.ok) {
    say(data.detail || `The server answered ${res.status}.`, "error");
    renderCards();
    return;
  }
  say("");
  showResult(data);
}

function showResult(show) {
  state.show = show;
  state.lit = -1;
  $("result").hidden = false;
  renderCards();
  renderShow(show);
  drawBoxes();
}

// --- rendering ----------------------------------------------------------------------------

function renderCards() {
  const list = $("chips");
  list.replaceChildren();
  const lit = litCards();
  state.cards.forEach((c, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "chip";
    b.dataset.index = String(i);
    b.dataset.card = c.card || "";
    const isStarter = i === state.starter;
    if (isStarter) b.classList.add("starter");
    if (!c.card) b.classList.add("missing");
    if (c.check) b.classList.add("unsure");
    if (c.card && lit.has(c.card)) b.classList.add("lit");
    const f = document.createElement("span");
    f.className = "face" + (isRed(c.card) ? " red" : "");
    f.textContent = face(c.card);
    const sub = document.createElement("span");
    sub.className = "sub";
    sub.textContent = isStarter ? "starter" : c.confidence === null ? "typed" : `${Math.round(c.confidence * 100)}%`;
    b.append(f, sub);
    const sure = c.confidence === null ? "" : `, ${Math.round(c.confidence * 100)}% sure`;
    b.setAttribute("aria-label",
      `${isStarter ? "Starter: " : ""}${c.card ? spoken(c.card) : "not set"}${sure}. Tap to correct.`);
    b.addEventListener("click", () => openPicker(i));
    li.append(b);
    list.append(li);
  });
  renderStarterChoices();
}

function renderStarterChoices() {
  const box = $("starter-choices");
  box.replaceChildren();
  state.cards.forEach((c, i) => {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "radio";
    input.name = "starter";
    input.value = String(i);
    input.checked = i === state.starter;
    input.setAttribute("aria-label", `Starter is ${c.card ? spoken(c.card) : "the card not set yet"}`);
    input.addEventListener("change", () => {
      state.starter = i;
      rescore();
    });
    const text = document.createElement("span");
    text.textContent = face(c.card);
    if (isRed(c.card)) text.style.color = "var(--red)";
    label.append(input, text);
    box.append(label);
  });
}

function renderShow(show) {
  $("total").textContent = show ? String(show.total) : "–";
  $("announcement").textContent = show ? show.announcement + "." : "";
  const heels = $("heels");
  heels.hidden = !(show && show.his_heels);
  if (show && show.his_heels) {
    heels.textContent = `His heels: the starter is a jack, ${show.his_heels} to the dealer (not part of this count).`;
  }
  const items = $("items");
  items.replaceChildren();
  if (show && !show.items.length) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = "Nothing scores: that's a nineteen hand.";
    items.append(li);
  }
  (show ? show.items : []).forEach((item, k) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.item = String(k);
    b.setAttribute("aria-pressed", k === state.lit ? "true" : "false");
    const what = document.createElement("span");
    what.className = "what";
    what.textContent = `${item.kind} ${item.cards.map(face).join(" ")}`;
    const pts = document.createElement("span");
    pts.className = "pts";
    pts.textContent = `+${item.points}`;
    const why = document.createElement("span");
    why.className = "why";
    why.textContent = item.reason;
    b.append(what, pts, why);
    b.setAttribute("aria-label", `${item.kind}, ${item.points} points: ${item.reason}`);
    b.addEventListener("click", () => {
      state.lit = state.lit === k ? -1 : k;
      renderShow(state.show);
      renderCards();
      drawBoxes();
    });
    li.append(b);
    items.append(li);
  });
  renderClaim(show ? show.claim : null);
}

function renderClaim(claim) {
  const v = $("verdict");
  if (!claim) {
    v.textContent = "";
    v.className = "verdict";
    return;
  }
  v.textContent = claim.message;
  v.className = "verdict " + (claim.verdict === "correct" ? "correct" : "wrong");
}

function litCards() {
  if (!state.show || state.lit < 0 || !state.show.items[state.lit]) return new Set();
  return new Set(state.show.items[state.lit].cards);
}

function clearBoxes() {
  $("boxes").replaceChildren();
}

function drawBoxes() {
  const svg = $("boxes");
  clearBoxes();
  if (!state.image) return;
  const { width, height } = state.image;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const lit = litCards();
  const ns = "http://www.w3.org/2000/svg";
  const fontPx = Math.max(width, height) / 28;
  state.cards.forEach((c, i) => {
    if (!c.xyxy) return;
    const [x0, y0, x1, y1] = c.xyxy;
    // Index boxes are small: pad them so the outline frames the corner, not the glyph.
    const pad = Math.max(x1 - x0, y1 - y0) * 0.08;
    const r = document.createElementNS(ns, "rect");
    r.setAttribute("x", x0 - pad);
    r.setAttribute("y", y0 - pad);
    r.setAttribute("width", x1 - x0 + 2 * pad);
    r.setAttribute("height", y1 - y0 + 2 * pad);
    r.setAttribute("rx", pad);
    if (i === state.starter) r.classList.add("starter");
    if (c.card && lit.has(c.card)) r.classList.add("lit");
    const t = document.createElementNS(ns, "text");
    t.setAttribute("x", x0);
    t.setAttribute("y", Math.max(y0 - pad - fontPx * 0.25, fontPx));
    t.setAttribute("font-size", fontPx);
    t.textContent = face(c.card) + (i === state.starter ? " ★" : "");
    svg.append(r, t);
  });
}

// --- the card picker ----------------------------------------------------------------------

function buildPicker() {
  const ranks = $("ranks");
  RANKS.forEach((rank) => {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.rank = rank;
    b.textContent = rank;
    b.setAttribute("aria-label", RANK_NAMES[rank] || rank);
    b.setAttribute("aria-pressed", "false");
    b.addEventListener("click", () => { state.pending.rank = rank; syncPicker(); });
    ranks.append(b);
  });
  const suits = $("suits");
  Object.entries(SUITS).forEach(([letter, glyph]) => {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.suit = letter;
    b.textContent = glyph;
    b.className = letter === "H" || letter === "D" ? "red" : "";
    b.setAttribute("aria-label", SUIT_NAMES[letter]);
    b.setAttribute("aria-pressed", "false");
    b.addEventListener("click", () => { state.pending.suit = letter; syncPicker(); });
    suits.append(b);
  });
  $("picker").addEventListener("close", () => {
    const dialog = $("picker");
    const i = state.editing;
    state.editing = -1;
    if (dialog.returnValue !== "ok" || i < 0) return;
    const { rank, suit } = state.pending;
    if (!rank || !suit) return;
    state.cards[i] = { card: rank + suit, confidence: null, check: false, xyxy: state.cards[i].xyxy };
    rescore().then(drawBoxes);
  });
}

function syncPicker() {
  const { rank, suit } = state.pending;
  document.querySelectorAll("#ranks button").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.rank === rank)));
  document.querySelectorAll("#suits button").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.suit === suit)));
  const ok = $("picker-ok");
  ok.disabled = !(rank && suit);
  ok.textContent = rank && suit ? `Use ${rank}${SUITS[suit]}` : "Pick rank and suit";
}

function openPicker(i) {
  state.editing = i;
  state.pending = parse(state.cards[i].card) || { rank: null, suit: null };
  const which = i === state.starter ? "the starter" : "this card";
  $("picker-title").textContent = state.cards[i].card
    ? `Fix ${which}: ${face(state.cards[i].card)} is…` : `What is ${which}?`;
  syncPicker();
  $("picker").showModal();
}

// --- speech and wiring --------------------------------------------------------------------

function speak() {
  if (!state.show || !("speechSynthesis" in window)) return;
  window.speechSynthesis.cancel();
  let text = state.show.announcement;
  if (state.show.his_heels) text += `. And two for his heels.`;
  window.speechSynthesis.speak(new SpeechSynthesisUtterance(text));
}

document.addEventListener("DOMContentLoaded", () => {
  buildPicker();
  if (!("speechSynthesis" in window)) $("speak").hidden = true;
  $("speak").addEventListener("click", speak);
  $("photo").addEventListener("change", (e) => {
    const file = e.target.files && e.target.files[0];
    if (file) countPhoto(file);
    e.target.value = "";   // the same photo can be chosen again
  });
  document.querySelectorAll('input[name="what"]').forEach((r) => r.addEventListener("change", rescore));
  $("claim-form").addEventListener("submit", (e) => {
    e.preventDefault();
    if ($("claim").value.trim() === "") {
      $("verdict").textContent = "Type the count you made, 0 to 29.";
      $("verdict").className = "verdict wrong";
      return;
    }
    rescore();
  });
});
