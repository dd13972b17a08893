"""The Cheetah (DC Comics 102, "Character Cards in This Game"): every ability and her trait."""

from __future__ import annotations

from funkoverse.rules.core.frames import RollFrame
from funkoverse.rules.core.scenario import Scenario
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from positions import board, editing, position

POINTS = Scenario(point_markers=True)
MARKERS = board(points={"A": "a6", "B": "b6"})  # point markers A and B set up far away


def _roll(game: Game) -> RollFrame:
    top = game.state.stack[-1]
    assert isinstance(top, RollFrame)
    return top


def _sq(game: Game, label: str) -> int:
    return game.state.board.parse_label(label)


# --------------------------------------------------------------------------- Savage Hunger


def test_savage_hunger_places_her_adjacent_to_a_seen_rival_within_2_and_challenges_2() -> None:
    """Savage Hunger (blue 2): "Choose a rival within 2 squares that The Cheetah can see and
    place her adjacent to them. Do a challenge 2 to them." """
    game = position({"the-cheetah": "b2"}, {"hyena-warrior": "d4", "villager": "f6"})
    game.play("choose:the-cheetah")
    game.play("ability:savage-hunger")
    menu = engine.legal_choices(game.state)
    assert "place:hyena-warrior:e5" in menu  # placing ignores the moving rules: behind him
    assert not any(c.startswith("place:villager:") for c in menu)  # 4 squares away
    game.play("place:hyena-warrior:e5")
    assert game.state.pieces["the-cheetah"].square == _sq(game, "e5")
    # "to them": the challenge is declared against the chosen rival, no other choice
    roll = _roll(game)
    assert roll.target == "hyena-warrior"
    assert roll.attack == ("standard", "standard")


def test_savage_hunger_to_them_even_with_another_rival_adjacent() -> None:
    game = position({"the-cheetah": "b2"}, {"hyena-warrior": "d4", "villager": "e4"})
    game.play("choose:the-cheetah")
    game.play("ability:savage-hunger")
    game.play("place:hyena-warrior:d5")  # adjacent to both
    assert _roll(game).target == "hyena-warrior"


def test_savage_hunger_needs_sight_of_the_rival() -> None:
    """ "that The Cheetah can see": a rival behind a wall is not a choice."""
    b = board(walls=[("b2", "b3"), ("c2", "c3"), ("a2", "a3")])
    game = position({"the-cheetah": "b2"}, {"hyena-warrior": "b4", "villager": "d2"}, b=b)
    game.play("choose:the-cheetah")
    game.play("ability:savage-hunger")
    menu = engine.legal_choices(game.state)
    assert any(c.startswith("place:villager:") for c in menu)
    assert not any(c.startswith("place:hyena-warrior:") for c in menu)


def test_savage_hunger_only_onto_an_empty_square() -> None:
    """Placing Something: a character is never placed where another character is."""
    game = position({"the-cheetah": "b2", "priestess": "c4"}, {"hyena-warrior": "d4"})
    game.play("choose:the-cheetah")
    game.play("ability:savage-hunger")
    menu = engine.legal_choices(game.state)
    assert "place:hyena-warrior:c4" not in menu
    assert "place:hyena-warrior:c3" in menu


def test_savage_hunger_is_not_offered_without_a_rival_within_2_that_she_can_see() -> None:
    """Abilities That Are Challenge Actions: "If there is no possible target, you cannot do a
    challenge action." A rival 4 squares away is no possible target of Savage Hunger."""
    game = position({"the-cheetah": "a1"}, {"hyena-warrior": "f6"})
    game.play("choose:the-cheetah")
    assert "ability:savage-hunger" not in engine.legal_choices(game.state)


# --------------------------------------------------------------------------- Ferocious Slash


def test_ferocious_slash_with_no_point_marker_on_any_track_is_challenge_1() -> None:
    """Ferocious Slash (red 3): "Challenge 1, plus the highest number where a point marker is on
    a cooldown track." Ruling: no point marker on any track adds 0."""
    game = position({"the-cheetah": "b2"}, {"hyena-warrior": "b3"})
    game.play("choose:the-cheetah")
    game.play("ability:ferocious-slash")
    game.play("target:hyena-warrior")
    assert _roll(game).attack == ("standard",)
    assert game.state.sides["dark"].track_position(("token", "red")) == 3


def test_ferocious_slash_counts_the_highest_number_on_either_track() -> None:
    """ "a cooldown track": the rival's track counts too; the highest number wins."""
    game = position({"the-cheetah": "b2"}, {"hyena-warrior": "b3"}, b=MARKERS, scenario=POINTS)
    with editing(game) as s:  # two point markers taken from the map onto the tracks
        s.pieces["point-A"].square = s.pieces["point-B"].square = None
        s.sides["dark"].track[1].append(("point", "point-A"))
        s.sides["light"].track[3].append(("point", "point-B"))
    game.play("choose:the-cheetah")
    game.play("ability:ferocious-slash")
    game.play("target:hyena-warrior")
    assert len(_roll(game).attack) == 1 + 4


def test_ferocious_slash_with_a_point_marker_on_the_2() -> None:
    game = position({"the-cheetah": "b2"}, {"hyena-warrior": "b3"}, b=MARKERS, scenario=POINTS)
    with editing(game) as s:  # a point marker taken from the map onto the track
        s.pieces["point-A"].square = None
        s.sides["dark"].track[1].append(("point", "point-A"))
    game.play("choose:the-cheetah")
    game.play("ability:ferocious-slash")
    game.play("target:hyena-warrior")
    assert len(_roll(game).attack) == 3


# --------------------------------------------------------------------------- Quick Swipe


def test_quick_swipe_interacts_with_a_point_marker_then_moves_2() -> None:
    """Quick Swipe (blue 2): "Do an interact action with a point marker. Move 2." """
    b = board(points={"A": "b3"})
    game = position({"the-cheetah": "b2"}, {"hyena-warrior": "f6"}, b=b, scenario=POINTS)
    game.play("choose:the-cheetah")
    game.play("ability:quick-swipe")
    assert engine.legal_choices(game.state) == ["interact:point-A"]
    game.play("interact:point-A")
    dark = game.state.sides["dark"]
    assert dark.points == 1
    assert dark.track_position(("point", "point-A")) == 4
    assert "move:d2" in engine.legal_choices(game.state)
    assert "move:e2" not in engine.legal_choices(game.state)
    game.play("move:d2")
    assert game.state.pieces["the-cheetah"].square == _sq(game, "d2")


def test_quick_swipe_without_a_point_marker_to_interact_with_ends_before_the_move() -> None:
    """Abilities: "If the ability contains a part that cannot be done, the ability ends and the
    remaining rules for the ability are ignored." No point marker in reach: no Move 2."""
    b = board(points={"A": "f1"})
    game = position({"the-cheetah": "b2"}, {"hyena-warrior": "f6"}, b=b, scenario=POINTS)
    game.play("choose:the-cheetah")
    game.play("ability:quick-swipe")
    assert game.state.stack == []
    assert game.state.pieces["the-cheetah"].square == _sq(game, "b2")
    assert game.state.sides["dark"].points == 0


# --------------------------------------------------------------------------- Predatory Senses


def test_predatory_senses_a_rival_rallies_she_may_move_1_in_the_rivals_turn() -> None:
    """Predatory Senses: "While standing, if a rival ... stands up, The Cheetah may move 1
    square." The decision is The Cheetah's owner's, in the opponent's turn."""
    game = position(
        {"the-cheetah": "b2"},
        {"hyena-warrior": "d4"},
        knocked_down=["hyena-warrior"],
        first="light",
    )
    game.play("choose:hyena-warrior")
    game.play("rally")
    assert game.state.pieces["hyena-warrior"].standing
    assert game.decider == "dark"
    menu = engine.legal_choices(game.state)
    assert "move:c3" in menu and "skip" in menu
    assert "move:d2" not in menu  # 1 square
    game.play("move:c3")
    assert game.state.pieces["the-cheetah"].square == _sq(game, "c3")
    assert game.decider == "dark"  # light's turn ended; dark chooses next


def test_predatory_senses_may_be_declined() -> None:
    game = position(
        {"the-cheetah": "b2"},
        {"hyena-warrior": "d4"},
        knocked_down=["hyena-warrior"],
        first="light",
    )
    game.play("choose:hyena-warrior")
    game.play("rally")
    game.play("skip")
    assert game.state.pieces["the-cheetah"].square == _sq(game, "b2")


def test_predatory_senses_when_a_rival_is_assisted_up() -> None:
    """Ruling: an assisted rival "stands up", so she may move 1."""
    game = position(
        {"the-cheetah": "b2"},
        {"hyena-warrior": "d4", "villager": "e4"},
        knocked_down=["hyena-warrior"],
        first="light",
    )
    game.play("choose:villager")
    game.play("assist:hyena-warrior")
    assert game.decider == "dark"
    assert "move:c3" in engine.legal_choices(game.state)


def test_predatory_senses_when_a_rival_stands_up_by_an_ability() -> None:
    """Divine Resolve: "Stand Wonder Woman up." is a rival standing up."""
    game = position(
        {"the-cheetah": "b2"},
        {"wonder-woman": "d4"},
        knocked_down=["wonder-woman"],
        first="light",
    )
    game.play("choose:wonder-woman")
    game.play("ability:divine-resolve")
    assert game.decider == "dark"
    game.play("move:c3")
    # then Divine Resolve goes on: the Cheetah is now adjacent and is pushed
    assert game.decider == "light"
    assert any(c.startswith("push:the-cheetah:") for c in engine.legal_choices(game.state))


def test_predatory_senses_when_a_rival_interacts_with_a_point_marker() -> None:
    b = board(points={"A": "e5"})
    game = position(
        {"the-cheetah": "b2"}, {"hyena-warrior": "e4"}, b=b, scenario=POINTS, first="light"
    )
    game.play("choose:hyena-warrior")
    game.play("interact:point-A")
    assert game.state.sides["light"].points == 1
    assert game.decider == "dark"
    assert "move:c3" in engine.legal_choices(game.state)


def test_predatory_senses_not_while_knocked_down() -> None:
    """ "While standing": a knocked-down Cheetah does not move."""
    game = position(
        {"the-cheetah": "b2"},
        {"hyena-warrior": "d4"},
        knocked_down=["hyena-warrior", "the-cheetah"],
        first="light",
    )
    game.play("choose:hyena-warrior")
    game.play("rally")
    assert game.decider == "dark"
    assert engine.legal_choices(game.state) == ["choose:the-cheetah"]


def test_predatory_senses_not_for_an_ally_standing_up() -> None:
    game = position(
        {"the-cheetah": "b2", "priestess": "c2"},
        {"hyena-warrior": "f6"},
        knocked_down=["priestess"],
    )
    game.play("choose:the-cheetah")
    game.play("assist:priestess")
    assert game.decider == "dark"
    assert game.state.stack == []
    assert game.state.actions_left == 1


def test_predatory_senses_not_for_a_rival_interacting_with_something_else() -> None:
    """Only "an interact action with a point marker": discarding a Tunnel is not one."""
    game = position(
        {"the-cheetah": "b2", "the-creature": "a1"},
        {"hyena-warrior": "e4"},
        tokens={"tunnel-dark-1": "e5"},
        first="light",
    )
    game.play("choose:hyena-warrior")
    game.play("interact:tunnel-dark-1")
    assert game.state.pieces["tunnel-dark-1"].square is None
    assert game.state.stack == []
