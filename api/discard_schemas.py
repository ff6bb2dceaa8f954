"""Request and response shapes of ``POST /api/discard`` (pydantic at the edge, like api/schemas.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from api.schemas import CardOut, CardToken, ErrorOut, ImageSize
from scorer.discard import Advice, Choice
from vision.dealt import DealtRead
from vision.detections import Detection

CardText = str


class DiscardIn(BaseModel):
    """Typed dealt cards and the seat."""

    # Six at most: the deal of a two-player game, the most any player is dealt.
    cards: list[CardToken] = Field(max_length=6,
                                   description="The dealt cards: 6 for two players, 5 for three or four.",
                                   examples=[["2H", "3D", "4C", "5S", "5H", "JD"]])
    seat: Literal["dealer", "pone"] = Field(
        description="dealer: the crib is yours; pone: it is the dealer's.")
    players: Literal[2, 3, 4] = 2
    model: Literal["table", "uniform"] = Field(
        "table", description="How the others' throws are weighed: the shipped opponent model, or all alike.")


class JumpOut(BaseModel):
    """Starters that lift the kept hand to ``points``."""

    points: int
    starters: list[CardText]


class HandOut(BaseModel):
    """The kept four over every unseen starter."""

    mean: float = Field(description="Exact expectation over every unseen starter.")
    minimum: int
    maximum: int
    jumps: list[JumpOut] = Field(description="Starters that score above the minimum, best first.")


class ChoiceOut(BaseModel):
    """One way to keep four."""

    keep: list[CardText]
    throw: list[CardText]
    hand: HandOut
    crib: float = Field(description="Exact expected crib (the dealer's) over every starter and every throw "
                                    "of the others, weighted by the opponent model.")
    net: float = Field(description="hand + crib for the dealer's side, hand - crib for the others.")
    reason: str

    @classmethod
    def from_choice(cls, c: Choice) -> ChoiceOut:
        jumps = [JumpOut(points=j.points, starters=[str(s) for s in j.starters]) for j in c.hand.jumps]
        hand = HandOut(mean=round(c.hand.mean, 4), minimum=c.hand.minimum, maximum=c.hand.maximum,
                       jumps=jumps)
        return cls(keep=[str(k) for k in c.keep], throw=[str(t) for t in c.throw], hand=hand,
                   crib=round(c.crib, 4), net=round(c.net, 4), reason=c.reason)


class DiscardOut(BaseModel):
    """Every way to keep four, best first; with a photo, the cards read from it."""

    dealt: list[CardText]
    seat: Literal["dealer", "pone"]
    players: int
    model: str
    choices: list[ChoiceOut] = Field(description="Best net first.")
    cards: list[CardOut] | None = Field(
        None, description="With a photo: the dealt cards read, left to right.")
    image: ImageSize | None = None

    @classmethod
    def from_advice(cls, advice: Advice, dealt: DealtRead | None = None,
                    size: tuple[int, int] | None = None) -> DiscardOut:
        return cls(dealt=[str(c) for c in advice.dealt], seat=advice.seat, players=advice.players,
                   model=advice.model, choices=[ChoiceOut.from_choice(c) for c in advice.choices],
                   cards=None if dealt is None else [CardOut.from_detection(d) for d in dealt.detections],
                   image=None if size is None else ImageSize(width=size[0], height=size[1]))


class NotDealtOut(ErrorOut):
    """422 for a photo that does not show the dealt cards: what was seen."""

    cards: list[CardOut]
    image: ImageSize

    @classmethod
    def from_seen(cls, detail: str, seen: tuple[Detection, ...], size: tuple[int, int]) -> NotDealtOut:
        return cls(detail=detail, cards=[CardOut.from_detection(d) for d in seen],
                   image=ImageSize(width=size[0], height=size[1]))
