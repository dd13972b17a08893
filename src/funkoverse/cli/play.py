"""`funkoverse play`: a game in the terminal, each side a person or an agent."""

from __future__ import annotations

import argparse
import json
import re
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from funkoverse.ai.agents import AGENTS, playing_name
from funkoverse.cli.engine import engine_of
from funkoverse.cli.fancontent import add_content_option, content_catalog
from funkoverse.cli.gamefile import load_game, save_game
from funkoverse.cli.terminal import Person, sides_panel
from funkoverse.content.setups import SetupRequest, build, draw_spec, players_of
from funkoverse.errors import UserError
from funkoverse.rules import Decide, Event, SeatSpec, Session, SetupSpec

CONTROLLERS = ("human", *AGENTS)
_ITEM = re.compile(r"(?:(?P<side>[\w-]+):)?(?P<holder>[\w-]+)=(?P<item>[\w-]+)")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a game in the terminal (each side human or an agent)",
        description=(
            "Play a game of Funkoverse: a scenario (drawn from the seed when not given: the two "
            "first games, Flags, Leaders or Control) on one of its maps. Each of --dark and "
            "--light may be given more than once: a controller (human, random, an AI level "
            "easy..expert, ...) and/or a comma-separated list of character ids. What is not "
            "given is drawn from the seed. At the prompt, ? shows the commands and info NAME a "
            "card's text."
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
    p.add_argument("--size", type=int, help="characters a side (default: drawn, or the scenario's)")
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
    p.add_argument("--json", action="store_true", help="print a one-object summary (agents only)")
    p.add_argument(
        "--max-rounds",
        type=int,
        default=1000,
        help="stop a game that runs longer (default: %(default)s)",
    )
    p.add_argument("--save", metavar="FILE", help="write the game to FILE after every choice")
    p.add_argument("--load", metavar="FILE", help="continue the game saved in FILE")
    add_content_option(p)
    p.set_defaults(func=run)


def _side_options(side: str, values: list[str]) -> tuple[str | None, tuple[str, ...] | None]:
    controller: str | None = None
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
    given: dict[str, dict[str, str]] = {}
    for value in values:
        m = _ITEM.fullmatch(value)
        if m is None:
            raise UserError(
                f"--item: expected CHARACTER=ITEM or SIDE:CHARACTER=ITEM, got '{value}'"
            )
        where, holder, item = m.group("side"), m.group("holder"), m.group("item")
        if where is not None and where not in ("dark", "light"):
            raise UserError(f"--item: unknown side '{where}' (dark or light)")
        if where is not None and where not in teams:
            raise UserError(
                f"--item {value}: name {where}'s characters first, e.g. --{where} {holder},..."
            )
        sides = [where] if where else [s for s, ids in teams.items() if holder in ids]
        if not sides:
            raise UserError(f"--item: no side has the character '{holder}'")
        if len(sides) > 1:
            raise UserError(
                f"--item: both sides have '{holder}'; say which, e.g. dark:{holder}={item}"
            )
        given.setdefault(sides[0], {})[holder] = item
    return given


def _controllers(args: argparse.Namespace) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """Who plays each side named on the command line, and the characters given."""
    who: dict[str, str] = {}
    teams: dict[str, tuple[str, ...]] = {}
    for side in ("dark", "light"):
        controller, characters = _side_options(side, getattr(args, side))
        if controller is not None:
            who[side] = controller
        if characters:
            teams[side] = characters
    for value in args.seat:
        seat, eq, name = value.partition("=")
        if not eq or not seat or name not in CONTROLLERS:
            raise UserError(
                f"--seat: expected SEAT=WHO with WHO one of {', '.join(CONTROLLERS)}, got '{value}'"
            )
        who[seat] = name
    return who, teams


def seat_spec(seat: str, controller: str) -> SeatSpec:
    """A seat held by a person or by an agent."""
    if controller == "human":
        return SeatSpec(seat, "human")
    return SeatSpec(seat, "ai", controller)


def controller_of(seat: SeatSpec) -> str:
    return "human" if seat.player == "human" else (seat.level or "normal")


def _fresh_seed() -> int:
    return secrets.randbelow(2**31)


def run(args: argparse.Namespace) -> int:
    catalog = content_catalog(args)
    if args.max_rounds < 1:
        raise UserError("--max-rounds must be at least 1")
    who, teams = _controllers(args)
    if args.load:
        session = load_game(Path(args.load), engine_of(args), catalog)
        spec = session.setup.spec
        assert spec is not None
        seats = {s: controller_of(spec.seat(s)) for s in session.seats}
        seats.update({s: c for s, c in who.items() if s in seats})
        seed = session.seed
    else:
        seed = args.seed if args.seed is not None else _fresh_seed()
        request = SetupRequest(
            scenario=args.scenario,
            map=args.map,
            mode=args.mode,
            players=args.players,
            size=args.size,
            teams=teams,
            items=_items(args.item, teams) if args.item else {},
            draft=args.draft,
            seats={s: seat_spec(s, c) for s, c in who.items()},
        )
        drawn = draw_spec(request, seed, catalog)
        # a seat not named is played by the random agent
        seats = {s.seat: who.get(s.seat, "random") for s in drawn.seats}
        spec = SetupSpec(
            drawn.scenario,
            drawn.map,
            drawn.mode,
            drawn.teams,
            drawn.draft,
            drawn.first_player,
            tuple(seat_spec(s, c) for s, c in seats.items()),
        )
        session = Session(build(spec, catalog=catalog), seed, engine=engine_of(args))
    if args.json and "human" in seats.values():
        raise UserError("--json plays without a person: give every side an agent (e.g. random)")
    console = Console(highlight=False)
    watching = "human" in seats.values()
    people: dict[str, Person] = {}
    deciders: dict[str, Decide] = {}
    for index, (seat, controller) in enumerate(seats.items()):
        if controller == "human":
            people[seat] = Person(console, session, seat)
            deciders[seat] = people[seat].decide
        else:
            deciders[seat] = AGENTS[controller](seed * 7919 + index + 1).decide
    if watching:
        _introduce(console, session, seats)

    def after(seat: str, events: Sequence[Event]) -> None:
        if seat in people:
            people[seat].after_own(events)
        if args.save:
            save_game(session, Path(args.save))

    if args.save:
        save_game(session, Path(args.save))
    stopped = session.play_out(deciders, args.max_rounds, after)
    summary = _summary(session, stopped)
    if args.json:
        sys.stdout.write(json.dumps(summary) + "\n")
    else:
        if people:
            person = next(iter(people.values()))
            person.print_events([e for _, e in session.events(person.seat, person.seen)])
        _print_result(console, session, summary)
    return 0


def _introduce(console: Console, session: Session, seats: dict[str, str]) -> None:
    """What is played: the scenario, the map, the points that win, who plays which side."""
    state = session.state
    scenario = state.setup.scenario
    board = state.board
    target = scenario.points_to_win(state)
    console.rule(f"{scenario.name} on {board.name}")
    if scenario.first_knockout_wins:
        goal = "The first side to knock out a rival wins."
    elif scenario.immediate_target and target:
        goal = f"The first side to {target} points wins."
    elif target:
        goal = (
            f"{target} points win; a scenario is decided at the end of a round, by the most "
            "points (a tie plays another round)."
        )
    else:
        goal = "No points decide this game."
    console.print(Text(goal, style="bold"))
    if scenario.note:
        console.print(Text(scenario.note, style="dim"))
    for side, controller in seats.items():
        team = next((t for t in state.setup.teams if t.side == side), None)
        names = (
            ", ".join(c.name for c in team.characters)
            if team and team.characters
            else "chosen in the game"
        )
        console.print(f"  {side}: {names} — played by {playing_name(controller, state)}")
    if session.fallback:
        console.print(Text(f"The Python engine plays this game: {session.fallback}.", style="dim"))
    console.print(
        "At the prompt, ? shows the commands and the board's legend; info NAME shows a card."
    )


def _summary(session: Session, stopped: bool) -> dict[str, Any]:
    state = session.state
    spec = state.setup.spec
    assert spec is not None
    return {
        "seed": session.seed,
        "map": spec.map,
        "scenario": spec.scenario,
        "points_to_win": state.setup.scenario.points_to_win(state),
        "winner": state.winner,
        "stopped": stopped,
        "rounds": state.round,
        "turns": state.turns,
        "decisions": session.version,
        "choices": [e.choice for e in session.entries],
        "spec": spec.to_json(),
        "sides": {
            side: {
                "characters": [p.card.id if p.card else p.id for p in state.characters(side)],
                "items": [
                    {"item": item, "holder": p.card.id if p.card else p.id}
                    for p in state.characters(side)
                    for item in p.items
                ],
                "points": state.sides[side].points,
                "players": list(players_of(spec).get(side, (side,))),
                "ultimate": any(t.ultimate for t in state.setup.teams if t.side == side),
            }
            for side in state.seats
        },
    }


def _print_result(console: Console, session: Session, summary: dict[str, Any]) -> None:
    score = ", ".join(f"{side} {s['points']}" for side, s in summary["sides"].items())
    if summary["stopped"]:
        console.print(
            f"Stopped after {summary['rounds'] - 1} rounds with no winner (--max-rounds). "
            f"Score: {score}."
        )
        return
    console.print(sides_panel(session.state))
    winner = summary["winner"]
    target = summary["points_to_win"]
    of = f" ({target} needed)" if target and target > 1 else ""
    console.print(
        f"[bold]{winner} wins[/bold] in round {summary['rounds']} after {summary['turns']} turns. "
        f"Final score: {score}{of}. Seed {summary['seed']}."
    )
