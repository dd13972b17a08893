"""The compiled kernel behind the engine interface.

A position is a kernel (`funkoverse.rules._kernel`: the rules on a flat state of integers,
its choices integer codes, a copy one memcpy) and the tables of its setup (`bridge.Tables`),
which read its codes and rows as the Python values they stand for. The legal choices are
handed out as a sequence that turns a code into its `Choice` only when it is looked at, and
the events of a choice are kept as the kernel's rows until someone reads them, so that a
client of the interface pays for what it looks at, not for what the kernel did.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from fractions import Fraction
from typing import Any

from funkoverse.rules import bridge
from funkoverse.rules.core.choices import Choice, FirstPlayer
from funkoverse.rules.core.dice import win_probability
from funkoverse.rules.core.errors import IllegalChoice, Unsupported
from funkoverse.rules.core.events import Event
from funkoverse.rules.core.state import GameState, Phase, Setup
from funkoverse.rules.engines.base import Decoder
from funkoverse.rules.play import engine, menus


class Legal(list):  # type: ignore[type-arg]
    """The legal choices of a kernel position: a list of its codes, each read as a `Choice`
    when it is looked at (the last one looked at is remembered, so that applying it needs no
    lookup). `codes` is the list of codes itself."""

    __slots__ = ("last", "last_code", "tables")
    tables: bridge.Tables
    last: Choice | None
    last_code: int

    @property
    def codes(self) -> list[int]:
        return list.__getitem__(self, slice(None))

    def __getitem__(self, i: Any) -> Any:
        if i.__class__ is slice:
            return self.tables.choices(list.__getitem__(self, i))
        code = list.__getitem__(self, i)
        tables = self.tables
        found = tables._choices.get(code)
        if found is None:
            found = tables.choice(code)
        self.last = found
        self.last_code = code
        return found

    def __iter__(self) -> Iterator[Choice]:
        return iter(self.tables.choices(list.__iter__(self)))  # type: ignore[arg-type]

    def __contains__(self, choice: object) -> bool:
        if not isinstance(choice, Choice):
            return False
        code = self.tables.code(choice)
        return code is not None and list.__contains__(self, code)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(iter(self)) == list(other)
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return repr(list(iter(self)))

    def index(self, choice: Any, *args: Any) -> int:
        return list(iter(self)).index(choice, *args)

    def count(self, choice: Any) -> int:
        return list(iter(self)).count(choice)

    def __reversed__(self) -> Iterator[Choice]:
        return reversed(list(iter(self)))

    def copy(self) -> list[Choice]:
        return list(iter(self))


class KernelPosition:
    """A position of the compiled kernel."""

    __slots__ = (
        "_cache",
        "_fresh",
        "_legal",
        "_seen",
        "_setup",
        "decoder",
        "kernel",
        "seats",
        "tables",
    )

    def __init__(self, tables: bridge.Tables, kernel: Any, setup: Setup) -> None:
        self.tables = tables
        self.kernel = kernel
        self.seats: tuple[str, ...] = tables.seats
        self.decoder: Decoder = tables
        self._setup = setup
        self._legal: Legal | None = None
        self._cache: GameState | None = None
        self._seen: bridge.Seen | None = None
        self._fresh = False

    @property
    def engine(self) -> KernelEngine:
        return KERNEL

    @property
    def setup(self) -> Setup:
        return self._setup

    def at(self) -> int:
        return self.kernel.decider  # type: ignore[no-any-return]

    @property
    def over(self) -> bool:
        return self.kernel.over  # type: ignore[no-any-return]

    @property
    def winner(self) -> str | None:
        w = self.kernel.winner
        return self.tables.seats[w] if w >= 0 else None

    @property
    def round(self) -> int:
        return self.kernel.round  # type: ignore[no-any-return]

    @property
    def turns(self) -> int:
        return int(self.kernel.turns)

    @property
    def phase(self) -> Phase:
        return bridge.PHASES[int(self.kernel.phase)]

    def legal(self) -> Legal:
        try:
            found = Legal(self.kernel.legal())
        except RuntimeError as why:  # past the kernel's limits: the game leaves the kernel
            raise Unsupported(f"past the kernel's limits: {why}") from None
        found.tables = self.tables
        found.last = None
        self._legal = found
        return found

    def is_legal(self, choice: Choice) -> bool:
        code = self.tables.code(choice)
        return code is not None and bool(self.kernel.is_legal(code))

    def apply(self, choice: Choice) -> Any:
        legal = self._legal
        if legal is not None and choice is legal.last:
            code: int | None = legal.last_code
        else:
            code = self.tables.code(choice)
        if code is None or not self.kernel.apply(code):
            from funkoverse.rules.play.explain import why_illegal

            raise IllegalChoice(why_illegal(self.peek(), choice))
        self._legal = None
        self._fresh = False
        return self.kernel.events()

    def apply_code(self, code: int) -> Any:
        """`apply` for a code of `legal`'s (a client that plays by codes, as the RL
        environment does)."""
        if not self.kernel.apply(code):
            raise IllegalChoice(f"the code {code} is not a legal choice here")
        self._legal = None
        self._fresh = False
        return self.kernel.events()

    def decode(self, raw: Any) -> tuple[Event, ...]:
        return self.tables.decode(raw)

    def chance(self) -> list[tuple[Choice, Fraction]]:
        if self.kernel.over:
            return []
        found = self.roll()
        dice = self._setup.dice
        if found is not None:
            p = win_probability([dice[d] for d in found[2]], [dice[d] for d in found[3]])
            return [(c, q) for c, q in ((menus.ROLLS[0], p), (menus.ROLLS[1], 1 - p)) if q > 0]
        if self.kernel.decider == -1:
            share = Fraction(1, len(self.tables.seats))
            return [(FirstPlayer(side), share) for side in self.tables.seats]
        return []

    def roll(self) -> tuple[str, str, tuple[str, ...], tuple[str, ...]] | None:
        found = self.kernel.roll()
        if found is None:
            return None
        challenger, target, attack, defense = found
        ids, pieces = self.tables.dice_ids, self.tables.piece_ids
        return (
            pieces[challenger],
            pieces[target],
            tuple(ids[d] for d in attack),
            tuple(ids[d] for d in defense),
        )

    def fork(self) -> KernelPosition:
        return KernelPosition(self.tables, self.kernel.copy(), self._setup)

    def peek(self) -> GameState:
        if self._cache is None or self._seen is None:
            self._cache, self._seen = self.tables.mirror(self.kernel, self._setup)
        elif not self._fresh:
            self.tables.refresh(self.kernel, self._cache, self._seen)
        self._fresh = True
        return self._cache

    def state(self) -> GameState:
        return self.peek().copy()

    def key(self) -> Hashable:
        return bytes(self.kernel.key())

    def __deepcopy__(self, memo: dict[int, Any]) -> KernelPosition:
        return self.fork()

    def __reduce__(self) -> tuple[Any, ...]:
        return (KERNEL.load, (self.peek(),))


class KernelEngine:
    """The compiled kernel: it plays a setup when it was built and knows every card's
    behaviour, word and hook (`bridge.unsupported` says why not)."""

    name = "kernel"

    @property
    def available(self) -> bool:
        return bridge.built()

    @property
    def why_not(self) -> str | None:
        return None if bridge.built() else "the kernel was not built on this machine"

    def start(self, setup: Setup) -> KernelPosition:
        return self.load(engine.new_game(setup), copy=False)

    def load(self, state: GameState, copy: bool = True) -> KernelPosition:
        tables, kernel = bridge.load(state)
        return KernelPosition(tables, kernel, state.setup)

    def __repr__(self) -> str:
        return "the compiled kernel"


KERNEL = KernelEngine()
