"""Every study with its default budget: what ``cardlab study all`` and ``make demo`` run.

The defaults are sized so that the whole suite, numba compilation included, finishes in a
few minutes on two cores; ``scale`` multiplies every budget for tighter intervals.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from analyzer.errors import CardlabError
from analyzer.games import registry
from analyzer.runner.play import Backend
from analyzer.studies.best_response import run_best_response
from analyzer.studies.compare import run_compare
from analyzer.studies.fields import run_fields
from analyzer.studies.jokers import run_jokers
from analyzer.studies.ladder import run_ladder
from analyzer.studies.results import StudyResult
from analyzer.studies.seats import run_seats
from analyzer.studies.trump import DEFAULT_CHOOSERS, run_trump

# Games (deals, matches) per player count at scale 1. jokers-slow: deals per player count
# against pimc, and traced games of pimc and careful; trump-slow: deals per (player count,
# rule set) for the pimc chooser (about 25-40 deals/s); best-response(-ass): tuning budget
# per field, Jass matches (Who's the Ass? games: cheaper and noisier), and held-out deals.
BUDGETS = {"seats": 50_000, "jokers": 3_000, "jokers-slow": 150, "trump": 10_000,
           "trump-slow": 100,
           "compare": 10_000, "ladder": 2_000, "best-response": 10_000,
           "best-response-ass": 100_000, "best-response-confirm": 1_000, "fields": 1_000,
           "trump-fields": 3_000, "seats-fields": 5_000}
# The games the suite's studies play (which game a study plays is the study's own choice).
BUILTIN_GAMES = ("ass", "jass")
COMPARE = {"game": "jass", "strategies": ("basic", "aim-high", "aim-low", "adaptive"),
           "players": (4,)}
# The knobs the demo's best response tunes (the tuned presets' winning knobs): every knob of
# the family would need 3,360 (Who's the Ass?) and 1,792 (Jass) candidates, minutes each.
BEST_RESPONSE_KNOBS = ("jokers", "ass_throw", "lead", "aim", "trump")
# {game: its budget}: a game's own budget where BUDGETS has one (best-response-<game>)
BEST_RESPONSE_BUDGETS = {g: f"best-response-{g}" if f"best-response-{g}" in BUDGETS
                         else "best-response" for g in BUILTIN_GAMES}


def _warm(description) -> tuple:
    return description.parts.warm if description.parts is not None else ()


# What each game compiles before the studies: its adapter's warm parts (GameParts.warm).
WARM_PARTS = tuple(w.name for g in BUILTIN_GAMES for w in _warm(registry.get(g)))
# The part a part shares most of its kernels with (its WarmPart's ``after``): compiled after
# it in the same process, it loads those instead of compiling them again. Measured on an
# empty cache, one core (CPU s): alone jass 160, jass-trump 108, jass-search 85, ass 57,
# ass-search 97; after its base jass-trump 8, jass-search 23 (13 since its chunk kernels share
# the trace's copy of the loop, 2026-12-03), ass-search 82.
WARM_AFTER = {w.name: w.after for g in BUILTIN_GAMES for w in _warm(registry.get(g))
              if w.after}
# A part that shares no kernel with another, compiled after the named part in that part's
# lane: it fills the time that lane would wait for the longer one, instead of a process of
# its own. The test suite's ``jass-3`` (the Jass loops of ``basic`` alone for 3 players, 32 s
# of CPU on an empty cache) goes beside ``ass-search``: the Who's the Ass? lane ended 30 to
# 35 s before the Jass lane (2026-12-03, after the search hooks stopped linking the search).
WARM_BESIDE = {"jass-3": "ass-search"}


def warm_part(part: str) -> float:
    """Compile (or load from numba's cache) one part of what ``study all`` uses: a game's
    kernel module (``ass``, ``jass``: its warmup plus the trace mode that replays the report's
    sample games), ``jass-trump``, the trump counterfactual (the full dispatcher, search
    included), ``ass-search``/``jass-search``, a game's play loops with a pimc seat, or
    ``<game>-<n>`` (``jass-3``), a game's loops of ``basic`` alone for n players. Returns the
    seconds it took."""
    import time

    from analyzer.engines.kernel import RunSpec, kernel_module, kernel_path
    from analyzer.runner.tasks import load_kernel

    t0 = time.perf_counter()
    declared = _declared(part)
    if declared is not None and declared[1].call:  # a game's own part (its adapter's)
        game, warm = declared
        if part == game:  # the game's kernel module first: its warmup, then the rest
            load_kernel(kernel_path(game))
        registry.load(warm.call)()
    elif part.partition("-")[2].isdigit():  # <game>-<n>: the loops of basic alone for n
        game, _, players = part.partition("-")
        kernel = kernel_module(game)
        for mode in kernel.MODES:
            kernel.play_chunk(kernel.validate(RunSpec(game, int(players), ("basic",), seed=0,
                                                      mode=mode)), 0, 1)
    elif declared is not None:  # <game>-search: the search variants (tests, --add-field)
        game = declared[0]
        kernel = kernel_module(game)
        for mode in kernel.MODES:
            kernel.play_chunk(kernel.validate(RunSpec(game, 4, ("pimc:worlds=2",) + ("basic",) * 3,
                                                      seed=0, mode=mode)), 0, 1)
    else:
        raise ValueError(f"unknown part {part!r}")
    return time.perf_counter() - t0


def _declared(part: str):
    """(game, WarmPart) of a part some game's adapter declares, else None."""
    for game in registry.names():
        for warm in _warm(registry.get(game)):
            if warm.name == part:
                return game, warm
    return None


def warm_lanes(parts: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The parts grouped for :func:`prewarm`: each part after the one it builds on
    (``WARM_AFTER``) or goes beside (``WARM_BESIDE``) in that one's lane, every other part a
    lane of its own; lanes longest first (by the number of parts), parts in the order given.

    >>> warm_lanes(("jass-trump", "ass-search", "jass-search", "ass", "jass"))
    [('jass', 'jass-trump', 'jass-search'), ('ass', 'ass-search')]
    """
    def root(part: str) -> str:
        while True:
            base = WARM_AFTER.get(part) or WARM_BESIDE.get(part)
            if base not in parts:
                return part
            part = base

    lanes: dict[str, list[str]] = {}
    for part in parts:
        lanes.setdefault(root(part), [])
    for part in parts:
        if root(part) != part:
            lanes[root(part)].append(part)
    ordered = [(base, *rest) for base, rest in lanes.items()]
    return sorted(ordered, key=len, reverse=True)


def warm_lane(lane: tuple[str, ...]) -> float:
    """:func:`warm_part` for each part of a lane in turn, in this process; the seconds."""
    return sum(warm_part(part) for part in lane)


class Warming:
    """The compile of what the studies use, side by side in the background: one process per
    lane of parts (:func:`warm_lanes`), so each kernel compiles once.

    On a cold cache (a fresh clone, or any edit to the sources) the studies would otherwise
    compile one part after the other, and every worker of a run compiles the same kernel at
    the same time. Here the parts that share kernels run one after the other in one process
    (the later ones load what the first compiled: ``WARM_AFTER`` has the measured times), the
    lanes side by side. :meth:`wait` blocks until the given parts are compiled, so a study
    starts as soon as its own game's lane is done while the other lane goes on compiling on
    the other core (``cardlab study all`` plays the Who's the Ass? studies while Plus-Minus
    Jass compiles). The studies' five parts: 188 s of CPU in the longer lane, against
    about 510 s compiled side by side in five processes on two cores, which compiled the
    shared kernels up to three times. Every later process loads the machine code from the
    cache. Nothing runs with one worker (or fewer than two lanes): each part then compiles
    where it is first used.
    """

    def __init__(self, workers: int | None, parts: tuple[str, ...] = WARM_PARTS) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        from analyzer.runner.tasks import limit_numba_threads

        self._lane_of: dict = {}
        self._lanes: dict[tuple[str, ...], object] = {}
        self._pool = None
        lanes = warm_lanes(parts)
        if workers == 1 or len(lanes) < 2:
            return
        self._pool = ProcessPoolExecutor(len(lanes), mp_context=multiprocessing.get_context(
            "spawn"), initializer=limit_numba_threads)
        self._lanes = {lane: self._pool.submit(warm_lane, lane) for lane in lanes}
        self._lane_of = {part: done for lane, done in self._lanes.items() for part in lane}

    def wait(self, parts: tuple[str, ...] | None = None) -> None:
        """Block until ``parts`` (default: all) are compiled; a lane's error is raised here."""
        wanted = self._lane_of if parts is None else parts
        for part in wanted:
            if part in self._lane_of:
                self._lane_of[part].result()

    def seconds(self) -> dict[tuple[str, ...], float]:
        """{lane: seconds its process took} of the lanes compiled so far (none when nothing
        compiles side by side)."""
        return {lane: done.result() for lane, done in self._lanes.items() if done.done()}

    def first_ready(self, wanted: list[tuple[str, ...]]) -> int:
        """The index of the first of ``wanted`` (tuples of parts) whose parts are all
        compiled, blocking until one is; a finished lane's error is raised here."""
        from concurrent.futures import FIRST_COMPLETED
        from concurrent.futures import wait as wait_futures

        while True:
            # one look at the lanes per pass: a lane that finishes during the pass must not
            # let a later study overtake an earlier one that waits for the same lane
            done = {id(lane) for lane in self._lane_of.values() if lane.done()}
            for i, parts in enumerate(wanted):
                lanes = [self._lane_of[p] for p in parts if p in self._lane_of]
                if all(id(lane) in done for lane in lanes):
                    for lane in lanes:
                        lane.result()
                    return i
            wait_futures({self._lane_of[p] for parts in wanted for p in parts
                          if p in self._lane_of}, return_when=FIRST_COMPLETED)

    def close(self) -> None:
        """Wait for every lane (or, after an error, cancel what has not started) and end the
        processes."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> Warming:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def prewarm(workers: int | None,
            parts: tuple[str, ...] = WARM_PARTS) -> dict[tuple[str, ...], float]:
    """Compile ``parts`` side by side (:class:`Warming`) and return when all are done:
    {lane: seconds} (empty when nothing compiled side by side)."""
    with Warming(workers, parts) as warming:
        warming.wait()
        return warming.seconds()


def parts_of(study: str) -> tuple[str, ...]:
    """The warm parts of the games ``study`` plays (a part belongs to the game whose adapter
    declares it): a study of one game (the study registry) waits in :func:`run_all` for that game's
    lane only; compare for the game the suite compares; the others for every game.
    """
    from analyzer.studies.registry import study_game

    game = COMPARE["game"] if study == "compare" else study_game(study)
    games = (game,) if game else tuple(registry.names())
    own = {w.name for g in games for w in _warm(registry.get(g))}
    return tuple(p for p in WARM_PARTS if p in own)


def budget(study: str, scale: float) -> int:
    """The study's default budget times ``scale`` (at least 100)."""
    return max(100, int(round(BUDGETS[study] * scale)))


def check(scale: float) -> None:
    """The checks the studies make of their budgets, made for every study before the first
    one plays (one line, CardlabError): a scale too small for the best response's tuning
    fails at once, naming the smallest scale that works, not after the other studies."""
    if not math.isfinite(scale) or scale <= 0:
        raise CardlabError(f"--scale must be a positive number, got {scale}")
    if not _scale_fits(scale):
        least = next(s / 100 for s in range(1, 10_001) if _scale_fits(s / 100))
        raise CardlabError(f"--scale {scale:g} is too small for the best response's tuning of "
                           f"{', '.join(BEST_RESPONSE_KNOBS)}; the smallest that works: "
                           f"--scale {least:g}")


def _scale_fits(scale: float) -> bool:
    from analyzer.studies.best_response import check_budgets, own_knobs

    try:
        for game, key in BEST_RESPONSE_BUDGETS.items():
            check_budgets(game, (4,), budget(key, scale),
                          knobs=own_knobs(game, "heuristic", BEST_RESPONSE_KNOBS) or None)
    except CardlabError:
        return False
    return True


def run_all(backend: Backend, scale: float = 1.0,
            warming: Warming | None = None, seed: int | None = None) -> Iterator[StudyResult]:
    """Run the suite's studies (:func:`studies`: seats, jokers, trump with its default
    choosers, compare, the ladder, the best response of both games and the answers across
    fields), each through its description's ``suite`` run, yielding each result when done.
    In this order, except that a study whose games' parts of ``warming`` are compiled
    goes before those still waiting for theirs (on a cold cache the Plus-Minus Jass studies
    play while Who's the Ass? is still compiling); each study's results are the same in any
    order (it plays its own seeded games). ``seed``: every study plays that master seed
    (default: each study's own default seed), so a whole suite replicates with one command."""
    at = {} if seed is None else {"seed": int(seed)}
    runs = [(name, _suite_run(name)) for name in studies()]
    studies_left = [(name, lambda run=run: run(backend, scale, **at)) for name, run in runs]
    while studies_left:
        k = 0 if warming is None else warming.first_ready([parts_of(n)
                                                           for n, _ in studies_left])
        _, run = studies_left.pop(k)
        yield run()


def studies() -> tuple[str, ...]:
    """The suite's studies, in the order ``study all`` starts them: every study whose
    description (analyzer/studies/registry.py) names a ``suite`` run, in the registry's
    order."""
    from analyzer.studies import registry as study_registry

    return tuple(n for n in study_registry.names() if study_registry.get(n).suite)


def _suite_run(name: str):
    from analyzer.studies import registry as study_registry

    return registry.load(study_registry.get(name).suite)


# Each study's run in the suite (its description's ``suite``): its default budgets times
# ``scale``; ``at``: the suite's master seed, if given.
def suite_seats(backend: Backend, scale: float, **at) -> StudyResult:
    return run_seats(backend, games=budget("seats", scale), **at)


def suite_jokers(backend: Backend, scale: float, **at) -> StudyResult:
    return run_jokers(backend, games=budget("jokers", scale),
                      slow_games=budget("jokers-slow", scale), **at)


def suite_trump(backend: Backend, scale: float, **at) -> StudyResult:
    return run_trump(backend, deals=budget("trump", scale), choosers=DEFAULT_CHOOSERS,
                     slow_deals=budget("trump-slow", scale), **at)


def suite_compare(backend: Backend, scale: float, **at) -> StudyResult:
    return run_compare(backend, COMPARE["game"], COMPARE["strategies"], COMPARE["players"],
                       games=budget("compare", scale), until_sure=True, **at)


def suite_ladder(backend: Backend, scale: float, **at) -> StudyResult:
    return run_ladder(backend, BUILTIN_GAMES, games=budget("ladder", scale), **at)


def suite_best_response(backend: Backend, scale: float, **at) -> StudyResult:
    return run_best_response(
        backend, tuple(BEST_RESPONSE_BUDGETS),
        games={g: budget(b, scale) for g, b in BEST_RESPONSE_BUDGETS.items()},
        confirm=budget("best-response-confirm", scale), knobs=BEST_RESPONSE_KNOBS, **at)


def suite_fields(backend: Backend, scale: float, **at) -> StudyResult:
    return run_fields(backend, games=budget("fields", scale),
                      trump_deals=budget("trump-fields", scale),
                      seats_games=budget("seats-fields", scale), **at)
