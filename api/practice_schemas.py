"""Request and response shapes of the practice routes (``/api/practice/deal``, ``/api/practice/check``).

Kept beside :mod:`api.schemas`, whose item and show shapes they reuse; the rules
stay in :mod:`scorer.practice`, the page only shows what these say.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from api.schemas import CardText, CardToken, ItemOut, ShowOut
from scorer.practice import Deal, Judgement, Lesson, WrongClaim

MAX_ANSWER_CHARS = 1000
"""The longest typed count: a 29 hand named item by item is about 250 characters."""


class PracticeDealIn(BaseModel):
    """What kind of hand to deal."""

    level: Literal["easy", "mixed"] = Field("mixed", description="easy: small hands (2-8 points, no flush "
                                                                 "or nobs) unless a lesson was missed; "
                                                                 "mixed: any hand.")
    crib: bool = Field(False, description="Deal cribs too (about one deal in three).")
    focus: list[Lesson] = Field([], max_length=20,
                                description="Lessons the player got wrong lately: dealt more often.",
                                examples=[["nobs", "double run"]])
    seed: int | None = Field(None, ge=0, le=2**53,
                             description="Seed the deal, to repeat it (tests, sharing a hand).")


class PracticeDealOut(BaseModel):
    """A hand (or crib) and starter to count."""

    hand: list[CardText] = Field(description="The 4 hand or crib cards, sorted.",
                                 examples=[["5H", "5D", "5S", "JC"]])
    starter: CardText = Field(examples=["5C"])
    crib: bool
    lesson: Literal["any", "nobs", "double run", "crib flush", "flush", "fifteens", "pair royal"] = Field(
        description="Why this hand was dealt: any hand, or one that teaches this.")

    @classmethod
    def from_deal(cls, dealt: Deal) -> PracticeDealOut:
        return cls(hand=[str(c) for c in dealt.hand], starter=str(dealt.starter), crib=dealt.crib,
                   lesson=dealt.lesson)


class PracticeCheckIn(BaseModel):
    """A dealt hand and the player's count of it."""

    hand: list[CardToken] = Field(min_length=4, max_length=4, examples=[["5H", "5D", "5S", "JC"]])
    starter: CardToken = Field(examples=["5C"])
    crib: bool = False
    answer: str = Field(max_length=MAX_ANSWER_CHARS, description="A total (0-29), or items: "
                        "'15 with 5H JC; pair 5H 5D; run 3H 4S 5D; flush; nobs'.", examples=["28"])


class WrongItemOut(BaseModel):
    """An item the player named that the hand does not score."""

    kind: Literal["fifteen", "pair", "run", "flush", "nobs"]
    cards: list[CardText]
    said: str = Field(description="The item as read, e.g. 'fifteen 5H 9C'.")
    reason: str = Field(description="The rule it breaks.", examples=["5H 9C make 14, not 15"])

    @classmethod
    def from_wrong(cls, wrong: WrongClaim) -> WrongItemOut:
        item = wrong.item
        return cls(kind=item.kind, cards=[str(c) for c in item.cards], said=str(item), reason=wrong.reason)


class PracticeCheckOut(BaseModel):
    """The player's count, checked item by item."""

    correct: bool
    claimed: int = Field(description="The total said, or what the items named add up to.")
    total: int = Field(ge=0, le=29)
    message: str = Field(description="One line for the player.")
    right: list[ItemOut] = Field(description="Items named that are there.")
    missed: list[ItemOut] = Field(
        description="Items not named (for a short total, the likeliest; see exact).")
    exact: bool = Field(
        description="False when a short total leaves several items that could be the missed one.")
    wrong: list[WrongItemOut] = Field(description="Items named that are not there, each with the reason.")
    lessons: list[Lesson] = Field(
        description="Wrong answers: kinds of hand to deal more often (send as focus).")
    show: ShowOut = Field(description="The true count, item by item, with the spoken count.")

    @classmethod
    def from_judgement(cls, result: Judgement) -> PracticeCheckOut:
        show = result.show
        return cls(correct=result.correct, claimed=result.claimed, total=show.total, message=result.message,
                   right=[ItemOut.from_item(i, show) for i in result.right],
                   missed=[ItemOut.from_item(i, show) for i in result.missed], exact=result.exact,
                   wrong=[WrongItemOut.from_wrong(w) for w in result.wrong], lessons=list(result.lessons),
                   show=ShowOut.from_show(show))
