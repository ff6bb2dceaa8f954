// The board drawn as SVG: a track per player or side, rows of holes in fives as on a long board,
// two pegs a track (front: the score; back: the score before the last one, RULES.md "Game"), the
// skunk lines and the game hole. Attributes only, no style: the page's CSP allows no inline style.

import { makeSvg } from "./dom.js";
import { sideCount, sideName, skunkLines } from "./board-game.js";

const HOLE_W = 10; // units between holes; 5 more between groups of five
const LANE_H = 16;
const LEFT = 40; // room for the start pegs
const TOP = 14;

/** Holes a row holds: a 121 board has three streets of 40, a 61 board two of 30. */
const perRow = (target) => (target === 121 ? 40 : 30);

function holeX(col) {
  return LEFT + col * HOLE_W + Math.floor(col / 5) * 5;
}

/** Where hole `n` (1 … target-1) of side `side` lies; 0 is the start, the target the game hole. */
function holeAt(layout, side, n) {
  if (n <= 0) return { x: 14, y: TOP + side * LANE_H };
  if (n >= layout.target) return layout.gameHole;
  const row = Math.floor((n - 1) / layout.perRow);
  const col = (n - 1) % layout.perRow;
  return { x: holeX(col), y: TOP + row * layout.rowH + side * LANE_H };
}

function boardLayout(setup) {
  const sides = sideCount(setup);
  const rows = Math.ceil((setup.target - 1) / perRow(setup.target));
  const rowH = sides * LANE_H + 14;
  const width = holeX(perRow(setup.target) - 1) + 36;
  const height = TOP + rows * rowH + 4;
  const gameHole = { x: width - 14, y: TOP + (rows - 1) * rowH + ((sides - 1) * LANE_H) / 2 };
  return { target: setup.target, perRow: perRow(setup.target), sides, rows, rowH, width, height, gameHole };
}

function drawHoles(svg, layout) {
  for (let side = 0; side < layout.sides; side++) {
    for (let n = 1; n < layout.target; n++) {
      const { x, y } = holeAt(layout, side, n);
      svg.append(makeSvg("circle", { cx: x, cy: y, r: 1.8, class: `hole side-${side}` }));
    }
  }
  const { x, y } = layout.gameHole;
  svg.append(makeSvg("circle", { cx: x, cy: y, r: 5, class: "game-hole" }));
}

function drawSkunkLines(svg, layout) {
  for (const [hole, name] of skunkLines(layout.target)) {
    const first = holeAt(layout, 0, hole);
    const x = first.x - HOLE_W / 2 - (((hole - 1) % layout.perRow) % 5 === 0 ? 2.5 : 0);
    const y0 = first.y - LANE_H / 2;
    const y1 = y0 + layout.sides * LANE_H;
    svg.append(makeSvg("line", { x1: x, x2: x, y1: y0, y2: y1, class: "skunk-line" }));
    const label = makeSvg("text", { x: x + 2, y: y1 + 3, class: "skunk-label" });
    label.textContent = name;
    svg.append(label);
  }
}

function drawPegs(svg, layout, table) {
  for (let side = 0; side < layout.sides; side++) {
    const back = holeAt(layout, side, table.backs[side]);
    const front = holeAt(layout, side, table.fronts[side]);
    const offset = table.fronts[side] === 0 ? 10 : 0; // both pegs at the start: side by side
    svg.append(makeSvg("circle", { cx: back.x - offset, cy: back.y, r: 4, class: `peg back side-${side}`,
      "data-hole": table.backs[side] }));
    svg.append(makeSvg("circle", { cx: front.x, cy: front.y, r: 5, class: `peg front side-${side}`,
      "data-hole": table.fronts[side] }));
  }
}

/** Draw `game` (its setup, pegs from `table`) into the <svg> `svg`, replacing what was there. */
export function drawBoard(svg, setup, table) {
  const layout = boardLayout(setup);
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${layout.width} ${layout.height}`);
  drawHoles(svg, layout);
  drawSkunkLines(svg, layout);
  drawPegs(svg, layout, table);
  const scores = table.fronts.map((score, side) => `${sideName(setup, side)} ${score}`).join(", ");
  svg.setAttribute("aria-label", `The board to ${setup.target}: ${scores}`);
}
