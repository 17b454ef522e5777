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
