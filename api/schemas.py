"""Request and response shapes of the HTTP API: pydantic at the edge only.

The domain speaks frozen dataclasses (:class:`~scorer.show.Show`,
:class:`~scorer.muggins.ClaimVerdict`, :class:`~vision.detections.Detections`);
the ``from_*`` classmethods here turn them into these models, so ``/docs``
describes every field and the CLI's ``--json`` prints the same shapes.
Cards travel as notation (``5H``, ``10D``, ``JC``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from scorer.cards import Card
from scorer.muggins import MAX_CLAIM, ClaimVerdict
from scorer.pegging import Pegging, Seat
from scorer.reasons import explain
from scorer.show import ScoreItem, Show
from vision.detections import CHECK_BELOW, Detection, Detections
from vision.roles import PhotoCount, Roles
from vision.starter import SURE


def one_line(errors: list[dict]) -> str:
    """Pydantic's validation errors as the project's one-line detail: ``claim: Input should be ...``."""
    parts = []
    for error in errors:
        where = ".".join(str(p) for p in error.get("loc", ()) if p not in ("body", "query", "path"))
        parts.append(f"{where}: {error.get('msg', 'invalid')}" if where else error.get("msg", "invalid"))
    return "; ".join(parts) or "invalid request"

CardText = str
CardToken = Annotated[str, Field(max_length=16)]
"""A card typed by a client: ``5H``, ``10d``, ``J♣`` fit in 16 characters, and a reason never echoes a
megabyte back."""
Box = tuple[float, float, float, float]

def _card(card: Card | None) -> CardText | None:
    return None if card is None else str(card)


class ErrorOut(BaseModel):
    """Every 4xx/5xx answer: one line saying what went wrong and what to do."""

    detail: str = Field(examples=["the file is not an image this reader knows (JPEG, PNG, WebP, HEIC, ...)"])


class ImageSize(BaseModel):
    """Size of the upright photo (EXIF orientation applied), in original pixels."""

    width: int
    height: int


class CardOut(BaseModel):
    """One card found in the photo."""

    card: CardText | None = Field(description="What was read, e.g. 5H; null if the card could not be read.")
    confidence: float = Field(ge=0, le=1, description="How sure the recognizer is of this card.")
    xyxy: Box = Field(description="Box round the card's corner indices, original pixels (x0, y0, x1, y1).")
    indices: list[Box] = Field(description="Boxes of the corner indices (rank and suit) that were seen.")
    is_starter: bool = Field(description="Whether this card is the starter.")
    check: bool = Field(description=f"Read below {CHECK_BELOW:.0%}, or taken only to make up the show's "
                                    "number of cards: the player should check it.")

    @classmethod
    def from_detection(cls, det: Detection) -> CardOut:
        return cls(card=_card(det.card), confidence=round(det.confidence, 4),
                   xyxy=tuple(round(v, 1) for v in det.xyxy),
                   indices=[tuple(round(v, 1) for v in b) for b in det.indices], is_starter=det.is_starter,
                   check=det.to_check)


class NotAShowOut(ErrorOut):
    """422 for a photo that does not hold a show (not 5 cards, or 4 without a starter): what was seen."""

    cards: list[CardOut] = Field(description="The cards that were seen, left to right.")
    image: ImageSize

    @classmethod
    def from_detections(cls, detail: str, detections: Detections, size: tuple[int, int]) -> NotAShowOut:
        return cls(detail=detail, cards=[CardOut.from_detection(d) for d in detections],
                   image=ImageSize(width=size[0], height=size[1]))


class ItemOut(BaseModel):
    """One scoring combination: a fifteen, pair, run, flush or nobs."""

    kind: Literal["fifteen", "pair", "run", "flush", "nobs"]
    cards: list[CardText] = Field(description="Exactly the cards that make it.")
    points: int
    reason: str = Field(description="Why it scores, in one line (teach mode).",
                        examples=["5C + JC (10) make 15"])

    @classmethod
    def from_item(cls, item: ScoreItem, show: Show) -> ItemOut:
        return cls(kind=item.kind, cards=[str(c) for c in item.cards], points=item.points,
                   reason=explain(item, show))


class ClaimOut(BaseModel):
    """A claimed count checked against the true one (muggins)."""

    claimed: int
    total: int
    verdict: Literal["correct", "over-claimed", "under-claimed"]
    difference: int = Field(ge=0, description="How far off the claim is; the verdict says which way.")
    missed: list[ItemOut] = Field(
        description="Under-claimed: the missed items, or every item that could be one.")
    exact: bool = Field(
        description="True when `missed` is exactly what was missed, false when it lists candidates.")
    message: str = Field(description="One line for the players.")

    @classmethod
    def from_verdict(cls, verdict: ClaimVerdict, show: Show) -> ClaimOut:
        return cls(claimed=verdict.claimed, total=verdict.total, verdict=verdict.verdict,
                   difference=verdict.difference, missed=[ItemOut.from_item(i, show) for i in verdict.missed],
                   exact=verdict.exact, message=verdict.message)


class ShowOut(BaseModel):
    """A hand or crib counted with the starter, item by item."""

    hand: list[CardText] = Field(description="The hand or crib cards, without the starter.")
    starter: CardText
    crib: bool
    items: list[ItemOut] = Field(description="Every scoring combination, in announcement order.")
    total: int = Field(ge=0, le=29)
    his_heels: int = Field(
        description="2 when the starter is a jack: the dealer's, apart from any hand's count.")
    announcement: str = Field(description="The count as spoken.",
                              examples=["Fifteen two, fifteen four, and a pair is six"])
    claim: ClaimOut | None = Field(None, description="The claim checked, when one was given.")

    @classmethod
    def from_show(cls, show: Show, verdict: ClaimVerdict | None = None) -> ShowOut:
        return cls(hand=[str(c) for c in show.hand], starter=str(show.starter), crib=show.crib,
                   items=[ItemOut.from_item(i, show) for i in show.items], total=show.total,
                   his_heels=show.his_heels, announcement=show.announcement,
                   claim=ClaimOut.from_verdict(verdict, show) if verdict is not None else None)


class StarterOut(BaseModel):
    """Which card is the starter and how that was decided."""

    card: CardText
    source: Literal["layout", "given"] = Field(description="'layout': found from where the cards lie; "
                                                           "'given': named by the player.")
    confidence: float = Field(ge=0, le=1)
    sure: bool = Field(description=f"False below {SURE}: the page asks the player to pick the starter.")
    reason: str

    @classmethod
    def from_roles(cls, roles: Roles) -> StarterOut:
        return cls(card=str(roles.starter), source=roles.source, confidence=round(roles.confidence, 4),
                   sure=roles.confidence >= SURE, reason=roles.reason)


class CountOut(BaseModel):
    """A photo counted: the cards seen, the starter, and the show."""

    cards: list[CardOut] = Field(description="The show's cards as seen, left to right.")
    set_aside: list[CardOut] = Field(description="A card seen beyond the show's number (six, or five "
                                                 "besides a named starter not among them), the least "
                                                 "sure: not counted.")
    image: ImageSize
    starter: StarterOut
    show: ShowOut

    @classmethod
    def from_count(cls, result: PhotoCount, size: tuple[int, int]) -> CountOut:
        return cls(cards=[CardOut.from_detection(d) for d in result.roles.detections],
                   set_aside=[CardOut.from_detection(d) for d in result.roles.set_aside],
                   image=ImageSize(width=size[0], height=size[1]),
                   starter=StarterOut.from_roles(result.roles),
                   show=ShowOut.from_show(result.show, result.claim))


class ScoreIn(BaseModel):
    """Typed cards to count (e.g. after correcting a misread card)."""

    hand: list[CardToken] = Field(min_length=4, max_length=4, description="The 4 hand or crib cards.",
                                  examples=[["5H", "5D", "5S", "JC"]])
    starter: CardToken = Field(examples=["5C"])
    crib: bool = Field(False, description="Count as the crib (a 4-card flush does not score).")
    claim: int | None = Field(None, ge=0, le=MAX_CLAIM,
                              description="What the player counted, to check (muggins).")


class PegIn(BaseModel):
    """A play in the order laid, first player first, with `go` where a player cannot play."""

    # Each token is a card or "go": 16 characters is plenty, and a reason never echoes a megabyte back.
    sequence: list[Annotated[str, Field(max_length=16)]] = Field(
        min_length=1, max_length=64, examples=[["10H", "5D", "10S", "go", "5C", "7C", "KH", "8S", "9D"]])
    players: Literal[2, 3, 4] = Field(2, description="2 (pone, dealer), 3 (left, right, dealer) or 4 in "
                                                     "partnership (left, across, right, dealer): the player "
                                                     "left of the dealer leads, play goes clockwise.")


class ReasonOut(BaseModel):
    reason: str = Field(examples=["fifteen"])
    points: int


class PlayOut(BaseModel):
    """One token of the play: a card laid, or a go said."""

    player: Seat
    card: CardText | None = Field(description="The card laid; null for a go.")
    count: int = Field(description="The running count after this play.")
    points: int
    reasons: list[ReasonOut]


class PegOut(BaseModel):
    """Every play scored, and each player's total."""

    players: int = Field(2, description="How many players: 2, 3 or 4.")
    plays: list[PlayOut]
    totals: dict[Seat, int] = Field(description="Points per seat, in order of play.")
    sides: dict[str, int] | None = Field(None, description="Four players: points per side of partners.")
    complete: bool = Field(description="True once every card is laid (8, 12 or 16).")

    @classmethod
    def from_pegging(cls, pegging: Pegging) -> PegOut:
        data = pegging.as_dict()
        return cls(players=len(pegging.seats), plays=data["plays"], totals=data["totals"],
                   sides=pegging.sides or None, complete=pegging.complete)


class HealthOut(BaseModel):
    """Whether the service is up and can read photos."""

    status: Literal["ok"] = "ok"
    models_loaded: bool = Field(description="False: /api/count answers 503 until the models are installed.")
    detail: str | None = Field(None, description="Why the models are not loaded.")


class ReadyOut(BaseModel):
    """Whether a photo sent now would be taken, and how full the photo queue is."""

    ready: bool = Field(description="Models loaded, photo workers running and room in the queue.")
    models_loaded: bool
    photos_in_flight: int = Field(description="Photo requests in hand: uploading, queued or being read.")
    photo_capacity: int = Field(description="The most this server process takes at once; more get 503.")
    refused_busy: int = Field(description="Photo requests answered 503 (busy) since start-up.")
    detail: str | None = Field(None, description="Why no photo would be read now: the models not loaded, "
                                                 "or the photo workers being replaced.")
