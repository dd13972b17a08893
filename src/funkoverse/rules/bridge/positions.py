"""Positions across the language line: a Python `GameState` into the kernel (`dump_state`)
and the kernel's position back as a `GameState` (`state`), or brought up to date in place
reading only what changed (`mirror`, `refresh`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from funkoverse.rules.bridge.building import Building, held
from funkoverse.rules.bridge.numbering import (
    COLORS,
    DRAFTING,
    F_CHOICE,
    F_RETURN,
    F_ROLL,
    F_ROUND_END,
    F_STEPS,
    F_TURN_START,
    H_NONE,
    H_SCENARIO,
    KINDS,
    PHASES,
    ROLES,
    _kernel,
)
from funkoverse.rules.core import frames as fr
from funkoverse.rules.core.cards import (
    TokenColor,
)
from funkoverse.rules.core.errors import Unsupported
from funkoverse.rules.core.state import GameState, Piece, Setup, SideState
from funkoverse.rules.play import setup_phase


class Seen:
    """What a mirror of a kernel's position last read of it: the kernel's copy of the state
    then (`Kernel.changes` compares with it) and whether the draft was still on."""

    __slots__ = ("drafting", "shadow")

    def __init__(self) -> None:
        self.shadow = _kernel.Shadow()
        self.drafting = False


class Positions(Building):
    """A position into the kernel and back."""

    def _sid(self, text: str | None) -> int:
        """A string the kernel knows, -1 for None and ""."""
        if not text:
            return -1
        found = self._index.get(text)
        if found is None:
            raise Unsupported(f"the kernel's tables do not name '{text}'")
        return found

    def _seat(self, side: str | None) -> int:
        if side is None or side == "":
            return -1
        found = self.seat_index.get(side)
        if found is None:
            raise Unsupported(f"'{side}' is not a seat of the tables' setup")
        return found

    def _places(self, state: GameState) -> dict[str, int]:
        """Each piece's place in `state` (the kernel's index of it): the tables' numbering, or,
        once a draft has made the teams' pieces in the order picked, the position's own."""
        ids = tuple(state.pieces)
        if ids == self.piece_ids:
            return self.piece_index
        known = self.piece_index
        if (
            self.draft is None
            or ids[: len(self.game_pieces)] != self.game_pieces
            or any(pid not in known for pid in ids)
        ):
            raise Unsupported("the position's pieces are not the setup's")
        return {pid: i for i, pid in enumerate(ids)}

    def _ids(self, pieces: Sequence[tuple[Any, ...]]) -> tuple[str, ...]:
        """The ids of a dump's pieces, in the position's order."""
        if self.draft is None:
            return self.piece_ids
        st = self.strings
        return tuple([st[row[4]] for row in pieces])

    def _chosen(self, state: GameState, seat: str) -> tuple[list[int], list[tuple[int, int]]]:
        """A side's picks and gifts as the kernel's (pool entries; item, holder's entry): the
        draft's until the reveal, then its team's."""
        side = state.sides[seat]
        if self.draft is None:
            if side.picks or side.gifts:
                raise Unsupported("picks of a draft the tables do not hold")
            return [], []
        picks, gifts = side.picks, side.gifts
        if state.setup.draft is None:  # revealed: the team is what the side chose
            team = next((t for t in state.setup.teams if t.side == seat), None)
            picks = tuple(c.id for c in team.characters) if team is not None else ()
            gifts = team.items if team is not None else ()
        first, items = self._first, self.item_index
        if any(c not in first for c in picks) or any(
            i not in items or h not in first for i, h in gifts
        ):
            raise Unsupported("a pick that is not in the draft's pool")
        return [first[c] for c in picks], [(items[i], first[h]) for i, h in gifts]

    def dump_state(self, state: GameState) -> tuple[Any, ...]:
        """`state` as the kernel's tuples (`Kernel.load`); `Unsupported` for a position the
        tables cannot hold (a piece, card, item, track item or frame they do not name)."""
        if state.gone:
            # Free-for-All: a seat that left is the Python engine's alone (rules/play/leaving.py)
            raise Unsupported(f"{', '.join(state.gone)} left the free-for-all")
        index = self._places(state)
        card_index = self._card_index
        status_index = self.status_index
        item_index = self.item_index
        pieces = []
        for pid, p in state.pieces.items():
            card = -1
            if p.card is not None:
                card = card_index.get(p.card, -1)
                if card < 0:
                    raise Unsupported(f"a card the tables do not hold ({p.card.id})")
            pieces.append(
                (
                    -1 if p.square is None else p.square,
                    card,
                    self._sid(p.owner),
                    self._sid(p.ref),
                    self._index[pid],
                    self.piece_rank[self.piece_index[pid]],
                    self._seat(p.side),
                    KINDS.index(p.kind),
                    ROLES.index(p.role),
                    -1 if p.defense is None else p.defense,
                    p.markers,
                    p.needed,
                    p.standing,
                    p.exhausted,
                    p.elusive,
                    p.placed,
                    [held(status_index, x, "status card") for x in p.statuses],
                    [held(item_index, x, "item") for x in p.items],
                )
            )
        sides = []
        for seat in self.seats:
            side = state.sides[seat]
            picks, gifts = self._chosen(state, seat)
            pool = [side.pool.get(c, 0) for c in COLORS]
            order = [COLORS.index(TokenColor(c)) for c in side.pool]
            slots = [
                [held(self._track_index, item, "track item") for item in slot]
                for slot in side.track
            ]
            sides.append(
                (
                    pool,
                    order,
                    slots,
                    side.points,
                    -1 if side.leader is None else self._s_known(side.leader),
                    [held(index, p, "piece") for p in side.returned],
                    picks,
                    gifts,
                )
            )
        stack = [self._frame(f, index) for f in state.stack]
        acting = state.acting
        header = (
            self._seat(state.first_player),
            self._seat(state.to_act),
            self._seat(state.winner),
            PHASES.index(state.phase),
            held(index, state.active, "piece") if state.active else -1,
            state.actions_left,
            state.round,
            state.turns,
            state.leaders_revealed,
            held(index, state.companion_used, "piece") if state.companion_used else -1,
            -1 if acting is None else held(index, acting[0], "piece"),
            [] if acting is None else [held(status_index, x, "status card") for x in acting[1]],
        )
        return (header, pieces, sides, stack)

    def _s_known(self, text: str) -> int:
        found = self._index.get(text)
        if found is None:
            raise Unsupported(f"the kernel's tables do not name '{text}'")
        return found

    def _frame(self, f: fr.Frame, index: dict[str, int]) -> tuple[Any, ...]:
        blank = dict(
            piece=-1,
            source=-1,
            seq=-1,
            pc=0,
            target=-1,
            started=True,
            won=-1,
            targets=[],
            chosen=-1,
            side=-1,
            step=-1,
            optional=False,
            hook=H_NONE,
            stage=0,
            attack=[],
            defense=[],
            asked=[],
            pieces=[],
        )
        if isinstance(f, fr.StepsFrame):
            seq = self._seq_index.get(f.steps)
            if seq is None:
                raise Unsupported("an ability the tables do not hold")
            blank.update(
                type=F_STEPS,
                piece=held(index, f.piece, "piece"),
                source=self._s_known(f.source) if f.source else self._index[""],
                seq=seq,
                pc=f.pc,
                target=-1 if f.target is None else self._s_known(f.target),
                started=f.started_standing,
                won=-1 if f.won is None else int(f.won),
                targets=[self._s_known(t) for t in f.targets],
                chosen=-1 if f.chosen is None else self._s_known(f.chosen),
            )
        elif isinstance(f, fr.ChoiceFrame):
            step_index = self._step_index.get(f.step)
            if step_index is None:
                raise Unsupported(f"a decision the tables do not hold ({f.step.op})")
            if f.hook and f.hook != "scenario" and f.hook not in self.trait_names:
                raise Unsupported(f"a decision of a hook the kernel does not know ({f.hook})")
            hook = (
                H_NONE
                if not f.hook
                else H_SCENARIO
                if f.hook == "scenario"
                else self.trait_names.index(f.hook)
            )
            blank.update(
                type=F_CHOICE,
                side=self._seat(f.decider),
                step=step_index,
                piece=held(index, f.piece, "piece") if f.piece else -1,
                optional=f.optional,
                hook=hook,
            )
        elif isinstance(f, fr.RollFrame):
            asked = []
            for key in f.asked:
                owner, _, name = key.rpartition("/")
                if name not in self.trait_names:
                    raise Unsupported(f"a hook the kernel does not know ({name})")
                count = len(self.trait_names)
                asked.append(held(index, owner, "piece") * count + self.trait_names.index(name))
            blank.update(
                type=F_ROLL,
                piece=held(index, f.challenger, "piece"),
                target=held(index, f.target, "piece"),
                attack=[held(self.dice_index, d, "die") for d in f.attack],
                defense=[held(self.dice_index, d, "die") for d in f.defense],
                source=self._s_known(f.source),
                asked=asked,
            )
        elif isinstance(f, fr.ReturnFrame):
            blank.update(
                type=F_RETURN,
                side=self._seat(f.side),
                pieces=[held(index, p, "piece") for p in f.pieces],
            )
        elif isinstance(f, fr.TurnStartFrame):
            blank.update(type=F_TURN_START, piece=held(index, f.piece, "piece"))
        else:
            blank.update(type=F_ROUND_END, stage=f.stage)
        b = blank
        return (
            b["type"],
            b["piece"],
            b["source"],
            b["seq"],
            b["pc"],
            b["target"],
            b["started"],
            b["won"],
            b["targets"],
            b["chosen"],
            b["side"],
            b["step"],
            b["optional"],
            b["hook"],
            b["stage"],
            b["attack"],
            b["defense"],
            b["asked"],
            b["pieces"],
        )

    def state(self, kernel: Any, setup: Setup | None = None) -> GameState:
        """The kernel's position as the Python engine's `GameState` (of `setup`, or the one
        the tables were built for)."""
        return self.mirror(kernel, setup or self.setup)[0]

    def mirror(self, kernel: Any, setup: Setup) -> tuple[GameState, Seen]:
        """`state`, with what it was read from (for `refresh`). Past a draft's reveal, the
        position's setup is `setup` with the chosen teams."""
        seen = Seen()
        header, pieces, sides, stack = kernel.changes(seen.shadow)  # all of it, the first time
        rows = [row for _, row in pieces]
        ids = self._ids(rows)
        drafting = seen.drafting = header[3] <= DRAFTING
        side_rows = [row for _, row in sides]
        game = GameState.__new__(GameState)
        game.setup = setup if drafting else self._revealed(setup, side_rows)
        game.board = setup.board
        game.seats = self.seats
        game.gone = ()  # the kernel holds no seat that left (`dump_state` refuses one)
        game.pieces = {}
        for row in rows:
            piece = Piece.__new__(Piece)
            self._fill_piece(piece, row)
            game.pieces[piece.id] = piece
        game.sides = {
            seat: self._side(row, ids, drafting)
            for seat, row in zip(self.seats, side_rows, strict=True)
        }
        self._fill_header(game, header, ids)
        game.stack = [self._py_frame(f, ids) for f in stack]
        return game, seen

    def refresh(self, kernel: Any, state: GameState, seen: Seen) -> None:
        """Bring `state` (read from the kernel as `seen` says) up to the kernel's position in
        place: the same piece and side objects, as the Python engine keeps them, so whoever
        holds one sees the game go on. Only what changed is read (`Kernel.changes`)."""
        header, pieces, sides, stack = kernel.changes(seen.shadow)
        by_id = state.pieces
        if pieces:
            order = list(by_id)
            for i, row in pieces:
                if i < len(order):
                    self._fill_piece(by_id[order[i]], row)
                else:
                    piece = Piece.__new__(Piece)
                    self._fill_piece(piece, row)
                    by_id[piece.id] = piece
        ids = self.piece_ids if self.draft is None else tuple(by_id)
        was_drafting = seen.drafting
        drafting = was_drafting if header is None else header[3] <= DRAFTING
        seen.drafting = drafting
        if drafting != was_drafting or (not drafting and state.setup.draft is not None):
            # the reveal: every side is read again, and the teams are the ones chosen
            sides = list(enumerate(kernel.dump()[2]))
            if not drafting and state.setup.draft is not None:
                state.setup = self._revealed(state.setup, [row for _, row in sides])
        for i, row in sides:
            fresh = self._side(row, ids, drafting)
            side = state.sides[self.seats[i]]
            side.pool.clear()
            side.pool.update(fresh.pool)
            side.track[:] = fresh.track
            side.points = fresh.points
            side.picks = fresh.picks
            side.gifts = fresh.gifts
            side.leader = fresh.leader
            side.returned = fresh.returned
        if header is not None:
            self._fill_header(state, header, ids)
        if stack is not None:
            state.stack[:] = [self._py_frame(f, ids) for f in stack]

    def _revealed(self, setup: Setup, sides: Sequence[tuple[Any, ...]]) -> Setup:
        """`setup` once its draft is revealed, the teams as the kernel's sides chose them (one
        object for one outcome, as the Python engine keeps one)."""
        if setup.draft is None:
            return setup
        chosen = {seat: self._picks(row) for seat, row in zip(self.seats, sides, strict=True)}
        key = (id(setup), tuple(chosen.items()))
        found = self._reveals.get(key)
        if found is None or found[0] is not setup:
            found = (setup, setup_phase.revealed(setup, self.seats, chosen))
            self._reveals[key] = found
        return found[1]

    def _picks(self, row: tuple[Any, ...]) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
        """A side's picks and gifts in the kernel's dump, as card and item ids."""
        draft = self.draft
        if draft is None:
            return (), ()
        pool = draft.characters
        picks, gifts = row[6], row[7]
        return (
            tuple([pool[e].id for e in picks]),
            tuple([(self.item_ids[i], pool[h].id) for i, h in gifts]),
        )

    def _fill_piece(self, piece: Piece, row: tuple[Any, ...]) -> None:
        (square, card, owner, ref, pid, _rank, side, kind, role, defense, markers, needed, standing,
         exhausted, elusive, placed, statuses, items) = row  # fmt: skip
        st = self.strings
        piece.id = st[pid]
        piece.kind = KINDS[kind]
        piece.side = self.seats[side] if side >= 0 else ""
        piece.card = self.cards[card] if card >= 0 else None
        piece.square = square if square >= 0 else None
        piece.standing = standing
        piece.exhausted = exhausted
        piece.defense = defense if defense >= 0 else None
        piece.elusive = elusive
        piece.placed = placed
        piece.statuses = tuple([self.status_ids[x] for x in statuses]) if statuses else ()
        piece.items = tuple([self.item_ids[x] for x in items]) if items else ()
        piece.owner = st[owner] if owner >= 0 else ""
        piece.markers = markers
        piece.needed = needed
        piece.role = ROLES[role]
        piece.ref = st[ref] if ref >= 0 else ""

    def _side(self, row: tuple[Any, ...], ids: tuple[str, ...], drafting: bool) -> SideState:
        pool, order, slots, points, leader, returned, _, _ = row
        items = self.track_items
        picks, gifts = self._picks(row) if drafting else ((), ())  # the teams hold them after
        return SideState(
            {COLORS[c]: pool[c] for c in order},
            [[items[i] for i in slot] for slot in slots],
            points,
            picks,
            gifts,
            self.strings[leader] if leader >= 0 else None,
            tuple([ids[p] for p in returned]) if returned else (),
        )

    def _fill_header(self, game: GameState, header: tuple[Any, ...], ids: tuple[str, ...]) -> None:
        (first, to_act, winner, phase, active, actions_left, rnd, turns, revealed, companion_used,
         acting, acting_statuses) = header  # fmt: skip
        seats = self.seats
        game.first_player = seats[first] if first >= 0 else None
        game.to_act = seats[to_act] if to_act >= 0 else None
        game.winner = seats[winner] if winner >= 0 else None
        game.phase = PHASES[phase]
        game.active = ids[active] if active >= 0 else None
        game.actions_left = actions_left
        game.round = rnd
        game.turns = turns
        game.leaders_revealed = revealed
        game.companion_used = ids[companion_used] if companion_used >= 0 else None
        game.acting = (
            (ids[acting], tuple([self.status_ids[x] for x in acting_statuses]))
            if acting >= 0
            else None
        )

    def _py_frame(self, f: tuple[Any, ...], ids: tuple[str, ...]) -> fr.Frame:
        (kind, piece, source, seq, pc, target, started, won, targets, chosen, side, step_index, optional,
         hook, stage, attack, defense, asked, pieces) = f  # fmt: skip
        st = self.strings
        if kind == F_STEPS:
            return fr.StepsFrame(
                ids[piece],
                st[source] if source >= 0 else "",
                self.seqs[seq],
                pc,
                st[target] if target >= 0 else None,
                started,
                None if won < 0 else bool(won),
                tuple(st[t] for t in targets),
                st[chosen] if chosen >= 0 else None,
            )
        if kind == F_CHOICE:
            return fr.ChoiceFrame(
                self.seats[side],
                self.steps[step_index],
                ids[piece] if piece >= 0 else "",
                optional,
                ""
                if hook == H_NONE
                else "scenario"
                if hook == H_SCENARIO
                else self.trait_names[hook],
            )
        if kind == F_ROLL:
            return fr.RollFrame(
                ids[piece],
                ids[target],
                tuple(self.dice_ids[d] for d in attack),
                tuple(self.dice_ids[d] for d in defense),
                st[source],
                tuple(
                    f"{ids[k // len(self.trait_names)]}/{self.trait_names[k % len(self.trait_names)]}"
                    for k in asked
                ),
            )
        if kind == F_RETURN:
            return fr.ReturnFrame(self.seats[side], tuple(ids[p] for p in pieces))
        if kind == F_TURN_START:
            return fr.TurnStartFrame(ids[piece])
        return fr.RoundEndFrame(stage)

    # -- choices and events --------------------------------------------------------------
