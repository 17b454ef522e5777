"""A flat int64 array declared as named pieces: the numba offsets and a readable reader from
one declaration.

The engines keep a game's public state in one flat ``int64`` array (Who's the Ass?'s view,
Plus-Minus Jass's search state ``st``) because a jitted function is called cheapest with one
array, and read it at module-level integer offsets (numba freezes a global int into the
compiled code). A :class:`Layout` declares such an array once, piece by piece, in the game's
own module::

    ST = Layout("the search state")
    S_N = ST.piece("n", 1, "players")
    S_TCARD = ST.piece("tcard", 4, "cards of the current trick in playing order")

Each :meth:`Layout.piece` returns the piece's offset (the running sum of the sizes before it),
so the offsets the kernels import stay plain module-level ints, bound by name where the code
can be read and checked, and no offset is numbered by hand. The same declaration gives plain
Python a reader: a subclass of :class:`LayoutView` declared with ``layout=ST`` has one
read-only attribute per piece (``int`` for a piece of size 1, else an int64 array view of
the piece), :meth:`LayoutView.as_dict` and :meth:`LayoutView.describe`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Piece:
    """One named part of the array: ``size`` slots from ``offset``, and what they hold."""

    name: str
    offset: int
    size: int
    meaning: str

    @property
    def end(self) -> int:
        return self.offset + self.size


class Layout:
    """The pieces of one flat array, in order, each right after the one before."""

    def __init__(self, title: str):
        self.title = title
        self.pieces: list[Piece] = []
        self.size = 0

    def piece(self, name: str, size: int, meaning: str) -> int:
        """Declare the next piece; return its offset."""
        if not name.isidentifier() or name.startswith("_") or name in self.names():
            raise ValueError(f"{self.title}: piece name {name!r} is not a new public identifier")
        if size < 1:
            raise ValueError(f"{self.title}: piece {name!r} has size {size}; sizes are >= 1")
        offset = self.size
        self.pieces.append(Piece(name, offset, size, meaning))
        self.size += size
        return offset

    def names(self) -> list[str]:
        return [p.name for p in self.pieces]

    def __getitem__(self, name: str) -> Piece:
        for p in self.pieces:
            if p.name == name:
                return p
        raise KeyError(f"{self.title} has no piece {name!r}; pieces: {', '.join(self.names())}")

    def table(self) -> list[tuple[int, int, str, str]]:
        """(offset, size, name, meaning) of every piece: the layout as a table (docs, tests)."""
        return [(p.offset, p.size, p.name, p.meaning) for p in self.pieces]


class LayoutView:
    """Readable access to an array laid out by a :class:`Layout`.

    Subclass with ``class PublicView(LayoutView, layout=VIEW): ...``: each piece becomes a
    read-only attribute of its name. ``hidden`` names pieces left out of :meth:`as_dict`
    and :meth:`describe` (work space); ``per_seat`` names pieces with one slot per seat, of
    which those show the first :meth:`seats` only. The reader holds the array, never a copy:
    it reads what the array holds when asked.
    """

    layout: Layout
    hidden: tuple[str, ...] = ()
    per_seat: tuple[str, ...] = ()

    def __init_subclass__(cls, layout: Layout | None = None, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        if layout is None:
            return
        cls.layout = layout
        for p in layout.pieces:
            if hasattr(cls, p.name):
                raise TypeError(f"{cls.__name__}: piece {p.name!r} hides an attribute")
            setattr(cls, p.name, property(_getter(p), doc=p.meaning))

    def __init__(self, array: np.ndarray):
        if array.ndim != 1 or array.shape[0] < self.layout.size:
            raise ValueError(f"{self.layout.title}: an array of {self.layout.size} or more "
                             f"slots, not of shape {array.shape}")
        self.array = array

    def seats(self) -> int:
        """How many seats a per-seat piece shows (all its slots unless a subclass says)."""
        return 0

    def _shown(self, p: Piece) -> int | list[int]:
        value = self.array[p.offset : p.end]
        if p.size == 1:
            return int(value[0])
        if p.name in self.per_seat:
            value = value[: self.seats()]
        return [int(x) for x in value]

    def as_dict(self) -> dict[str, int | list[int]]:
        """Every piece but the hidden ones by name: an int, or a list of ints."""
        return {p.name: self._shown(p) for p in self.layout.pieces if p.name not in self.hidden}

    def describe(self) -> str:
        """One line a piece: its slots, name, value and meaning."""
        lines = [f"{self.layout.title} ({self.layout.size} slots)"]
        for p in self.layout.pieces:
            if p.name in self.hidden:
                continue
            slots = f"{p.offset}" if p.size == 1 else f"{p.offset}..{p.end - 1}"
            lines.append(f"  {slots:>9}  {p.name:<12} {self._shown(p)!s:<24}  {p.meaning}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.as_dict()})"


def _getter(p: Piece):
    if p.size == 1:
        def read(self: LayoutView) -> int:
            return int(self.array[p.offset])
    else:
        def read(self: LayoutView) -> np.ndarray:
            return self.array[p.offset : p.end]
    read.__name__ = p.name
    return read
