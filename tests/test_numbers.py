"""One number style for the command line and the report: rounded to the interval, ±, 1,000s."""

import math

import pytest

from analyzer.numbers import bounds, count, decimals_for, interval, number, percent
from analyzer.text import pm


@pytest.mark.parametrize("value,half,text", [
    (0.42673, 0.00041, "0.4267 ± 0.0004"),      # not "0.427 ± 0.000"
    (27.1689, 0.0268, "27.169 ± 0.027"),        # leading 2: two digits of the half-width
    (40.98, 0.031, "40.98 ± 0.03"),
    (12345.6, 37.0, "12,346 ± 37"),            # thousands separators
    (1234567.0, 1200.0, "1,234,567 ± 1,200"),
    (5.0, 0.0096, "5.000 ± 0.010"),             # 0.0096 rounds up to 0.010
])
def test_an_estimate_is_rounded_to_its_interval(value, half, text):
    assert interval(value, half) == text


def test_rates_are_percentages_and_signs_are_explicit_only_when_asked():
    assert interval(0.19774, 0.00247, percent=True) == "19.77 ± 0.25%"
    assert interval(0.4339, 0.0068, percent=True) == "43.4 ± 0.7%"
    assert interval(-0.27, 0.2, signed=True) == "-0.27 ± 0.20"
    assert interval(0.27, 0.2, signed=True) == "+0.27 ± 0.20"
    assert interval(-0.0001, 0.2, signed=True) == "0.00 ± 0.20"  # never "-0.00"
    assert pm(0.42673, 0.00041) == "0.4267 ± 0.0004"  # the studies' sentences use the same


def test_decimals_and_the_other_helpers():
    assert decimals_for(0.0004) == 4 and decimals_for(0.25) == 2 and decimals_for(0.5) == 1
    assert decimals_for(37.0) == 0 and decimals_for(math.nan) == 3
    assert count(50000) == "50,000" and count(2_000_000) == "2,000,000"
    assert number(1234.5, 1) == "1,234.5" and number(math.nan) == "n/a"
    assert percent(0.00833) == "0.83%" and percent(0.25) == "25%" and percent(0.05) == "5.0%"
    assert bounds(0.0009571, 0.02944) == "[0.001, 0.029]"
    assert bounds(0.0009571, 0.02944, percent=True) == "[0.1%, 2.9%]"
    assert interval(3.2, math.nan) == "3.200"  # no interval: no ±
