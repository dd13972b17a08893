"""A card's text for a person: characters, items, status cards and companions in play."""

from __future__ import annotations

from rich.text import Text

from funkoverse.rules import CharacterCard, GameState, ItemCard, StatusCard
from funkoverse.rules.core.cards import Ability, CompanionCard

Card = CharacterCard | ItemCard | StatusCard | CompanionCard


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def find_card(state: GameState, name: str) -> Card | None:
    """The card `name` means (a name or id, any case, or the start of one): a character of
    this game, an item, a status card or a companion."""
    wanted = _key(name)
    if not wanted:
        return None
    cards: list[Card] = []
    for p in state.pieces.values():
        if p.card is not None and p.kind.value in ("character", "basic") and p.card not in cards:
            cards.append(p.card)
    cards.extend(state.setup.items.values())
    cards.extend(state.setup.statuses.values())
    cards.extend(state.setup.companions.values())
    for exact in (True, False):
        for card in cards:
            keys = (_key(card.name), _key(card.id), _key(card.name.removeprefix("The ")))
            if any(k == wanted if exact else k.startswith(wanted) for k in keys):
                return card
    return None


def _ability(a: Ability) -> str:
    star = " ✷ (challenge action)" if a.challenge_action else ""
    return f"  {a.name}{star} — {a.color.value} {a.cost}: {a.text}"


def card_text(state: GameState, card: Card) -> Text:
    """The card as printed: defense, ability dots, abilities and trait; or an item's,
    status card's or companion's text."""
    out = Text()
    out.append(card.name, style="bold")
    out.append(f" ({card.box})\n")
    if isinstance(card, CharacterCard):
        kind = "basic character" if card.basic else "character"
        dots = ", ".join(c.value for c in card.dots) or "none"
        out.append(f"  {kind}; defense {card.defense}; ability dots: {dots}\n")
        if card.basic:
            out.append(
                "  Move 2, challenge an adjacent rival with 2 dice, assist, interact, rally; no "
                "abilities or traits, no items (Basic Characters)\n"
            )
        for a in card.abilities:
            out.append(_ability(a) + "\n")
        if card.trait_name:
            out.append(f"  Trait, {card.trait_name}: {card.trait_text}\n")
    elif isinstance(card, ItemCard):
        use = (
            f"use-item action, card on the {card.cost} of the cooldown track"
            if card.cost
            else "no use-item icon"
        )
        star = "; a challenge action" if card.challenge_action else ""
        out.append(f"  item: {use}{star}\n  {card.text}\n")
    elif isinstance(card, StatusCard):
        out.append(
            f"  status card{f' ({card.group})' if card.group else ''}: {card.text or card.trait_text}\n"
        )
        for a in card.abilities:
            out.append(_ability(a) + "\n")
    else:
        out.append(f"  companion; defense {card.defense}: {card.text}\n")
    out.rstrip()
    return out
