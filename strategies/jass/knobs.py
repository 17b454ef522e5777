"""Family ids, parameter slots and choice names of the Plus-Minus Jass strategies.

Shared by the catalogue (no numba) and the jitted policies, so that a name and its number can
never drift apart.
"""

from __future__ import annotations

# Family ids: the engines dispatch on these with if/elif.
FAM_BASIC = 0
FAM_RANDOM = 1
FAM_HEURISTIC = 2
FAM_PIMC = 3  # search: perfect-information Monte Carlo over sampled worlds
FAM_PEEK = 4  # the same search on the true deal: analysis only, NOT a legal player (J-11)
FAM_LEARNED = 5  # a small network of pimc's card values (strategies/jass/learned.py)
SEARCH_FAMILIES = (FAM_PIMC, FAM_PEEK)

# Parameter slots of the heuristic family.
P_AIM = 0
P_STRENGTH = 1
P_GAP = 2
P_FIGHT = 3
P_TRUMP = 4
P_TRACK = 5
P_REAIM = 6
P_UNDER100 = 7

# Parameter slots of the learned family.
P_DEPTH = 0  # as a rollout: learned plays the first P_DEPTH cards, then aim-low (0: all)
P_MODEL = 1  # 0 the network of learned.json, 1 that of learned-leaf.json (learned_weights.py)
MODEL_CHOICES = ("net", "leaf")
MODEL_LEAF = MODEL_CHOICES.index("leaf")

# Parameter slots of the search families (pimc, peek).
P_WORLDS = 0  # 0: the player count's (WORLDS_AT_3, WORLDS_AT_4 below)
P_ROLLOUT = 1
P_CANDIDATES = 2
P_INFER = 3
P_OBJECTIVE = 4
P_EPS = 5  # infer=policy: weight of a world per observed move the rollout policy would not make
P_OVERSAMPLE = 6  # infer=policy: worlds drawn per world kept (the most likely are kept)
P_FOCUS = 7  # infer=voids: drop candidates clearly behind, spend their worlds on the rest
# worlds=0 (pimc's default): the worlds per decision at 3 and at 4 players, kept apart because
# the time they cost differs by the player count (docs/strategies.md, "Worlds by the player
# count"): 24 at both since the 4-player search got faster (docs/strategies.md, "24 worlds at 4
# players too"), which settles more close calls the way the advice does
WORLDS_AT_3 = 24
WORLDS_AT_4 = 24
WORLDS_BY_PLAYERS = ((3, WORLDS_AT_3), (4, WORLDS_AT_4))  # (the catalogue's Param.by_players)

# The rollout policies a search may use (non-search presets only), by name.
ROLLOUT_CHOICES = ("basic", "random", "aim-high", "aim-low", "adaptive", "catch-up", "re-aim",
                   "learned", "learned-4", "value", "learned-leaf")
# ``value`` is no strategy: VALUE_FINISHER finishes the trick, then the value model estimates
# the rest (strategies/jass/value.py); the search's tables give it that preset's family and
# knobs, the policy that plays its leaves' tricks and that infer=policy asks
VALUE_ROLLOUT = ROLLOUT_CHOICES.index("value")
VALUE_FINISHER = "learned-leaf"
# The preset that finishes a rollout of ``learned`` with a depth (loop.rollout).
ROLLOUT_FINISHER = "aim-low"
INFER_CHOICES = ("voids", "policy")
INFER_VOIDS = 0
INFER_POLICY = 1
OBJECTIVE_CHOICES = ("deal", "match")
OBJ_DEAL = 0
OBJ_MATCH = 1

AIM_CHOICES = ("high", "low", "hand", "standings")
AIM_HIGH_MODE = 0
AIM_LOW_MODE = 1
AIM_HAND_MODE = 2
AIM_STANDINGS_MODE = 3

# What a seat aims for in one deal (kept by the engine per seat and deal); -1 = no such notion.
AIM_HIGH = 0
AIM_LOW = 1
AIM_NA = -1
AIM_LABELS = {AIM_HIGH: "high", AIM_LOW: "low", AIM_NA: "n/a"}

# Trump-choice rules, used when the player is the first who cannot follow suit (J-5).
TRUMP_RULES = (
    "longest",
    "under_nine",
    "most_points",
    "shortest",
    "fewest_points",
    "random",
    "by_aim",
)
TR_LONGEST = 0
TR_UNDER_NINE = 1
TR_MOST_POINTS = 2
TR_SHORTEST = 3
TR_FEWEST_POINTS = 4
TR_RANDOM = 5
TR_BY_AIM = 6
# The rules a counterfactual table reports as pick_<rule> columns (by_aim depends on the aim).
TABLE_TRUMP_RULES = TRUMP_RULES[:6]

TRACK_CHOICES = ("off", "on")
ONOFF_CHOICES = ("off", "on")
