"""`funkoverse play`: a game in the terminal, each side a person or an agent."""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.text import Text

from funkoverse.ai.agents import AGENTS, Agent
from funkoverse.content.maps import load_map
from funkoverse.content.scenarios import scenario
from funkoverse.content.setups import draft_setup, random_teams, scenario_setup
from funkoverse.errors import UserError
from funkoverse.rules.game import Game
from funkoverse.rules.pieces import Kind
from funkoverse.rules.state import CHANCE, GameState, Piece

CONTROLLERS = ("human", *AGENTS)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a game in the terminal (each side human or an agent)",
        description=(
            "Play a game: knock out one rival to win. Each of --dark and --light may be "
            "given more than once: a controller (human, random, ...) and/or a comma-separated list "
            "of character ids. What is not given is drawn from the seed: teams of one character "
            "and one basic character, or three characters with an item each side."
        ),
    )
    p.add_argument(
        "--dark",
        action="append",
        default=[],
        metavar="WHO",
        help="controller and/or characters of the dark side",
    )
    p.add_argument(
        "--light",
        action="append",
        default=[],
        metavar="WHO",
        help="controller and/or characters of the light side",
    )
    p.add_argument(
        "--item",
        action="append",
        default=[],
        metavar="[SIDE:]CHARACTER=ITEM",
        help="give an item to a character (both sides must hold the same number of items)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="fixes the game: the setup not given, flips, dice and random agents",
    )
    p.add_argument("--scenario", help="scenario id (default: drawn from the seed)")
    p.add_argument(
        "--draft",
        type=int,
        choices=(2, 3),
        help="choose 2 or 3 characters a side (and with 3, an item) in the game, in secret",
    )
    p.add_argument("--map", help="map id or file (default: drawn from the scenario's maps)")
    p.add_argument(
        "--players", type=int, help="number of players: 2, 4 (two a side) or 3-4 (free-for-all)"
    )
    p.add_argument(
        "--mode", help="standard, teams, free-for-all or ultimate (default: from the scenario)"
    )
    p.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="SEAT=WHO",
        help="who plays a seat in a free-for-all (seat1..seat4) or a side",
    )
    p.add_argument(
        "--json", action="store_true", help="print a one-object summary (random sides only)"
    )
    p.add_argument(
        "--max-rounds",
        type=int,
        default=1000,
        help="stop a game that runs longer (default: %(default)s)",
    )
    p.set_defaults(func=run)


def _side_options(side: str, values: list[str]) -> tuple[str, tuple[str, ...] | None]:
    controller = "random"
    characters: tuple[str, ...] | None = None
    for value in values:
        if value in CONTROLLERS:
            controller = value
        else:
            ids = tuple(v.strip() for v in value.split(",") if v.strip())
            if not ids:
                raise UserError(
                    f"--{side}: expected {', '.join(CONTROLLERS)} or character ids, got '{value}'"
                )
            characters = ids
    return controller, characters


def _items(values: list[str], teams: dict[str, tuple[str, ...]]) -> dict[str, dict[str, str]]:
    given: dict[str, dict[str, str]] = {side: {} for side in teams}
    for value in values:
        where, _, rest = value.rpartition(":")
        holder, eq, item = rest.partition("=")
        if not eq or not holder or not item:
            raise UserError(
                f"--item: expected CHARACTER=ITEM or SIDE:CHARACTER=ITEM, got '{value}'"
            )
        sides = [where] if where else [s for s, ids in teams.items() if holder in ids]
        if where and where not in teams:
            raise UserError(f"--item: unknown side '{where}' (dark or light)")
        if not sides:
            raise UserError(f"--item: no side has the character '{holder}'")
        if len(sides) > 1:
            raise UserError(
                f"--item: both sides have '{holder}'; say which, e.g. dark:{holder}={item}"
            )
        given[sides[0]][holder] = item
    return given


STANDARD_SCENARIOS = ("first-knockout", "monsters-first-game", "flags", "leaders", "control")


def build_setup(args: argparse.Namespace, seed: int) -> tuple[Any, dict[str, str], dict[str, Any]]:
    """The game's setup: what the options fix, and the rest drawn from the seed. Returns the
    setup, each side's controller, and each side's players."""
    rng = random.Random(seed)
    dark_who, dark_team = _side_options("dark", args.dark)
    light_who, light_team = _side_options("light", args.light)
    if args.scenario:
        chosen = scenario(args.scenario)
    elif args.mode == "free-for-all" or (args.players or 0) == 3:
        chosen = scenario("brawl")
    elif args.mode == "ultimate":
        chosen = scenario("titans")
    else:
        chosen = scenario(rng.choice(STANDARD_SCENARIOS))
    fixed: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {}
    given = {"dark": dark_team, "light": light_team}
    teams = {side: ids for side, ids in given.items() if ids}
    items = _items(args.item, teams) if args.item else {}
    for side, ids in teams.items():
        fixed[side] = (ids, items.get(side, {}))
    if len(fixed) == 1 and not args.item:
        other = "light" if "dark" in fixed else "dark"
        drawn = random_teams(
            random.Random(seed + 1),
            len(next(iter(fixed.values()))[0])
            if len(next(iter(fixed.values()))[0]) in (2, 3)
            else 2,
        )
        fixed[other] = (drawn[other][0], {})
    if args.draft:
        if fixed or args.item or args.players or args.mode:
            raise UserError(
                "--draft chooses the teams in the game: give no characters, items, players or mode"
            )
        setup = draft_setup(rng, chosen, args.map, args.draft)
        players: dict[str, tuple[str, ...]] = {"dark": ("dark",), "light": ("light",)}
    else:
        setup, players = scenario_setup(rng, chosen, args.map, args.mode, args.players, fixed)
    controllers: dict[str, str] = {t.side: "random" for t in setup.teams}
    if "dark" in controllers:
        controllers["dark"] = dark_who
    if "light" in controllers:
        controllers["light"] = light_who
    for value in args.seat:
        seat, eq, who = value.partition("=")
        if not eq or seat not in controllers or who not in CONTROLLERS:
            raise UserError(
                f"--seat: expected SEAT=WHO with a seat of this game ({', '.join(controllers)}) "
                f"and one of {', '.join(CONTROLLERS)}, got '{value}'"
            )
        controllers[seat] = who
    return setup, controllers, players


def run(args: argparse.Namespace) -> int:
    if args.max_rounds < 1:
        raise UserError("--max-rounds must be at least 1")
    seed = args.seed if args.seed is not None else _fresh_seed()
    setup, controllers, players = build_setup(args, seed)
    if args.json and "human" in controllers.values():
        raise UserError("--json plays without a person: give both sides an agent (e.g. random)")
    game = Game(setup, seed)
    console = Console(highlight=False)
    agents: dict[str, Agent | None] = {}
    for index, (side, who) in enumerate(controllers.items()):
        agents[side] = None if who == "human" else AGENTS[who](seed * 7919 + index + 1)
    watching = any(a is None for a in agents.values())
    stopped = _play(game, agents, args.max_rounds, console if watching else None)
    summary = _summary(game, seed, stopped, players)
    if args.json:
        sys.stdout.write(json.dumps(summary) + "\n")
    else:
        _print_result(console, game, summary)
    return 0


def _fresh_seed() -> int:
    import secrets

    return secrets.randbelow(2**31)


def _play(
    game: Game, agents: dict[str, Agent | None], max_rounds: int, console: Console | None
) -> bool:
    """Play to the end; True when stopped by the round limit."""
    while not game.over:
        if game.state.round > max_rounds:
            return True
        decider = game.decider
        if decider == CHANCE:
            events = game.play_chance()
        else:
            assert decider is not None
            agent = agents[decider]
            if agent is None:
                assert console is not None
                choice = _ask(console, game, decider)
            else:
                choice = agent.choose(game.state, [c.id for c in game.choices()])
            events = game.play(choice)
        if console is not None:
            for line in events:
                console.print(Text("  " + line, style="dim"))
    return False


# ------------------------------------------------------------------ the person at the terminal


def _piece_labels(state: GameState) -> dict[str, str]:
    """Two letters a piece: initials for characters, the letter for point markers, F for a
    flag, C for a control marker, T for a Tunnel, m for a minion, B for a bonus objective."""
    labels: dict[str, str] = {}
    for p in state.pieces.values():
        side = (p.side or " ")[0]
        if p.id.startswith("point-"):
            labels[p.id] = p.id.removeprefix("point-")
        elif p.id.startswith("flag-"):
            labels[p.id] = "F" + side
        elif p.id.startswith("control-"):
            labels[p.id] = "C" + side
        elif p.kind is Kind.TOKEN:
            labels[p.id] = p.id[0].upper() + side
        elif p.kind is Kind.MINION:
            labels[p.id] = "m" + side
        elif p.kind is Kind.BONUS_OBJECTIVE:
            labels[p.id] = "B" + side
        else:
            words = [w for w in p.name.split() if w.lower() != "the"] or [p.name]
            labels[p.id] = (words[0][0] + (words[1][0] if len(words) > 1 else words[0][1])).title()
    return labels


def _show(console: Console, game: Game, side: str) -> None:
    from funkoverse.cli.render import render_board

    state = game.state
    when = f"Round {state.round}" if state.round else "Setup"
    console.rule(f"{when} · {side} to decide")
    highlight = _highlight(game)
    console.print(render_board(state.board, state.on_map(), _piece_labels(state), highlight))
    console.print(_sides_table(state))


def _highlight(game: Game) -> list[int]:
    squares = []
    for c in game.choices():
        head, _, rest = c.id.partition(":")
        if head == "move" or head == "place" or head == "return":
            label = rest.rpartition(":")[2]
            try:
                squares.append(game.state.board.parse_label(label))
            except ValueError:
                continue
    return squares


def _sides_table(state: GameState) -> Text:
    """Each side's points, characters, ability token pool and both cooldown tracks."""
    out = Text()
    for side in state.seats:
        s = state.sides[side]
        mark = " (First Player marker)" if state.first_player == side else ""
        out.append(f"{side}{mark}", style="bold")
        out.append(f" · {s.points} point{'s' if s.points != 1 else ''}\n")
        chars = ", ".join(_char_status(p) for p in state.characters(side))
        out.append(f"  characters: {chars}\n")
        pool = ", ".join(f"{c.value} ×{n}" for c, n in sorted(s.pool.items()) if n) or "empty"
        out.append(f"  ability pool: {pool}\n")
        slots = " | ".join(
            f"{n}: " + (", ".join(f"{ref}" for _, ref in slot) or "—")
            for n, slot in enumerate(s.track, 1)
        )
        out.append(f"  cooldown track  {slots}\n")
    return out


def _char_status(p: Piece) -> str:
    if not p.placed:
        where = "to be placed"
    elif p.square is None:
        where = "knocked out, on the track"
    else:
        where = "standing" if p.standing else "knocked down"
    return f"{p.name} ({where}{', exhausted' if p.exhausted else ''})"


def _ask(console: Console, game: Game, side: str, read: Callable[[str], str] = input) -> str:
    _show(console, game, side)
    choices = game.choices()
    for i, c in enumerate(choices, 1):
        console.print(f"  [bold]{i:>3}[/bold]  {c.label}")
    while True:
        try:
            answer = read(f"{side}, your choice (1-{len(choices)}): ").strip()
        except EOFError:
            raise UserError("input ended before the game did") from None
        if answer.isdigit() and 1 <= int(answer) <= len(choices):
            return choices[int(answer) - 1].id
        ids = [c.id for c in choices]
        if answer in ids:
            return answer
        console.print(
            f"  '{answer}' is not one of the choices: answer with a number from 1 to {len(choices)}."
        )


# ------------------------------------------------------------------ the summary


def _summary(game: Game, seed: int, stopped: bool, players: dict[str, Any]) -> dict[str, Any]:
    state = game.state
    board = state.setup.board
    map_id = next(
        (m for m in state.setup.scenario.maps if load_map(m).name == board.name), board.name
    )
    return {
        "seed": seed,
        "map": map_id,
        "scenario": state.setup.scenario.id,
        "points_to_win": state.setup.scenario.points_to_win(state),
        "winner": state.winner,
        "stopped": stopped,
        "rounds": state.round,
        "turns": state.turns,
        "decisions": len(game.log),
        "choices": list(game.log),
        "sides": {
            side: {
                "characters": [p.card.id if p.card else p.id for p in state.characters(side)],
                "items": [
                    {"item": item, "holder": p.card.id if p.card else p.id}
                    for p in state.characters(side)
                    for item in p.items
                ],
                "points": state.sides[side].points,
                "players": list(players.get(side, (side,))),
                "ultimate": any(t.ultimate for t in state.setup.teams if t.side == side),
            }
            for side in state.seats
        },
    }


def _print_result(console: Console, game: Game, summary: dict[str, Any]) -> None:
    if summary["stopped"]:
        console.print(
            f"Stopped after {summary['rounds'] - 1} rounds with no winner (--max-rounds)."
        )
    else:
        console.print(
            f"[bold]{summary['winner']} wins[/bold] in round {summary['rounds']} after "
            f"{summary['turns']} turns (seed {summary['seed']})."
        )
