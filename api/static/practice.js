// The Practice view: a hand dealt by /api/practice/deal, the player's count checked by
// /api/practice/check (the rules stay in Python). Score, streak and the lessons missed lately are kept
// in this browser's localStorage, so they survive a reload; nothing about the player goes to the server
// except the lessons to deal more often.

import { $, cardFace, make, say } from "./dom.js";
import { postJson } from "./net.js";

const KEY = "cribcount.practice";
const RECENT_MISSES = 5; // lessons of the last wrong hands dealt more often (as `cribcount practice`)

const round = { hand: null, checked: false }; // hand: {hand, starter, crib, lesson} from /api/practice/deal
let stats = null; // {played, right, streak, best, focus, level, crib}, loaded at start

function load() {
  const fresh = { played: 0, right: 0, streak: 0, best: 0, focus: [], level: "easy", crib: false };
  try {
    return { ...fresh, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch (_) {
    return fresh; // storage off or spoilt: start again rather than fail
  }
}

function save() {
  try {
    localStorage.setItem(KEY, JSON.stringify(stats));
  } catch (_) { /* private browsing without storage: the score lasts this visit only */ }
}

function showStats() {
  $("practice-score").textContent = `${stats.right}/${stats.played}`;
  $("practice-streak").textContent = String(stats.streak);
  $("practice-best").textContent = String(stats.best);
}

function chip(card, starter) {
  const div = make("div", "chip" + (starter ? " starter" : ""));
  div.dataset.card = card;
  div.append(cardFace(card), make("span", "sub", starter ? "starter" : "\u00a0"));
  const li = make("li");
  li.append(div);
  return li;
}

const verdict = (text, kind) => say($("practice-verdict"), text, kind);

async function deal() {
  verdict("Dealing…");
  $("practice-result").hidden = true;
  $("practice-answer").value = "";
  let hand;
  try {
    hand = await postJson("/api/practice/deal", { level: stats.level, crib: stats.crib, focus: stats.focus });
  } catch (err) {
    verdict(`Could not deal: ${err.message}`, "wrong");
    return;
  }
  Object.assign(round, { hand, checked: false });
  const cards = $("practice-cards");
  $("practice-what").textContent = hand.crib ? "crib" : "hand";
  cards.replaceChildren(...hand.hand.map((c) => chip(c, false)), chip(hand.starter, true));
  cards.dataset.crib = String(hand.crib);
  cards.dataset.deals = String(Number(cards.dataset.deals || 0) + 1);
  $("practice-check").disabled = false;
  verdict(hand.crib ? "It is the crib: a 4-card flush scores nothing here." : "");
  $("practice-answer").focus({ preventScroll: true });
}

// One list of the result (missed, not there, right): each entry a line of what and why.
function items(listId, entries, what, why) {
  const list = $(listId);
  list.replaceChildren(...entries.map((entry) => {
    const li = make("li");
    li.append(make("span", "what", what(entry)), make("span", "why", why(entry)));
    return li;
  }));
  list.closest(".practice-group").hidden = entries.length === 0;
}

const named = (item) => `${item.kind} ${item.cards.join(" ")} (${item.points})`;
const reason = (entry) => entry.reason;

function tally(result) {
  stats.played += 1;
  if (result.correct) {
    stats.right += 1;
    stats.streak += 1;
    stats.best = Math.max(stats.best, stats.streak);
  } else {
    stats.streak = 0;
    stats.focus = [...stats.focus, ...result.lessons].slice(-RECENT_MISSES);
  }
  save();
  showStats();
}

async function check(event) {
  event.preventDefault();
  const { hand, checked } = round;
  if (!hand || checked) return;
  let result;
  try {
    result = await postJson("/api/practice/check",
      { hand: hand.hand, starter: hand.starter, crib: hand.crib, answer: $("practice-answer").value });
  } catch (err) {
    verdict(err.message, "wrong"); // a slip in the typing: the same hand, try again
    return;
  }
  round.checked = true;
  $("practice-check").disabled = true;
  tally(result);
  const kind = result.correct ? "correct" : "wrong";
  verdict((result.correct ? "Right! " : "Not quite. ") + result.message, kind);
  $("practice-missed-title").textContent = result.exact ? "Missed" : "Missed: one of these";
  items("practice-missed", result.missed, named, reason);
  items("practice-wrong", result.wrong, (wrong) => wrong.said, reason);
  items("practice-right", result.right, named, reason);
  $("practice-announcement").textContent = `The count: ${result.show.announcement} (${result.total}).`;
  $("practice-result").hidden = false;
  $("practice-next").focus({ preventScroll: true });
}

function options() {
  stats.level = document.querySelector('input[name="practice-level"]:checked').value;
  stats.crib = $("practice-crib").checked;
  save();
  deal();
}

/** Wire the Practice view; returns what to call when the view is shown (it deals the first hand). */
export function startPractice() {
  stats = load();
  const view = $("practice");
  document.querySelector(`input[name="practice-level"][value="${stats.level}"]`).checked = true;
  $("practice-crib").checked = !!stats.crib;
  showStats();
  $("practice-form").addEventListener("submit", check);
  $("practice-next").addEventListener("click", deal);
  for (const input of view.querySelectorAll('input[name="practice-level"], #practice-crib')) {
    input.addEventListener("change", options);
  }
  // Deal when the view is first shown, not on every visit to the Count view.
  return () => { if (!round.hand) deal(); };
}
