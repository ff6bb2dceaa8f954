// Building the page: elements made with textContent only, never parsed from HTML, so a string from
// the server always shows as text; and say(), the one way a view puts a message on screen.

import { face, isRed } from "./cards.js";

export const $ = (id) => document.getElementById(id);

/** make("span", "sub", "starter"): a new element with its class and text. */
export function make(tag, className = "", text = "") {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text) el.textContent = text;
  return el;
}

/** An SVG element (a box drawn on the photo) with its attributes. */
export function makeSvg(tag, attributes) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  return el;
}

/** A card's face as a span, red for hearts and diamonds: cardFace("5H") is <span class="face red">5♥. */
export function cardFace(card, className = "face") {
  return make("span", className + (isRed(card) ? " red" : ""), face(card));
}

/** Show the photo `file` in the <img> `img`, its object URL freed once drawn; `failed()` hears a photo
 * the browser cannot draw (an iPhone's HEIC in Chrome), which the server still reads. */
export function showPhoto(img, file, failed = () => {}) {
  const url = URL.createObjectURL(file);
  img.onload = () => URL.revokeObjectURL(url);
  img.onerror = () => {
    URL.revokeObjectURL(url);
    failed();
  };
  img.src = url;
}

// The kinds of message the stylesheet colours (.status.error, .verdict.correct, .verdict.wrong).
const KINDS = ["error", "correct", "wrong"];

/** Put `text` in the message element `el`, coloured as `kind` ("error", "correct", "wrong" or none). */
export function say(el, text, kind = "") {
  el.textContent = text || "";
  el.classList.remove(...KINDS);
  if (kind) el.classList.add(kind);
}
