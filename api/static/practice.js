// cribcount page, Practice view: a hand dealt by /api/practice/deal, the player's count checked by
// /api/practice/check (the rules stay in Python). Score, streak and the lessons missed lately are kept
// in this browser's localStorage, so they survive a reload; nothing about the player goes to the server
// except the lessons to deal more often.
"use strict";

(function () {
  const KEY = "cribcount.practice";
  const RECENT_MISSES = 5; // lessons of the last wrong hands dealt more often (as `cribcount practice`)
  // $, face and isRed: app.js's, loaded first.
  let hand = null; // {hand, starter, crib, lesson} from /api/practice/deal
  let checked = false;

  function load() {
    const fresh = { played: 0, right: 0, streak: 0, best: 0, focus: [], level: "easy", crib: false };
    try {
      return { ...fresh, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
    } catch (_) {
      return fresh; // storage off or spoilt: start again rather than fail
    }
  }

  function save(stats) {
    try {
      localStorage.setItem(KEY, JSON.stringify(stats));
    } catch (_) { /* private browsing without storage: the score lasts this visit only */ }
  }

  let stats = load();

  function showStats() {
    $("practice-score").textContent = `${stats.right}/${stats.played}`;
    $("practice-streak").textContent = String(stats.streak);
    $("practice-best").textContent = String(stats.best);
  }

  function chip(card, starter) {
    const li = document.createElement("li");
    const div = document.createElement("div");
    div.className = "chip" + (starter ? " starter" : "");
    div.dataset.card = card;
    const face = document.createElement("span");
    face.className = "face" + (isRed(card) ? " red" : "");
    face.textContent = window.face(card);
    const sub = document.createElement("span");
    sub.className = "sub";
    sub.textContent = starter ? "starter" : "\u00a0";
    div.append(face, sub);
    li.append(div);
    return li;
  }

  function say(text, kind) {
    const el = $("practice-verdict");
    el.textContent = text;
    el.className = "verdict" + (kind ? " " + kind : "");
  }

  async function post(path, body) {
    const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                    body: JSON.stringify(body) });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.detail || `the server answered ${res.status}`);
    return data;
  }

  async function deal() {
    say("Dealing…");
    $("practice-result").hidden = true;
    $("practice-answer").value = "";
    try {
      hand = await post("/api/practice/deal", { level: stats.level, crib: stats.crib, focus: stats.focus });
    } catch (err) {
      say(`Could not deal: ${err.message}`, "wrong");
      return;
    }
    checked = false;
    $("practice-what").textContent = hand.crib ? "crib" : "hand";
    $("practice-cards").replaceChildren(...hand.hand.map((c) => chip(c, false)), chip(hand.starter, true));
    $("practice-cards").dataset.crib = String(hand.crib);
    $("practice-cards").dataset.deals = String(Number($("practice-cards").dataset.deals || 0) + 1);
    $("practice-check").disabled = false;
    say(hand.crib ? "It is the crib: a 4-card flush scores nothing here." : "");
    $("practice-answer").focus({ preventScroll: true });
  }

  function items(listId, entries, render) {
    const list = $(listId);
    list.replaceChildren(...entries.map((entry) => {
      const li = document.createElement("li");
      const what = document.createElement("span");
      what.className = "what";
      const why = document.createElement("span");
      why.className = "why";
      render(entry, what, why);
      li.append(what, why);
      return li;
    }));
    list.closest(".practice-group").hidden = entries.length === 0;
  }

  const named = (item) => `${item.kind} ${item.cards.join(" ")} (${item.points})`;

  async function check(event) {
    event.preventDefault();
    if (!hand || checked) return;
    const answer = $("practice-answer").value;
    let result;
    try {
      result = await post("/api/practice/check", { hand: hand.hand, starter: hand.starter, crib: hand.crib, answer });
    } catch (err) {
      say(err.message, "wrong"); // a slip in the typing: the same hand, try again
      return;
    }
    checked = true;
    $("practice-check").disabled = true;
    stats.played += 1;
    if (result.correct) {
      stats.right += 1;
      stats.streak += 1;
      stats.best = Math.max(stats.best, stats.streak);
    } else {
      stats.streak = 0;
      stats.focus = [...stats.focus, ...result.lessons].slice(-RECENT_MISSES);
    }
    save(stats);
    showStats();
    say((result.correct ? "Right! " : "Not quite. ") + result.message, result.correct ? "correct" : "wrong");
    $("practice-missed-title").textContent = result.exact ? "Missed" : "Missed: one of these";
    items("practice-missed", result.missed, (item, what, why) => {
      what.textContent = named(item);
      why.textContent = item.reason;
    });
    items("practice-wrong", result.wrong, (wrong, what, why) => {
      what.textContent = wrong.said;
      why.textContent = wrong.reason;
    });
    items("practice-right", result.right, (item, what, why) => {
      what.textContent = named(item);
      why.textContent = item.reason;
    });
    $("practice-announcement").textContent = `The count: ${result.show.announcement} (${result.total}).`;
    $("practice-result").hidden = false;
    $("practice-next").focus({ preventScroll: true });
  }

  function options() {
    stats.level = document.querySelector('input[name="practice-level"]:checked').value;
    stats.crib = $("practice-crib").checked;
    save(stats);
    deal();
  }

  function start() {
    const view = document.querySelector('[data-view="practice"]');
    if (!view) return;
    document.querySelector(`input[name="practice-level"][value="${stats.level}"]`).checked = true;
    $("practice-crib").checked = !!stats.crib;
    showStats();
    $("practice-form").addEventListener("submit", check);
    $("practice-next").addEventListener("click", deal);
    for (const input of view.querySelectorAll('input[name="practice-level"], #practice-crib')) {
      input.addEventListener("change", options);
    }
    // Deal when the view is first shown, not on every visit to the Count view.
    const dealOnce = () => { if (!view.hidden && !hand) deal(); };
    window.addEventListener("hashchange", () => setTimeout(dealOnce));
    setTimeout(dealOnce);
  }

  document.addEventListener("DOMContentLoaded", start);
})();
