"""The command that reproduces a study section, read from its manifest.

Same seed, same budget, same strategies: the command rebuilds the very same tables (games
are fixed by (seed, index), whatever the workers), then ``cardlab report`` draws them again.
"""

from __future__ import annotations

import shlex

from analyzer.games.registry import get as game_description
from analyzer.studies.results import StudyResult
from reports import facts

OUT = "runs/studies"


def _ints(values: list[int]) -> str:
    """'3-12' for a run of consecutive numbers, else '3,4,8'."""
    values = [int(v) for v in values]
    if len(values) > 2 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}-{values[-1]}"
    return ",".join(str(v) for v in values)


def _repeat(option: str, values: list[str]) -> list[str]:
    return [x for v in values for x in (option, str(v))]


def study_command(result: StudyResult, out: str = OUT) -> str | None:
    """``cardlab study ...`` that reproduces ``result``, or None for an unknown study."""
    m = result.manifest
    args = ["cardlab", "study", result.study]
    if result.study == "seats":
        args += ["--players", _ints(m["players"]), "--games", str(m["games"]),
                 "--seed", str(m["seed"]), *_repeat("--strategy", m["strategies"])]
        if "strong_fields" in m:  # older results had no strong field
            args += (_repeat("--strong-field", m["strong_fields"]) if m["strong_fields"]
                     else ["--strong-field", "none"])
            args += ["--slow-games", str(m["slow_games"])]
    elif result.study == "jokers":
        args += ["--players", _ints(m["players"]), "--keep", _ints(m["keep"]),
                 "--games", str(m["games"]), "--seed", str(m["seed"]),
                 *_repeat("--strategy", m["field"])]
        if "strong_fields" in m:  # older results had no strong field
            args += (_repeat("--strong-field", m["strong_fields"]) if m["strong_fields"]
                     else ["--strong-field", "none"])
            args += ["--slow-games", str(m["slow_games"]),
                     "--habit-games", str(m.get("habit_games", 0))]
    elif result.study == "trump":
        args += ["--players", _ints(m["players"]), "--ruleset", ",".join(m["rules_sets"]),
                 "--deals", str(m["deals"]), "--seed", str(m["seed"]),
                 *_repeat("--strategy", m["strategies"])]
        if "choosers" in m:  # older results ran no choosers
            args += (_repeat("--chooser", m["choosers"]) if m["choosers"] else
                     ["--chooser", "none"])
            args += ["--slow-deals", str(m["slow_deals"])]
    elif result.study == "compare":
        # the count under the mode's own name: --games, --matches or --deals
        mode = m.get("mode") or game_description(str(m["game"])).default_mode
        args += ["--game", str(m["game"]), *_repeat("--strategy", m["strategies"]),
                 "--players", _ints(m["players"]), f"--{mode}", str(m["games"]),
                 "--seed", str(m["seed"])]
        rules = next(iter((m.get("rules") or {}).values()), {})
        if rules.get("ruleset", "seed") != "seed":
            args += ["--ruleset", str(rules["ruleset"])]
        if m.get("metric"):
            args += ["--metric", str(m["metric"]), "--better", facts.better(m)]
        seq = m.get("sequential") or {}
        if seq.get("until_sure"):
            args += ["--until-sure", "--alpha", f"{seq.get('alpha', 0.05):g}"]
            if seq.get("margin") is not None:
                args += ["--margin", f"{seq['margin']:g}"]
            if seq.get("batch") is not None:
                args += ["--batch", str(seq["batch"])]
    else:
        from analyzer.studies import registry

        names = registry.names()
        make = registry.get(result.study).reproduce if result.study in names else None
        if make is None:
            return None
        args = ["cardlab", *make(m)]
    # presets of strategies files the study named: the files it read them from (recorded
    # when it was saved, analyzer.studies.results.strategy_record)
    files = [x for f in m.get("strategies_files") or [] for x in ("--strategies", str(f))]
    return shlex.join([args[0], *files, *args[1:], "--out", out])


def report_command(out: str = OUT, report: str = "report") -> str:
    """The command that draws the report again from the study results."""
    return shlex.join(["cardlab", "report", "--from", out, "--out", report])
