"""A legal choice as a page draws it: what to tap for it, its words, its cost, the odds of
every challenge it can lead to, and a warning when it would change nothing.

A client that draws these fields needs no rule and no vocabulary of its own: it does not
know what a kind of choice points at, what an ability costs, or how to read odds out of a
label. Everything is computed from the seat's observed view (the copy `Session.view`
gives), by the engine's own answers (`foresee`), never from the real position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from funkoverse.rules.core.choices import (
    Challenge,
    Choice,
    Choose,
    CompanionAction,
    Give,
    MinionChallenge,
    Move,
    Pick,
    Place,
    Return,
    Target,
    UseAbility,
    UseItem,
)
from funkoverse.rules.core.frames import ChoiceFrame
from funkoverse.rules.core.pieces import Role
from funkoverse.rules.core.schema import CHOICE_FIELDS
from funkoverse.rules.core.stack import acting, nearest_steps
from funkoverse.rules.core.state import GameState
from funkoverse.rules.core.world import ability_cost, find_ability
from funkoverse.rules.vocabulary.ops import CHALLENGE_OPS
from funkoverse.rules.words.foresee import Foresight, Outlook, foresee

# The kinds of choice whose consequences are followed (actions that may challenge or come to
# nothing); any answer to a step of a running ability is followed too.
_FOLLOWED = (Challenge, Target, UseAbility, UseItem, CompanionAction, MinionChallenge)
_PAID = (UseAbility, UseItem, CompanionAction)
VIEW_BUDGET = 3000  # engine applications for all the choices of one view


@dataclass
class Shown:
    """One choice as drawn: the piece or square to tap, the piece it moves or places (when
    several could be), the card it shows, its words, cost, odds and warning."""

    piece: str | None = None
    square: str | None = None
    actor: str | None = None
    card: str | None = None
    words: str = ""
    detail: str = ""
    cost: dict[str, Any] | None = None
    challenges: list[Outlook] = field(default_factory=list)
    odds_words: str = ""
    warning: str | None = None
    keeps_target: bool | None = None
    preview: bool = False  # a first tap shows what the piece could do; a second makes it

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "where": {"piece": self.piece, "square": self.square},
            "words": self.words,
        }
        if self.actor is not None:
            out["actor"] = self.actor
        if self.card is not None:
            out["card"] = self.card
        if self.detail:
            out["detail"] = self.detail
        if self.cost is not None:
            out["cost"] = self.cost
        if self.challenges:
            out["challenges"] = [
                {
                    "challenger": o.challenger,
                    "target": o.target,
                    "odds": round(o.odds, 4),
                    "with": [
                        {
                            "choice": d.choice,
                            "die": d.die,
                            "decider": d.decider,
                            "odds": round(d.odds, 4),
                        }
                        for d in o.options
                    ],
                }
                for o in self.challenges
            ]
            out["odds_words"] = self.odds_words
        if self.warning is not None:
            out["warning"] = self.warning
        if self.keeps_target is not None:
            out["keeps_target"] = self.keeps_target
        if self.preview:
            out["preview"] = True
        return out


def pct(p: float) -> str:
    return f"{round(p * 100)}%"


def _square_of(state: GameState, pid: str) -> str | None:
    piece = state.pieces.get(pid)
    if piece is None or piece.square is None:
        return None
    return state.board.label(piece.square)


def _where(state: GameState, choice: Choice, shown: Shown) -> None:
    """The piece or square a player taps for `choice`, what it moves or places, and the card
    it shows, as the schema's fields of its kind say (`schema.CHOICE_FIELDS`)."""
    fields = CHOICE_FIELDS.get(type(choice))
    if fields is None:
        return
    if fields.card:
        shown.card = getattr(choice, fields.card)
    if fields.tap:
        value = getattr(choice, fields.tap)
        domain = next(d for names, d in fields.parts if fields.tap in names)
        if domain == "square":
            shown.square = value
        elif domain == "control":
            marker = next(
                (p for p in state.pieces.values() if p.role is Role.CONTROL and p.ref == value),
                None,
            )
            if marker is not None:
                shown.piece = marker.id
                shown.square = _square_of(state, marker.id)
        elif value is not None and fields.located:
            shown.piece = value if value in state.pieces else None
            shown.square = _square_of(state, value)
        elif value is not None:
            shown.piece = value
    if fields.actor == "acting":
        shown.actor = acting(state)
    elif fields.actor == "chosen":
        found = nearest_steps(state)
        shown.actor = found[1].chosen if found is not None else None
    elif fields.actor:
        shown.actor = getattr(choice, fields.actor)
    if isinstance(choice, Place) and isinstance(
        state.stack[-1] if state.stack else None, ChoiceFrame
    ):
        shown.actor = acting(state)  # in a step ("place her adjacent to them"): the one who acts
    shown.preview = isinstance(choice, Choose)


def _draft_name(state: GameState, card_id: str) -> str:
    draft = state.setup.draft
    if draft is not None:
        for c in draft.characters:
            if c.id == card_id:
                return c.name
    return card_id


def _words(
    state: GameState, choice: Choice, label: str, names: dict[str, str], odds: float | None
) -> tuple[str, str, dict[str, Any] | None]:
    """The button's words (without the acting character's name, which the prompt says, and
    without odds, which are shown apart), a longer detail, and the cost."""
    actor = acting(state)
    piece = state.pieces.get(actor or "")
    if isinstance(choice, UseAbility) and piece is not None:
        ability = find_ability(state, piece, choice.ability)
        if ability is not None:
            target = state.pieces.get(choice.target or "")
            cost = ability_cost(state, piece, ability, target)
            on = f" on {names.get(target.id, target.id)}" if target is not None else ""
            color = ability.color.value
            words = f"{ability.name}{on} ({color}, {cost})" if cost > 0 else f"{ability.name}{on}"
            return words, ability.text, {"color": color, "number": cost} if cost > 0 else None
    if isinstance(choice, UseItem) and choice.item in state.setup.items:
        item = state.setup.items[choice.item]
        words = f"Use the {item.name}" + (f" ({item.cost})" if item.cost else "")
        return words, item.text, {"card": item.name, "number": item.cost} if item.cost else None
    if isinstance(choice, Give):
        given = state.setup.items.get(choice.item)
        called = given.name if given else choice.item
        return f"Give the {called} to {_draft_name(state, choice.holder)}", "", None
    if isinstance(choice, Pick):
        return f"Choose {_draft_name(state, choice.character)}", "", None
    words = label
    who = names.get(actor or "", "")
    if who and words.startswith(f"{who}: "):
        words = words[len(who) + 2 :]
    head, sep, tail = words.rpartition(", ")
    if odds is not None and sep and tail.endswith("%"):
        words = head  # "challenge X, 2 dice vs 2, 47.7%": the odds are shown apart
    words, _, note = words.partition(" — ")
    return words[:1].upper() + words[1:], note, None


def _odds_words(state: GameState, seat: str, found: list[Outlook], names: dict[str, str]) -> str:
    parts = []
    for o in found:
        text = f"{pct(o.odds)} against {names.get(o.target, o.target)}"
        for d in o.options:
            whose = "" if d.decider == seat else f", {d.decider}'s choice"
            text += f" ({pct(d.odds)} with the {d.die}{whose})"
        parts.append(text)
    if len(parts) > 1:
        parts[0] = "up to " + parts[0] if found[0].odds > found[-1].odds else parts[0]
    return "; ".join(parts)


def _warning(choice: Choice, found: Foresight, words: str) -> str | None:
    if not isinstance(choice, _PAID) or found.changes or not found.complete:
        return None
    what = words.split(" (", 1)[0]
    paid = "its token" if isinstance(choice, UseAbility) else "its card"
    return f"Nothing would happen now: {what} spends {paid} and an action here for no effect."


def _followed(state: GameState, choice: Choice) -> bool:
    if isinstance(choice, _FOLLOWED):
        return True
    top = state.stack[-1] if state.stack else None
    return isinstance(top, ChoiceFrame) and nearest_steps(state) is not None


def _challenge_ahead(state: GameState) -> bool:
    """Whether a move step under way is followed by a challenge of the same ability."""
    top = state.stack[-1] if state.stack else None
    found = nearest_steps(state)
    if not isinstance(top, ChoiceFrame) or top.purpose != "move" or found is None:
        return False
    rest = found[1].steps[found[1].pc :]
    return any(s.op in CHALLENGE_OPS for s in rest)


def present(
    state: GameState,
    seat: str,
    choices: list[tuple[Choice, str, float | None]],
    names: dict[str, str],
) -> list[Shown]:
    """Each of `seat`'s legal `choices` (with its label and odds) in `state`, the seat's own
    view, as a page draws it."""
    budget = VIEW_BUDGET
    ahead = _challenge_ahead(state)
    out = []
    for choice, label, odds in choices:
        shown = Shown()
        _where(state, choice, shown)
        shown.words, shown.detail, shown.cost = _words(state, choice, label, names, odds)
        if _followed(state, choice) and budget > 0:
            found = foresee(state, choice, min(budget, 240))
            budget -= found.used
            shown.challenges = found.challenges
            shown.odds_words = _odds_words(state, seat, found.challenges, names)
            shown.warning = _warning(choice, found, shown.words)
            if ahead and isinstance(choice, Move):
                shown.keeps_target = bool(found.challenges)
        out.append(shown)
    return out


def board_help(state: GameState, choices: list[Choice], shown: list[Shown]) -> str:
    """What to tap when the squares to choose from are many (they stay on the board, and the
    list keeps the other choices)."""
    on_squares = [(c, s) for c, s in zip(choices, shown, strict=True) if s.square is not None]
    if len(on_squares) <= 6:
        return ""
    actors = {s.actor for _, s in on_squares if s.actor is not None}
    kinds = {type(c) for c, _ in on_squares}
    if kinds & {Place, Return} and not isinstance(
        state.stack[-1] if state.stack else None, ChoiceFrame
    ):
        verb = "place" if Place in kinds else "return"
        who = "the character chosen above" if len(actors) > 1 else "the character"
        return f"Tap a green square to {verb} {who} there."
    if Move in kinds:
        rivals = any(isinstance(c, (Challenge, Target)) for c in choices)
        return "Tap a green square to move there" + (
            "; a rival ringed in red to challenge it." if rivals else "."
        )
    return "Tap a green square."


def start_areas(state: GameState) -> dict[str, list[str]]:
    """The starting area of each side in play, squares as labels (a map's other corners,
    for more players, are not tinted in a game of two)."""
    label = state.board.label
    return {
        team.side: [label(sq) for sq in state.board.start_areas.get(team.area, ())]
        for team in state.setup.teams
    }
