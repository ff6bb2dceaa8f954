"""Every way a labelled photo can be made over in memory before it is read, in one table: the
flags of ``cribcount eval`` (``--light``, ``--from-afar``, ``--blur``, ``--turn``, ``--oblique``)
and the ``SET@WAY=VALUE`` sets of ``python -m training.eval.sweep`` both read it, so a new way is added
once. Each way's module makes the photo, checks its value and wraps a recognizer's ``recognize``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from training.eval.afar import check_frac, read_from_afar
from training.eval.blurred import check_sigma, read_blurred
from training.eval.light import check_light, in_light
from training.eval.oblique import check_slant, read_slanted
from training.eval.turned import check_degrees, read_turned
from vision.detections import Detections


@dataclass(frozen=True)
class Way:
    """One way to make a photo over: its value's check, its reader, the name a set gains."""

    check: Callable
    """Raises ``ValueError`` unless the value is one the way makes, saying its range."""
    reader: Callable[[Callable[..., Detections], float | str], Callable[..., Detections]]
    """``reader(recognize, value)``: ``recognize`` reading each photo made over."""
    name: str
    """What the set's name gains, formatted with the value."""
    numeric: bool = True
    """The value is a number (a light is named)."""

    def over(self, value: float | str) -> Callable[[Callable[..., Detections]], Callable[..., Detections]]:
        """What turns a ``recognize`` into one reading each photo made over by ``value``."""
        return lambda recognize: self.reader(recognize, value)


WAYS: dict[str, Way] = {
    "blur": Way(check_sigma, read_blurred, "blurred ({:g} px)"),
    "light": Way(check_light, in_light, "in {} light", numeric=False),
    "afar": Way(check_frac, read_from_afar, "from afar ({:g})"),
    "turn": Way(check_degrees, read_turned, "turned {:g} degrees"),
    "oblique": Way(check_slant, read_slanted, "at a slant ({:g} degrees)"),
}
