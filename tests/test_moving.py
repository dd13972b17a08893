"""Moving and How to Move Something (rules 1-6), Away, Toward, Placing Something,
Walls and Rubble Tokens, and the outside ring for tokens: each on a small map."""

from __future__ import annotations

import pytest

from funkoverse.rules.core import geometry as g
from funkoverse.rules.core.board import Board, Rubble
from funkoverse.rules.core.pieces import Kind
from small_maps import DARK, LIGHT, P, board, open_board, put, xy_set

xy = xy_set


def moves(b: Board, piece: P, pieces: list[P], steps: int) -> set[tuple[int, int]]:
    return xy(b, g.move_destinations(b, piece, pieces, steps))


# -- How to Move Something ------------------------------------------------------

PARTIAL = (
    "+-+-+-+-+",
    "|. . . .|",
    "+   +   +",
    "|. .|. .|",
    "+   +   +",
    "|. . . .|",
    "+-+-+-+-+",
)


def test_rule_1_things_do_not_move_through_obstructions() -> None:
    """Rule 1: "You cannot move things through obstructions"; rule 2 example: "Ally A is
    in a square partially occupied by an obstruction but cannot move through" it."""
    b = board(*PARTIAL)
    a = put(b, "A", DARK, 1, 1)
    assert (2, 1) not in moves(b, a, [a], 1)
    assert b.square(2, 1) not in b.steps(a.square or 0)
    # two steps go round the wall's end... but the corner (2, 2) is obstructed, so not
    # diagonally: [1, 1] -> [1, 2] -> [2, 2] reaches the far side in two
    assert (2, 2) in moves(b, a, [a], 2)
    assert (2, 1) not in moves(b, a, [a], 2)
    assert (2, 1) in moves(b, a, [a], 3)


def test_rule_1_two_basic_moves_go_around_a_wall() -> None:
    """Combining Straight and Diagonal Moves: "Ally A cannot move through an obstruction.
    Ally A can use two basic move actions to go around it (rule 1)"."""
    b = board(
        "+-+-+-+",
        "|.|. .|",
        "+ +   +",
        "|.|. .|",
        "+ +   +",
        "|. . .|",
        "+-+-+-+",
    )
    a = put(b, "A", DARK, 0, 1)
    assert (1, 1) not in moves(b, a, [a], 2)  # one basic move (2 squares) is not enough
    assert (1, 1) in moves(b, a, [a], 4)  # two basic moves: down, across, up


def test_rule_2_a_square_with_an_obstruction_over_its_center_cannot_be_entered() -> None:
    """Rule 2: "only if the obstruction does not occupy the center of the square"; a
    blocked area "cannot be entered for any reason" (Obstructions)."""
    b = board(
        "+-+-+-+",
        "|. . .|",
        "+ +-+ +",
        "|.|#|.|",
        "+ +-+ +",
        "|. . .|",
        "+-+-+-+",
    )
    everywhere = set()
    for s in b.squares:
        if s not in b.blocked:
            everywhere |= set(b.steps(s))
    assert b.square(1, 1) not in everywhere
    a = put(b, "A", DARK, 0, 1)  # its square is partially walled: it stands there fine
    assert moves(b, a, [a], 8) == {
        (x, y) for x in range(3) for y in range(3) if (x, y) not in {(1, 1), (0, 1)}
    }


def test_rule_3_no_diagonal_move_through_an_obstructed_corner() -> None:
    """Rule 3: "If an obstruction is on a corner of a square, you cannot move something
    diagonally through that corner" (a lone post here)."""
    b = board(
        "+-+-+-+",
        "|. . .|",
        "+ +   +",
        "|. . .|",
        "+     +",
        "|. . .|",
        "+-+-+-+",
    )
    a = put(b, "A", DARK, 0, 0)
    assert moves(b, a, [a], 1) == {(0, 1), (1, 0)}
    assert (1, 1) in moves(b, a, [a], 2)  # round the post, straight


def test_rule_3_moving_diagonally_between_rivals_where_the_corner_is_open() -> None:
    """Moving Between Rivals: "may move between rivals Y and Z, as the corner is not
    obstructed (rule 3)"."""
    b = open_board(3, 3)
    a, y, z = put(b, "A", DARK, 0, 0), put(b, "Y", LIGHT, 1, 0), put(b, "Z", LIGHT, 0, 1)
    assert moves(b, a, [a, y, z], 1) == {(1, 1)}


def test_rules_4_and_5_through_an_ally_not_through_a_standing_rival() -> None:
    """Rules 4 and 5: "Ally A can move through ally B, but not through rival Z"."""
    b = open_board(5, 1)
    a, bb = put(b, "A", DARK, 0, 0), put(b, "B", DARK, 1, 0)
    assert moves(b, a, [a, bb], 2) == {(2, 0)}
    z = put(b, "Z", LIGHT, 1, 0)
    assert moves(b, a, [a, z], 2) == set()


def test_rule_5_a_knocked_down_rival_can_be_passed_but_not_ended_on() -> None:
    """Rule 5 speaks of a standing rival; rule 6 still forbids ending on any rival."""
    b = open_board(5, 1)
    a, z = put(b, "A", DARK, 0, 0), put(b, "Z", LIGHT, 1, 0, standing=False)
    assert moves(b, a, [a, z], 2) == {(2, 0)}


def test_rule_5_minions_and_companions_block_like_characters() -> None:
    """Minion Tokens and Companions "follow the same rules for ... movement" as
    characters; tokens and markers do not block movement."""
    b = open_board(4, 1)
    a = put(b, "A", DARK, 0, 0)
    for kind, passable in [
        (Kind.MINION, False),
        (Kind.COMPANION, False),
        (Kind.BONUS_OBJECTIVE, False),
        (Kind.TOKEN, True),
        (Kind.MARKER, True),
    ]:
        x = put(b, "X", LIGHT, 1, 0, kind=kind)
        assert ((2, 0) in moves(b, a, [a, x], 2)) is passable, kind


def test_rule_6_a_move_never_ends_on_an_ally_or_rival_but_may_end_on_a_token() -> None:
    """Rule 6: "You cannot end a character move in a square occupied by an ally or
    rival"; characters "can occupy the same squares as tokens" (Glossary)."""
    b = open_board(3, 3)
    a = put(b, "A", DARK, 1, 1)
    pieces = [
        a,
        put(b, "B", DARK, 0, 0),
        put(b, "Z", LIGHT, 2, 2, standing=False),
        put(b, "M", LIGHT, 2, 0, kind=Kind.MINION),
        put(b, "T", LIGHT, 0, 2, kind=Kind.TOKEN),
        put(b, "K", DARK, 1, 0, kind=Kind.MARKER),
    ]
    assert moves(b, a, pieces, 1) == {(0, 1), (0, 2), (1, 0), (1, 2), (2, 1)}


def test_straight_and_diagonal_basic_moves_of_up_to_two_squares() -> None:
    """Basic Moves: "the character can move up to 2 squares", straight or diagonal; the
    starting square is not a destination."""
    b = open_board(7, 7)
    a = put(b, "A", DARK, 3, 3)
    got = moves(b, a, [a], 2)
    assert got == {(x, y) for x in range(1, 6) for y in range(1, 6)} - {(3, 3)}
    assert moves(b, a, [a], 0) == set()


def test_cannot_move_boxed_in_by_rivals_and_an_obstruction() -> None:
    """Cannot Move: "Ally A cannot move because it is blocked by rival Z, the rival Basic
    Character, and an obstruction (rules 1 and 5)"."""
    b = board(
        "+-+-+-+",
        "|. . .|",
        "+ +   +",
        "|. . .|",
        "+     +",
        "|. . .|",
        "+-+-+-+",
    )
    a = put(b, "A", DARK, 0, 0)
    z, x = put(b, "Z", LIGHT, 1, 0), put(b, "X", LIGHT, 0, 1, kind=Kind.BASIC)
    assert moves(b, a, [a, z, x], 2) == set()


def test_links_add_one_step_connections() -> None:
    """`links` (for The Creature's Tunnels): one step from a linked square to the other."""
    b = open_board(6, 1)
    a = put(b, "A", DARK, 0, 0)
    links = {b.square(0, 0): [b.square(5, 0)]}
    got = xy(b, g.move_destinations(b, a, [a], 2, links))
    assert got == {(1, 0), (2, 0), (5, 0), (4, 0)}


def test_move_path_is_a_shortest_legal_path() -> None:
    """move_path: one shortest legal path (start and end included), None when illegal."""
    b = open_board(5, 1)
    a, bb = put(b, "A", DARK, 0, 0), put(b, "B", DARK, 1, 0)
    path = g.move_path(b, a, [a, bb], b.square(2, 0), 2)
    assert path == (b.square(0, 0), b.square(1, 0), b.square(2, 0))
    assert g.move_path(b, a, [a, bb], b.square(1, 0), 2) is None  # ends on ally B
    assert g.move_path(b, a, [a, bb], b.square(3, 0), 2) is None  # too far


# -- Away and Toward -------------------------------------------------------------


def test_away_every_square_entered_is_farther() -> None:
    """Glossary "Away": "each square to which you move it must be farther away"."""
    b = open_board(5, 5)
    a, z = put(b, "A", DARK, 1, 2), put(b, "Z", LIGHT, 2, 2)
    got = xy(b, g.push_destinations(b, z, [a, z], a.square or 0, 2))
    assert got == {(3, 1), (3, 2), (3, 3), (4, 0), (4, 1), (4, 2), (4, 3), (4, 4)}
    # sideways to [2, 1] keeps the same distance from A: not allowed, even on the way
    assert (2, 1) not in got


def test_away_follows_the_moving_rules() -> None:
    """Away moves "according to the Moving rules": walls and standing pieces still stop
    it (the pushed piece's allies may be passed through)."""
    b = board(
        "+-+-+-+-+",
        "|. . .|.|",
        "+     + +",
        "|. . .|.|",
        "+-+-+-+-+",
    )
    a, z = put(b, "A", DARK, 0, 0), put(b, "Z", LIGHT, 1, 0)
    assert xy(b, g.push_destinations(b, z, [a, z], a.square or 0, 3)) == {(2, 0), (2, 1)}
    friend = put(b, "F", LIGHT, 2, 0)
    assert xy(b, g.push_destinations(b, z, [a, z, friend], a.square or 0, 3)) == {(2, 1)}
    # from a square of the outside ring (a token beyond the edge)
    assert xy(b, g.push_destinations(b, z, [z], (-1, 0), 1)) == {(2, 0), (2, 1)}


def test_toward_every_square_entered_is_nearer_and_seen_by_the_puller() -> None:
    """Glossary "Toward": "your character must be able to see the thing and each square
    into which you are moving the thing", and each square must be nearer."""
    b = open_board(5, 5)
    a, z = put(b, "A", DARK, 0, 0), put(b, "Z", LIGHT, 3, 3)
    assert xy(b, g.pull_destinations(b, z, [a, z], a, 2)) == {(1, 1), (2, 2)}
    # a rival of the puller at [1, 1] hides [2, 1] from A (and occupies [1, 1])
    b2 = open_board(4, 3)
    a, z, w = put(b2, "A", DARK, 0, 0), put(b2, "Z", LIGHT, 3, 0), put(b2, "W", LIGHT, 1, 1)
    assert not g.can_see(b2, a.square or 0, b2.square(2, 1), g.sight_blockers(a, [a, w], b2))
    assert xy(b2, g.pull_destinations(b2, z, [a, z, w], a, 2)) == {(2, 0), (1, 0)}


def test_toward_the_puller_must_see_the_thing() -> None:
    """Toward: no pull of a piece the puller cannot see (a wall; Elusive Trickster)."""
    b = board(
        "+-+-+-+-+",
        "|. .|. .|",
        "+   +   +",
        "|. . . .|",
        "+-+-+-+-+",
    )
    a, z = put(b, "A", DARK, 0, 0), put(b, "Z", LIGHT, 3, 0)
    assert g.pull_destinations(b, z, [a, z], a, 2) == frozenset()
    b2 = open_board(5, 1)
    a = put(b2, "A", DARK, 0, 0)
    plain = put(b2, "Z", LIGHT, 3, 0)
    assert xy(b2, g.pull_destinations(b2, plain, [a, plain], a, 2)) == {(1, 0), (2, 0)}
    inv = put(b2, "I", LIGHT, 3, 0, elusive=True)
    assert g.pull_destinations(b2, inv, [a, inv], a, 2) == frozenset()
    own = put(b2, "I", DARK, 3, 0, elusive=True)  # Elusive Trickster hides from rivals only
    assert xy(b2, g.pull_destinations(b2, own, [a, own], a, 2)) == {(1, 0), (2, 0)}


# -- Placing Something -----------------------------------------------------------


def test_placing_ignores_moving_rules_but_not_blocked_or_occupied_squares() -> None:
    """Placing Something (ignores the moving rules and sight) and FAQ "Can I stand in
    this square?": not where an obstruction covers the center, nor where a character,
    minion, companion or bonus objective is; tokens and markers do not prevent it."""
    b = board(
        "+-+-+-+",
        "|. .|.|",
        "+-+ +-+",
        "|#|. .|",
        "+-+-+-+",
    )
    pieces = [
        put(b, "A", DARK, 0, 0),
        put(b, "M", LIGHT, 1, 1, kind=Kind.MINION),
        put(b, "T", LIGHT, 2, 1, kind=Kind.TOKEN),
    ]
    assert g.placeable(b, pieces, b.square(2, 0))  # walled off from everyone: still fine
    assert not g.placeable(b, pieces, b.square(0, 1))  # blocked
    assert not g.placeable(b, pieces, b.square(0, 0))
    assert not g.placeable(b, pieces, b.square(1, 1))
    assert g.placeable(b, pieces, b.square(2, 1))
    assert g.placeable(b, pieces, b.square(0, 0), Kind.TOKEN)
    assert not g.placeable(b, pieces, b.square(0, 1), Kind.TOKEN)


# -- Walls and Rubble Tokens -----------------------------------------------------


def test_rubble_on_a_wall_section_opens_it_for_moving_and_sight() -> None:
    """Walls and Rubble Tokens: "Any character may move through a wall where there is a
    Rubble token"; when it is moved off, "the wall once again becomes an obstruction"."""
    b = board(
        "+-+-+-+",
        "|. .|.|",
        "+   + +",
        "|. .|.|",
        "+-+-+-+",
    )
    a, bb = b.square(1, 0), b.square(2, 0)
    assert bb not in b.steps(a)
    opened = b.with_rubble(frozenset({Rubble.on_edge(a, bb)}))
    assert bb in opened.steps(a)
    assert g.can_see(opened, a, bb, ())
    assert b.square(2, 1) not in opened.steps(b.square(1, 1))  # the rest of the wall stays
    assert opened.with_rubble(frozenset()) is b  # token moved off: the printed wall
    assert bb not in b.steps(a)
    assert b.with_rubble(frozenset({Rubble.on_edge(bb, a)})) is opened  # cached
    # the wall's middle end point (2, 1) still holds the lower section: no diagonal
    assert b.square(2, 1) not in opened.steps(a)


def test_rubble_where_four_corners_meet_removes_the_wall_from_all_four_squares() -> None:
    """Walls and Rubble Tokens: "Where four corners meet, in which case, there is no
    longer a wall there from any of the four squares"."""
    b = board(
        "+-+-+-+-+",
        "|. . . .|",
        "+   +   +",
        "|. .|. .|",
        "+ +-+-+ +",
        "|. .|. .|",
        "+   +   +",
        "|. . . .|",
        "+-+-+-+-+",
    )
    nw, ne, sw, se = b.square(1, 1), b.square(2, 1), b.square(1, 2), b.square(2, 2)
    assert not set(b.steps(nw)) & {ne, sw, se}
    opened = b.with_rubble(frozenset({Rubble.on_point(2, 2)}))
    assert {ne, sw, se} <= set(opened.steps(nw))
    assert {nw, ne, sw} <= set(opened.steps(se))
    assert g.can_see(opened, nw, se, ())
    assert (2, 2) not in opened.obstructed_points
    # the four wall sections' far ends no longer hold any wall
    assert (2, 1) not in opened.obstructed_points and (1, 2) not in opened.obstructed_points


def test_rubble_cannot_open_the_border_of_a_blocked_area() -> None:
    """Walls and Rubble Tokens: "the borders of fully enclosed areas of a map are not
    considered walls"; and a Rubble token goes on a wall."""
    b = board(
        "+-+-+-+",
        "|. .|#|",
        "+ + +-+",
        "|. . .|",
        "+-+-+-+",
    )
    with pytest.raises(ValueError, match="blocked"):
        b.with_rubble(frozenset({Rubble.on_edge(b.square(1, 0), b.square(2, 0))}))
    with pytest.raises(ValueError, match="blocked"):
        b.with_rubble(frozenset({Rubble.on_point(2, 1)}))
    with pytest.raises(ValueError, match="no wall"):
        b.with_rubble(frozenset({Rubble.on_edge(b.square(0, 0), b.square(1, 0))}))
    # a lone post where four corners meet can be opened
    assert (1, 1) not in b.with_rubble(frozenset({Rubble.on_point(1, 1)})).obstructed_points


# -- the outside ring (FAQ) ------------------------------------------------------


def test_tokens_outside_the_edge_move_on_an_extra_ring_of_squares() -> None:
    """FAQ "How do tokens outside of the edge of the board work?": an extra row of
    squares around the edge; things on the board may not enter or see them; moving
    round the corners is allowed, the corners always unobstructed."""
    b = open_board(3, 2)
    ring = g.ring_squares(b)
    assert len(ring) == len(set(ring)) == 2 * (3 + 2) + 4
    assert all(not b.on_board(x, y) for x, y in ring)
    assert all(-1 <= x <= 3 and -1 <= y <= 2 for x, y in ring)
    assert set(g.ring_steps(b, (-1, -1))) == {(0, -1), (-1, 0)}
    assert set(g.ring_steps(b, (-1, 0))) == {(-1, -1), (-1, 1), (0, -1)}
    assert set(g.ring_steps(b, (1, -1))) == {(0, -1), (2, -1)}
    with pytest.raises(ValueError):
        g.ring_steps(b, (1, 1))
    # nothing on the board reaches or sees a ring square: no board square stands for one
    everything = set(b.squares)
    assert g.visible_squares(b, 0, ()) <= everything
    assert set(b.steps(0)) <= everything
