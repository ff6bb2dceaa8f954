// cribcount phone page, the entry module: starts each view. Plain ES modules, no build step and no
// globals: each module imports what it uses (cards.js, dom.js, net.js) and exports its start.

import { startPicker } from "./cardpad.js";
import { startBoard } from "./board.js";
import { startCount } from "./count.js";
import { startDiscard } from "./discard.js";
import { startInstall } from "./install.js";
import { startPeg } from "./peg.js";
import { startPractice } from "./practice.js";
import { startReferee } from "./referee.js";
import { startViews } from "./views.js";

startPicker();
startCount();
startDiscard();
startReferee();
startBoard();
startInstall();
const practiceShown = startPractice();
const pegShown = startPeg();
startViews((name) => {
  if (name === "practice") practiceShown();
  if (name === "peg") pegShown();
});
