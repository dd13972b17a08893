"""The rulebooks' text, section by section (`data/rules/*.toml`), and the section a rule the
game cites is in.

Each file is one rulebook as its headings divide it, written from the rulebook's text by
`tools/rulebooks.py`: every section has an id, its heading, the top heading it is under
and its text. The game page shows a rule's section one tap from the log line that applies
it ("Glossary: Shift Off", "Taking a Turn, step 4", "Flags: Rules"), and every section on
its "How to play" page.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from funkoverse.content.catalog import cards
from funkoverse.content.fields import DATA, need, only_fields, read_toml, where
from funkoverse.errors import UserError

RULES = DATA / "rules"


@dataclass(frozen=True)
class Section:
    """One section of a rulebook: `id` is unique in its book."""

    book: str  # the file's id: "dc-comics-102"
    box: str  # the box as the content names it: "DC Comics 102"
    id: str
    title: str
    part: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {
            "book": self.book,
            "box": self.box,
            "id": self.id,
            "title": self.title,
            "part": self.part,
            "text": self.text,
        }


@dataclass(frozen=True)
class Book:
    id: str
    box: str
    title: str
    sections: tuple[Section, ...]


def _book(path_id: str, data: dict[str, Any], name: str) -> Book:
    only_fields(data, {"book", "title", "sections"}, name)
    box = need(data, "book", str, name, "the box the rulebook comes in")
    title = need(data, "title", str, name, "the rulebook's title")
    raw = need(data, "sections", list, name, "a list of [[sections]]")
    sections = []
    seen: set[str] = set()
    for i, s in enumerate(raw):
        at = f"{name}: sections[{i}]"
        if not isinstance(s, dict):
            raise UserError(f"{at}: expected a table with id, title, part and text")
        only_fields(s, {"id", "title", "part", "text"}, at)
        sid = need(s, "id", str, at, "a section id")
        if sid in seen:
            raise UserError(f"{at}: field 'id': '{sid}' is already a section of this book")
        seen.add(sid)
        text = need(s, "text", str, at, "the section's text")
        if not text.strip():
            raise UserError(f"{at}: field 'text': a section needs its text")
        heading = need(s, "title", str, at, "the section's heading")
        part = need(s, "part", str, at, "the top heading it is under")
        sections.append(Section(path_id, box, sid, heading, part, text))
    return Book(path_id, box, title, tuple(sections))


@cache
def rulebooks() -> tuple[Book, ...]:
    """Every rulebook shipped, the two first games' boxes first."""
    order = ("dc-comics-102", "universal-monsters-100")
    paths = sorted(
        RULES.glob("*.toml"),
        key=lambda p: (order.index(p.stem) if p.stem in order else len(order), p.stem),
    )
    return tuple(_book(p.stem, read_toml(p), where(p)) for p in paths)


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("&", "and").replace(".", "").split())


def _titled(title: str) -> Section | None:
    want = _norm(title)
    for book in rulebooks():
        for s in book.sections:
            if _norm(s.title) == want:
                return s
    return None


@cache
def find(cite: str) -> Section | None:
    """The section a rule citation is in: "Glossary: Away" (the glossary's entry), "FAQ,
    Timing: ..." (the questions on timing), "Taking a Turn, step 4" and "Flags: Rules" (the
    section of that heading), "Ultimate Mode Rules" (the nearest heading that starts it)."""
    head, _, rest = cite.partition(": ")
    first = head.split(", ")[0]
    if _norm(first) in ("faq", "frequently asked questions"):
        topic = head.split(", ")[1] if ", " in head else rest
        return _titled(topic)
    if _norm(first) == "glossary" and rest:
        return _titled(rest)
    for candidate in (cite, head, first):
        found = _titled(candidate)
        if found is not None:
            return found
    words = first.split()
    while len(words) > 1:
        words.pop()
        found = _titled(" ".join(words))
        if found is not None:
            return found
    return None


def rule_text(cite: str) -> dict[str, Any] | None:
    """What a page shows for a rule the game cites: the rulebook's section, or, for a trait
    or a status card that the log names ("Champion of Themyscira", "Sneaking"), its card's
    words. None when neither holds it."""
    section = find(cite)
    if section is not None:
        return {"cite": cite, **section.to_json()}
    want = _norm(cite)
    for cid, card in cards().items():
        trait = card.get("trait")
        if trait and _norm(trait["name"]) == want:
            title = f"{trait['name']} ({card['name']}'s trait)"
            text = trait["text"]
        elif card.get("kind") == "status card" and _norm(card["name"]) == want:
            title, text = f"{card['name']} (status card)", card["text"]
        else:
            continue
        return {
            "cite": cite,
            "book": None,
            "box": card["box"],
            "id": cid,
            "title": title,
            "part": "Cards",
            "text": text,
        }
    return None
