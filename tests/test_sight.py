"""What Your Character Can See (rules 1-4), Adjacency, Obscured Terrain, Elusive
Trickster, and Range (Number) Challenge (Number): each rule on a small map.

Maps are written in the map file format (spec/map-format.md); squares are [x, y]
from the top-left. Sight is read as spec/rules-query.md fixes it.
"""

from __future__ import annotations

from funkoverse.rules.core import geometry as g
from funkoverse.rules.core.board import Board
from funkoverse.rules.core.pieces import Kind
from small_maps import DARK, LIGHT, P, board, open_board, put, xy_set


def sees(b: Board, viewer: P, x: int, y: int, pieces: list[P]) -> bool:
    assert viewer.square is not None
    return g.can_see(b, viewer.square, b.square(x, y), g.sight_blockers(viewer, pieces, b))


# -- rule 1 ------------------------------------------------------------------

WALL_BETWEEN = (
    "+-+-+-+-+-+",
    "|. . . . .|",
    "+   +     +",
    "|. .|. . .|",
    "+   +     +",
    "|. . . . .|",
    "+-+-+-+-+-+",
)


def test_rule_1_a_wall_between_them_neither_sees_the_other() -> None:
    """What Your Character Can See, rule 1: "Ally A and rival Z cannot see each other"."""
    b = board(*WALL_BETWEEN)
    a = put(b, "A", DARK, 1, 1)
    z = put(b, "Z", LIGHT, 2, 1)
    pieces = [a, z]
    assert not sees(b, a, 2, 1, pieces)
    assert not sees(b, z, 1, 1, pieces)
    assert not g.can_see_piece(b, a, z, pieces)
    assert sees(b, a, 1, 0, pieces)  # the square beside, with no wall between, is seen


SHORT_WALL = (
    "+-+-+-+-+-+",
    "|. .|. . .|",
    "+   +     +",
    "|. . . . .|",
    "+-+-+-+-+-+",
)


def test_rule_1_ally_a_sees_rival_z_but_not_rival_y() -> None:
    """Rule 1 example: "Ally A can see rival Z but not rival Y": the wall cuts the
    line to Y and not the line to Z."""
    b = board(*SHORT_WALL)
    a, z, y = put(b, "A", DARK, 0, 1), put(b, "Z", LIGHT, 3, 1), put(b, "Y", LIGHT, 2, 0)
    pieces = [a, z, y]
    assert g.can_see_piece(b, a, z, pieces)
    assert not g.can_see_piece(b, a, y, pieces)


def test_rule_1_a_line_touching_the_end_of_a_wall_is_interrupted() -> None:
    """Rule 1 with walls as closed segments (rules-query.md): the line from [0, 1] to
    [3, 0] passes exactly through the wall's lower end, grid point (2, 1)."""
    b = board(*SHORT_WALL)
    a = put(b, "A", DARK, 0, 1)
    assert not sees(b, a, 3, 0, [a])
    assert sees(b, a, 4, 0, [a])  # passes beside the end, not through it


def test_rule_1_an_obstructed_corner_blocks_a_diagonal_line() -> None:
    """Rule 1, "This includes obstructions on the corner of squares": a lone post."""
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
    assert not sees(b, a, 1, 1, [a])
    assert not sees(b, a, 2, 2, [a])  # the same corner, farther along the diagonal
    assert sees(b, a, 2, 1, [a])  # a line that misses the post


# -- rule 2 ------------------------------------------------------------------


def test_rule_2_a_standing_rival_blocks_the_view_past_its_square() -> None:
    """Rule 2: "Ally A cannot see ally B because the rival Basic Character is blocking
    their view"; A still sees the rival's own square."""
    b = open_board(6, 3)
    a, x, bb = (
        put(b, "A", DARK, 0, 1),
        put(b, "X", LIGHT, 2, 1, kind=Kind.BASIC),
        put(b, "B", DARK, 4, 1),
    )
    pieces = [a, x, bb]
    assert not sees(b, a, 4, 1, pieces)
    assert sees(b, a, 2, 1, pieces)
    assert not g.can_see_piece(b, a, bb, pieces)


def test_rule_2_a_knocked_down_rival_does_not_block() -> None:
    """Rule 2 example: "Rival Z is knocked down, so ally A can see ally B. Ally A cannot
    see the rival Basic Character because rival Y is blocking their view"."""
    b = open_board(5, 5)
    a = put(b, "A", DARK, 0, 0)
    z = put(b, "Z", LIGHT, 1, 0, standing=False)
    bb = put(b, "B", DARK, 2, 0)
    y = put(b, "Y", LIGHT, 1, 1)
    x = put(b, "X", LIGHT, 3, 3, kind=Kind.BASIC)
    pieces = [a, z, bb, y, x]
    assert g.can_see_piece(b, a, bb, pieces)
    assert not g.can_see_piece(b, a, x, pieces)


def test_rule_2_a_rival_hidden_behind_a_wall_does_not_block() -> None:
    """Rules 1 and 2 example: "Ally A can see the rival Basic Character. Rival Z would
    normally block its view of that square, but ... ally A cannot see rival Z"."""
    b = board(
        "+-+-+-+-+-+-+",
        "|. . . . . .|",
        "+ +-+       +",
        "|. . . . . .|",
        "+           +",
        "|. . . . . .|",
        "+-+-+-+-+-+-+",
    )
    a, z, x = (
        put(b, "A", DARK, 0, 0),
        put(b, "Z", LIGHT, 2, 1),
        put(b, "X", LIGHT, 4, 1, kind=Kind.BASIC),
    )
    pieces = [a, z, x]
    assert not g.can_see_piece(b, a, z, pieces)
    assert z.square in b.sight_from(a.square or 0).between[x.square or 0]  # Z is on the line
    assert g.can_see_piece(b, a, x, pieces)


def test_rule_2_a_rival_hidden_behind_another_rival_does_not_block() -> None:
    """Rule 2 read literally (rules-query.md): rival X2 is on the line from A to [4, 2],
    but rival X1 hides X2 from A, so X2 does not block; X1 is not on that line."""
    b = open_board(6, 4)
    a = put(b, "A", DARK, 0, 0)
    x1, x2 = put(b, "X1", LIGHT, 2, 2), put(b, "X2", LIGHT, 3, 2)
    pieces = [a, x1, x2]
    assert not sees(b, a, 3, 2, pieces)
    assert sees(b, a, 4, 2, pieces)
    assert (4, 2) in xy_set(b, g.visible_squares(b, a.square or 0, {x1.square, x2.square}))


def test_rule_2_a_rival_hidden_in_obscured_terrain_does_not_block() -> None:
    """Rule 2 read literally: the obscured square [2, 2] hides rival X from A, so X does
    not block the line to [4, 2], which misses the obscured square."""
    b = open_board(6, 4, terrain="......\n......\n..O...\n......")
    a, x = put(b, "A", DARK, 0, 0), put(b, "X", LIGHT, 3, 2)
    pieces = [a, x]
    assert not sees(b, a, 3, 2, pieces)
    assert sees(b, a, 4, 2, pieces)


def test_rule_2_only_pieces_that_block_as_characters_do() -> None:
    """Rule 2 and the Glossary: minions, companions and bonus objectives block as
    characters do; tokens and markers "do not block what a character can see"."""
    b = open_board(6, 3)
    a = put(b, "A", DARK, 0, 1)
    for kind, blocks in [
        (Kind.MINION, True),
        (Kind.COMPANION, True),
        (Kind.BONUS_OBJECTIVE, True),
        (Kind.TOKEN, False),
        (Kind.MARKER, False),
    ]:
        x = put(b, "X", LIGHT, 2, 1, kind=kind, defense=1)
        assert sees(b, a, 4, 1, [a, x]) is not blocks, kind


# -- rule 3 ------------------------------------------------------------------


def test_rule_3_an_ally_never_blocks() -> None:
    """Rule 3: "Ally A can see rival Z through the square occupied by ally B"."""
    b = open_board(6, 3)
    a, bb, z = put(b, "A", DARK, 0, 1), put(b, "B", DARK, 2, 1), put(b, "Z", LIGHT, 4, 1)
    pieces = [a, bb, z]
    assert g.can_see_piece(b, a, z, pieces)
    assert g.sight_blockers(a, pieces, b) == {z.square}


# -- rule 4 ------------------------------------------------------------------


def test_rule_4_rivals_beside_a_corner_the_line_passes_do_not_block() -> None:
    """Rule 4: "Ally A can see ally B because rivals Y and Z do not block the sight line
    that passes through where corners meet"."""
    b = open_board(5, 5)
    a, bb = put(b, "A", DARK, 0, 0), put(b, "B", DARK, 2, 2)
    y, z = put(b, "Y", LIGHT, 1, 0), put(b, "Z", LIGHT, 0, 1)
    assert g.can_see_piece(b, a, bb, [a, bb, y])
    assert g.can_see_piece(b, a, bb, [a, bb, y, z])
    # but a rival in a square the line passes through does block
    w = put(b, "W", LIGHT, 1, 1)
    assert not g.can_see_piece(b, a, bb, [a, bb, w])


# -- visible_squares agrees with can_see -------------------------------------


def test_visible_squares_is_every_square_can_see_allows_own_included() -> None:
    """visible_squares (rules-query.md): every square the viewer can see, its own too."""
    b = board(
        "+-+-+-+-+-+-+",
        "|. . . . . .|",
        "+ +-+ +-+   +",
        "|. . .|#|. .|",
        "+     +-+   +",
        "|. . . . . .|",
        "+   +       +",
        "|. . . . . .|",
        "+-+-+-+-+-+-+",
    )
    pieces = [
        put(b, "A", DARK, 1, 2),
        put(b, "X", LIGHT, 2, 2),
        put(b, "Y", LIGHT, 4, 3),
        put(b, "Z", LIGHT, 4, 0, standing=False),
        put(b, "B", DARK, 1, 3),
    ]
    for viewer in pieces:
        assert viewer.square is not None
        blockers = g.sight_blockers(viewer, pieces, b)
        seen = g.visible_squares(b, viewer.square, blockers)
        assert viewer.square in seen
        assert seen == {s for s in b.squares if g.can_see(b, viewer.square, s, blockers)}
    assert b.square(3, 1) not in seen  # a blocked square is never seen


# -- Adjacency ---------------------------------------------------------------

ADJACENCY = (
    "+-+-+-+-+",
    "|. . . .|",
    "+   +   +",
    "|. .|. .|",
    "+   +   +",
    "|. . . .|",
    "+   +   +",
    "|. . . .|",
    "+-+-+-+-+",
)


def test_adjacency_beside_or_diagonal_and_seen_own_square_included() -> None:
    """Adjacency, Obstructions and Adjacency: the wall at [1, 1]|[2, 1] ends at the
    corner (2, 2) and a post stands at (2, 3): A in [1, 2] is not adjacent to [2, 1]
    or [2, 3], but is adjacent to its own square."""
    b = board(*ADJACENCY)
    a = b.square(1, 2)
    near = g.adjacent_squares(b, a)
    assert xy_set(b, near) == {(0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (1, 3), (2, 2)}
    assert list(near) == sorted(near)
    assert g.is_adjacent(b, a, a)
    assert not g.is_adjacent(b, a, b.square(2, 1))
    assert not g.is_adjacent(b, b.square(2, 1), a)
    assert not g.is_adjacent(b, a, b.square(3, 2))  # two squares away


def test_adjacency_rivals_do_not_cut_it() -> None:
    """Adjacency needs sight, but a rival never stands between beside squares, and rival
    squares at a diagonal's corner do not block (rule 4)."""
    b = open_board(3, 3)
    a = b.square(0, 0)
    rivals = {b.square(1, 0), b.square(0, 1)}
    assert b.square(1, 1) in g.adjacent_squares(b, a)
    assert g.can_see(b, a, b.square(1, 1), rivals)


def test_adjacency_a_wall_beside_is_not_adjacent() -> None:
    """Obstructions and Adjacency: "Ally A is adjacent to rival Z, but it is not adjacent
    to rival Y" (a wall between)."""
    b = board(*WALL_BETWEEN)
    a = b.square(1, 1)
    assert g.is_adjacent(b, a, b.square(1, 0))
    assert not g.is_adjacent(b, a, b.square(2, 1))


# -- Within a Number of Squares ----------------------------------------------


def test_within_a_number_of_squares_counts_king_moves_ignoring_walls_and_pieces() -> None:
    """Glossary "Within a Number of Squares": count as for movement, but ignore
    obstructions and anything that would block sight."""
    b = board(*WALL_BETWEEN)
    assert b.distance(b.square(1, 1), b.square(2, 1)) == 1  # through the wall
    assert b.distance(b.square(0, 0), b.square(4, 2)) == 4  # diagonal steps count 1
    assert b.distance(b.square(0, 2), b.square(3, 0)) == 3
    assert b.distance(b.square(2, 2), b.square(2, 2)) == 0


# -- Obscured Terrain --------------------------------------------------------

OBSCURED_MIDDLE = "......\n..O...\n......"


def test_obscured_terrain_is_not_seen_unless_adjacent() -> None:
    """Obscured Terrain, first rule: "Characters that are not adjacent to a square with
    Obscured terrain cannot see that square"."""
    b = open_board(6, 3, terrain=OBSCURED_MIDDLE)
    far, near, diag = b.square(0, 1), b.square(1, 1), b.square(1, 0)
    target = b.square(2, 1)
    assert not g.can_see(b, far, target, ())
    assert g.can_see(b, near, target, ())
    assert g.can_see(b, diag, target, ())
    assert g.can_see(b, target, target, ())


def test_obscured_terrain_blocks_sight_through_it() -> None:
    """Obscured Terrain, second rule: it "blocks sight through its squares as if it were
    a standing rival character", for allies' lines too; from inside, a character sees
    out."""
    b = open_board(6, 3, terrain=OBSCURED_MIDDLE)
    assert not g.can_see(b, b.square(0, 1), b.square(4, 1), ())
    assert not g.can_see(b, b.square(1, 1), b.square(3, 1), ())  # adjacent to it, still
    assert g.can_see(b, b.square(2, 1), b.square(5, 1), ())  # inside sees out


def test_obscured_terrain_touched_only_at_a_corner_does_not_block() -> None:
    """Obscured Terrain example: "ally Z can see rival C, because their sight line passes
    through the corner of the square" (rule 4)."""
    b = open_board(4, 4, terrain="....\nO...\n....\n....")
    assert g.can_see(b, b.square(0, 0), b.square(2, 2), ())  # touches [0, 1] at (1, 1)
    assert not g.can_see(b, b.square(0, 0), b.square(0, 2), ())  # through [0, 1]


# -- Elusive Trickster -------------------------------------------------------


def test_elusive_trickster_sight_only_while_adjacent() -> None:
    """Elusive Trickster: "Rivals can only see the Invisible Man while they are adjacent
    to him"; allies see him as usual."""
    b = open_board(6, 3)
    inv = put(b, "I", LIGHT, 3, 1, elusive=True)
    far, near = put(b, "A", DARK, 0, 1), put(b, "N", DARK, 2, 1)
    ally = put(b, "L", LIGHT, 5, 2)
    pieces = [inv, far, near, ally]
    assert not g.can_see_piece(b, far, inv, pieces)
    assert g.can_see_piece(b, near, inv, pieces)
    assert g.can_see_piece(b, ally, inv, pieces)


def test_elusive_trickster_blocks_only_a_rival_beside_him() -> None:
    """rules-query.md: a rival Invisible Man more than one square away does not block a
    rival's sight (rule 2 asks for "a standing rival you can see"); beside, he does."""
    b = open_board(6, 3)
    inv = put(b, "I", LIGHT, 2, 1, elusive=True)
    far, near = put(b, "A", DARK, 0, 1), put(b, "N", DARK, 1, 1)
    assert sees(b, far, 4, 1, [inv, far])
    assert not sees(b, near, 4, 1, [inv, near])
    # without the board, can_see finishes the decision from the viewer's square
    loose = g.sight_blockers(far, [inv, far])
    assert g.can_see(b, far.square or 0, b.square(4, 1), loose)
    assert g.visible_squares(b, far.square or 0, loose) == g.visible_squares(b, far.square or 0, ())
    loose = g.sight_blockers(near, [inv, near])
    assert not g.can_see(b, near.square or 0, b.square(4, 1), loose)


def test_elusive_trickster_is_a_target_only_from_an_adjacent_square() -> None:
    """Elusive Trickster, FAQ: rivals not adjacent to him cannot use ranged attacks
    against him."""
    b = open_board(6, 3)
    a = put(b, "A", DARK, 0, 1)
    inv = put(b, "I", LIGHT, 3, 1, elusive=True)
    z = put(b, "Z", LIGHT, 0, 2)
    assert [p.id for p in g.challenge_targets(b, a, [a, inv, z], 3)] == ["Z"]
    near = put(b, "A", DARK, 2, 1)
    assert [p.id for p in g.challenge_targets(b, near, [near, inv, z], 3)] == ["I", "Z"]
    assert [p.id for p in g.challenge_targets(b, near, [near, inv, z], None)] == ["I"]


# -- Challenges: who can be targeted ------------------------------------------


def test_range_challenge_needs_the_target_seen_and_within_range() -> None:
    """Range (Number) Challenge (Number): "Rival Y is also in range but cannot be
    challenged because an obstruction blocks ally A from seeing them"."""
    b = board(*SHORT_WALL)
    a = put(b, "A", DARK, 0, 1)
    z, y = put(b, "Z", LIGHT, 3, 1), put(b, "Y", LIGHT, 2, 0)
    far = put(b, "F", LIGHT, 4, 0)  # its line crosses Y's square, but A cannot see Y
    pieces = [a, z, y, far]
    assert [p.id for p in g.challenge_targets(b, a, pieces, 3)] == ["Z"]
    assert [p.id for p in g.challenge_targets(b, a, pieces, 4)] == ["F", "Z"]


def test_range_challenge_a_rival_behind_a_rival_is_not_seen() -> None:
    """Range challenges need sight, and rule 2 applies: Y behind rival X is hidden."""
    b = open_board(6, 3)
    a, x, y = put(b, "A", DARK, 0, 1), put(b, "X", LIGHT, 2, 1), put(b, "Y", LIGHT, 4, 1)
    assert [p.id for p in g.challenge_targets(b, a, [a, x, y], 5)] == ["X"]


def test_adjacent_challenge_targets_only_adjacent_rivals() -> None:
    """Challenge (Number) and FAQ "What if a challenge doesn't have a range?": targets
    must be adjacent; a wall between beside squares means not adjacent."""
    b = board(*WALL_BETWEEN)
    a = put(b, "A", DARK, 1, 1)
    beside, walled = put(b, "Z", LIGHT, 1, 0), put(b, "Y", LIGHT, 2, 1)
    two_away = put(b, "X", LIGHT, 3, 1)
    pieces = [a, beside, walled, two_away]
    assert [p.id for p in g.challenge_targets(b, a, pieces, None)] == ["Z"]


def test_challenge_targets_rivals_knocked_down_or_not_and_tokens_with_a_defense() -> None:
    """Challenges: "You cannot challenge an ally"; knocked-down rivals can be challenged
    (Knocked Out); "Challenging a Token or Minion Token or Marker": only with a
    defense."""
    b = open_board(4, 3)
    a = put(b, "A", DARK, 1, 1)
    pieces = [
        a,
        put(b, "ally", DARK, 0, 0),
        put(b, "down", LIGHT, 1, 0, standing=False),
        put(b, "minion", LIGHT, 2, 0, kind=Kind.MINION),
        put(b, "comp", LIGHT, 2, 2, kind=Kind.COMPANION),
        put(b, "tok", LIGHT, 0, 1, kind=Kind.TOKEN),
        put(b, "tokdef", LIGHT, 0, 2, kind=Kind.TOKEN, defense=1),
        put(b, "mark", LIGHT, 1, 1, kind=Kind.MARKER, defense=2),  # in A's own square
        put(b, "allytok", DARK, 2, 1, kind=Kind.TOKEN, defense=1),
    ]
    got = [p.id for p in g.challenge_targets(b, a, pieces, None)]
    assert got == ["comp", "down", "mark", "minion", "tokdef"]
