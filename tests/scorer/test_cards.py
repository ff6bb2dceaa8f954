"""Cards: the notation players type, parsed and printed, and the errors for bad tokens."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.cards import (
    ACE,
    FULL_DECK,
    JACK,
    KING,
    TEN,
    Card,
    InvalidCardError,
    Suit,
    check_distinct,
    parse_cards,
)


class TestParse:
    @pytest.mark.parametrize(
        ("token", "rank", "suit"),
        [
            ("5H", 5, Suit.HEARTS),
            ("10D", TEN, Suit.DIAMONDS),
            ("10d", TEN, Suit.DIAMONDS),
            ("TD", TEN, Suit.DIAMONDS),
            ("td", TEN, Suit.DIAMONDS),
            ("JC", JACK, Suit.CLUBS),
            ("qs", 12, Suit.SPADES),
            ("KH", KING, Suit.HEARTS),
            ("AS", ACE, Suit.SPADES),
            ("J♣", JACK, Suit.CLUBS),
            ("A♠️", ACE, Suit.SPADES),  # with the emoji variation selector
            ("A♠\ufe0e", ACE, Suit.SPADES),  # with the text variation selector
            ("7♥", 7, Suit.HEARTS),
            ("9♦", 9, Suit.DIAMONDS),
            (" 5h ", 5, Suit.HEARTS),
        ],
    )
    def test_notation(self, token: str, rank: int, suit: Suit) -> None:
        assert Card.parse(token) == Card(rank, suit)

    @pytest.mark.parametrize("token", ["1X", "1H", "11H", "5", "H", "", "5HH", "ZZ", "0S", "5X", "JK"])
    def test_bad_token_names_itself(self, token: str) -> None:
        with pytest.raises(InvalidCardError, match=f"^{token!r} is not a card"):
            Card.parse(token)

    def test_a_long_bad_token_is_named_by_its_start(self) -> None:
        named = r"^'AAAAAAAAAAAA'\.\.\. \(100000 characters\) is not a card"
        with pytest.raises(InvalidCardError, match=named):
            Card.parse("A" * 100_000)

    def test_not_a_string(self) -> None:
        with pytest.raises(InvalidCardError, match="is not a card"):
            Card.parse(5)  # type: ignore[arg-type]


class TestFormat:
    def test_str_is_notation(self) -> None:
        assert [str(Card.parse(t)) for t in ("td", "a♠️", "q♡")] == ["10D", "AS", "QH"]

    def test_repr_rebuilds(self) -> None:
        card = Card.parse("10D")
        assert repr(card) == "Card.parse('10D')"
        assert eval(repr(card)) == card

    def test_symbol_and_name(self) -> None:
        assert Card.parse("10D").symbol() == "10♦"
        assert Card.parse("JC").name == "jack of clubs"

    @given(st.sampled_from(FULL_DECK))
    def test_parse_str_round_trip(self, card: Card) -> None:
        assert Card.parse(str(card)) == card
        assert Card.parse(card.symbol()) == card
        assert Card.parse(str(card).lower()) == card


class TestCard:
    def test_value_for_fifteens(self) -> None:
        assert [Card.parse(t).value for t in ("AS", "5H", "10D", "JC", "QS", "KH")] == [1, 5, 10, 10, 10, 10]

    def test_index_is_rank_major(self) -> None:
        assert [c.index for c in FULL_DECK] == list(range(52))
        assert Card.parse("AC").index == 0 and Card.parse("KS").index == 51
        assert all(Card.from_index(c.index) == c for c in FULL_DECK)

    def test_order_is_rank_then_suit(self) -> None:
        assert sorted(parse_cards("KS AH 10C AC")) == list(parse_cards("AC AH 10C KS"))

    def test_frozen(self) -> None:
        with pytest.raises(dataclasses.FrozenInstanceError):
            Card.parse("5H").rank = 6  # type: ignore[misc]

    def test_fields_are_rank_and_suit_only(self) -> None:
        # The cached index is a slot, not a field: equality, hash and repr stay (rank, suit).
        assert [f.name for f in dataclasses.fields(Card)] == ["rank", "suit"]
        assert hash(Card(5, Suit.HEARTS)) == hash(Card.parse("5H"))

    def test_pickle_and_copy_keep_the_card(self) -> None:
        card = Card.parse("JC")
        for clone in (pickle.loads(pickle.dumps(card)), copy.copy(card), copy.deepcopy(card)):
            assert clone == card and clone.index == card.index

    @pytest.mark.parametrize(("rank", "suit"), [(0, Suit.HEARTS), (14, Suit.HEARTS), ("5", Suit.HEARTS),
                                                (True, Suit.HEARTS), (5, "H")])
    def test_bad_fields(self, rank: object, suit: object) -> None:
        with pytest.raises(InvalidCardError):
            Card(rank, suit)  # type: ignore[arg-type]

    def test_from_index_range(self) -> None:
        with pytest.raises(InvalidCardError, match="0..51"):
            Card.from_index(52)


class TestParseCards:
    def test_spaces_and_commas(self) -> None:
        assert parse_cards("5H 5D, JC") == (Card.parse("5H"), Card.parse("5D"), Card.parse("JC"))
        assert parse_cards(["5H", "TD"]) == (Card.parse("5H"), Card.parse("10D"))

    def test_a_card_given_twice_is_an_error(self) -> None:
        with pytest.raises(InvalidCardError, match="^5H is given twice"):
            parse_cards("5H 6C 5h")

    def test_check_distinct(self) -> None:
        check_distinct(FULL_DECK)
        with pytest.raises(InvalidCardError, match="JC is given twice"):
            check_distinct([Card.parse("JC"), Card.parse("J♣")])

    def test_deck(self) -> None:
        assert len(FULL_DECK) == len(set(FULL_DECK)) == 52
