"""Draw what was read on the photo: card boxes and labels, the starter, the scoring items.

Like supervision's annotators: the style is set once in :class:`CardAnnotator`'s
constructor, :meth:`CardAnnotator.annotate` takes a scene and
:class:`~vision.detections.Detections` and returns a new image, and nothing
here runs a model. The scoring items go in a band added below the photo, so
the list never hides a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from scorer.show import Show
from vision.detections import Detections

BGR = tuple[int, int, int]


@dataclass(frozen=True)
class CardAnnotator:
    """How boxes, labels and the item list look; sizes are per 1000 px of the photo's long side."""

    hand_colour: BGR = (60, 180, 60)
    """Boxes of hand (or crib) cards: green."""
    starter_colour: BGR = (0, 140, 255)
    """Box and tag of the starter: orange, so it stands out from the hand."""
    index_colour: BGR = (230, 200, 40)
    """Thin boxes round each corner index the detector found."""
    text_colour: BGR = (255, 255, 255)
    band_colour: BGR = (32, 32, 32)
    line_px: float = 3.0
    font_scale: float = 0.9
    band_font_scale: float = 0.8

    def annotate(self, scene: np.ndarray, detections: Detections, *, lines: Sequence[str] = (),
                 scale: float = 1.0) -> np.ndarray:
        """A copy of ``scene`` with every card boxed and labelled and ``lines`` listed below it.

        ``scale`` is original pixels per ``scene`` pixel (detections are in original
        pixels; a photo decoded at half size has ``scale`` 2).
        """
        image = scene.copy() if scene.ndim == 3 else cv2.cvtColor(scene, cv2.COLOR_GRAY2BGR)
        unit = max(image.shape[:2]) / 1000
        thick = max(1, round(self.line_px * unit))
        font = self.font_scale * unit
        for det in detections:
            colour = self.starter_colour if det.is_starter else self.hand_colour
            for box in det.indices:
                x0, y0, x1, y1 = (round(v / scale) for v in box)
                cv2.rectangle(image, (x0, y0), (x1, y1), self.index_colour, max(1, thick // 2))
            quad = np.round(np.array(det.quad) / scale).astype(np.int32)
            cv2.polylines(image, [quad], True, colour, thick * (2 if det.is_starter else 1), cv2.LINE_AA)
            card = "?" if det.card is None else str(det.card)
            label = f"{card} {det.confidence:.0%}" + ("  STARTER" if det.is_starter else "")
            x0, y0 = round(det.xyxy[0] / scale), round(det.xyxy[1] / scale)
            self._tag(image, label, (x0, y0), colour, font, thick)
        if lines:
            image = self._band(image, lines, unit)
        return image

    def annotate_show(self, scene: np.ndarray, detections: Detections, show: Show, *,
                      scale: float = 1.0) -> np.ndarray:
        """:meth:`annotate` with the show's items, total and his heels listed below the photo."""
        return self.annotate(scene, detections, lines=show_lines(show), scale=scale)

    def _tag(self, image: np.ndarray, text: str, at: tuple[int, int], colour: BGR, font: float,
             thick: int) -> None:
        """Text on a filled box just above ``at`` (inside the photo when the card touches the top)."""
        (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font, thick)
        x = min(max(at[0], 0), max(image.shape[1] - tw - 2 * thick, 0))
        y = at[1] - thick if at[1] - th - base - 2 * thick >= 0 else at[1] + th + base + 2 * thick
        cv2.rectangle(image, (x, y - th - base - thick), (x + tw + 2 * thick, y), colour, cv2.FILLED)
        cv2.putText(image, text, (x + thick, y - base), cv2.FONT_HERSHEY_SIMPLEX, font, self.text_colour,
                    thick, cv2.LINE_AA)

    def _band(self, image: np.ndarray, lines: Sequence[str], unit: float) -> np.ndarray:
        """The photo with a dark band below it holding ``lines``, one per row."""
        font = self.band_font_scale * unit
        thick = max(1, round(2 * unit))
        (_, th), base = cv2.getTextSize("Ag", cv2.FONT_HERSHEY_SIMPLEX, font, thick)
        row = th + base + 2 * thick
        lines = [part for text in lines for part in _wrap(text, image.shape[1] - row, font, thick)]
        band = np.empty((row * len(lines) + 2 * row // 2, image.shape[1], 3), np.uint8)
        band[:] = self.band_colour
        for k, text in enumerate(lines):
            y = row // 2 + row * k + th
            cv2.putText(band, text, (row // 2, y), cv2.FONT_HERSHEY_SIMPLEX, font, self.text_colour,
                        thick, cv2.LINE_AA)
        return np.vstack([image, band])


def _wrap(text: str, width_px: int, font: float, thick: int) -> list[str]:
    """``text`` split at spaces into lines that fit ``width_px`` (the spoken count is long)."""
    lines: list[str] = []
    for word in text.split(" "):
        longer = f"{lines[-1]} {word}" if lines else ""
        if longer and cv2.getTextSize(longer, cv2.FONT_HERSHEY_SIMPLEX, font, thick)[0][0] <= width_px:
            lines[-1] = longer
        else:
            lines.append(word)
    return lines or [""]


def show_lines(show: Show) -> list[str]:
    """The item list drawn under the photo: one line per item, then the total.

    >>> from scorer.show import score_show
    >>> lines = show_lines(score_show("5H 5D 5S JC", "5C"))
    >>> lines[0], lines[-1][:9]
    ('fifteen 5C JC: 2', 'total 29:')
    """
    lines = [f"{item.kind} {' '.join(map(str, item.cards))}: {item.points}" for item in show.items]
    if show.his_heels:
        lines.append(f"his heels (starter {show.starter}): {show.his_heels} to the dealer")
    lines.append(f"total {show.total}: {show.announcement}")
    return lines
