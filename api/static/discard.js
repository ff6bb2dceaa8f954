// cribcount Discard view: photograph the dealt cards (or tap them in), choose dealer or pone, and see
// every way to keep four ranked, the cards to throw boxed on the photo. Photo -> multipart
// POST /api/discard; every change after it (a card tapped in or out, the seat, the players) -> the
// same route with JSON cards. Plain JS, no build step; the photo stays in memory.
"use strict";

(function () {
  // RANKS, SUITS, $, face and isRed: app.js's, loaded first.
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

  function say(text, kind) {
    const el = $("deal-status");
    el.textContent = text || "";
    el.className = "status" + (kind ? " " + kind : "");
  }

  function cardChip(card, extra) {
    const span = document.createElement("span");
    span.className = "mini" + (isRed(card) ? " red" : "") + (extra ? " " + extra : "");
    span.textContent = face(card);
    return span;
  }

  // --- the dealt cards: chips to remove, ranks then suits to add -----------------------------

  function drawDealt() {
    const list = $("deal-cards");
    list.replaceChildren();
    for (const card of deal.cards) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "chip" + (isRed(card) ? " red-card" : "");
      b.setAttribute("aria-label", `${card}: tap to take it out`);
      b.innerHTML = `<span class="face${isRed(card) ? " red" : ""}">${face(card)}</span><span class="sub">remove</span>`;
      b.addEventListener("click", () => { deal.cards = deal.cards.filter((c) => c !== card); changed(); });
      li.append(b);
      list.append(li);
    }
    $("deal-count").textContent = `${deal.cards.length} of ${wanted()}`;
  }

  function buildPad() {
    const ranks = $("deal-ranks");
    for (const r of RANKS) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = r;
      b.setAttribute("aria-pressed", "false");
      b.addEventListener("click", () => {
        deal.rank = deal.rank === r ? null : r;
        for (const x of ranks.children) x.setAttribute("aria-pressed", String(x.textContent === deal.rank));
      });
      ranks.append(b);
    }
    const suits = $("deal-suits");
    for (const [s, glyph] of Object.entries(SUITS)) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = glyph;
      b.className = s === "H" || s === "D" ? "red" : "";
      b.setAttribute("aria-label", { C: "clubs", D: "diamonds", H: "hearts", S: "spades" }[s]);
      b.addEventListener("click", () => addCard(s));
      suits.append(b);
    }
  }

  function addCard(suit) {
    if (!deal.rank) { say("Tap a rank first, then its suit.", "error"); return; }
    const card = deal.rank + suit;
    deal.rank = null;
    for (const x of $("deal-ranks").children) x.setAttribute("aria-pressed", "false");
    if (deal.cards.includes(card)) { say(`${face(card)} is there already: a deck holds each card once.`, "error"); return; }
    if (deal.cards.length >= wanted()) { say(`${players()} players are dealt ${wanted()} cards: take one out first.`, "error"); return; }
    deal.cards.push(card);
    changed();
  }

  function changed() {
    drawDealt();
    if (deal.cards.length === wanted()) advise();
    else {
      deal.advice = null;
      $("advice").hidden = true;
      drawBoxes();
      say(`Add ${wanted() - deal.cards.length} more card${wanted() - deal.cards.length === 1 ? "" : "s"} ` +
          `(${players()} players are dealt ${wanted()}), or take some out.`);
    }
  }

  // --- the advice ------------------------------------------------------------------------------

  async function advise() {
    const mine = ++deal.request;
    say("Ranking every way to keep four…");
    let res, body;
    try {
      res = await fetch("/api/discard", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ cards: deal.cards, seat: seat(), players: players() }),
      });
      body = await res.json().catch(() => ({ detail: `the server answered ${res.status}` }));
    } catch (err) {
      if (mine === deal.request) say("Could not reach the server: " + err.message, "error");
      return;
    }
    if (mine !== deal.request) return;
    if (!res.ok) { say(body.detail, "error"); return; }
    show(body);
  }

  async function readPhoto(file) {
    const url = URL.createObjectURL(file);
    const img = $("deal-preview");
    img.onload = () => URL.revokeObjectURL(url);
    img.onerror = () => { URL.revokeObjectURL(url); $("deal-figure").hidden = true; };
    img.src = url;
    $("deal-figure").hidden = false;
    $("deal-hint").hidden = true;
    const mine = ++deal.request;
    say("Reading the cards…");
    const form = new FormData();
    form.append("photo", file);
    form.append("seat", seat());
    form.append("players", String(players()));
    let res, body;
    try {
      res = await fetch("/api/discard", { method: "POST", body: form });
      body = await res.json().catch(() => ({ detail: `the server answered ${res.status}` }));
    } catch (err) {
      if (mine === deal.request) say("Could not reach the server: " + err.message, "error");
      return;
    }
    if (mine !== deal.request) return;
    const seen = (body.cards || []).filter((c) => c.card);
    deal.image = body.image || null;
    deal.boxes = Object.fromEntries(seen.map((c) => [c.card, c.xyxy]));
    deal.cards = seen.map((c) => c.card).slice(0, wanted());
    drawDealt();
    if (!res.ok) {
      deal.advice = null;
      $("advice").hidden = true;
      drawBoxes();
      say(body.detail + (seen.length ? " Tap cards in or out below to fix it." : ""), "error");
      return;
    }
    const unsure = body.cards.filter((c) => c.check).map((c) => `${face(c.card)} (${Math.round(c.confidence * 100)}%)`);
    show(body, unsure.length ? `Check ${unsure.join(", ")}: not sure. ` : "");
  }

  function show(body, note) {
    deal.advice = body;
    deal.chosen = 0;
    const best = body.choices[0];
    say((note || "") + `Throw ${best.throw.map(face).join(" ")}: ${best.reason}.`);
    drawAdvice();
    drawBoxes();
  }

  function drawAdvice() {
    const list = $("advice-list");
    list.replaceChildren();
    const dealer = deal.advice.seat === "dealer";
    $("advice-net").textContent = dealer ? "net = hand + your crib" : "net = hand − the dealer's crib";
    deal.advice.choices.forEach((c, i) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "choice";
      b.setAttribute("aria-pressed", String(i === deal.chosen));
      const throwRow = document.createElement("span");
      throwRow.className = "throw";
      throwRow.append("Throw ", ...c.throw.map((card) => cardChip(card, "thrown")));
      const keepRow = document.createElement("span");
      keepRow.className = "keep";
      keepRow.append("keep ", ...c.keep.map((card) => cardChip(card)));
      const figures = document.createElement("span");
      figures.className = "figures";
      figures.textContent = `hand ${c.hand.mean.toFixed(1)} (${c.hand.minimum}–${c.hand.maximum}) · ` +
        `crib ${c.crib.toFixed(1)} · net ${c.net.toFixed(1)}`;
      b.append(throwRow, keepRow, figures);
      if (i < 3) {
        const why = document.createElement("span");
        why.className = "why";
        why.textContent = c.reason;
        b.append(why);
      }
      b.addEventListener("click", () => {
        deal.chosen = i;
        for (const [k, x] of [...list.querySelectorAll("button.choice")].entries()) x.setAttribute("aria-pressed", String(k === i));
        drawBoxes();
      });
      li.append(b);
      list.append(li);
    });
    $("advice").hidden = false;
  }

  // The photo's boxes: the chosen choice's throw in orange and labelled, the kept cards in green.
  function drawBoxes() {
    const svg = $("deal-boxes");
    svg.replaceChildren();
    if (!deal.image) return;
    svg.setAttribute("viewBox", `0 0 ${deal.image.width} ${deal.image.height}`);
    const thrown = deal.advice ? deal.advice.choices[deal.chosen].throw : [];
    const ns = "http://www.w3.org/2000/svg";
    for (const [card, box] of Object.entries(deal.boxes)) {
      if (!deal.cards.includes(card)) continue;
      const [x0, y0, x1, y1] = box;
      const rect = document.createElementNS(ns, "rect");
      rect.setAttribute("x", x0); rect.setAttribute("y", y0);
      rect.setAttribute("width", x1 - x0); rect.setAttribute("height", y1 - y0);
      rect.setAttribute("class", thrown.includes(card) ? "throw" : "keep");
      rect.dataset.card = card;
      svg.append(rect);
      if (thrown.includes(card)) {
        const label = document.createElementNS(ns, "text");
        label.setAttribute("x", x0);
        label.setAttribute("y", Math.max(y0 - 8, 24));
        label.setAttribute("font-size", Math.max(deal.image.width / 28, 14));
        label.textContent = "throw " + face(card);
        svg.append(label);
      }
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    if (!$("deal-cards")) return;
    buildPad();
    drawDealt();
    $("deal-photo").addEventListener("change", (e) => { if (e.target.files[0]) readPhoto(e.target.files[0]); e.target.value = ""; });
    for (const input of document.querySelectorAll('input[name="deal-seat"]')) {
      input.addEventListener("change", () => { if (deal.cards.length === wanted()) advise(); });
    }
    $("deal-players").addEventListener("change", () => {
      deal.cards = deal.cards.slice(0, wanted());
      changed();
    });
  });
})();
