"""The Creature (Universal Monsters 100, "Character Cards in This Game"): every ability and
Forbidden Depths, with the F.A.Q. on Tunnels."""

from __future__ import annotations

from funkoverse.rules.core.frames import RollFrame
from funkoverse.rules.core.scenario import Scenario
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from positions import board, position

WIDE = board(width=12, height=6, dark=("a6", "b6", "c6"), light=("l6", "k6", "j6"))


def _roll(game: Game) -> RollFrame:
    top = game.state.stack[-1]
    assert isinstance(top, RollFrame)
    return top


def _sq(game: Game, label: str) -> int:
    return game.state.board.parse_label(label)


def _at(game: Game, pid: str) -> str:
    square = game.state.pieces[pid].square
    return "" if square is None else game.state.board.label(square)


def _start(game: Game) -> None:
    """Choose The Creature and decline Forbidden Depths' start-of-turn Tunnel."""
    game.play("choose:the-creature")
    if "skip" in engine.legal_choices(game.state):
        game.play("skip")


# --------------------------------------------------------------------------- Slashing Claws


def test_slashing_claws_challenge_3_then_challenge_2_to_a_different_rival() -> None:
    """Slashing Claws (might 3): "Challenge 3. Challenge 2 to a different rival." """
    game = position({"the-creature": "b2"}, {"villager": "b3", "mad-scientist": "c3"})
    _start(game)
    game.play("ability:slashing-claws")
    assert game.state.sides["dark"].track_position(("token", "red")) == 3
    assert engine.legal_choices(game.state) == ["target:mad-scientist", "target:villager"]
    game.play("target:villager")
    assert len(_roll(game).attack) == 3
    game.play("roll:win")
    assert engine.legal_choices(game.state) == ["target:mad-scientist"]  # a different rival
    game.play("target:mad-scientist")
    assert len(_roll(game).attack) == 2
    game.play("roll:win")
    assert not game.state.pieces["mad-scientist"].standing


def test_slashing_claws_losing_the_first_challenge_does_not_stop_the_second() -> None:
    """F.A.Q.: "Failing a challenge doesn't stop the rest of the challenge action from
    happening." """
    game = position({"the-creature": "b2"}, {"villager": "b3", "mad-scientist": "c3"})
    _start(game)
    game.play("ability:slashing-claws")
    game.play("target:villager")
    game.play("roll:lose")
    assert engine.legal_choices(game.state) == ["target:mad-scientist"]


def test_slashing_claws_with_one_adjacent_rival_ends_after_the_first_challenge() -> None:
    """ "a different rival": the same rival cannot be challenged twice; no other rival means
    the part cannot be done and the ability ends."""
    game = position({"the-creature": "b2"}, {"villager": "b3", "mad-scientist": "f6"})
    _start(game)
    game.play("ability:slashing-claws")
    game.play("target:villager")
    game.play("roll:win")
    assert game.state.stack == []
    assert game.state.actions_left == 1


# --------------------------------------------------------------------------- Abduct


def test_abduct_carries_an_adjacent_rival_along() -> None:
    """Abduct (finesse 2): "Choose an adjacent character. Move 1. Place that character in an
    adjacent square." """
    game = position({"the-creature": "b2"}, {"villager": "b3", "mad-scientist": "f6"})
    _start(game)
    game.play("ability:abduct")
    assert game.state.sides["dark"].track_position(("token", "blue")) == 2
    assert engine.legal_choices(game.state) == ["carry:villager"]
    game.play("carry:villager")
    game.play("move:c2")
    menu = engine.legal_choices(game.state)
    assert "put:d1" in menu and "put:b3" in menu  # adjacent to where The Creature now is
    assert "put:a3" not in menu
    assert "put:c2" not in menu  # not on The Creature
    game.play("put:d1")
    assert _at(game, "villager") == "d1" and _at(game, "the-creature") == "c2"


def test_abduct_may_choose_an_ally_or_a_knocked_down_character() -> None:
    """Ruling (docs/rulings.md, Cards): "an adjacent character" is any character, ally or
    rival, standing or knocked down; a knocked-down one stays knocked down."""
    game = position(
        {"the-creature": "b2", "dracula": "a1"},
        {"villager": "b3"},
        knocked_down=["villager"],
    )
    _start(game)
    game.play("ability:abduct")
    assert engine.legal_choices(game.state) == ["carry:dracula", "carry:villager"]
    game.play("carry:villager")
    game.play("move:c2")
    game.play("put:d3")
    assert _at(game, "villager") == "d3"
    assert not game.state.pieces["villager"].standing


def test_abduct_through_a_tunnel_takes_the_character_to_the_other_side() -> None:
    """F.A.Q.: "If The Creature Abducts through a Tunnel, it can take an adjacent character with
    it all the way to the other side." """
    game = position(
        {"the-creature": "b2"},
        {"villager": "b3"},
        b=WIDE,
        tokens={"tunnel-dark-1": "b2", "tunnel-dark-2": "f4"},
    )
    _start(game)
    game.play("ability:abduct")
    game.play("carry:villager")
    assert "move:f4" in engine.legal_choices(game.state)
    game.play("move:f4")
    game.play("put:g5")
    assert _at(game, "the-creature") == "f4" and _at(game, "villager") == "g5"


def test_abduct_with_no_adjacent_character_ends() -> None:
    game = position({"the-creature": "b2"}, {"villager": "f6"})
    _start(game)
    game.play("ability:abduct")
    assert game.state.stack == []
    assert _at(game, "the-creature") == "b2"


# --------------------------------------------------------------------------- Aquatic Ambush


def test_aquatic_ambush_places_a_tunnel_within_2_moves_1_and_basic_challenges() -> None:
    """Aquatic Ambush (finesse 3): "Place a Tunnel token in a square within 2 squares. Move 1.
    Do a basic challenge." """
    game = position({"the-creature": "b2"}, {"villager": "d3"})
    _start(game)
    game.play("ability:aquatic-ambush")
    assert game.state.sides["dark"].track_position(("token", "blue")) == 3
    menu = engine.legal_choices(game.state)
    assert "token:tunnel-dark-1:d4" in menu
    assert "token:tunnel-dark-1:e2" not in menu  # 3 squares away
    game.play("token:tunnel-dark-1:d4")
    assert _at(game, "tunnel-dark-1") == "d4"
    game.play("move:c2")
    game.play("target:villager")
    assert _roll(game).attack == ("standard", "standard")


def test_aquatic_ambush_the_new_tunnel_links_for_its_move_1() -> None:
    """Forbidden Depths: "When it moves, squares with Tunnels are considered adjacent to other
    squares with Tunnels within 5 squares." A Tunnel in its square and one placed 2 away: Move 1
    goes through."""
    game = position({"the-creature": "b2"}, {"villager": "e2"}, tokens={"tunnel-dark-1": "b2"})
    _start(game)
    game.play("ability:aquatic-ambush")
    game.play("token:tunnel-dark-2:d2")
    assert "move:d2" in engine.legal_choices(game.state)
    game.play("move:d2")
    assert engine.legal_choices(game.state) == ["target:villager"]


def test_aquatic_ambush_placing_ignores_sight() -> None:
    """Placing Something: neither needs to see the square."""
    b = board(walls=[("b2", "c2"), ("b1", "c1"), ("b3", "c3")])
    game = position({"the-creature": "b2"}, {"villager": "a3"}, b=b)
    _start(game)
    game.play("ability:aquatic-ambush")
    assert "token:tunnel-dark-1:d2" in engine.legal_choices(game.state)


# --------------------------------------------------------------------------- Forbidden Depths


def test_forbidden_depths_at_the_start_of_its_turn_may_place_a_tunnel_in_its_square() -> None:
    """Forbidden Depths: "At the start of The Creature's turn, you may place a Tunnel token in
    its square." """
    game = position({"the-creature": "b2"}, {"villager": "f6"})
    game.play("choose:the-creature")
    assert engine.legal_choices(game.state) == ["token:tunnel-dark-1:b2", "skip"]
    game.play("token:tunnel-dark-1:b2")
    assert _at(game, "tunnel-dark-1") == "b2"
    assert game.state.actions_left == 2  # not an action


def test_forbidden_depths_start_of_turn_while_knocked_down() -> None:
    """Traits work while knocked down."""
    game = position({"the-creature": "b2"}, {"villager": "f6"}, knocked_down=["the-creature"])
    game.play("choose:the-creature")
    assert engine.legal_choices(game.state) == ["token:tunnel-dark-1:b2", "skip"]


def test_forbidden_depths_tunnels_within_5_are_adjacent_when_it_moves() -> None:
    game = position(
        {"the-creature": "a1"},
        {"villager": "l6"},
        b=WIDE,
        tokens={"tunnel-dark-1": "a1", "tunnel-dark-2": "f1", "tunnel-dark-3": "a6"},
    )
    _start(game)
    menu = engine.legal_choices(game.state)
    assert "move:f1" in menu  # 5 squares away: one step
    assert "move:g1" in menu  # through the Tunnel and one more
    assert "move:a6" in menu


def test_forbidden_depths_tunnels_more_than_5_apart_are_not_linked() -> None:
    game = position(
        {"the-creature": "a1"},
        {"villager": "l6"},
        b=WIDE,
        tokens={"tunnel-dark-1": "a1", "tunnel-dark-2": "g1"},
    )
    _start(game)
    assert "move:g1" not in engine.legal_choices(game.state)


def test_forbidden_depths_chained_tunnels_in_one_move() -> None:
    """F.A.Q.: "Can The Creature move through multiple Tunnels in a movement? Yes"."""
    game = position(
        {"the-creature": "a1"},
        {"villager": "l6"},
        b=WIDE,
        tokens={"tunnel-dark-1": "a1", "tunnel-dark-2": "f1", "tunnel-dark-3": "k1"},
    )
    _start(game)
    assert "move:k1" in engine.legal_choices(game.state)
    game.play("move:k1")
    assert _at(game, "the-creature") == "k1"


def test_forbidden_depths_only_when_it_moves_not_its_allies() -> None:
    """ "When it moves": an ally on a Tunnel gains nothing."""
    game = position(
        {"the-creature": "l1", "dracula": "a1"},
        {"villager": "l6"},
        b=WIDE,
        tokens={"tunnel-dark-1": "a1", "tunnel-dark-2": "f1"},
    )
    game.play("choose:dracula")
    assert "move:f1" not in engine.legal_choices(game.state)


def test_forbidden_depths_rivals_may_interact_with_tunnels_to_discard_them() -> None:
    """ "Rivals may interact with Tunnels to discard them." Its allies may not."""
    game = position(
        {"the-creature": "a1", "dracula": "c4"},
        {"villager": "c2"},
        tokens={"tunnel-dark-1": "c3"},
        first="light",
    )
    game.play("choose:villager")
    assert "interact:tunnel-dark-1" in engine.legal_choices(game.state)
    game.play("interact:tunnel-dark-1")
    assert game.state.pieces["tunnel-dark-1"].square is None
    game.play("end")
    game.play("choose:dracula")
    assert not any(c.startswith("interact:") for c in engine.legal_choices(game.state))


def test_forbidden_depths_a_discarded_tunnel_can_be_placed_again() -> None:
    game = position(
        {"the-creature": "a1"},
        {"villager": "c2"},
        tokens={"tunnel-dark-1": "c3", "tunnel-dark-2": "e5", "tunnel-dark-3": "f1"},
        first="light",
    )
    game.play("choose:villager")
    game.play("interact:tunnel-dark-1")
    game.play("end")
    game.play("choose:the-creature")
    assert engine.legal_choices(game.state) == ["token:tunnel-dark-1:a1", "skip"]


def test_forbidden_depths_three_tunnels_then_one_already_on_the_map_is_moved() -> None:
    """Tokens: "If all of your tokens are in play, you may choose a token already on the map to
    place instead." The Creature has three Tunnel tokens."""
    game = position(
        {"the-creature": "a1"},
        {"villager": "f6"},
        tokens={"tunnel-dark-1": "c3", "tunnel-dark-2": "e5", "tunnel-dark-3": "f1"},
    )
    game.play("choose:the-creature")
    assert engine.legal_choices(game.state) == [
        "token:tunnel-dark-1:a1",
        "token:tunnel-dark-2:a1",
        "token:tunnel-dark-3:a1",
        "skip",
    ]
    game.play("token:tunnel-dark-2:a1")
    assert _at(game, "tunnel-dark-2") == "a1"
    tunnels = [p for p in game.state.pieces if p.startswith("tunnel-dark-")]
    assert len(tunnels) == 3


def test_forbidden_depths_tunnels_stay_when_the_creature_is_knocked_out() -> None:
    """FAQ (Tokens): "Tokens stay in play even if the character that placed them is knocked
    out, and work as usual"."""
    game = position(
        {"the-creature": "b2", "dracula": "f1"},
        {"villager": "b3"},
        knocked_down=["the-creature"],
        tokens={"tunnel-dark-1": "b2", "tunnel-dark-2": "d4"},
        first="light",
        scenario=Scenario(),
    )
    game.play("choose:villager")
    game.play("challenge:the-creature")
    game.play("roll:win")
    assert game.state.pieces["the-creature"].square is None
    assert _at(game, "tunnel-dark-1") == "b2" and _at(game, "tunnel-dark-2") == "d4"
    # and Forbidden Depths still works: a rival may discard one
    assert "interact:tunnel-dark-1" in engine.legal_choices(game.state)


def test_aquatic_ambush_is_not_offered_when_no_rival_can_be_reached() -> None:
    """Abilities That Are Challenge Actions: "If there is no possible target, you cannot do a
    challenge action." Placing a Tunnel first does not make every rival a target: with no
    rival a move of 1 can bring beside it, Aquatic Ambush is not offered (its token would be
    spent for nothing)."""
    game = position({"the-creature": "b2"}, {"villager": "f6"})
    _start(game)
    assert "ability:aquatic-ambush" not in engine.legal_choices(game.state)


def test_aquatic_ambush_is_offered_when_its_move_1_reaches_a_rival() -> None:
    game = position({"the-creature": "b2"}, {"villager": "d3"})
    _start(game)
    assert "ability:aquatic-ambush" in engine.legal_choices(game.state)


def test_aquatic_ambush_is_offered_when_only_the_tunnel_it_places_reaches_a_rival() -> None:
    """The pre-check follows the steps in every way they can go: a Tunnel in The Creature's
    square and one placed 2 away on d3 link for its move of 1, which ends beside the villager
    on e3; no square a plain move of 1 reaches is beside it."""
    game = position({"the-creature": "b2"}, {"villager": "e3"}, tokens={"tunnel-dark-1": "b2"})
    _start(game)
    assert "ability:aquatic-ambush" in engine.legal_choices(game.state)
    game.play("ability:aquatic-ambush")
    game.play("token:tunnel-dark-2:d3")
    game.play("move:d3")
    assert engine.legal_choices(game.state) == ["target:villager"]
