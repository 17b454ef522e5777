"""Numbers as people read them: the one formatting helper of the command line and the report.

* An estimate is rounded to what its interval supports: the half-width keeps one significant
  digit (two when that digit is 1 or 2, where one would round by up to a third), and the value
  keeps the same decimals: ``0.4267 ± 0.0004``, never ``0.427 ± 0.000``.
* Rates (chances, win rates, error rates) are always percentages: ``19.77 ± 0.25%``.
* One style everywhere: ``±`` with a space on each side, thousands separators (``50,000``),
  an ASCII minus sign.

No numba, no pandas: the CLI, the studies' sentences and the report all import this.
"""

from __future__ import annotations

import math
import re

PM = "±"
MAX_DECIMALS = 8
DEFAULT_DECIMALS = 3  # where there is no interval to round to


def decimals_for(half: float) -> int:
    """Decimals that show ``half`` to one significant digit (two if it starts with 1 or 2)."""
    if not math.isfinite(half) or half <= 0:
        return DEFAULT_DECIMALS
    exponent = math.floor(math.log10(half))
    lead = half / 10.0 ** exponent
    if round(lead) >= 10:  # 0.0096 rounds to 0.01: one digit fewer
        exponent, lead = exponent + 1, 1.0
    digits = 2 if lead < 3 else 1
    return int(min(MAX_DECIMALS, max(0, digits - 1 - exponent)))


def number(value: float, decimals: int = DEFAULT_DECIMALS, signed: bool = False) -> str:
    """``value`` with thousands separators and ``decimals`` decimals (``-0`` shown as ``0``)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if isinstance(value, float) and math.isinf(value):
        return ("-" if value < 0 else "+" if signed else "") + "∞"
    text = f"{value:{'+' if signed else ''},.{decimals}f}"
    if float(text.replace(",", "")) == 0:  # no "-0.00" or "+0.00"
        text = f"{0:.{decimals}f}"
    return text


def count(n: float) -> str:
    """A count with thousands separators: ``50,000``."""
    return f"{int(n):,}"


def interval(value: float, half: float, *, percent: bool = False, signed: bool = False) -> str:
    """``value ± half`` rounded to the interval; ``percent`` shows a rate (0..1) in percent.

    >>> interval(0.42673, 0.00041)
    '0.4267 ± 0.0004'
    >>> interval(0.19774, 0.00247, percent=True)
    '19.77 ± 0.25%'
    """
    scale = 100.0 if percent else 1.0
    value, half = value * scale, half * scale
    suffix = "%" if percent else ""
    if half is None or not math.isfinite(half):
        return number(value, DEFAULT_DECIMALS if not percent else 1, signed) + suffix
    d = decimals_for(half)
    return f"{number(value, d, signed)} {PM} {number(half, d)}{suffix}"


def percent(rate: float, decimals: int | None = None) -> str:
    """A rate (0..1) as a percentage; decimals chosen so that small rates still show."""
    if rate is None or not math.isfinite(rate):
        return "n/a"
    p = 100.0 * rate
    if decimals is None:
        decimals = 0 if p == 0 or abs(p) >= 10 else 1 if abs(p) >= 1 else 2
    return f"{number(p, decimals)}%"


def bounds(low: float, high: float, *, percent: bool = False) -> str:
    """An interval's ends, rounded alike: ``[0.10%, 2.94%]`` or ``[-0.35, 0.12]``."""
    scale = 100.0 if percent else 1.0
    lo, hi = low * scale, high * scale
    d = decimals_for((hi - lo) / 2)
    suffix = "%" if percent else ""
    return f"[{number(lo, d)}{suffix}, {number(hi, d)}{suffix}]"


# --- reading numbers: the one parser of the command line ----------------------------------
#
# Python's int() and float() read far more than a person types as a number: full-width and
# other non-ASCII digits (``１``, ``٣``), underscores (``1_0``), surrounding spaces, and
# float() rounds ``1e-400`` to 0. Every number on cardlab's command line (an option's value,
# each item of a list such as --sizes 13,12,13 or --game 2/4, each value of key=value pairs)
# is read here instead: ASCII digits, an optional sign, for a real number a decimal point and
# an exponent; nan and inf are read as words and left to the option's own check.


_INT = re.compile(r"[+-]?[0-9]+")
_FLOAT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_WORDS = {"nan": math.nan, "inf": math.inf, "infinity": math.inf}


class NumberError(ValueError):
    """A value that is not a number as the command line reads numbers (the message says
    why). cardlab's errors module turns it into its one-line error where a command raises it;
    inside typer it is the reason of "Invalid value for '--option'"."""


def _shown(text: object) -> str:
    return repr(text) if isinstance(text, str) else str(text)


def _of(what: str) -> str:
    return f"{what}: " if what else ""


def parse_int(text: object, what: str = "a whole number") -> int:
    """A whole number written with ASCII digits and an optional sign, nothing else (no
    spaces, underscores, decimal point or non-ASCII digits)."""
    if isinstance(text, bool):
        raise NumberError(f"{_of(what)}{text!r} is not a whole number")
    if isinstance(text, int):
        return text
    if not isinstance(text, str) or not _INT.fullmatch(text):
        raise NumberError(f"{_of(what)}{_shown(text)} is not a whole number (ASCII digits 0-9 "
                          "and an optional sign only; no spaces, underscores or decimals)")
    return int(text)


def parse_float(text: object, what: str = "a number") -> float:
    """A real number: ASCII digits, an optional sign, decimal point and exponent (``0.05``,
    ``1e-3``); ``nan``/``inf`` are read as such for the option's own check. A value too small
    to hold (``1e-400``, which would read as 0) or too large (``1e400``) is refused."""
    if isinstance(text, bool):
        raise NumberError(f"{_of(what)}{text!r} is not a number")
    if isinstance(text, (int, float)):
        return float(text)
    if not isinstance(text, str):
        raise NumberError(f"{_of(what)}{_shown(text)} is not a number")
    word = text.lower().lstrip("+-")
    if word in _WORDS and text.isascii():
        value = _WORDS[word]
        return -value if text.startswith("-") else value
    if not _FLOAT.fullmatch(text):
        raise NumberError(f"{_of(what)}{text!r} is not a number (ASCII digits 0-9, an optional "
                          "sign, decimal point and exponent, e.g. 0.05 or 1e-3; no spaces or "
                          "underscores)")
    value = float(text)
    if math.isinf(value):
        raise NumberError(f"{_of(what)}{text} is too large to hold (the largest is about 1.8e308)")
    mantissa = re.split(r"[eE]", text)[0]
    if value == 0 and any(c in "123456789" for c in mantissa):
        raise NumberError(f"{_of(what)}{text} is too small to hold: it would read as 0 (the "
                          "smallest is about 5e-324)")
    return value


def parse_int_list(text: str, what: str, sep: str = ",") -> list[int]:
    """Whole numbers separated by ``sep`` (spaces around each allowed), each read by
    :func:`parse_int`; an empty item is refused."""
    items = text.split(sep)
    return [parse_int(item.strip(), f"{what} {text!r}") for item in items]


def parse_pairs(text: str, what: str, value=parse_float, sep: str = ",") -> dict[str, object]:
    """``key=value`` pairs separated by ``sep``; a key given twice is refused (it would
    silently keep the last)."""
    out: dict[str, object] = {}
    for item in text.split(sep):
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise NumberError(f"{what} {text!r}: write key=value pairs separated by {sep!r}")
        if key in out:
            raise NumberError(f"{what} {text!r}: {key} is given twice")
        out[key] = value(raw.strip(), f"{what} {key}")
    return out
