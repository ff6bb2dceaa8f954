// The Count view: photo -> /api/count; every correction after it (a card, the starter, hand or
// crib, a claim) -> /api/score. Every photo leads somewhere: a show is counted; fewer than 5 cards
// leave empty slots to fill from the card pad; more than 5 are chosen among (4 hand cards, then the
// starter), and a whole table (13 or more) is one tap from the Referee view; a photo refused is
// cleared. The photo goes only to this server, shrunk (shrink.js).

import { face, percent } from "./cards.js";
import { markGrid, cardGrid, pickCard } from "./cardpad.js";
import { drawBoxes, renderCards, renderChoosing, renderShow } from "./countview.js";
import { $, say, showPhoto } from "./dom.js";
import { postForm, postJson } from "./net.js";
import { refereePhoto } from "./referee.js";
import { shrinkPhoto } from "./shrink.js";

const SHOW = 5; // 4 hand or crib cards and the starter
const WHOLE_TABLE = 13; // the fewest cards at a show: two hands, the crib and the starter
const empty = () => ({ card: null, confidence: null, check: false, xyxy: null });

const state = {
  cards: [],          // the show's slots: [{card: "5H" | null, confidence: 0..1 | null (typed), check, xyxy}]
  starter: -1,        // index into cards; -1 while not known
  seen: [],           // every card of a photo of more than a show, to choose among
  chosen: [],         // indices into seen, in the order tapped: the 4 hand cards, then the starter
  choosing: false,    // the player is choosing the show among `seen`
  image: null,        // {width, height} of the photo sent
  file: null,         // the photo as taken, for the Referee view when it shows the whole table
  show: null,         // last ShowOut
  lit: -1,            // index of the highlighted item
  request: 0,         // newest scoring request: older answers are ignored
  photo: 0,           // newest photo: a count of an older one is ignored
};

const status = (text, kind) => say($("status"), text, kind);
const crib = () => document.querySelector('input[name="what"]:checked').value === "crib";
const readings = (cards) =>
  cards.map((c) => ({ card: c.card, confidence: c.confidence, check: c.check, xyxy: c.xyxy }));
const handlers = {
  fix: (i) => fixCard(i),
  choose: (i) => choose(i),
  starter: (i) => { state.starter = i; rescore(); },
  light: (k) => { state.lit = state.lit === k ? -1 : k; render(); },
};

// --- photo -> count -----------------------------------------------------------------------

function showPreview(file) {
  showPhoto($("preview"), file, () => {
    // Not every browser draws every photo the server reads (Chrome, an iPhone's HEIC): say so.
    $("photo-view").hidden = true;
    $("no-preview").hidden = false;
  });
  $("photo-view").hidden = false;
  $("no-preview").hidden = true;
  $("empty-hint").hidden = true;
}

// A file the server refused (not a photo, too big): nothing of it stays on screen but the reason.
function clearPreview() {
  $("preview").removeAttribute("src");
  $("photo-view").hidden = true;
  $("no-preview").hidden = true;
  $("empty-hint").hidden = false;
  Object.assign(state, { cards: [], seen: [], choosing: false, image: null, show: null, file: null });
}

/** Players at a table of `cards`: a hand of 4 each beside the crib's 4 and the starter (13 cards for
 * 2 players, 17 for 3, 21 for 4); a card missed or seen twice still gives the nearest table. */
function playersAt(cards) {
  return Math.min(4, Math.max(2, Math.round((cards - SHOW) / 4)));
}

function refereeTable() {
  if (state.file) refereePhoto(state.file, playersAt(state.seen.length));
}

async function countPhoto(file) {
  const photo = ++state.photo;
  state.request += 1; // a scoring answer for the cards before this photo no longer applies
  state.file = file;
  $("result").hidden = true;
  say($("verdict"), "");
  $("boxes").replaceChildren();
  status("Reading the cards…");
  const sent = await shrinkPhoto(file);
  if (photo !== state.photo) return;
  showPreview(sent);
  const form = new FormData();
  form.append("photo", sent);
  form.append("crib", crib() ? "true" : "false");
  try {
    const data = await postForm("/api/count", form);
    if (photo === state.photo) counted(data);
  } catch (err) {
    if (photo !== state.photo) return;
    status(err.message, "error");
    if (err.body && Array.isArray(err.body.cards) && err.body.image) notAShow(err.body);
    else clearPreview();
  }
}

function counted(data) {
  state.image = data.image;
  state.cards = readings(data.cards);
  state.starter = data.cards.findIndex((c) => c.is_starter);
  state.seen = data.set_aside.length ? readings([...data.cards, ...data.set_aside]) : [];
  state.choosing = false;
  const s = data.starter;
  noteStarter(s.sure ? `Starter ${face(s.card)}: ${s.reason} (${percent(s.confidence)} sure).`
    : `Not sure which card is the starter (${s.reason}). Choose it below.`, !s.sure);
  noteAside(data.set_aside, data.cards.length + data.set_aside.length);
  status("");
  showResult(data.show);
}

// Not a show (the 422's detail stays on screen): more than 5 cards are chosen among; fewer leave
// empty slots for the card pad, the starter last.
function notAShow(data) {
  state.image = data.image;
  const seen = readings(data.cards);
  if (seen.length > SHOW) {
    startChoosing(seen);
    return;
  }
  fillIn(seen);
}

/** Slots for the show: `cards` and empty ones up to 5, the starter the last unless 5 were seen. */
function fillIn(cards) {
  state.cards = [...cards, ...Array.from({ length: SHOW - cards.length }, empty)];
  state.starter = cards.length < SHOW ? SHOW - 1 : -1;
  state.seen = [];
  state.choosing = false;
  noteAside([], 0);
  noteStarter(state.starter < 0 ? "Which card is the starter? Choose it below." : "", true);
  showResult(null);
}

// --- more than a show: the player taps the 4 hand cards, then the starter ------------------

function startChoosing(seen) {
  state.seen = seen;
  state.chosen = [];
  state.choosing = true;
  state.show = null;
  noteAside([], 0);
  noteStarter("", false);
  render();
  $("result").hidden = false;
}

function choose(i) {
  const at = state.chosen.indexOf(i);
  if (at >= 0) state.chosen.splice(at, 1);
  else state.chosen.push(i);
  if (state.chosen.length < SHOW) {
    render();
    return;
  }
  const seen = state.seen;
  state.cards = state.chosen.map((k) => seen[k]);
  state.starter = SHOW - 1;
  state.choosing = false;
  noteStarter(`Starter ${face(state.cards[state.starter].card)}: the last card you tapped.`, false);
  rescore();
}

function noteAside(cards, seen) {
  const el = $("aside-note");
  el.textContent = cards.map((c) => `Set aside: ${face(c.card)} (${percent(c.confidence)} sure), ` +
    `the least sure of ${seen} cards seen. If it is one of the show, tap the card it replaces, ` +
    "or choose the show again.").join(" ");
  el.hidden = cards.length === 0;
}

function noteStarter(text, unsure) {
  const note = $("starter-note");
  note.textContent = text;
  note.classList.toggle("unsure", unsure);
}

// --- cards -> score -----------------------------------------------------------------------

async function rescore() {
  if (state.starter < 0 || state.cards.some((c) => !c.card)) {
    state.show = null;
    render();
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
    render();
  }
}

function showResult(show) {
  state.show = show;
  state.lit = -1;
  $("result").hidden = false;
  render();
  if (show) announce(show);
}

// The board (another view) hears every count shown, from a photo or typed, to peg it in one tap.
function announce(show) {
  const detail = { total: show.total, crib: show.crib, hisHeels: show.his_heels || 0, cards: show.hand,
    starter: show.starter, items: show.items };
  document.dispatchEvent(new CustomEvent("cribcount:count", { detail }));
}

async function fixCard(i) {
  const which = i === state.starter ? "the starter" : "this card";
  const was = state.cards[i].card;
  const taken = state.cards.map((c) => c.card).filter(Boolean);
  const card = await pickCard(was, was ? `Fix ${which}: ${face(was)} is…` : `What is ${which}?`, taken);
  if (!card) return;
  state.cards[i] = { card, confidence: null, check: false, xyxy: state.cards[i].xyxy };
  await rescore();
}

// A card tapped on the pad fills the first empty slot: the hand first, the starter last.
function padPicked(card) {
  const i = state.cards.findIndex((c) => !c.card);
  if (i < 0) return;
  state.cards[i] = { card, confidence: null, check: false, xyxy: null };
  rescore();
}

function render() {
  const missing = state.choosing ? 0 : state.cards.filter((c) => !c.card).length;
  $("count-pad").hidden = missing === 0;
  $("pad-hint").textContent = missing ? `Tap the ${missing === 1 ? "missing card" : `${missing} missing cards`}` +
    (state.starter >= 0 && !state.cards[state.starter].card ? ", the starter last." : ".") : "";
  markGrid($("count-pad").firstChild, state.cards.map((c) => c.card).filter(Boolean));
  $("choose-again").hidden = state.choosing || state.seen.length <= SHOW;
  $("choose-again").textContent = `Choose the show among the ${state.seen.length} cards`;
  $("whole-table").hidden = !state.file || state.seen.length < WHOLE_TABLE;
  if (state.choosing) renderChoosing(state, handlers);
  else renderCards(state, handlers);
  renderShow(state, handlers);
  drawBoxes(state);
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
  $("count-pad").append(cardGrid(padPicked, "Add a card"));
  $("type-cards").addEventListener("click", () => {
    state.photo += 1; // a photo still being read no longer applies
    clearPreview();
    status("");
    fillIn([]);
  });
  $("choose-again").addEventListener("click", () => startChoosing(state.seen));
  $("whole-table").addEventListener("click", refereeTable);
  for (const r of document.querySelectorAll('input[name="what"]')) r.addEventListener("change", rescore);
  $("claim-form").addEventListener("submit", checkClaim);
}
