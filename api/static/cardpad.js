// The card pad: all 52 cards as buttons, one tap picks one (a rank then a suit then "Use it" was
// four taps to fix one misread card; this is two: the chip, then the card). Used inline, to add the
// cards a photo missed, and in the #picker dialog, to fix a card read wrong.

import { RANKS, SUITS, face, isRedSuit, spoken } from "./cards.js";
import { $, make } from "./dom.js";

/** A grid of the 52 cards, rank by rank (a row per rank on a phone held upright, a column per rank
 * held sideways, as many across as fit and the rest below); `pick("QC")` hears each tap. */
export function cardGrid(pick, label = "Tap a card") {
  const grid = make("div", "card-grid");
  grid.setAttribute("role", "group");
  grid.setAttribute("aria-label", label);
  for (const rank of RANKS) {
    const column = make("div", "rank"); // the stylesheet lays a rank's 4 cards as a row or a column
    grid.append(column);
    for (const suit of Object.keys(SUITS)) {
      const card = rank + suit;
      const b = make("button", isRedSuit(suit) ? "red" : "", face(card));
      b.type = "button";
      b.dataset.card = card;
      b.setAttribute("aria-label", spoken(card));
      b.addEventListener("click", () => pick(card));
      column.append(b);
    }
  }
  return grid;
}

/** Grey out the cards already on the table (a deck holds each once) and mark `current`. */
export function markGrid(grid, taken, current = null) {
  for (const b of grid.querySelectorAll("button")) {
    const card = b.dataset.card;
    b.disabled = card !== current && taken.includes(card);
    b.setAttribute("aria-pressed", String(card === current));
  }
}

let resolveOpen = null; // the open pickCard()'s resolve, called when the dialog closes
let chosen = null;

/** Put the card grid in the #picker dialog and listen for its closing; once, at start. */
export function startPicker() {
  const grid = cardGrid((card) => {
    chosen = card;
    $("picker").close("ok");
  }, "Which card it is");
  grid.id = "picker-grid";
  $("picker-cards").replaceWith(grid);
  $("picker").addEventListener("close", () => {
    const resolve = resolveOpen;
    resolveOpen = null;
    if (resolve) resolve($("picker").returnValue === "ok" ? chosen : null);
  });
}

/** Ask which card it is, `card` marked and the cards in `taken` greyed out: resolves to "QC", or
 * null if cancelled. */
export function pickCard(card, title, taken = []) {
  chosen = null;
  $("picker-title").textContent = title;
  markGrid($("picker-grid"), taken, card);
  $("picker").returnValue = "";
  $("picker").showModal();
  return new Promise((resolve) => { resolveOpen = resolve; });
}
