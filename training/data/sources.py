"""The renders the shipped models trained on, by name: each one's scene count, seed, sizes and decks.

Written once for the recipe (:mod:`training.recipe`): the same name draws the same scenes (each
scene is seeded by its number), so a render interrupted part-way is drawn again from the start
and comes out the same. Why each render is there is in the experiment log
(``docs/experiments/``); the renders of models no longer shipped are in the recipe's history.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# Step 8's ten decks whose suits come from fonts: the renders made before them keep to the decks
# there were then, so these are named to be left out of the "old" decks.
NEW_DECKS = ("proc-opensans", "proc-lato", "proc-garamond", "proc-caladea", "proc-biolinum",
             "proc-oldstandard", "proc-opensans-cond", "proc-nimbus-side", "proc-lato-light",
             "proc-urw-gothic")


@dataclass(frozen=True)
class Render:
    """One ``python -m training synth`` run: ``n`` scenes (``tiny`` in a smoke test) from ``seed``."""

    n: int
    tiny: int
    seed: int
    size: str
    split: str | None = None
    decks: str | None = None
    """A deck family of :func:`deck_family`; ``None``: every deck the split may draw."""
    crops: bool = True
    board_chance: float | None = None

    def args(self, tiny: bool) -> list[str]:
        """The synth command line, less ``--out``; every scene's board prints its counts."""
        args = ["--numbered-boards", "--n", str(self.tiny if tiny else self.n), "--seed", str(self.seed),
                "--size", self.size]
        if self.split:
            args += ["--split", self.split]
        if self.decks:
            args += ["--decks", ",".join(deck_family(self.decks))]
        if not self.crops:
            args.append("--no-crops")
        if self.board_chance is not None:
            args += ["--board-chance", str(self.board_chance)]
        return args


RENDERS = {
    # the first detector's 640 px scenes and phone-size ones for sharp crops and close-ups
    "det": Render(4000, 24, 11, "640", decks="old"),
    "hires": Render(1200, 24, 23, "1000:2600", decks="old"),
    # the font-suit decks, and more phone-size scenes of the original ones
    "det2": Render(1500, 24, 37, "640", decks="new"),
    "hires3": Render(1000, 24, 41, "1000:2600", decks="new"),
    "hires2": Render(367, 12, 31, "1000:2600", "train", decks="old"),
    # the randomized decks, every training deck again, the chunky-club designs
    "rp": Render(2400, 12, 301, "800:2200", "train", decks="random"),
    "rp2": Render(2400, 12, 304, "800:2200", "train", decks="random"),
    "rpv": Render(200, 6, 303, "800:2200", "val", decks="random"),
    "old": Render(1000, 12, 302, "800:2200", "train", decks="train"),
    "rp3": Render(1600, 12, 305, "800:2200", "train", decks="chunky"),
    "rp3v": Render(100, 6, 306, "800:2200", "val", decks="chunky"),
    # detector scenes of every training deck (det640 train-only)
    "det608": Render(1200, 12, 901, "1216:2400", "train", crops=False),
    "det640": Render(600, 12, 903, "640", "train", crops=False),
    # a board in nine scenes of ten
    "nbT": Render(1400, 12, 5001, "600:2200", "train", board_chance=0.9),
    "nbV": Render(150, 6, 5002, "600:2200", "val", board_chance=0.9),
}


def deck_family(name: str) -> list[str]:
    """The decks of one family: ``old`` (before the font-suit decks), ``new`` (those), ``random``,
    ``chunky`` (randomized designs), ``train`` (every training deck but the randomized ones)."""
    from training.synth import procedural
    from training.synth.decks import all_decks, deck_names

    if name == "old":
        return [d.name for d in all_decks()
                if d.name not in NEW_DECKS and not d.name.startswith("proc-rand-")]
    if name == "new":
        return list(NEW_DECKS)
    if name == "random":
        return [d.name for d in procedural.RANDOM_PLAIN_DECKS]
    if name == "chunky":
        return [d.name for d in procedural.RANDOM_CHUNKY_DECKS]
    if name == "train":
        return [n for n in deck_names("train") if not n.startswith("proc-rand-")]
    raise ValueError(f"no deck family named {name!r}")


def crop_sources(data: Path, mined: Path, real: Path, mid: Path) -> list[str]:
    """Every crop source (``name=folder`` for :mod:`training.data.cls_data`) the second and first
    classifiers read, with these harvests: renders' crops, mined ``none``, real crops and pips."""
    renders = ("det", "det2", "hires", "hires2", "hires3", "rp", "rpv", "old", "nbT", "nbV")
    names = {"nbT": "nb", "nbV": "nbv"}
    harvests = [f"mined={mined}", f"real={real}", f"mid={mid}"]
    return [f"{names.get(r, r)}={data / r / 'cls'}" for r in renders] + harvests
