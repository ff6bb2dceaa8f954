"""What a player types, read strictly and quoted back briefly, for every front end alike.

``str.isdigit`` takes ``²`` (which ``int`` refuses with a traceback) and ``٣`` (which ``int`` reads
as 3), and ``int`` of thousands of digits raises with Python's own words: a typed number is ASCII
digits only, and a few of them.
"""

from __future__ import annotations

MAX_DIGITS = 6
"""The most digits a typed number may have (leading zeros not counted)."""


def whole_number(text: object) -> int | None:
    """The whole number ``text`` spells (spaces round it allowed), or ``None`` for anything else.

    >>> whole_number(" 12 "), whole_number("007"), whole_number("²"), whole_number("٣"), whole_number("1.0")
    (12, 7, None, None, None)
    >>> whole_number("9" * 7000) is None, whole_number(12) is None
    (True, True)
    """
    digits = text.strip() if isinstance(text, str) else ""
    if digits.isascii() and digits.isdigit() and len(digits.lstrip("0")) <= MAX_DIGITS:
        return int(digits)
    return None


def quoted(value: object, longest: int = 24) -> str:
    """``value`` as an error message quotes it: its ``repr``, cut to its first 12 characters past
    ``longest``, so a pasted page in a field gets a one-line answer.

    >>> quoted("abc"), quoted(3.5), quoted("x" * 5000)
    ("'abc'", '3.5', "'xxxxxxxxxxxx'... (5000 characters)")
    """
    try:
        text = value if isinstance(value, str) else repr(value)
    except ValueError:  # an int past Python's 4,300-digit limit on writing it out
        return "a number of over 4,300 digits"
    return repr(value) if len(text) <= longest else f"{text[:12]!r}... ({len(text)} characters)"
