// Card notation on the page, as the server spells it ("5H", "10D", "QS"), and how the page shows it
// ("5♥") or says it ("five of hearts" for a screen reader). No rules here: they stay in Python.

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
export const RANK_NAMES = { A: "ace", J: "jack", Q: "queen", K: "king" };

/** "10D" -> {rank: "10", suit: "D"}; null for a card not known yet. */
export function parseCard(card) {
  return card ? { rank: card.slice(0, -1), suit: card.slice(-1) } : null;
}

/** "5H" -> "5♥", the way a card is printed on the page; "?" for a card not known yet. */
export function face(card) {
  const c = parseCard(card);
  return c ? c.rank + SUITS[c.suit] : "?";
}

/** "QS" -> "queen of spades", for labels a screen reader speaks. */
export function spoken(card) {
  const c = parseCard(card);
  if (!c) return "unknown card";
  return `${RANK_NAMES[c.rank] || c.rank} of ${SUIT_NAMES[c.suit]}`;
}

export const isRedSuit = (suit) => suit === "H" || suit === "D";

export function isRed(card) {
  const c = parseCard(card);
  return !!c && isRedSuit(c.suit);
}

/** A reading's confidence as the page shows it: 0.987 -> "99%". */
export const percent = (confidence) => `${Math.round(confidence * 100)}%`;
