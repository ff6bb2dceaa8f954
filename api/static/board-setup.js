// The Board's "New game" form: players (2, 3 or 4 as partners), 121 or 61, muggins on or off, names
// clockwise and the first dealer. It reads the form into newGame()'s options; nothing else.

import { $, make } from "./dom.js";
import { newGame } from "./board-game.js";

const players = () => Number($("board-players").value);

function nameInputs(setup) {
  const fields = [];
  for (let seat = 0; seat < players(); seat++) {
    const input = make("input");
    input.type = "text";
    input.id = `board-name-${seat}`;
    input.maxLength = 20;
    input.value = (setup && setup.players === players() && setup.names[seat]) || `Player ${seat + 1}`;
    input.setAttribute("aria-label", `Player ${seat + 1}'s name`);
    input.addEventListener("input", () => dealerChoices());
    fields.push(input);
  }
  const legend = $("board-names").querySelector("legend");
  $("board-names").replaceChildren(legend, ...fields);
  dealerChoices();
}

function dealerChoices() {
  const select = $("board-first");
  const chosen = Number(select.value) || 0;
  const options = [...$("board-names").querySelectorAll("input")].map((input, seat) => {
    const option = make("option", "", input.value || `Player ${seat + 1}`);
    option.value = String(seat);
    return option;
  });
  select.replaceChildren(...options);
  select.value = String(Math.min(chosen, options.length - 1));
}

/** Show the form, filled from the game being played (`setup`, or null). */
export function openSetup(setup) {
  if (setup) {
    $("board-players").value = String(setup.players);
    document.querySelector(`input[name="board-target"][value="${setup.target}"]`).checked = true;
    $("board-muggins-on").checked = setup.muggins;
  }
  nameInputs(setup);
  $("board-setup").hidden = false;
  $("board-setup").scrollIntoView({ block: "nearest" });
}

/** The form's game: a new game with what it says. */
function readSetup() {
  const names = [...$("board-names").querySelectorAll("input")].map((input) => input.value);
  return newGame({
    players: players(),
    target: Number(document.querySelector('input[name="board-target"]:checked').value),
    muggins: $("board-muggins-on").checked,
    names,
    firstDealer: Number($("board-first").value),
  });
}

/** Wire the form: `started(game)` hears the new game; Cancel closes it (the game played goes on). */
export function startSetup(started) {
  $("board-players").addEventListener("change", () => nameInputs(null));
  $("board-setup").addEventListener("submit", (event) => {
    event.preventDefault();
    $("board-setup").hidden = true;
    started(readSetup());
  });
  $("board-cancel").addEventListener("click", () => { $("board-setup").hidden = true; });
}
