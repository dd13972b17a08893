"""The kernel's tables of a setup, built: what the kernel's integers stand for, numbered
once per setup and handed to the kernel as its `Rules`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from funkoverse.rules.bridge.boards import board_tables
from funkoverse.rules.bridge.numbering import (
    COLORS,
    GIFT_CAP,
    KINDS,
    MAX_NUMBER,
    MAX_PIECES,
    MISC,
    NIL,
    NIL16,
    OPS,
    PICK_CAP,
    RETURN_CAP,
    ROLES,
    SLOT_CAP,
    TARGETS_CAP,
    TRACK_KINDS,
    _kernel,
    code,
)
from funkoverse.rules.core import frames as fr
from funkoverse.rules.core import track as track_module
from funkoverse.rules.core.cards import (
    TOKEN_KINDS,
    Ability,
    CardHook,
    CharacterCard,
    Step,
    TokenColor,
)
from funkoverse.rules.core.choices import (
    Choice,
    Option,
)
from funkoverse.rules.core.errors import Unsupported
from funkoverse.rules.core.pieces import Kind, Role
from funkoverse.rules.core.scenario import Scenario, control_areas, leader_squares
from funkoverse.rules.core.state import GameState, Setup
from funkoverse.rules.core.traits import EFFECTS, NEEDS, OFFERS, WHEN, WHO, Effect
from funkoverse.rules.vocabulary.cooldown import SHIFTABLE
from funkoverse.rules.vocabulary.tokens import TOKEN_NAMES
from funkoverse.rules.vocabulary.traits import TraitHook

# --------------------------------------------------------------------------- tables


def _placements(st: Step) -> int:
    """The squares a step may place a token on: the pre-check tries a token on each."""
    if st.op == "place_token":
        reach = st.get("within")
        return (2 * reach + 1) ** 2 if isinstance(reach, int) and reach >= 0 else 1
    if st.op == "place_minion":
        return 9
    return 0


def held(table: dict[Any, int], key: Any, what: str) -> int:
    """`table[key]`, or `Unsupported` naming what the tables do not hold."""
    found = table.get(key)
    if found is None:
        raise Unsupported(f"a {what} the kernel's tables do not hold ({key})")
    return found


def code_of_two(kind: int, a: int | None, b: int | None = 0) -> int | None:
    """The code of a choice of two fields, or None when the tables hold either not."""
    if a is None or b is None:
        return None
    return code(kind, a, b)


# the effect words that challenge (the most challenges one ability makes: the kernel's limits)
CHALLENGES = ("challenge", "challenge_each", "minion_challenge")


class Building:
    """The kernel's tables of one setup, built: everything static of it numbered for the
    kernel (strings, steps, cards, track items, pieces) and handed to it as its `Rules`."""

    def __init__(self, state: GameState) -> None:
        setup = state.setup
        if type(setup.scenario) is not Scenario:
            raise Unsupported("a scenario with rules of its own")
        self.setup = setup
        self.draft = setup.draft
        self.board = setup.board
        self.kboard = board_tables(setup.board)
        self.strings: list[str] = []
        self._index: dict[str, int] = {}
        self.seats = state.seats
        self.seat_index = {s: i for i, s in enumerate(self.seats)}
        self.labels = [setup.board.label(i) for i in setup.board.squares]
        self.traits: list[TraitHook] = []  # the game's traits as data: the kernel's `hooks`
        self.trait_names: list[str] = []
        self.options: list[Option] = []  # the answers of the traits: C_OPTION codes
        s = self._s
        s("")
        # pieces, in the game's order; with a draft, then every piece a pick could make
        self.game_pieces: tuple[str, ...] = tuple(state.pieces)
        drafted = [p for p in self._draft_pieces() if p not in state.pieces]
        self.piece_ids: tuple[str, ...] = self.game_pieces + tuple(drafted)
        if len(self.piece_ids) > MAX_NUMBER:
            raise Unsupported(f"{len(self.piece_ids)} pieces; the kernel numbers {MAX_NUMBER}")
        self.piece_index = {pid: i for i, pid in enumerate(self.piece_ids)}
        ranks = {pid: r for r, pid in enumerate(sorted(self.piece_ids))}
        self.piece_rank = [ranks[p] for p in self.piece_ids]
        self.control_refs = {
            i: p.ref for i, p in enumerate(state.pieces.values()) if p.role is Role.CONTROL
        }
        for pid in self.piece_ids:
            s(pid)
        for side in self.seats:
            s(side)
        # steps and sequences
        self.steps: list[Step] = []
        self._step_index: dict[Step, int] = {}
        self.seqs: list[tuple[Step, ...]] = []
        self._seq_index: dict[tuple[Step, ...], int] = {}
        self.abilities: list[Ability] = []
        self._ability_index: dict[Ability, int] = {}
        self.ability_ids: list[str] = []
        self.cards: list[CharacterCard] = []
        self._card_index: dict[CharacterCard, int] = {}
        self.status_ids: list[str] = list(setup.statuses)
        self.status_index = {sid: i for i, sid in enumerate(self.status_ids)}
        self.item_ids: list[str] = list(setup.items)
        self.item_index = {iid: i for i, iid in enumerate(self.item_ids)}
        self.action_ids: list[str] = []
        self.track_items: list[tuple[str, str]] = []
        self._track_index: dict[tuple[str, str], int] = {}
        self.dice_ids: list[str] = list(setup.dice)
        self.dice_index = {d: i for i, d in enumerate(self.dice_ids)}
        for color in COLORS:
            self._track(("token", color.value))
        self.piece_track = [self._track(self._track_item(state, pid)) for pid in self.piece_ids]
        for iid in self.item_ids:
            self._track(("item", iid))
        self._reveals: dict[tuple[Any, ...], tuple[Setup, Setup]] = {}
        spec = self._build(state)
        self._check_limits(state)
        self.rules = _kernel.Rules(spec, self.kboard)
        self._choices: dict[int, Choice] = {}
        self._codes: dict[Choice, int] = {}

    # -- the draft -----------------------------------------------------------------

    def _draft_tokens(self) -> list[tuple[str, int]]:
        """The tokens the draft's characters and items bring (kind, how many)."""
        draft = self.draft
        if draft is None:
            return []
        found = [t for card in draft.characters for t in card.tokens]
        for iid in draft.item_ids:
            item = self.setup.items.get(iid)
            if item is None:
                raise Unsupported(f"the draft names an item the setup does not hold ({iid})")
            found.extend(item.tokens)
        return found

    def _draft_pieces(self) -> list[str]:
        """Every piece a draft's picks could make (setup_phase.create_pieces): each character
        of the pool, as itself or, when two sides pick it, as "id-side"; each side's tokens."""
        draft = self.draft
        if draft is None:
            return []
        ids = []
        for card in draft.characters:
            ids.append(card.id)
            ids.extend(f"{card.id}-{side}" for side in self.seats)
        for side in self.seats:
            for kind, count in self._draft_tokens():
                ids.extend(f"{kind}-{side}-{n}" for n in range(1, count + 1))
        return list(dict.fromkeys(ids))

    def _draft_rules(self) -> dict[str, Any] | None:
        """The draft as the kernel's tables: the pool, and the pieces each pick makes."""
        draft = self.draft
        if draft is None:
            return None
        if draft.size > PICK_CAP or draft.items > GIFT_CAP:
            raise Unsupported(
                f"a draft of {draft.size} characters and {draft.items} items; the kernel "
                f"holds {PICK_CAP} and {GIFT_CAP}"
            )
        s, number = self._s, self.piece_index

        def tokens(pairs: Sequence[tuple[str, int]], side: str) -> list[tuple[int, ...]]:
            out: list[tuple[int, ...]] = []
            for token_kind, count in pairs:
                kind_name, defense = TOKEN_KINDS.get(token_kind, ("token", None))
                try:
                    kind, role = KINDS.index(Kind(kind_name)), ROLES.index(Role(token_kind))
                except ValueError:
                    raise Unsupported(f"an unknown token '{token_kind}'") from None
                for n in range(1, count + 1):
                    tid = f"{token_kind}-{side}-{n}"
                    out.append((number[tid], kind, role, -1 if defense is None else defense))
            return out

        pool = [
            (
                self._card(c),
                s(c.id),
                s(c.name),
                c.basic,
                [COLORS.index(TokenColor(d)) for d in c.dots],
                number[c.id],
                [number[f"{c.id}-{side}"] for side in self.seats],
                [tokens(c.tokens, side) for side in self.seats],
            )
            for c in draft.characters
        ]
        item_pool = [
            (self.item_index[i], [tokens(self.setup.items[i].tokens, side) for side in self.seats])
            for i in draft.item_ids
        ]
        item_tokens = [-1] * len(self.item_ids)
        for j, iid in enumerate(draft.item_ids):
            if item_tokens[self.item_index[iid]] < 0:
                item_tokens[self.item_index[iid]] = j
        return {
            "secret": draft.secret,
            "size": draft.size,
            "items": draft.items,
            "pool": pool,
            "first": [self._first[c.id] for c in draft.characters],
            "item_pool": item_pool,
            "item_tokens": item_tokens,
        }

    # -- the kernel's limits ----------------------------------------------------------

    def _check_limits(self, state: GameState) -> None:
        """The most this setup can put where the kernel holds a fixed number of things: past
        one, the Python engine plays the game from its start, rather than leave the kernel in
        the middle of it. No shipped setup `build` accepts comes near (docs/performance.md)."""
        points = sum(1 for p in state.pieces.values() if p.role is Role.POINT)
        rivals = {}
        for seat in self.seats:
            characters, companions, minions, tokens, items = self._side_most(state, seat)
            # every ability token, character, companion, point marker, item card, the
            # Champion die and the Blood token on one space
            most = tokens + characters + companions + points + items + 2
            if most > SLOT_CAP:
                raise Unsupported(
                    f"{seat} may put {most} things on one space of its cooldown track; the "
                    f"kernel holds {SLOT_CAP}"
                )
            if characters + companions > RETURN_CAP:
                raise Unsupported(f"{seat} may return {characters + companions} at once")
            rivals[seat] = characters + companions + minions
        challenges = max(
            (sum(1 for st in seq if st.op in CHALLENGES) for seq in self.seqs), default=0
        )
        for seat in self.seats:
            most = sum(n for other, n in rivals.items() if other != seat) + challenges
            if most > TARGETS_CAP:
                raise Unsupported(
                    f"one ability of {seat} may challenge {most} times; the kernel holds "
                    f"{TARGETS_CAP}"
                )
        trial = max((_placements(st) for st in self.steps), default=0)
        pieces = len(state.pieces)
        if self.draft is not None and state.setup.draft is not None:
            pieces += len(self.piece_ids) - len(self.game_pieces)  # all a pick could make
        if pieces + trial > MAX_PIECES:
            raise Unsupported(f"{pieces + trial} pieces; the kernel holds {MAX_PIECES}")

    def _side_most(self, state: GameState, seat: str) -> tuple[int, int, int, int, int]:
        """The most of a side's: characters, companions, minion tokens, ability tokens and
        item cards (its drafted team's, before the draft)."""
        draft = self.draft
        if draft is not None and state.setup.draft is not None:
            dots = sorted((len(c.dots) for c in draft.characters), reverse=True)
            minions = sum(
                count
                for kind, count in self._draft_tokens()
                if TOKEN_KINDS.get(kind, ("token", None))[0] == Kind.MINION.value
            )
            items = min(draft.items, len(set(draft.item_ids)))
            return draft.size, 0, minions, sum(dots[: draft.size]), items
        mine = [p for p in state.pieces.values() if p.side == seat]
        side = state.sides[seat]
        tokens = sum(side.pool.values()) + sum(
            1 for slot in side.track for kind, _ in slot if kind == "token"
        )
        return (
            sum(1 for p in mine if p.is_character),
            sum(1 for p in mine if p.kind is Kind.COMPANION),
            sum(1 for p in mine if p.kind is Kind.MINION),
            tokens,
            len({i for p in mine for i in p.items}),
        )

    def _track_item(self, state: GameState, pid: str) -> tuple[str, str]:
        """What stands for a piece on a cooldown track."""
        piece = state.pieces.get(pid)
        if piece is not None and piece.kind is Kind.COMPANION:
            return ("companion", pid)
        if piece is not None and piece.role is Role.POINT:
            return ("point", pid)
        return ("character", pid)

    # -- interning -----------------------------------------------------------------

    def _s(self, text: str) -> int:
        found = self._index.get(text)
        if found is None:
            found = len(self.strings)
            self.strings.append(text)
            self._index[text] = found
        return found

    def _track(self, item: tuple[str, str]) -> int:
        found = self._track_index.get(item)
        if found is None:
            found = len(self.track_items)
            self.track_items.append(item)
            self._track_index[item] = found
        return found

    def _step(self, st: Step) -> int:
        found = self._step_index.get(st)
        if found is None:
            if st.op not in OPS and st not in self._asks():
                raise Unsupported(f"the kernel does not know the word '{st.op}'")
            found = len(self.steps)
            self.steps.append(st)
            self._step_index[st] = found
            if st.op == "shift_off":
                kind = "die" if st.get("die") else "component"
                self._track((kind, str(st.get(kind, ""))))
            if st.op in ("give_status", "_status"):
                self._s(str(st.get("group", "")))
                self._s(str(st.get("card", "")))
        return found

    def _seq(self, steps: tuple[Step, ...]) -> int:
        found = self._seq_index.get(steps)
        if found is None:
            for st in steps:
                self._step(st)
            found = len(self.seqs)
            self.seqs.append(steps)
            self._seq_index[steps] = found
        return found

    def _ability(self, a: Ability) -> int:
        found = self._ability_index.get(a)
        if found is None:
            self._seq(a.steps)
            found = len(self.abilities)
            self.abilities.append(a)
            self._ability_index[a] = found
            if a.id not in self.ability_ids:
                self.ability_ids.append(a.id)
        return found

    def _asks(self) -> set[Step]:
        return {st for t in self.traits for st in t.trait.asks()}

    def _hooks(self, hooks: Iterable[CardHook]) -> list[int]:
        """The kernel's numbers of a card's traits; a Python hook is the Python engine's."""
        out = []
        for hook in hooks:
            if not isinstance(hook, TraitHook):
                raise Unsupported(f"the kernel does not know the hook '{hook.name}'")
            out.append(self._trait(hook))
        return out

    def _trait(self, hook: TraitHook) -> int:
        if hook in self.traits:
            return self.traits.index(hook)
        if hook.name in self.trait_names:
            raise Unsupported(f"two traits of the game are named '{hook.name}'")
        self.traits.append(hook)
        self.trait_names.append(hook.name)
        trait = hook.trait
        if trait.defense_while is not None:
            self._track(trait.defense_while)
        for trigger in trait.triggers:
            for thing in (trigger.on_track, trigger.off_track):
                if thing is not None:
                    self._track(thing)
            if trigger.ask is not None:
                self._step(trigger.ask)
            for answer in trigger.answers:
                option = Option(trigger.ask.op if trigger.ask else "", answer.word)
                if option not in self.options:
                    self.options.append(option)
            for effect in (
                *trigger.effects,
                *trigger.otherwise,
                *(e for a in trigger.answers for e in a.effects),
            ):
                if effect.thing is not None:
                    self._track(effect.thing)
                if effect.op == "add_die":
                    if effect.die not in self.dice_index:
                        raise Unsupported(f"the die '{effect.die}' is not among the game's dice")
                    if effect.space:
                        self._track(("die", effect.die))
        return len(self.traits) - 1

    def _trait_rows(self) -> list[tuple[Any, ...]]:
        """The kernel's `TraitDef`s (kernel.hpp), in the order of `traits`."""
        s = self._s

        def bits(words: Iterable[str], among: Sequence[str]) -> int:
            return sum(1 << among.index(w) for w in set(words))

        def role(word: str) -> int:
            return ROLES.index(Role(word)) if word else -1

        def thing(item: tuple[str, str] | None) -> int:
            return -1 if item is None else self._track_index[item]

        def effects(rows: Iterable[Effect]) -> list[tuple[Any, ...]]:
            return [
                (
                    EFFECTS.index(e.op),
                    self.dice_index.get(e.die, -1),
                    self._track_index[("die", e.die)] if e.op == "add_die" and e.space
                    else thing(e.thing),
                    e.space,
                    e.by,
                    e.count,
                    s(e.name),
                )
                for e in rows
            ]  # fmt: skip

        rows = []
        for hook in self.traits:
            t = hook.trait
            triggers = [
                (
                    bits(tr.when, WHEN),
                    WHO.index(tr.who),
                    bits(tr.needs, NEEDS),
                    thing(tr.on_track),
                    thing(tr.off_track),
                    s(tr.group) if tr.group else -1,
                    tr.count,
                    tr.optional,
                    self._step(tr.ask) if tr.ask is not None else -1,
                    OFFERS.index(tr.offer) if tr.offer else 0,
                    role(tr.token) if tr.token else 0,
                    [
                        (
                            self.options.index(Option(tr.ask.op if tr.ask else "", a.word)),
                            effects(a.effects),
                        )
                        for a in tr.answers
                    ],
                    tr.times,
                    effects(tr.effects),
                    effects(tr.otherwise),
                )
                for tr in t.triggers
            ]
            rows.append(
                (
                    s(hook.name),
                    s(hook.title),
                    self.status_index.get(hook.card, -1) if hook.card else -1,
                    t.defense,
                    thing(t.defense_while),
                    t.reach,
                    bits(t.reach_for, ("assist", "interact")),
                    role(t.links),
                    t.links_within,
                    role(t.rivals_discard),
                    triggers,
                )
            )
        return rows

    def _card(self, card: CharacterCard) -> int:
        found = self._card_index.get(card)
        if found is None:
            for a in card.abilities:
                self._ability(a)
            self._hooks(card.hooks)
            found = len(self.cards)
            self.cards.append(card)
            self._card_index[card] = found
        return found

    # -- the kernel's rules ------------------------------------------------------------

    def _ints(self, st: Step) -> tuple[int, ...]:
        def plain(name: str) -> int:
            v = st.get(name)
            return (
                v
                if isinstance(v, int) and not isinstance(v, bool) and -30000 < v < 30000
                else NIL16
            )

        reach = st.get("range")
        rng = int(reach) if isinstance(reach, int) and -30000 < reach < 30000 else NIL16
        return (
            plain("squares"),
            rng,
            plain("dice"),
            plain("within"),
            plain("amount"),
            plain("extra_vs_knocked_down"),
        )

    def _step_row(self, st: Step) -> tuple[Any, ...]:
        target = st.get("target")
        bonus = st.get("bonus")
        token_role = 0
        if st.op == "place_token":
            try:
                token_role = ROLES.index(Role(str(st.get("token", ""))))
            except ValueError:
                raise Unsupported(f"an unknown token '{st.get('token')}'") from None
        card = str(st.get("card", ""))
        kinds = 0
        if st.op == "shift_down":
            for word in str(st.get("kinds", "")).split(","):
                for k in SHIFTABLE.get(word.strip(), ()):
                    kinds |= 1 << TRACK_KINDS.index(k)
        shift_item = -1
        if st.op == "shift_off":
            kind = "die" if st.get("die") else "component"
            shift_item = self._track_index[(kind, str(st.get(kind, "")))]
        return (
            OPS.index(st.op) if st.op in OPS else OPS.index("ask"),
            *self._ints(st),
            {None: 0, "different": 1, "same": 2}.get(target, 3)
            if isinstance(target, str) or target is None
            else 3,
            {None: 0, "target_defense": 1, "highest_point_marker": 2}.get(bonus, 3)
            if isinstance(bonus, str) or bonus is None
            else 3,
            bool(st.get("optional", False)),
            bool(st.get("if_won")),
            str(st.get("only", "")) == "point_marker",
            token_role,
            self.status_index.get(card, -1) if card else -1,
            self._s(card) if card else -1,
            self._s(str(st.get("group", ""))),
            kinds,
            shift_item,
        )

    def _build(self, state: GameState) -> dict[str, Any]:
        setup = self.setup
        s = self._s
        # cards in play (or to draft), the setup's status cards, items and companions
        for piece in state.pieces.values():
            if piece.card is not None:
                self._card(piece.card)
        self._first: dict[str, int] = {}  # each card of the draft's pool: its first entry
        for i, drafted in enumerate(self.draft.characters if self.draft is not None else ()):
            self._card(drafted)
            self._first.setdefault(drafted.id, i)
        statuses = []
        groups: list[str] = []
        for card in setup.statuses.values():
            own = [self._ability(a) for a in card.abilities]
            statuses.append((s(card.id), s(card.name), s(card.group), own, self._hooks(card.hooks)))
            if card.group not in groups:
                groups.append(card.group)
        items = []
        for i, (iid, item) in enumerate(setup.items.items()):
            items.append(
                (
                    s(iid),
                    s(item.name),
                    i,
                    item.cost,
                    item.challenge_action,
                    item.basic_action,
                    self._seq(item.steps),
                )
            )
        actions: list[tuple[Any, ...]] = []
        companions = []
        self.companion_ids = list(setup.companions)
        for cid, comp in setup.companions.items():
            own = []
            for action in comp.actions:
                if action.id not in self.action_ids:
                    self.action_ids.append(action.id)
                own.append(len(actions))
                actions.append(
                    (
                        s(action.id),
                        s(action.name),
                        self.action_ids.index(action.id),
                        action.cost,
                        action.challenge_action,
                        action.basic_action,
                        self._seq(action.steps),
                    )
                )
            companions.append((s(cid), own))
        self.bonus_ids = list(setup.bonus_objectives)
        bonuses = [(s(b.id), s(b.name), b.points) for b in setup.bonus_objectives.values()]
        # the step the scenario asks with
        specials = {"step_flag_return": self._step(Step("flag_return"))}
        for st in list(self.steps):
            if st.op == "give_status":
                g = str(st.get("group", ""))
                if g not in groups:
                    groups.append(g)
        status_steps = {g: self._step(Step("_status", (("group", g),))) for g in groups}
        # frames already on the stack name their steps too
        for frame in state.stack:
            if isinstance(frame, fr.StepsFrame):
                self._seq(frame.steps)
            elif isinstance(frame, fr.ChoiceFrame):
                self._step(frame.step)
        # the words events and choices use
        for a in self.abilities:
            s(a.id)
            s(a.name)
        cards = []
        for c in self.cards:
            cards.append(
                (
                    s(c.id),
                    s(c.name),
                    c.defense,
                    c.basic,
                    c.elusive,
                    [self._ability_index[a] for a in c.abilities],
                    self._hooks(c.hooks),
                )
            )
        abilities = [
            (
                s(a.id),
                s(a.name),
                self.ability_ids.index(a.id),
                COLORS.index(TokenColor(a.color)),
                a.cost,
                a.cost_vs_knocked_down,
                a.challenge_action,
                a.while_knocked_down,
                a.while_knocked_out,
                a.declare_target,
                self._seq_index[a.steps],
            )
            for a in self.abilities
        ]
        steps_rows = [self._step_row(st) for st in self.steps]
        for color in COLORS:
            s(color.value)
        words = []
        draft_names = {
            pid: c.name
            for c in (self.draft.characters if self.draft is not None else ())
            for pid in (c.id, *(f"{c.id}-{side}" for side in self.seats))
        }
        # any die of the setup may go on a track, or the component named after it (a
        # position may hold one that no card of the game places); numbered after the others
        for die in self.dice_ids:
            self._track(("die", die))
            self._track(("component", die))
        for kind, ref in self.track_items:
            if kind == "character" and ref not in state.pieces and ref in draft_names:
                words.append(s(draft_names[ref]))  # a piece the draft may make: its card's name
            else:
                words.append(s(track_module.describe(state, (kind, ref))))
        track_items = []
        for (thing, ref), w in zip(self.track_items, words, strict=True):
            holder = (
                self.piece_index.get(ref, -1)
                if thing in ("character", "companion", "point")
                else -1
            )
            hue = COLORS.index(TokenColor(ref)) if thing == "token" else 0
            track_items.append((TRACK_KINDS.index(thing), s(ref), w, holder, hue))
        sc = setup.scenario
        target = sc.points_to_win(state)
        per_side = max((len(t.characters) for t in setup.teams), default=0)
        misc = [s(m or "") for m in MISC]
        traits = self._trait_rows()
        options = [(s(o.word), s(o.value)) for o in self.options]
        leader_why = []
        for who in ("ally", "leader"):
            for whom in ("rival", "leader"):
                why = {"leader": "your leader", "ally": "your leader's ally"}[who]
                words_ = {"leader": "a rival leader", "rival": "a rival"}[whom]
                leader_why.append(s(f"{why} knocks out {words_}"))
        status_in_play = [
            s(f"the {setup.statuses[sid].name} status card is in play") for sid in self.status_ids
        ]
        group_every = {g: s(f"every {g} status card is in play") for g in groups}
        point_why = {}
        for pid, piece in state.pieces.items():
            if piece.role is Role.POINT:
                point_why[pid] = s(f"point marker {piece.ref}")
        for piece in state.pieces.values():
            if piece.ref:
                s(piece.ref)
            if piece.owner:
                s(piece.owner)
        for letter in setup.board.point_squares:
            s(letter)
        areas = sorted(control_areas(state).items())
        control = [(s(name), list(squares)) for name, squares in areas]
        self.control_names = [name for name, _ in areas]
        role_name = [s(TOKEN_NAMES.get(r, r.value)) for r in ROLES]
        for d in self.dice_ids:
            s(d)
        s("?")
        draft = self._draft_rules()
        # every string is in; now the maps from strings
        n = len(self.strings)

        def by_string(mapping: dict[str, int]) -> list[int]:
            out = [-1] * n
            for text, value in mapping.items():
                if text in self._index:
                    out[self._index[text]] = value
            return out

        leaders = leader_squares(state)
        board = setup.board
        spec = {
            "strings": self.strings,
            "nsides": len(self.seats),
            "side_str": [s(x) for x in self.seats],
            "side_rank": [sorted(self.seats).index(x) for x in self.seats],
            "start_area": [
                list(
                    next(
                        (board.start_areas.get(t.area, ()) for t in setup.teams if t.side == side),
                        (),
                    )
                )
                for side in self.seats
            ],
            "ultimate": [
                any(t.ultimate for t in setup.teams if t.side == side) for side in self.seats
            ],
            "steps": steps_rows,
            "seqs": [[self._step_index[st] for st in seq] for seq in self.seqs],
            "abilities": abilities,
            "cards": cards,
            "statuses": statuses,
            "items": items,
            "actions": actions,
            "companions": companions,
            "bonuses": bonuses,
            "track_items": track_items,
            "dice_ids": [s(d) for d in self.dice_ids],
            "die_standard": self.dice_index.get("standard", -1),
            "scenario": (
                sc.point_markers,
                sc.adjacent_knockout_points,
                sc.first_knockout_wins,
                sc.immediate_target,
                sc.flags,
                sc.leaders,
                sc.control,
                sc.knockout_points,
                NIL if sc.target_two is None else sc.target_two,
                NIL if sc.target_three is None else sc.target_three,
            ),
            "target_points": target if target is not None else NIL,
            "per_side": per_side,
            "npieces": len(self.piece_ids),
            "piece_id": [s(p) for p in self.piece_ids],
            "piece_rank": self.piece_rank,
            "piece_of_string": by_string(self.piece_index),
            "companion_of_string": by_string({c: i for i, c in enumerate(self.companion_ids)}),
            "bonus_of_string": by_string({b: i for i, b in enumerate(self.bonus_ids)}),
            "status_of_string": by_string(self.status_index),
            "item_of_string": by_string(self.item_index),
            "point_square_of_string": by_string(dict(board.point_squares)),
            "flag_square": [-1] * len(self.seats),
            "leader_square": [leaders.get(side, -1) for side in self.seats],
            "control_areas": control,
            "s_empty": s(""),
            "traits": traits,
            "options": options,
            "color_str": [s(c.value) for c in COLORS],
            "status_in_play_why": status_in_play,
            "group_every_why": by_string(group_every),
            "point_marker_why": [point_why.get(p, -1) for p in self.piece_ids],
            "leader_why": leader_why,
            "misc": misc,
            "role_name": role_name,
            **specials,
            "status_step_of_group": by_string(status_steps),
            "token_item": [self._track_index[("token", c.value)] for c in COLORS],
            "item_track_item": [self._track_index[("item", i)] for i in self.item_ids],
            "piece_track_item": self.piece_track,
            "draft": draft,
        }
        if len(self.strings) != n:  # pragma: no cover - a string interned too late
            raise AssertionError("the kernel's strings changed after they were numbered")
        return spec

    # -- positions -----------------------------------------------------------------------
