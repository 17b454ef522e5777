"""Replication: the same suite at another seed, compared claim by claim.

``cardlab study replicate --from runs/studies --seed N --out runs/replicate`` reruns every
study of a finished suite with its own command (reports/reproduce.py) at master seed ``N``,
and compares every claim of the first suite (its key findings and each study's sentences,
as ``data/findings.json`` holds them) with the claims of the rerun, cell by cell:

- ``same``: every verdict of the claim's cells is the same on both seeds;
- ``clear on one seed only``: a difference clear on one seed is not clear on the other
  (about 1 in 20 of the clear ones is expected: a 95% interval);
- ``choice changed while unclear``: a cell names another best option on the other seed, and
  on at least one seed the two are not clearly apart;
- ``clearly X vs clearly Y``: a difference clearly one way on one seed and clearly the other
  way on the other, or a best option clearly ahead of the other seed's best, and the other
  seed's clearly ahead of it (must be 0);
- ``not compared``: the other seed has no claim on these cells (its sentences group the
  cells differently, or hold only figures).

A cell's verdict is what its statement judges: ``positive``/``negative``/``unclear`` of a
difference, the sign of a Holm-clear row, a table's ``clear`` flag, the option named best.
Figures (kind ``value``, counts) are numbers, not verdicts, and are not compared.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from analyzer.studies.claims import Cell, Claim, statement

SAME, CLEAR_ONE, CHOICE, CONTRADICTION, NONE = (
    "same", "clear on one seed only", "choice changed while unclear", "clearly X vs clearly Y",
    "not compared")
ORDER = (NONE, SAME, CHOICE, CLEAR_ONE, CONTRADICTION)  # worst last


def _where(claim: Claim, stated: Claim, cell: Cell) -> tuple:
    return (claim.study, stated.table, cell.players, cell.ruleset, cell.field, cell.aim,
            cell.metric)


def verdicts(claim: Claim) -> list[tuple[tuple, object]]:
    """(key, verdict) of every cell of ``claim`` that judges (module docstring)."""
    out = []
    for i, cell in enumerate(claim.cells):
        stated = statement(claim, i)
        at = _where(claim, stated, cell)
        kind = stated.kind
        if kind in ("positive", "negative", "unclear"):
            out.append(((*at, "diff", cell.choice, stated.against), kind))
        elif kind in ("holm-clear", "holm-unclear"):
            sign = ("positive" if cell.value > 0 else "negative") if kind == "holm-clear" \
                else "unclear"
            out.append(((*at, "diff", cell.choice, stated.against), sign))
        elif kind == "equals" and cell.metric == "clear":
            out.append(((*at, "flag", cell.choice, stated.against),
                        str(stated.extra.get("equals"))))
        elif kind in ("best", "top-group"):
            flags = (stated.better, bool(stated.extra.get("abs")),
                     tuple(stated.extra.get("exclude") or ()))
            out.append(((*at, kind, flags), ("choice", cell.choice)))
    return out


def _clearly_ahead(claims: Iterable[Claim], key: tuple, best: str, other: str) -> bool:
    """Whether some claim says ``other`` is clearly worse than ``best`` in the cell of the
    best-option ``key`` (a paired difference other - best clearly above 0, e.g. the trump
    answer's runner-up cells)."""
    study, _, players, ruleset, _, aim = key[:6]
    for claim in claims:
        if claim.study != study:
            continue
        for i, cell in enumerate(claim.cells):
            stated = statement(claim, i)
            if (stated.kind == "positive" and stated.against == best and cell.choice == other
                    and (cell.players, cell.ruleset, cell.aim) == (players, ruleset, aim)):
                return True
    return False


@dataclass
class Replication:
    """Each first-seed claim's status (by its position), and the counts per status."""

    seed: int | None
    statuses: list[str] = field(default_factory=list)
    details: list[list[str]] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {s: self.statuses.count(s) for s in ORDER}

    def summary(self) -> str:
        """The comparison in one paragraph, as the report shows it."""
        c = self.counts()
        at = f"master seed {self.seed}" if self.seed is not None else "another seed"
        return (f"Replication: the whole suite was run again at {at} and every claim compared "
                f"cell by cell: {c[SAME]} the same; {c[CLEAR_ONE]} clear on one seed only "
                f"(about 1 in 20 clear differences is expected to be); {c[CHOICE]} with "
                f"another best option while the two are not clearly apart; {c[CONTRADICTION]} "
                f"clearly one way on one seed and clearly the other way on the other (must "
                f"be 0); {c[NONE]} not compared (the other seed groups those cells "
                "differently).")


def compare(first: list[Claim], other: list[Claim], seed: int | None = None) -> Replication:
    """Every claim of ``first`` against the claims of ``other`` (module docstring)."""
    theirs: dict[tuple, object] = {}
    for claim in other:
        for key, verdict in verdicts(claim):
            theirs.setdefault(key, verdict)
    out = Replication(seed)
    for claim in first:
        worst, notes = NONE, []
        for key, mine in verdicts(claim):
            if key not in theirs:
                continue
            other_verdict = theirs[key]
            if other_verdict == mine:
                status = SAME
            elif isinstance(mine, tuple):  # best options differ
                a, b = mine[1], other_verdict[1]
                both = (_clearly_ahead(first, key, a, b)
                        and _clearly_ahead(other, key, b, a))
                status = CONTRADICTION if both else CHOICE
                notes.append(f"{key[2]} players: {a} here, {b} there")
            elif {mine, other_verdict} == {"positive", "negative"}:
                status = CONTRADICTION
                notes.append(f"{key[2]} players, {key[-2]}: {mine} here, {other_verdict} there")
            else:
                status = CLEAR_ONE
                notes.append(f"{key[2]} players, {key[-2]}: {mine} here, {other_verdict} there")
            if ORDER.index(status) > ORDER.index(worst):
                worst = status
        out.statuses.append(worst)
        out.details.append(notes)
    return out


def table_lines(result: Replication) -> list[str]:
    """The comparison as a small text table: status, claims."""
    counts = result.counts()
    width = max(len(s) for s in ORDER)
    return [f"{s:<{width}}  {counts[s]:>5}" for s in ORDER]


def replica_seed(studies: list) -> int | None:
    """The master seed the replica's studies played (None where they differ)."""
    seeds = {s.manifest.get("seed") for s in studies}
    return int(next(iter(seeds))) if len(seeds) == 1 and None not in seeds else None


def rerun_commands(studies: list, out: str, seed: int) -> list[list[str]]:
    """Each study's own command (reports/reproduce.py) at master seed ``seed``, writing into
    ``out``: the arguments after ``cardlab``."""
    import shlex

    from reports.reproduce import study_command

    commands = []
    for result in studies:
        line = study_command(result, out=out)
        if line is None:
            continue
        args = shlex.split(line)[1:]
        if "--seed" in args:
            args[args.index("--seed") + 1] = str(seed)
        else:
            args += ["--seed", str(seed)]
        commands.append(args)
    return commands
