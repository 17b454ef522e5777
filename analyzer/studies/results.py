"""A study's result: tidy tables, the manifest behind them, and the answers in plain words.

The answers are claims (:mod:`analyzer.studies.claims`): each sentence a study prints is
rendered from a claim whose cells are read from the study's tables, and ``headlines`` are the
sentences of the claims that hold when re-checked; a claim that does not hold becomes an
alert naming its cells instead. The manifest saves the claims (``claims``) beside the
sentences and alerts, and :func:`load_study` reads them back.

On disk a study is one folder, ``<out>/<study>/``, holding ``manifest.json`` and each table
twice: as Parquet (exact types, what :func:`load_study` reads) and as CSV (for anyone with a
spreadsheet). The manifest records the format, the study, every run behind the numbers
(seed, games, strategies, rules, package version) and a SHA-256 of each Parquet file, so a
folder that is not a cardlab study, or one whose files were changed or cut short, is refused
with a one-line error instead of producing a wrong report.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from analyzer import __version__
from analyzer.errors import CardlabError
from analyzer.outputs import (
    check_output_path,
    claim_output_folder,
    legacy_study_files,
    refuse_stdout,
    replace_folder,
)
from analyzer.studies import registry as studies
from analyzer.studies.claims import Claim, claims_of, settle

FORMAT = "cardlab-study/1"
MANIFEST = "manifest.json"


@dataclass
class StudyResult:
    """What a study found: ``tables`` by name, ``manifest`` (JSON-able), ``headlines`` (the
    sentences it prints), ``claims`` (what the sentences state, cell by cell) and ``alerts``
    (claims withdrawn because the tables do not bear them out)."""

    study: str
    tables: dict[str, pd.DataFrame]
    manifest: dict[str, Any]
    headlines: list[str] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    alerts: list[str] = field(default_factory=list)

    def say(self, claims: list[Claim]) -> StudyResult:
        """Add ``claims`` and derive ``headlines`` and ``alerts`` from all claims: the
        sentences of those that hold when re-checked against the tables, an alert for each
        that does not. Returns self."""
        self.claims = [*self.claims, *claims]
        self.headlines, self.alerts = settle(self.claims, self)
        return self

    def table(self, name: str) -> pd.DataFrame:
        """One table by name, with a clear error when the study has no such table."""
        if name not in self.tables:
            raise CardlabError(
                f"study {self.study!r} has no table {name!r}; tables: {', '.join(self.tables)}"
            )
        return self.tables[name]


def base_manifest(study: str, **fields: Any) -> dict[str, Any]:
    """The fields every manifest has (format, study, version, time) plus ``fields``."""
    return {
        "format": FORMAT,
        "study": study,
        "version": __version__,
        "created_utc": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        **fields,
    }


def named_strategies(manifest: dict[str, Any]) -> dict[str, list[str]]:
    """Every strategy label a study manifest names, by game, in order of first mention
    (strategies, field, policies, each run's strategies). A study of several games (the
    ladder: ``game`` is a list) names each game's strategies under ``by_game`` and in its
    runs, each run under its own game."""
    games = manifest.get("game", "ass")
    several = isinstance(games, list)
    out: dict[str, list[str]] = {}

    def add(game: Any, labels: Any) -> None:
        out.setdefault(str(game), []).extend(str(s) for s in labels or [])

    if several:
        for game, part in (manifest.get("by_game") or {}).items():
            add(game, (part or {}).get("strategies"))
    else:
        for key in ("strategies", "field"):
            add(games, manifest.get(key))
        add(games, (manifest.get("policies") or {}).values())
    for run in manifest.get("runs") or []:
        game = run.get("game", games)
        if not isinstance(game, list):
            add(game, run.get("strategies"))
    return {game: list(dict.fromkeys(labels)) for game, labels in out.items()}


def definition_key(game: str, label: str) -> str:
    """The key of a label's recorded definition in a study manifest's ``definitions``."""
    return f"{game}/{label}"


def strategy_record(manifest: dict[str, Any]) -> dict[str, Any]:
    """What the study's strategies were when it ran: ``definitions`` ("game/label" -> the
    resolved definition, registry ``Strategy.definition``) and ``strategies_files`` (the files that
    presets it names came from), so a report describes and reproduces them as played, not as
    whatever file is loaded later. Labels the registry does not know (a synthetic study) are
    left out."""
    from strategies.registry import StrategyError, parse_strategy, user_file

    definitions: dict[str, Any] = {}
    files: list[str] = []
    for game, label in ((g, x) for g, labels in named_strategies(manifest).items()
                        for x in labels):
        try:
            strategy = parse_strategy(game, label)
        except (StrategyError, CardlabError):
            continue
        definitions[definition_key(game, label)] = strategy.definition()
        source = user_file(strategy.spec)
        if source and source not in files:
            files.append(source)
    return {"definitions": definitions, "strategies_files": files}


def rules_by_players(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The rules in force per player count, from validated run specs (for the manifest)."""
    out: dict[str, Any] = {}
    for run in runs:
        out.setdefault(str(run["players"]), run.get("rules", {}))
    return out


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# The manifest's own checksum: over everything else it holds, as read back from its JSON. A
# manifest whose checksum differs was edited (or damaged) after the study wrote it; one
# without (written before manifests carried it) is read as it is.
DIGEST = "manifest_sha256"


def manifest_digest(manifest: dict[str, Any]) -> str:
    """The checksum of ``manifest`` without its own checksum, as its JSON file reads back."""
    plain = json.loads(json.dumps({k: v for k, v in manifest.items() if k != DIGEST},
                                  default=str))
    return hashlib.sha256(json.dumps(plain, sort_keys=True).encode()).hexdigest()


def save_study(result: StudyResult, out: str | Path) -> Path:
    """Write ``result`` to ``<out>/<study>/``, replacing an earlier result of that study.

    The folder is built beside its place and swapped in when complete (an interrupted or
    failed run never leaves half a study, and the earlier result stays until then). A
    ``<out>/<study>`` that cardlab did not write, or that holds anything cardlab did not
    write there, is refused, never replaced.
    """
    out = Path(out)
    _refuse_other_outputs(out)

    def build(tmp: Path) -> None:
        files = {}
        for name, df in result.tables.items():
            df = df.reset_index(drop=True)
            df.to_parquet(tmp / f"{name}.parquet", index=False)
            df.to_csv(tmp / f"{name}.csv", index=False)
            files[name] = {"parquet": f"{name}.parquet", "csv": f"{name}.csv",
                           "rows": len(df), "sha256": _sha256(tmp / f"{name}.parquet")}
        manifest = {**strategy_record(result.manifest), **result.manifest,
                    "study": result.study, "format": FORMAT,
                    "headlines": list(result.headlines),
                    "claims": [c.to_json() for c in result.claims],
                    "alerts": list(result.alerts), "tables": files}
        manifest[DIGEST] = manifest_digest(manifest)
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=2, default=str) + "\n")

    replace_folder(out / result.study, "study", build, what="study folder",
                   accept=_is_study_folder)
    return out / result.study


def check_study_target(out: str | Path, study: str) -> None:
    """Refuse (one line) before any game is played: an ``out`` that is not a folder or lies
    in another cardlab output, or a ``<out>/<study>`` that save_study would not be allowed to
    replace; then hold ``<out>/<study>``'s lock until it is saved (a second process writing
    it is refused: it is in use)."""
    refuse_stdout(out)
    out = Path(out)
    _refuse_other_outputs(out)
    claim_output_folder(out / study, "study", "study folder", _is_study_folder)


def _refuse_other_outputs(out: Path) -> None:
    """A study's ``<out>/<study>`` never goes into a run folder (``pandas.read_parquet`` of
    the run would fail, or read the study's tables as rows) nor into another cardlab output
    (a study's, a report's or a training's folder): ``out`` is the folder that holds study
    folders."""
    if out.exists() and not out.is_dir():
        raise CardlabError(f"--out {out} exists and is not a folder; choose a folder")
    check_output_path(out, "--out", advice="a study writes its own folder beside other "
                      "outputs, never in one: choose another --out (the folder that holds "
                      "the study folders, e.g. runs/studies)")


def _is_study_folder(folder: Path) -> bool:
    """A study folder written before folders carried cardlab's marker (its manifest says so;
    what else it holds is checked file by file: analyzer.outputs.foreign_files)."""
    return legacy_study_files(folder) is not None


def load_study(folder: str | Path) -> StudyResult:
    """Read a study folder back; raise CardlabError (one line) if it is not a valid one."""
    folder = Path(folder)
    path = folder / MANIFEST
    if not path.is_file():
        raise CardlabError(f"{folder} is not a cardlab study folder (no {MANIFEST})")
    try:
        manifest = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CardlabError(f"{path} is not readable JSON: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise CardlabError(f"{path} is not a {FORMAT} manifest")
    study = manifest.get("study")
    if study not in studies.names():
        raise CardlabError(f"{path} names an unknown study {study!r}")
    problem = manifest_problem(manifest)
    if problem:
        raise CardlabError(f"{path} is damaged: {problem}; run the study again")
    tables = {}
    for name, info in (manifest.get("tables") or {}).items():
        file = folder / str(info.get("parquet", ""))
        if not file.is_file() or file.parent != folder:
            raise CardlabError(f"study {study!r} in {folder}: table file {file.name} is missing")
        if _sha256(file) != info.get("sha256"):
            raise CardlabError(
                f"study {study!r} in {folder}: {file.name} was changed or is corrupt "
                "(checksum differs); run the study again"
            )
        try:
            tables[name] = pd.read_parquet(file)
        except Exception as exc:  # pyarrow raises several types for a damaged file
            raise CardlabError(f"{file} cannot be read: {exc}") from None
    if not tables:
        raise CardlabError(f"study {study!r} in {folder} has no tables")
    try:
        claims = claims_of(manifest.get("claims"))
    except (KeyError, TypeError, ValueError) as exc:
        raise CardlabError(f"{path} is damaged: a saved claim cannot be read ({exc}); run "
                           "the study again") from None
    if DIGEST in manifest and manifest_digest(manifest) != manifest[DIGEST]:
        raise CardlabError(f"{path} is damaged: it was changed after the study wrote it "
                           "(its checksum differs); run the study again")
    return StudyResult(study, tables, manifest, list(manifest.get("headlines", [])), claims,
                       list(manifest.get("alerts") or []))


def _count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _texts(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


# What the fields of a study manifest that reports read may hold (absent or null: not checked).
_FIELDS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "games": ("a whole number (or one per game)", lambda v: _count(v) or (
        isinstance(v, dict) and all(_count(x) for x in v.values()))),
    "deals": ("a whole number (or one per game)", lambda v: _count(v) or (
        isinstance(v, dict) and all(_count(x) for x in v.values()))),
    "seed": ("a whole number", _count),
    "players": ("a player count or a list of them", lambda v: _count(v) or (
        isinstance(v, list) and all(_count(x) for x in v))),
    "level": ("a number between 0 and 1", lambda v: _number(v) and 0 < v < 1),
    "elapsed_s": ("a number of seconds", lambda v: _number(v) and v >= 0),
    "headlines": ("a list of sentences", _texts),
    "alerts": ("a list of sentences", _texts),
    "claims": ("a list of claims", lambda v: isinstance(v, list) and all(
        isinstance(x, dict) for x in v)),
    "strategies": ("a list of strategy names", _texts),
    "runs": ("a list of run specs", lambda v: isinstance(v, list) and all(
        isinstance(x, dict) for x in v)),
    "better": ("lower or higher", lambda v: v in ("lower", "higher")),
    "game": ("a game name or a list of them (a study of several games)",
             lambda v: isinstance(v, str) or (isinstance(v, list) and v and _texts(v))),
    **{k: ("a text", lambda v: isinstance(v, str))
       for k in ("mode", "metric", "unit", "version", "created_utc", "design")},
    **{k: ("a table", lambda v: isinstance(v, dict))
       for k in ("rules", "by_game", "sequential", "tables")},
}


def manifest_problem(manifest: dict[str, Any]) -> str | None:
    """The first field of a study manifest that does not hold what its study wrote (an edited
    or damaged file), named with what it must be, or None."""
    for key, (what, ok) in _FIELDS.items():
        value = manifest.get(key)
        if value is not None and not ok(value):
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
            return f"field {key!r} must be {what}; got {shown}"
    for name, info in (manifest.get("tables") or {}).items():
        if not isinstance(info, dict):
            return f"table {name!r} must be a table of its files; got {info!r}"
    return None


def find_studies(folder: str | Path) -> list[StudyResult]:
    """Every study saved under ``folder`` (in the order of the study registry).

    ``folder`` may also be a single study's folder. Raises CardlabError when there is none
    or when one of them is damaged.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise CardlabError(f"no study results folder {folder}; run `cardlab study ...` first")
    if (folder / MANIFEST).is_file():
        return [load_study(folder)]
    found = [load_study(folder / name) for name in studies.names()
             if (folder / name / MANIFEST).is_file()]
    if not found:
        raise CardlabError(
            f"{folder} holds no cardlab study results (expected subfolders such as "
            f"{', '.join(studies.names())} with a {MANIFEST})"
        )
    return found
