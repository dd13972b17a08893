"""What happened, as data: one typed record per event, and the one function that words it.

The engine reports every change it makes as an `Event`: its kind, the pieces and squares
involved, dice faces, points, and the rule it applies (the rulebook's section name and
rule number). A client draws events, a log translates them, a test reads their fields;
`words` puts one into plain English, given the names the pieces go by.

An event that concerns a secret pick (a character or item chosen in secret, a secret
leader) is marked `secret`: `view.observe_event` takes the pick out of it for every
seat but the one that made it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum


class EventKind(StrEnum):
    """Every kind of thing the engine reports, named for what happens."""

    FIRST_PLAYER = "first_player"  # side
    PICKED = "picked"  # side, card, name (secret in a secret draft)
    ITEM_CHOSEN = "item_chosen"  # side, card (item), name, other (holder) (secret likewise)
    TEAM_REVEALED = "team_revealed"  # side, names
    LEADER_PICKED = "leader_picked"  # side, piece (secret)
    LEADER_REVEALED = "leader_revealed"  # side, piece
    PLACED = "placed"  # piece, square
    RETURNED = "returned"  # piece, square: back from the cooldown track to the starting area
    TURN = "turn"  # piece, number: 1 on the map, 0 from the cooldown track
    OFF_THE_TRACK = "off_the_track"  # piece, source: a character shifts off the cooldown track
    EXTRA_ACTION = "extra_action"  # piece, number, name (the trait or card)
    MOVED = "moved"  # piece, origin, square (origin == square: 0 squares)
    CHALLENGE = (
        "challenge"  # piece (challenger), other (target), number (dice), total (defense), source
    )
    DICE = (
        "dice"  # piece, other, attack, defense, number (challenger's successes), total (defender's)
    )
    CHALLENGE_LOST = "challenge_lost"  # piece (the challenger)
    KNOCKED_DOWN = "knocked_down"  # piece
    KNOCKED_OUT = "knocked_out"  # piece, square (where it was)
    COMPANION_OUT = "companion_out"  # piece
    TOKEN_REMOVED = "token_removed"  # piece (a token or marker that lost a challenge)
    STOOD_UP = "stood_up"  # piece, source
    ASSISTED = "assisted"  # piece, other (the ally)
    RALLIED = "rallied"  # piece
    ABILITY = "ability"  # piece, card (ability id), name, source (token color), number (track number; 0: no cost)
    ITEM_USED = (
        "item_used"  # piece, card (item id), name, number (track number; 0: no card on the track)
    )
    COMPANION_ACTS = "companion_acts"  # piece (companion), name (the action)
    ABILITY_STOPPED = "ability_stopped"  # piece, name: knocked down in the middle of it
    ABILITY_ENDED = "ability_ended"  # piece, name, source (why)
    PUSHED = "pushed"  # piece (who pushes), other, origin, square
    PULLED = "pulled"  # piece, other, origin, square
    PLACED_BESIDE = "placed_beside"  # piece, other, square
    CARRY_CHOSEN = "carry_chosen"  # piece, other
    CARRIED = "carried"  # piece, other, square
    TOKEN_PLACED = "token_placed"  # piece, other (the token), name (its kind), square
    TOKEN_DISCARDED = "token_discarded"  # piece, other (the token), name
    STATUS_GIVEN = "status_given"  # piece, card, name
    STATUS_DISCARDED = "status_discarded"  # piece, card, name
    SHIFTED_DOWN = "shifted_down"  # side, name (the thing), number (where it is now)
    SHIFTED_OFF = "shifted_off"  # side, name (the thing): it can be used again
    TOKEN_BACK = "token_back"  # side, source (color): an ability token back in the pool
    MARKER_BACK = "marker_back"  # piece (the point marker), square
    POINT_MARKER = "point_marker"  # piece (who), other (the marker), side, number (points)
    FLAG_RETURN = "flag_return"  # piece, side, number (points)
    NO_RETURN = "no_return"  # piece, other (the flag): beside it across a wall corner
    CONTROL_PLACED = "control_placed"  # piece, other (the marker), side, square
    CONTROL_FLIPPED = "control_flipped"  # piece, other (the marker), side (it shows)
    BONUS_COMPLETED = "bonus_completed"  # piece, name, side, number (points)
    POINTS = "points"  # side, number (gained), total, source (why)
    TARGET_REACHED = "target_reached"  # side, total (points), number (the target)
    DIE_ADDED = "die_added"  # piece (whose roll), name (the die), number (track number; 0: none)
    DIE_PLACED = "die_placed"  # piece, name (the component), number (track number)
    DECLINED = "declined"  # piece
    EXHAUSTED = "exhausted"  # piece, number (markers), total (markers needed)
    ROUND_BEGINS = "round_begins"  # number (the round), side (the first player)
    WINNER = "winner"  # side, number (points), total (rounds)


LEFT = "left the game"  # the source of what goes when a free-for-all player leaves

# The rule each kind applies, as the rulebooks name it: section, then step or rule number.
RULES: Mapping[EventKind, str | None] = {
    EventKind.FIRST_PLAYER: "Setup, step 10",
    EventKind.PICKED: "Scenario Setup, step 5",
    EventKind.ITEM_CHOSEN: "Item Setup",
    EventKind.TEAM_REVEALED: "Scenario Setup, step 5",
    EventKind.LEADER_PICKED: "Leaders: Setup",
    EventKind.LEADER_REVEALED: "Leaders: Setup",
    EventKind.PLACED: "Scenario Setup, step 9",
    EventKind.RETURNED: "Cooldown Tracks",
    EventKind.TURN: "Taking a Turn, step 1",
    EventKind.OFF_THE_TRACK: "Glossary: Shift Off",
    EventKind.EXTRA_ACTION: None,
    EventKind.MOVED: "Moving",
    EventKind.CHALLENGE: "Resolving a Challenge",
    EventKind.DICE: "Resolving a Challenge",
    EventKind.CHALLENGE_LOST: "Resolving a Challenge",
    EventKind.KNOCKED_DOWN: "Knocked Down",
    EventKind.KNOCKED_OUT: "Knocked Out",
    EventKind.COMPANION_OUT: "Companions",
    EventKind.TOKEN_REMOVED: "Challenging a Token or Minion Token or Marker",
    EventKind.STOOD_UP: None,
    EventKind.ASSISTED: "Taking a Turn, step 2: Assist",
    EventKind.RALLIED: "Taking a Turn, step 3: Rally",
    EventKind.ABILITY: "Doing an Ability, step 2",
    EventKind.ITEM_USED: "Doing the Use-Item Action",
    EventKind.COMPANION_ACTS: "Companions",
    EventKind.ABILITY_STOPPED: "FAQ, Timing: knocked down in the middle of an action",
    EventKind.ABILITY_ENDED: "Abilities & Traits: a part that cannot be done",
    EventKind.PUSHED: "Glossary: Away",
    EventKind.PULLED: "Glossary: Toward",
    EventKind.PLACED_BESIDE: "Glossary: Placing Something",
    EventKind.CARRY_CHOSEN: None,
    EventKind.CARRIED: "Glossary: Placing Something",
    EventKind.TOKEN_PLACED: "Glossary: Tokens",
    EventKind.TOKEN_DISCARDED: "Glossary: Discard",
    EventKind.STATUS_GIVEN: "Glossary: Status Cards",
    EventKind.STATUS_DISCARDED: "Glossary: Discard",
    EventKind.SHIFTED_DOWN: "Glossary: Shift Down/Up",
    EventKind.SHIFTED_OFF: "Glossary: Shift Off",
    EventKind.TOKEN_BACK: "Cooldown Tracks",
    EventKind.MARKER_BACK: "Point Markers",
    EventKind.POINT_MARKER: "Point Markers",
    EventKind.FLAG_RETURN: "Flags: Rules",
    EventKind.NO_RETURN: "Obstructions and Adjacency",
    EventKind.CONTROL_PLACED: "Control: Rules",
    EventKind.CONTROL_FLIPPED: "Control: Rules",
    EventKind.BONUS_COMPLETED: "Bonus Objectives",
    EventKind.POINTS: None,
    EventKind.TARGET_REACHED: "Winning a Scenario",
    EventKind.DIE_ADDED: None,
    EventKind.DIE_PLACED: None,
    EventKind.DECLINED: None,
    EventKind.EXHAUSTED: "Taking a Turn, step 4",
    EventKind.ROUND_BEGINS: "Ending a Round",
    EventKind.WINNER: "Winning a Scenario",
}


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. Which fields a kind fills is written beside it in
    `EventKind`; `rule` overrides the kind's usual rule when the cause is more specific."""

    kind: EventKind
    piece: str | None = None
    other: str | None = None
    side: str | None = None
    square: str | None = None
    origin: str | None = None
    number: int | None = None
    total: int | None = None
    card: str | None = None
    name: str | None = None
    source: str | None = None
    attack: tuple[str, ...] = ()
    defense: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    secret: bool = False
    rule: str | None = None

    @property
    def cites(self) -> str | None:
        """The rule this event applies."""
        return self.rule if self.rule is not None else RULES.get(self.kind)


Events = list[Event]
Names = Mapping[str, str]

FACE_WORDS: Mapping[str, str] = {
    "burst": "burst",
    "shield": "shield",
    "triple_exclamation": "!!!",
    "blank": "blank",
}


def _n(names: Names, pid: str | None) -> str:
    if pid is None:
        return "someone"
    return names.get(pid, pid)


def _faces(faces: tuple[str, ...]) -> str:
    return ", ".join(FACE_WORDS.get(f, f) for f in faces) if faces else "no dice"


def _counted(faces: tuple[str, ...], role: str) -> str:
    """What counted on one side's dice: "!!! = 3, burst = 1"."""
    score = "burst" if role == "attack" else "shield"
    parts = []
    triples = faces.count("triple_exclamation")
    singles = faces.count(score)
    if triples:
        parts.append(f"!!! = {3 * triples}" if triples == 1 else f"!!! x{triples} = {3 * triples}")
    if singles:
        parts.append(f"{score} = {singles}" if singles == 1 else f"{score} x{singles} = {singles}")
    return ", ".join(parts) or "nothing"


def _plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} dice" if word == "die" else f"{n} {word}s"


_TEXT: dict[EventKind, Callable[[Event, Names], str]] = {
    EventKind.FIRST_PLAYER: lambda e, n: (
        f"The First Player marker lands {e.side}: {e.side} goes first."
    ),
    EventKind.PICKED: lambda e, n: (
        f"{e.side} chooses a character: {e.name}." if e.name else f"{e.side} chooses a character."
    ),
    EventKind.ITEM_CHOSEN: lambda e, n: (
        f"{e.side} chooses an item: the {e.name} for {_n(n, e.other)}."
        if e.name
        else f"{e.side} chooses an item."
    ),
    EventKind.TEAM_REVEALED: lambda e, n: f"{e.side} reveals: {', '.join(e.names)}.",
    EventKind.LEADER_PICKED: lambda e, n: (
        f"{e.side} picks {_n(n, e.piece)} as its leader, in secret."
        if e.piece
        else f"{e.side} picks a leader in secret."
    ),
    EventKind.LEADER_REVEALED: lambda e, n: f"{e.side} reveals its leader: {_n(n, e.piece)}.",
    EventKind.PLACED: lambda e, n: f"{_n(n, e.piece)} is placed at {e.square}.",
    EventKind.RETURNED: lambda e, n: (
        f"{_n(n, e.piece)} returns to the starting area at {e.square}."
    ),
    EventKind.TURN: lambda e, n: (
        f"{_n(n, e.piece)} takes a turn."
        if e.number
        else f"{_n(n, e.piece)} takes a turn from the cooldown track (Knocked Out: no actions "
        "unless its card allows them)."
    ),
    EventKind.OFF_THE_TRACK: lambda e, n: (
        f"{_n(n, e.piece)} shifts off the cooldown track ({e.source})."
    ),
    EventKind.EXTRA_ACTION: lambda e, n: (
        f"{_n(n, e.piece)} may do {_plural(e.number or 0, 'more action')} ({e.name})."
    ),
    EventKind.MOVED: lambda e, n: (
        f"{_n(n, e.piece)} moves 0 squares (stays at {e.square})."
        if e.origin == e.square
        else f"{_n(n, e.piece)} moves {e.origin} → {e.square}."
    ),
    EventKind.CHALLENGE: lambda e, n: (
        f"{_n(n, e.piece)} challenges {_n(n, e.other)} ({e.source}): "
        f"{_plural(e.number or 0, 'die')} against {e.total}."
    ),
    EventKind.DICE: lambda e, n: (
        f"Dice: {_faces(e.attack)} ({_counted(e.attack, 'attack')}: {e.number} for "
        f"{_n(n, e.piece)}) against {_faces(e.defense)} ({_counted(e.defense, 'defense')}: "
        f"{e.total} for {_n(n, e.other)})."
    ),
    EventKind.CHALLENGE_LOST: lambda e, n: (
        f"{_n(n, e.piece)} loses the challenge: nothing happens."
    ),
    EventKind.KNOCKED_DOWN: lambda e, n: f"{_n(n, e.piece)} is knocked down.",
    EventKind.KNOCKED_OUT: lambda e, n: (
        f"{_n(n, e.piece)} is removed as knocked out, for good: its player left the game."
        if e.source == LEFT
        else f"{_n(n, e.piece)} is knocked out: onto the 1 of the cooldown track."
    ),
    EventKind.COMPANION_OUT: lambda e, n: (
        f"{_n(n, e.piece)} is removed from the map, for good: its player left the game."
        if e.source == LEFT
        else f"{_n(n, e.piece)} loses and goes on the 1 of its cooldown track."
    ),
    EventKind.TOKEN_REMOVED: lambda e, n: (
        f"{_n(n, e.piece)} is removed from the map: its player left the game."
        if e.source == LEFT
        else f"{_n(n, e.piece)} loses and is removed from the map."
    ),
    EventKind.STOOD_UP: lambda e, n: f"{_n(n, e.piece)} stands up ({e.source}).",
    EventKind.ASSISTED: lambda e, n: f"{_n(n, e.piece)} assists {_n(n, e.other)}.",
    EventKind.RALLIED: lambda e, n: f"{_n(n, e.piece)} rallies: both actions to stand up.",
    EventKind.ABILITY: lambda e, n: (
        f"{_n(n, e.piece)} does {e.name} at no cost."
        if not e.number
        else f"{_n(n, e.piece)} does {e.name}: a {e.source} token goes on the {e.number} of "
        "the cooldown track."
    ),
    EventKind.ITEM_USED: lambda e, n: (
        f"{_n(n, e.piece)} uses the {e.name}."
        if not e.number
        else f"{_n(n, e.piece)} uses the {e.name}: its card goes on the {e.number} of the "
        "cooldown track."
    ),
    EventKind.COMPANION_ACTS: lambda e, n: f"{_n(n, e.piece)} acts: {e.name}.",
    EventKind.ABILITY_STOPPED: lambda e, n: (
        f"{e.name} stops: {_n(n, e.piece)} was knocked down in the middle of it."
    ),
    EventKind.ABILITY_ENDED: lambda e, n: (
        f"{e.name} ends: {e.source or 'a part of it cannot be done'}."
    ),
    EventKind.PUSHED: lambda e, n: (
        f"{_n(n, e.piece)} pushes {_n(n, e.other)}: it stays at {e.square}."
        if e.origin == e.square
        else f"{_n(n, e.piece)} pushes {_n(n, e.other)} {e.origin} → {e.square}."
    ),
    EventKind.PULLED: lambda e, n: (
        f"{_n(n, e.piece)} pulls {_n(n, e.other)}: it stays at {e.square}."
        if e.origin == e.square
        else f"{_n(n, e.piece)} pulls {_n(n, e.other)} {e.origin} → {e.square}."
    ),
    EventKind.PLACED_BESIDE: lambda e, n: (
        f"{_n(n, e.piece)} is placed at {e.square}, adjacent to {_n(n, e.other)}."
    ),
    EventKind.CARRY_CHOSEN: lambda e, n: f"{_n(n, e.piece)} chooses {_n(n, e.other)}.",
    EventKind.CARRIED: lambda e, n: f"{_n(n, e.piece)} places {_n(n, e.other)} at {e.square}.",
    EventKind.TOKEN_PLACED: lambda e, n: f"{_n(n, e.piece)} places a {e.name} token at {e.square}.",
    EventKind.TOKEN_DISCARDED: lambda e, n: f"{_n(n, e.piece)} discards a {e.name} token.",
    EventKind.STATUS_GIVEN: lambda e, n: f"{_n(n, e.piece)} is given the {e.name} status card.",
    EventKind.STATUS_DISCARDED: lambda e, n: f"{_n(n, e.piece)} discards the {e.name} status card.",
    EventKind.SHIFTED_DOWN: lambda e, n: (
        f"{e.name} shifts down to the {e.number} of {e.side}'s cooldown track."
    ),
    EventKind.SHIFTED_OFF: lambda e, n: (
        f"{e.name} shifts off {e.side}'s cooldown track and can be used again."
    ),
    EventKind.TOKEN_BACK: lambda e, n: (
        f"{e.side}'s {e.source} ability token shifts off, back to the pool."
    ),
    EventKind.MARKER_BACK: lambda e, n: (
        f"{_n(n, e.piece)} shifts off, back to its setup square {e.square}."
    ),
    EventKind.POINT_MARKER: lambda e, n: (
        f"{_n(n, e.piece)} interacts with {_n(n, e.other)}: +{e.number} point; the marker goes "
        "on the 4 of the cooldown track."
    ),
    EventKind.FLAG_RETURN: lambda e, n: (
        f"{_n(n, e.piece)} returns from the rival flag to the starting area: +{e.number} points."
    ),
    EventKind.NO_RETURN: lambda e, n: (
        f"{_n(n, e.piece)} is beside {_n(n, e.other)} but not adjacent to it: a wall corner is "
        "between them, so it cannot return."
    ),
    EventKind.CONTROL_PLACED: lambda e, n: (
        f"{_n(n, e.piece)} places a control marker showing {e.side} at {e.square}."
    ),
    EventKind.CONTROL_FLIPPED: lambda e, n: (
        f"{_n(n, e.piece)} flips a control marker: it shows {e.side}."
    ),
    EventKind.BONUS_COMPLETED: lambda e, n: (
        f"{_n(n, e.piece)} completes the {e.name}: +{e.number} points."
    ),
    EventKind.POINTS: lambda e, n: (
        f"{e.side} gains {_plural(e.number or 0, 'point')} ({e.source}): {e.total} in all."
    ),
    EventKind.TARGET_REACHED: lambda e, n: (
        f"{e.side} has {e.total} points, the {e.number} this scenario needs; a scenario is "
        "decided at the end of a round, by the most points."
    ),
    EventKind.DIE_ADDED: lambda e, n: (
        f"The {e.name} joins {_n(n, e.piece)}'s roll"
        + (f" and goes on the {e.number} of the cooldown track." if e.number else ".")
    ),
    EventKind.DIE_PLACED: lambda e, n: (
        f"The {e.name} goes on the {e.number} of the cooldown track."
    ),
    EventKind.DECLINED: lambda e, n: f"{_n(n, e.piece)}: declined.",
    EventKind.EXHAUSTED: lambda e, n: (
        f"{_n(n, e.piece)} is exhausted."
        if e.number == e.total
        else f"{_n(n, e.piece)} takes exhausted marker {e.number} of {e.total}."
    ),
    EventKind.ROUND_BEGINS: lambda e, n: (
        f"Round {e.number} begins: exhausted markers removed; the First Player marker passes "
        f"to {e.side}."
    ),
    EventKind.WINNER: lambda e, n: (
        f"{e.side} wins with {_plural(e.number or 0, 'point')}, in round {e.total}."
    ),
}


def words(event: Event, names: Names) -> str:
    """The event in plain English; `names` gives each piece's name (see `display_names`)."""
    return _TEXT[event.kind](event, names)


def line(event: Event, names: Names) -> str:
    """The event in words, with the rule it applies in parentheses (logs and transcripts)."""
    text = words(event, names)
    rule = event.cites
    return f"{text} ({rule})" if rule else text
