"""The agents: legal, deterministic, explained, and right where the answer is not in doubt."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

from funkoverse.ai.agents import AGENTS, Agent, RandomAgent
from funkoverse.ai.arena import play
from funkoverse.ai.expectimax import ExpectimaxAgent
from funkoverse.ai.greedy import GreedyAgent
from funkoverse.ai.kernel import Evaluator
from funkoverse.ai.simple import SimpleAgent
from funkoverse.ai.tables import walks
from funkoverse.ai.weights import FITTED, NEXT_TURNS, Weights
from funkoverse.content.scenarios import scenario
from funkoverse.content.setups import first_game
from funkoverse.rules.core.choices import Choice, Skip
from funkoverse.rules.core.dice import win_probability
from funkoverse.rules.core.state import CHANCE, GameState, Setup
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from funkoverse.rules.session import Session
from funkoverse.rules.turn import Turn
from positions import board, editing, position

# the readings of the evaluation no level plays with, set here to pin what each reads
FLAG_ROUNDS = Weights(race=False, flag_rounds=(0.5, 0.75))
ROUND_END = Weights(race=False, flag_return=(0.7, 0.35, 0.15))


def _p_win(state: GameState, dice: int, defense: int) -> float:
    """The exact chance that `dice` standard dice beat `defense` standard dice."""
    die = state.setup.dice["standard"]
    return float(win_probability([die] * dice, [die] * defense))


def _simple(seed: int) -> Agent:
    return SimpleAgent(seed)


def _greedy(seed: int) -> Agent:
    return GreedyAgent(seed)


def _small_expectimax(seed: int) -> Agent:
    return ExpectimaxAgent(seed, depth=2, width=1)


SMALL = {"expectimax": _small_expectimax}


def _decide(agent: Agent, game: Game) -> Choice:
    """The agent's choice in the game's position as it stands."""
    state = game.state
    return agent.choose(state, engine.choices(state))


class _Checked:
    """Wraps an agent and asserts each of its answers is one of the legal choices."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.decisions = 0

    def decide(self, turn: Turn) -> Choice:
        legal = engine.choices(turn.view)
        assert list(turn.choices) == legal
        choice = self.agent.decide(turn)
        assert choice in legal, f"{self.name} chose {choice!r}, not in {legal}"
        self.decisions += 1
        return choice

    def explain(self, turn: Turn, top: int = 3) -> list[tuple[Choice, float]]:
        return self.agent.explain(turn, top)

    def choose(self, state: GameState, choices: Sequence[Choice]) -> Choice:
        return self.decide(Turn.of(state, choices))


def _log(make: object, seed: int, rounds: int = 3) -> list[str]:
    assert callable(make)
    session = Session(first_game(), seed)
    play(session, {"dark": make(seed), "light": RandomAgent(seed + 1)}, rounds)
    return [e.choice for e in session.entries]


# ------------------------------------------------------------------ the registry


def test_every_level_and_agent_is_registered() -> None:
    for name in ("random", "simple", "greedy", "expectimax", "easy", "normal", "hard", "expert"):
        assert name in AGENTS
        agent = AGENTS[name](1)
        assert agent.name
        assert callable(agent.choose) and callable(agent.explain)


# ------------------------------------------------------------------ legality


@pytest.mark.parametrize(
    ("dark", "light", "games"),
    [
        (_greedy, RandomAgent, 60),
        (_simple, RandomAgent, 40),
        (_small_expectimax, RandomAgent, 40),
        (_simple, _greedy, 20),
        (_small_expectimax, _greedy, 20),
        (AGENTS["easy"], _simple, 20),
    ],
    ids=[
        "greedy-random",
        "simple-random",
        "expectimax-random",
        "simple-greedy",
        "expectimax-greedy",
        "easy-simple",
    ],
)
def test_agents_only_make_legal_choices(dark: object, light: object, games: int) -> None:
    assert callable(dark) and callable(light)
    total = 0
    for seed in range(games):
        session = Session(first_game(), 1000 + seed)
        a, b = _Checked(dark(seed)), _Checked(light(seed + 7))
        sides = {"dark": a, "light": b} if seed % 2 else {"dark": b, "light": a}
        play(session, sides, max_rounds=4)
        total += a.decisions + b.decisions
    assert total > games * 10


# Thousands of whole games, greedy (the kernel's search) against the simple agent (rules of
# thumb on the Python engine), both checked at every decision. The first game of DC Comics 102
# with its fixed teams and with teams drawn at random take turns.
LEGALITY_CHUNKS = 40
LEGALITY_GAMES = 50  # per chunk: 2,000 games in all
LEGALITY_SETUPS = (None, "first-knockout")


@pytest.mark.parametrize("chunk", range(LEGALITY_CHUNKS))
def test_greedy_and_simple_never_choose_an_illegal_choice_in_thousands_of_games(chunk: int) -> None:
    from funkoverse.ai.arena import build_setup

    finished = 0
    for n in range(LEGALITY_GAMES):
        seed = chunk * LEGALITY_GAMES + n
        setup = build_setup(LEGALITY_SETUPS[seed % len(LEGALITY_SETUPS)], None, None, seed, 2)
        session = Session(setup, 50_000 + seed)
        greedy, simple = _Checked(GreedyAgent(seed)), _Checked(SimpleAgent(seed))
        pair = (greedy, simple) if seed % 2 else (simple, greedy)
        sides = dict(zip(session.seats, pair, strict=True))
        stopped = play(session, sides, max_rounds=30)
        assert greedy.decisions > 0 and simple.decisions > 0
        finished += not stopped and session.over
    assert finished >= LEGALITY_GAMES * 0.9  # whole games, not a few opening turns


# ------------------------------------------------------------------ determinism


@pytest.mark.parametrize("name", ["random", "simple", "easy", "greedy", "expectimax"])
def test_same_seed_same_choices(name: str) -> None:
    make = SMALL.get(name, AGENTS[name])
    assert _log(make, 5) == _log(make, 5)


def test_the_seed_matters_to_the_random_agent() -> None:
    assert _log(RandomAgent, 5) != _log(RandomAgent, 6)


# ------------------------------------------------------------------ explain


@pytest.mark.parametrize("name", ["random", "simple", "easy", "greedy", "expectimax", "hard"])
def test_explain_returns_values_best_first(name: str) -> None:
    make = SMALL.get(name, AGENTS[name])
    game = position(
        dark={"priestess": "b2", "mad-scientist": "a1"},
        light={"villager": "c3", "hyena-warrior": "f6"},
    )
    game.play("choose:priestess")
    state = game.state
    choices = engine.choices(state)
    hint = make(3).explain(Turn.of(state, choices), top=3)
    assert 1 <= len(hint) <= 3
    values = [v for _, v in hint]
    assert values == sorted(values, reverse=True)
    assert all(c in choices for c, _ in hint)
    assert all(0.0 <= v <= 1.0 for v in values)


# ------------------------------------------------------------------ positions with one right answer


def _turn(agent: Agent, game: Game, side: str) -> list[str]:
    """The agent's choices until its side's turn ends (chance outcomes drawn by the game)."""
    taken = []
    start = game.state.turns
    while not game.over and game.state.turns == start:
        state = game.state
        decider = engine.decider(state)
        if decider == CHANCE:
            game.play_chance()
            continue
        assert decider == side
        choice = _decide(agent, game)
        taken.append(choice.format())
        game.play(choice)
    return taken


SEARCHERS = {
    "greedy": lambda seed: GreedyAgent(seed),
    "hard": AGENTS["hard"],
    "expert": AGENTS["expert"],
    # a budget so small that it binds: each first choice still gets its share of the search
    "hard-200": lambda seed: GreedyAgent(
        seed, evaluator=Evaluator(FITTED), beam=6, turn_budget=200
    ),
    # the end of the round read as the rules decide the game: a point now that wins it is worth
    # more than one a later turn may take
    "hard-race": lambda seed: GreedyAgent(
        seed,
        evaluator=Evaluator(dataclasses.replace(FITTED, round_race=True)),
        beam=6,
        turn_budget=2000,
    ),
}


@pytest.mark.parametrize("name", list(SEARCHERS))
def test_challenges_a_knocked_down_rival_alongside(name: str) -> None:
    """A knock-out wins the first game: the knocked-down villager beside the priestess is
    challenged (twice if need be), not walked away from."""
    game = position(
        dark={"priestess": "b2", "mad-scientist": "a1"},
        light={"villager": "c3", "hyena-warrior": "f6"},
        knocked_down=["villager"],
    )
    agent = SEARCHERS[name](1)
    assert _decide(agent, game).format() == "choose:priestess"
    game.play("choose:priestess")
    assert _decide(agent, game).format() == "challenge:villager"


@pytest.mark.parametrize("name", list(SEARCHERS))
def test_rallies_beside_a_standing_rival(name: str) -> None:
    """Knocked down next to a standing rival with no ally in reach: stand up (rally) rather
    than leave the priestess to two challenges at 73% to be knocked out."""
    game = position(
        dark={"priestess": "b3", "mad-scientist": "f1"},
        light={"villager": "c4", "hyena-warrior": "f6"},
        knocked_down=["priestess"],
    )
    agent = SEARCHERS[name](2)
    taken = _turn(agent, game, "dark")
    assert taken == ["choose:priestess", "rally"]


@pytest.mark.parametrize("name", list(SEARCHERS))
def test_stands_up_a_knocked_down_ally(name: str) -> None:
    """The priestess lies beside a standing villager; the mad scientist is next to her: by
    the end of dark's turn she is standing, by rally or by assist."""
    game = position(
        dark={"priestess": "c3", "mad-scientist": "b2"},
        light={"villager": "c4", "hyena-warrior": "f6"},
        knocked_down=["priestess"],
    )
    agent = SEARCHERS[name](3)
    _turn(agent, game, "dark")
    assert game.state.pieces["priestess"].standing


@pytest.mark.parametrize("name", list(SEARCHERS))
def test_goes_for_the_knock_out_with_a_move_and_a_challenge(name: str) -> None:
    """A knocked-down rival two squares away: move beside it and challenge."""
    game = position(
        dark={"priestess": "b1", "mad-scientist": "a1"},
        light={"villager": "d3", "hyena-warrior": "f6"},
        knocked_down=["villager"],
    )
    agent = SEARCHERS[name](4)
    game.play(_decide(agent, game))
    first = _decide(agent, game)
    assert first.format().startswith("move:")
    game.play(first)
    assert _decide(agent, game).format() == "challenge:villager"


@pytest.mark.parametrize("name", list(SEARCHERS))
def test_grabs_the_last_point_marker(name: str) -> None:
    """Flags with two characters a side is won at 6 points; at 5, the point marker two squares
    from the priestess is the game: move beside it and interact ("immediately gain a point"),
    rather than challenge the standing villager alongside."""
    game = position(
        dark={"priestess": "b2", "mad-scientist": "a1"},
        light={"villager": "b3", "hyena-warrior": "f6"},
        b=board(points={"A": "d3"}),
        scenario=scenario("flags"),
    )
    with editing(game) as s:
        s.sides["dark"].points = 5
    taken = _turn(SEARCHERS[name](5), game, "dark")
    assert "interact:point-A" in taken
    assert game.state.sides["dark"].points == 6


@pytest.mark.parametrize("name", list(SEARCHERS))
def test_does_not_leave_an_ally_to_a_likely_knock_out(name: str) -> None:
    """The knocked-down priestess has had her turn this round and lies beside two standing
    rivals: left there, both take their turns before she can stand, four challenges at
    103/216 each, a 92.5% knock-out that wins them the first game. The mad scientist walks
    over and stands her up (assist) instead of staying away."""
    game = position(
        dark={"priestess": "c3", "mad-scientist": "a1"},
        light={"villager": "c4", "hyena-warrior": "d3"},
        knocked_down=["priestess"],
    )
    with editing(game) as s:
        s.pieces["priestess"].exhausted = True
    p = 103 / 216
    assert 1 - (1 - p) ** 4 > 0.9
    _turn(SEARCHERS[name](6), game, "dark")
    assert game.state.pieces["priestess"].standing


def test_the_evaluator_sees_a_won_game_and_sums_to_one() -> None:
    ev = Evaluator()
    game = position(
        dark={"priestess": "b2", "mad-scientist": "a1"},
        light={"villager": "c3", "hyena-warrior": "f6"},
        knocked_down=["villager"],
    )
    values = ev.values(game.state)
    assert abs(sum(values) - 1.0) < 1e-9
    assert values[0] > 0.7  # dark to play beside a knocked-down rival
    game.play("choose:priestess")
    game.play("challenge:villager")
    game.play("roll:win")
    assert game.state.winner == "dark"
    assert ev.values(game.state) == (1.0, 0.0)


FLAG_ROWS = ("......", "....D.", "......", "......", ".L....", "......")  # flags e2 and b5


def test_the_round_end_evaluation_counts_a_character_beside_the_rival_flag() -> None:
    """Flags: "When a round ends ... standing characters ... on or adjacent to your opponent's
    flag marker" may return for 2 points. The hard level's evaluation counts them; the basic
    one only sees the distance to an objective."""
    import dataclasses

    flagged = dataclasses.replace(board(), layers={"flags": FLAG_ROWS})

    def dark_value(weights: object, square: str) -> float:
        game = position(
            {"priestess": square, "mad-scientist": "a1"},
            {"villager": "f6", "hyena-warrior": "e6"},
            b=flagged,
            scenario=scenario("flags"),
        )
        assert game.state.pieces["flag-light"].square == game.state.board.parse_label("b5")
        return Evaluator(weights).values(game.state)[0]  # type: ignore[arg-type]

    gain_round_end = dark_value(ROUND_END, "b4") - dark_value(ROUND_END, "f1")
    gain_basic = dark_value(NEXT_TURNS, "b4") - dark_value(NEXT_TURNS, "f1")
    assert gain_round_end > gain_basic + 0.05


def test_the_evaluation_reads_a_turn_whose_active_character_is_off_the_map() -> None:
    """A character knocked out during its own turn leaves the map with actions unspent: the
    next turns are read without it, not from a square it no longer has."""
    game = position(
        dark={"priestess": "b2", "mad-scientist": "a1"},
        light={"villager": "c4", "hyena-warrior": "f6"},
    )
    game.play("choose:priestess")
    state = game.state
    assert state.active == "priestess"
    state.pieces["priestess"].square = None
    values = Evaluator(NEXT_TURNS).values(state)
    assert abs(sum(values) - 1.0) < 1e-9


def _flag_term(weights: object, state: GameState, side: str) -> float:
    """What the Flags round-by-round count adds to a side's score."""
    import dataclasses

    assert isinstance(weights, Weights)
    without = dataclasses.replace(weights, flag_rounds=(0.0, 0.0), flag_return=(0.0, 0.0, 0.0))
    return Evaluator(weights).scores(state)[side] - Evaluator(without).scores(state)[side]


def _her_return(weights: object, state: GameState, piece: str) -> float:
    """What the Flags count adds to a side's score for one of its characters."""
    side = state.pieces[piece].side
    square = state.pieces[piece].square
    with_her = _flag_term(weights, state, side)
    state.pieces[piece].square = None
    without_her = _flag_term(weights, state, side)
    state.pieces[piece].square = square
    return with_her - without_her


def _flags_position(dark: dict[str, str], light: dict[str, str]) -> Game:
    import dataclasses

    flagged = dataclasses.replace(board(), layers={"flags": FLAG_ROWS})
    return position(dark, light, b=flagged, scenario=scenario("flags"))


def test_a_return_this_round_counts_at_the_chance_no_rival_still_to_act_knocks_it_down() -> None:
    """Flags: only a *standing* character by the rival's flag returns when the round ends, so
    the light villager beside the priestess, with its turn still to come, takes from her
    return the chance that one of its two challenges knocks her down; once the villager is
    exhausted, the whole return counts (2 of the 6 points Flags needs with two a side)."""
    game = _flags_position({"priestess": "b4", "mad-scientist": "f1"}, {"villager": "c5"})
    state = game.state
    whole = FLAG_ROUNDS.points * 2 / 6
    priestess = state.pieces["priestess"]
    assert priestess.defense is not None
    miss = 1.0 - _p_win(state, 2, priestess.defense)
    threatened = _her_return(FLAG_ROUNDS, state, "priestess")
    assert abs(threatened - whole * miss**2) < 1e-9
    state.pieces["villager"].exhausted = True
    assert abs(_her_return(FLAG_ROUNDS, state, "priestess") - whole) < 1e-9


def test_a_character_that_has_had_its_turn_waits_a_round_to_return() -> None:
    """A fresh character two moves (one move action) from the rival's flag can still stand
    beside it this round; once exhausted, its return is a round away and counts discounted."""
    game = _flags_position({"priestess": "b2", "mad-scientist": "f1"}, {"villager": "f6"})
    state = game.state
    whole = FLAG_ROUNDS.points * 2 / 6
    assert abs(_her_return(FLAG_ROUNDS, state, "priestess") - whole) < 1e-9
    state.pieces["priestess"].exhausted = True
    discount, later = FLAG_ROUNDS.flag_rounds
    assert abs(_her_return(FLAG_ROUNDS, state, "priestess") - whole * later * discount) < 1e-9


def test_a_turn_never_searches_much_past_its_budget() -> None:
    """The hard and expert levels bound each whole turn by the positions it may generate
    (the thinking-time limits, counted in positions so that they hold on any machine). A
    small budget binds in most turns of a Flags game; past it, a turn stops within one
    decision's choices of it, and still makes only legal choices."""
    from funkoverse.ai.arena import build_setup

    budget = 300
    spent: dict[object, int] = {}

    class Metered(GreedyAgent):
        def rank_turn(self, turn: Turn) -> list[tuple[Choice, float]]:
            ranked = super().rank_turn(turn)
            choices = turn.choices
            spent[self._turn] = spent.get(self._turn, 0) + self.positions
            assert self.positions <= budget + 2 * len(choices) + 60
            return ranked

    session = Session(build_setup("flags", None, None, 4, 3), 4)
    agent = Metered(4, evaluator=Evaluator(FLAG_ROUNDS), beam=6, turn_budget=budget)
    sides = dict(zip(session.seats, (_Checked(agent), _Checked(GreedyAgent(5))), strict=True))
    play(session, sides, max_rounds=3)
    assert len(spent) >= 6
    assert sum(p > budget for p in spent.values()) >= len(spent) // 3
    assert max(spent.values()) <= budget + 400


def _greedy_flags_decisions() -> list[GameState]:
    """The positions of the decisions with more than one choice that one side of a Flags game
    (three characters a side, seed 4) meets in two rounds of greedy against greedy."""
    from funkoverse.ai.arena import build_setup

    states: list[GameState] = []

    class Collect(GreedyAgent):
        def decide(self, turn: Turn) -> Choice:
            if len(turn.choices) > 1:
                states.append(turn.view.copy())
            return super().decide(turn)

    session = Session(build_setup("flags", None, None, 4, 3), 4)
    seats = session.seats
    play(session, {seats[0]: Collect(4), seats[1]: GreedyAgent(5)}, max_rounds=2)
    assert len(states) >= 10
    return states


def test_past_half_its_part_of_the_budget_a_choice_is_finished_one_choice_wide() -> None:
    """A choice that opens a long chain of decisions (tunnels to place, a long ability) can
    spend its part of the budget before its lines reach the end of the turn; what is left
    would then be valued where the budget stopped it, against cheaper choices valued at an
    end of their turn. Past half of its part the beam narrows to one instead: with the same
    positions, far fewer are valued as they stand."""
    states = _greedy_flags_decisions()
    cut: dict[float | None, int] = {}
    spent: dict[float | None, int] = {}
    for narrow in (0.5, None):
        cut[narrow] = spent[narrow] = 0
        for state in states:
            agent = GreedyAgent(4, evaluator=Evaluator(FITTED), beam=6, turn_budget=300)
            agent.narrow = narrow
            agent.rank(state, engine.choices(state))
            cut[narrow] += agent._cuts
            spent[narrow] += agent.positions
    assert cut[None] > 0
    assert cut[0.5] < cut[None] / 2
    assert spent[0.5] <= spent[None] * 1.1


def test_past_half_its_part_of_the_budget_a_two_turn_search_follows_its_best_line() -> None:
    """A two-turn search that the budget cuts gives way to its one-turn values for the whole
    decision. Past half of a choice's part its width and the reply's beam narrow to one, so
    it finishes the two turns along its best line: with the same budget, fewer decisions
    fall back on the one-turn values."""
    states = _greedy_flags_decisions()
    fell_back: dict[float | None, int] = {}
    for narrow in (0.5, None):
        fell_back[narrow] = 0
        for state in states:
            agent = ExpectimaxAgent(
                4,
                depth=2,
                width=(2, 1),
                evaluator=Evaluator(FITTED),
                beam=6,
                reply_beam=2,
                turn_budget=600,
                narrow=narrow,
            )
            agent.rank(state, engine.choices(state))
            fell_back[narrow] += agent._cuts > 0
    assert fell_back[None] > 0
    assert fell_back[0.5] < 0.8 * fell_back[None]


def test_the_search_tables_hold_the_turn_being_decided() -> None:
    """The values a turn's search keeps serve the next decisions of the same turn; once the
    agent's next turn begins they are behind the game and emptied, so the tables stay the
    size of one turn's search."""
    from funkoverse.ai.arena import build_setup

    seen: list[int] = []

    class Watched(ExpectimaxAgent):
        def rank_turn(self, turn: Turn) -> list[tuple[Choice, float]]:
            ranked = super().rank_turn(turn)
            assert self._kernel_search is not None
            search = self._kernel_search[2]
            assert search.evals_size <= self._spent and search.table_size <= self._spent
            seen.append(search.evals_size)
            return ranked

    session = Session(build_setup("flags", None, None, 4, 3), 4)
    agent = Watched(4, depth=2, width=(2, 1), evaluator=Evaluator(FITTED), turn_budget=600)
    sides = dict(zip(session.seats, (_Checked(agent), _Checked(GreedyAgent(5))), strict=True))
    play(session, sides, max_rounds=3)
    assert len(seen) >= 6 and max(seen) > 0
    assert max(seen) <= 4 * 600


def test_the_reply_may_be_searched_with_a_narrower_beam() -> None:
    """The reply is searched at every end of the turn being decided, so its beam multiplies
    the cost of a two-turn search: `reply_beam` narrows it alone (the same beam for both
    turns gives the same values as none), and a narrower one costs fewer positions."""
    from funkoverse.ai.arena import build_setup

    session = Session(build_setup("flags", None, None, 4, 3), 4)
    play(session, {side: GreedyAgent(4) for side in session.seats}, max_rounds=1)
    state = session.state
    assert state.round == 2
    choices = engine.choices(state)
    assert len(choices) > 1
    found = {}
    for reply_beam in (None, 3, 1):
        agent = ExpectimaxAgent(
            4, depth=2, width=1, evaluator=Evaluator(FITTED), beam=3, reply_beam=reply_beam
        )
        found[reply_beam] = (agent.rank(state, choices), agent.positions)
    assert found[3] == found[None]
    assert found[1][1] < found[None][1]


def test_a_character_by_the_rival_flag_returns_when_the_round_end_asks() -> None:
    """Flags: once a side has answered the round end's check ("you may choose to return one or
    more of those characters"), a character it left by the rival's flag returns a round later
    at the earliest. While light still answers for the villager by the dark flag, the
    priestess dark left by the light flag counts as a return a round away, not as points in
    hand, so hard and expert take her 2 points rather than decline them."""
    game = _flags_position({"priestess": "b4", "mad-scientist": "f1"}, {"villager": "e3"})
    for choice in ("choose:priestess", "end", "choose:villager", "end", "choose:mad-scientist"):
        game.play(choice)
    game.play("end")
    state = game.state
    assert engine.decider(state) == "dark"
    assert engine.legal_choices(state) == ["flag:priestess", "skip"]
    for name in ("hard", "expert"):
        ranked = AGENTS[name](3).rank(state, engine.choices(state))
        assert [choice.format() for choice, _ in ranked] == ["flag:priestess", "skip"]
        assert ranked[1][1] < ranked[0][1]
    declined = state.copy()
    engine.apply_unchecked(declined, Skip())
    assert engine.decider(declined) == "light"
    discount, later = FITTED.flag_rounds
    a_round_away = FITTED.flag_scale * FITTED.points * 2 / 6 * later * discount
    assert abs(_her_return(FITTED, declined, "priestess") - a_round_away) < 1e-9


def test_the_threats_count_a_challenge_ability_its_side_has_a_token_for() -> None:
    """The next turns' threats read each character's challenge abilities ("Doing an
    Ability": a token of its type from the pool): Dracula a move away from the villager
    brings Exsanguinate's 5 dice when his side has a might token, and a basic challenge of 2
    when it has none; Wonder Woman's Fight for Justice moves 2 on the way, so a rival two
    move actions off is in reach of its 1 die plus the villager's defense."""
    from funkoverse.rules.core.cards import TokenColor

    game = position({"villager": "c3"}, {"dracula": "c6", "wonder-woman": "a6"})
    state = game.state
    villager = state.pieces["villager"]
    assert villager.defense is not None
    pool = state.sides["light"].pool
    ev = Evaluator(dataclasses.replace(FLAG_ROUNDS, abilities=True))
    pool.clear()
    assert ev.tries(state, "dracula", 2, 1, "villager", True) == [
        _p_win(state, 2, villager.defense)
    ]
    assert ev.tries(state, "wonder-woman", 2, 2, "villager", True) == []
    pool[TokenColor.RED] = 1
    assert ev.tries(state, "dracula", 2, 1, "villager", True) == [
        _p_win(state, 5, villager.defense)
    ]
    assert ev.tries(state, "wonder-woman", 2, 2, "villager", True) == [
        _p_win(state, 1 + villager.defense, villager.defense)
    ]


def test_the_threats_count_a_challenge_item_while_its_card_is_off_the_cooldown_track() -> None:
    """The threats read the challenge items a character holds ("Items": "While an item is
    on the cooldown track, it cannot be used"): Dracula beside the villager with the
    Shovel brings its challenge 4 and then a basic challenge; with the Shovel on his side's
    cooldown track, two basic challenges. The Fishing Net's range 3 reaches a rival a move
    action off, so both actions are challenges; without it, one is spent moving."""
    game = position({"villager": "c3"}, {"dracula": "c6"}, items={"light": [("shovel", "dracula")]})
    state = game.state
    villager, dracula = state.pieces["villager"], state.pieces["dracula"]
    assert villager.defense is not None and dracula.items == ("shovel",)
    state.sides["light"].pool.clear()
    ev = Evaluator(dataclasses.replace(FLAG_ROUNDS, abilities=True))
    basic = _p_win(state, 2, villager.defense)
    assert ev.tries(state, "dracula", 2, 0, "villager", True) == [
        _p_win(state, 4, villager.defense),
        basic,
    ]
    state.sides["light"].track[2].append(("item", "shovel"))
    assert ev.tries(state, "dracula", 2, 0, "villager", True) == [basic, basic]
    dracula.items = ("fishing-net",)
    assert ev.tries(state, "dracula", 2, 1, "villager", True) == [basic, basic]
    dracula.items = ()
    assert ev.tries(state, "dracula", 2, 1, "villager", True) == [basic]


def test_the_fitted_weights_draw_each_character_square_by_square_toward_its_objective() -> None:
    """Flags: the priestess on c3 and on c2 needs as many move actions to stand by the light
    flag, so the rest of the evaluation values both squares alike, and a search would take
    either at random. With `walk`, the square one step nearer is worth one `walk` more; a
    character already beside the flag is drawn no nearer."""

    def dark_score(weights: Weights, square: str) -> float:
        game = _flags_position({"priestess": square, "mad-scientist": "f1"}, {"villager": ""})
        return Evaluator(weights).scores(game.state)["dark"]

    game = _flags_position({"priestess": "c3", "mad-scientist": "f1"}, {"villager": ""})
    b = game.state.board
    table = walks(b)
    flag = b.parse_label("b5")
    c3, c2 = b.parse_label("c3"), b.parse_label("c2")
    assert table.moves[c3][flag] == table.moves[c2][flag] == 1
    assert (table.squares[c3][flag], table.squares[c2][flag]) == (1, 2)
    plain = dataclasses.replace(FITTED, walk=0.0)
    assert dark_score(plain, "c3") == pytest.approx(dark_score(plain, "c2"))
    gain = dark_score(FITTED, "c3") - dark_score(FITTED, "c2")
    assert FITTED.walk > 0 and gain == pytest.approx(FITTED.walk)
    assert table.squares[b.parse_label("b4")][flag] == 0


def test_the_fitted_weights_count_a_flags_return_at_their_share_of_its_points() -> None:
    """hard and expert trust a return that is not yet in hand at `flag_scale` of its points
    (docs/ai.md: what the fit to self-play said), the same count otherwise."""
    game = _flags_position({"priestess": "b2", "mad-scientist": "f1"}, {"villager": "f6"})
    state = game.state
    plain = _her_return(FLAG_ROUNDS, state, "priestess")
    assert plain > 0
    assert abs(_her_return(FITTED, state, "priestess") - FITTED.flag_scale * plain) < 1e-9


def test_a_return_no_rival_can_stop_counts_as_points_in_hand() -> None:
    """Flags: with no rival left to act this round, a character that can stand beside the
    rival's flag when the round ends returns ("Ending a Round"), so hard and expert count its
    2 points whole, even knocked down with its turn (a rally) still to come; while the
    villager beside her has its turn, the return is open to the dice and counts at
    `flag_scale` of its chance; once she has had her turn knocked down, it is a round away."""
    game = _flags_position({"priestess": "b4", "mad-scientist": "f1"}, {"villager": "c5"})
    state = game.state
    whole = FITTED.points * 2 / 6
    assert FITTED.sure_returns
    assert _her_return(FITTED, state, "priestess") < FITTED.flag_scale * whole
    state.pieces["villager"].exhausted = True
    assert abs(_her_return(FITTED, state, "priestess") - whole) < 1e-9
    state.pieces["priestess"].standing = False
    assert abs(_her_return(FITTED, state, "priestess") - whole) < 1e-9
    state.pieces["priestess"].exhausted = True
    discount, later = FITTED.flag_rounds
    expected = FITTED.flag_scale * whole * later * discount
    assert abs(_her_return(FITTED, state, "priestess") - expected) < 1e-9


def test_winning_a_scenario_a_return_that_reaches_the_target_wins_when_the_round_ends() -> None:
    """Flags, "Winning a Scenario": the most points at the end of a round win, once at the
    target, and a tie plays on. As `round_race` reads it, dark at 4 of the 6 points and the
    priestess beside the rival's flag (the mad scientist has had its turn) wins when the round
    ends if no rival is left to act; with light at 6 as well it is a tie and the game plays
    on; while the villager still has its turn, dark wins at about the chance its two
    challenges miss her."""
    racing = Evaluator(dataclasses.replace(FITTED, round_race=True))
    plain = Evaluator(dataclasses.replace(FITTED, round_race=False))
    game = _flags_position({"priestess": "b4", "mad-scientist": "f1"}, {"villager": "c5"})
    state = game.state
    dark = state.seats.index("dark")
    state.sides["dark"].points = 4
    state.pieces["mad-scientist"].exhausted = True
    priestess = state.pieces["priestess"]
    assert priestess.defense is not None
    miss = 1.0 - _p_win(state, 2, priestess.defense)
    open_to_dice = racing.values(state)[dark]
    assert miss**2 <= open_to_dice < 1.0
    assert plain.values(state)[dark] < open_to_dice
    state.pieces["villager"].exhausted = True
    assert racing.values(state)[dark] == 1.0
    state.sides["light"].points = 6
    assert racing.values(state)[dark] < 0.9


def test_winning_a_scenario_past_the_target_a_point_counts_while_a_rival_is_there_too() -> None:
    """Flags, "Winning a Scenario": "If there is a tie, play more rounds until one player has
    more points". At 6 to 6 with two a side (the target is 6), a point more is worth as much
    as any other to hard and expert (`beyond_target`), where the target alone capped it at
    nothing; with the rival at 2, far from the target, a point past it is worth nothing, and
    short of the target the target still caps what a gain is worth."""
    game = _flags_position({"priestess": "b4", "mad-scientist": "f1"}, {"villager": "c5"})
    state = game.state
    past = Evaluator(FITTED)
    capped = Evaluator(dataclasses.replace(FITTED, beyond_target=0))
    one_point = FITTED.points / 6
    assert FITTED.beyond_target
    state.sides["dark"].points = state.sides["light"].points = 6
    assert capped.points_value(state, "dark", 1) == 0.0
    assert abs(past.points_value(state, "dark", 1) - one_point) < 1e-9
    assert abs(past.points_value(state, "light", 1) - one_point) < 1e-9
    tied = past.values(state)[state.seats.index("dark")]
    state.sides["dark"].points = 7
    assert past.values(state)[state.seats.index("dark")] > tied
    state.sides["light"].points = 2
    assert past.points_value(state, "dark", 1) == 0.0
    state.sides["dark"].points = 5
    assert abs(past.points_value(state, "dark", 2) - one_point) < 1e-9


# ------------------------------------------------------------------ where the kernel cannot play

SIMPLY = "(simple: this game has a card the fast engine cannot play)"


def _whispering() -> Setup:
    """Flags, three a side, with a fan card whose hook is Python the kernel does not know."""
    from funkoverse.bench.workloads import flags_spec
    from funkoverse.content.setups import build
    from funkoverse.rules.core.hooks import Hook

    class Whisper(Hook):
        name = "whisper"

    normal = build(flags_spec(3))
    dark = normal.teams[0]
    odd = dataclasses.replace(dark.characters[0], hooks=(Whisper(),))
    team = dataclasses.replace(dark, characters=(odd, *dark.characters[1:]))
    return dataclasses.replace(normal, teams=(team, *normal.teams[1:]))


def test_every_level_decides_by_rule_of_thumb_where_the_kernel_cannot_play_and_says_so() -> None:
    """A fan card with a Python hook: the kernel cannot play the game, so every level decides
    with the simple agent, only legal choices, and its name says so from its first decision;
    in a game the kernel plays, the name is the level's."""
    from funkoverse.ai.agents import playing_name
    from funkoverse.rules import bridge

    setup = _whispering()
    start = engine.new_game(setup)
    assert "whisper" in (bridge.unsupported(start) or "")
    levels = ("easy", "normal", "hard", "expert")
    for level in levels:
        assert playing_name(level, start) == f"{level} {SIMPLY}"
    assert playing_name("hard:positions=300", start) == f"hard:positions=300 {SIMPLY}"
    assert playing_name("random", start) == "random"
    for first, second in (("easy", "normal"), ("hard", "expert")):
        session = Session(setup, 3)
        agents = (AGENTS[first](1), AGENTS[second](2))
        checked = [_Checked(a) for a in agents]
        play(session, dict(zip(session.seats, checked, strict=True)), max_rounds=2)
        assert all(c.decisions > 5 for c in checked)
        assert [a.name for a in agents] == [f"{first} {SIMPLY}", f"{second} {SIMPLY}"]
        assert all(a._kernel_search is None for a in agents)  # type: ignore[attr-defined]
    plain = Session(first_game(), 3)
    hard = AGENTS["hard"](1)
    play(plain, {"dark": hard, "light": RandomAgent(2)}, max_rounds=1)
    assert hard.name == "hard" == playing_name("hard", plain.state)


def test_the_simple_agent_takes_the_points_the_best_odds_and_the_way_to_the_objective() -> None:
    """Its rules of thumb, each where it decides: the last point marker beside it (a point
    now), a challenge of a knocked-down rival alongside at the best exact odds, standing up,
    and a move toward the point marker."""
    agent = SimpleAgent(1)
    game = position(
        dark={"priestess": "b2", "mad-scientist": "a1"},
        light={"villager": "b3", "hyena-warrior": "f6"},
        b=board(points={"A": "c2"}),
        scenario=scenario("flags"),
    )
    game.play("choose:priestess")
    assert _decide(agent, game).format() == "interact:point-A"
    down = position(
        dark={"priestess": "b2", "mad-scientist": "a1"},
        light={"villager": "c3", "hyena-warrior": "f6"},
        knocked_down=["villager"],
    )
    down.play("choose:priestess")
    assert _decide(agent, down).format() == "challenge:villager"
    lying = position(
        dark={"priestess": "b3", "mad-scientist": "f1"},
        light={"villager": "f5", "hyena-warrior": "f6"},
        knocked_down=["priestess"],
    )
    lying.play("choose:priestess")
    assert _decide(agent, lying).format() == "rally"
    far = position(
        dark={"priestess": "a1", "mad-scientist": "f1"},
        light={"villager": "f6", "hyena-warrior": "e6"},
        b=board(points={"A": "d4"}),
        scenario=scenario("flags"),
    )
    far.play("choose:priestess")
    before = far.state.pieces["priestess"].square
    move = _decide(agent, far)
    assert move.kind == "move"
    far.play(move)
    table = walks(far.state.board).squares
    goal = far.state.board.parse_label("d4")
    assert table[far.state.pieces["priestess"].square][goal] < table[before][goal]  # type: ignore[index]


def test_the_cli_names_a_level_that_decides_by_rule_of_thumb(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`funkoverse play` introduces the sides with the levels' names as they play the game,
    and says which engine plays it when it is not the one asked for; `funkoverse match` says
    in how many games an agent played as what."""
    import argparse

    from rich.console import Console

    from funkoverse.ai.arena import GameResult, summarize
    from funkoverse.cli import match
    from funkoverse.cli.play import _introduce

    console = Console(record=True, width=200)
    session = Session(_whispering(), 3)
    _introduce(console, session, {"dark": "hard", "light": "human"})
    text = console.export_text()
    assert f"played by hard {SIMPLY}" in text and "played by human" in text
    # the game's engine says so too: a Python hook is played by the Python engine
    assert "The Python engine plays this game: " in text and "'whisper'" in text
    results = [
        GameResult(0, "dark", "dark", 5, renamed={"a": f"hard {SIMPLY}"}),
        GameResult(1, "light", "dark", 5),
    ]
    args = argparse.Namespace(a="hard", b="random", max_rounds=30)
    match._print(args, summarize(results))
    assert f"hard (A) played as hard {SIMPLY} in 1 of the games" in capsys.readouterr().out
