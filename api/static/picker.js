// The card picker (the #picker dialog): tap a rank and a suit, then "Use it". pickCard() opens it
// and resolves to the card chosen, or null when cancelled; what the card is for is the caller's.

import { RANK_NAMES, RANKS, SUIT_NAMES, SUITS, isRedSuit, parseCard } from "./cards.js";
import { $, make } from "./dom.js";

const pending = { rank: null, suit: null };
let resolveOpen = null; // the open pickCard()'s resolve, called when the dialog closes

function sync() {
  const { rank, suit } = pending;
  for (const b of $("ranks").children) b.setAttribute("aria-pressed", String(b.dataset.rank === rank));
  for (const b of $("suits").children) b.setAttribute("aria-pressed", String(b.dataset.suit === suit));
  const ok = $("picker-ok");
  ok.disabled = !(rank && suit);
  ok.textContent = rank && suit ? `Use ${rank}${SUITS[suit]}` : "Pick rank and suit";
}

function padButton(text, label, className, pick) {
  const b = make("button", className, text);
  b.type = "button";
  b.setAttribute("aria-label", label);
  b.setAttribute("aria-pressed", "false");
  b.addEventListener("click", () => { pick(); sync(); });
  return b;
}

/** Fill the dialog's rank and suit buttons and listen for its closing; once, at start. */
export function startPicker() {
  for (const rank of RANKS) {
    const b = padButton(rank, RANK_NAMES[rank] || rank, "", () => { pending.rank = rank; });
    b.dataset.rank = rank;
    $("ranks").append(b);
  }
  for (const [suit, glyph] of Object.entries(SUITS)) {
    const red = isRedSuit(suit) ? "red" : "";
    const b = padButton(glyph, SUIT_NAMES[suit], red, () => { pending.suit = suit; });
    b.dataset.suit = suit;
    $("suits").append(b);
  }
  $("picker").addEventListener("close", () => {
    const resolve = resolveOpen;
    resolveOpen = null;
    const chosen = $("picker").returnValue === "ok" && pending.rank && pending.suit;
    if (resolve) resolve(chosen ? pending.rank + pending.suit : null);
  });
}

/** Ask which card it is, starting from `card` (or nothing): resolves to "QC", or null if cancelled. */
export function pickCard(card, title) {
  Object.assign(pending, parseCard(card) || { rank: null, suit: null });
  $("picker-title").textContent = title;
  sync();
  $("picker").returnValue = "";
  $("picker").showModal();
  return new Promise((resolve) => { resolveOpen = resolve; });
}
