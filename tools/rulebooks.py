"""Write the rulebooks' text, section by section, as the package's content data.

    python tools/rulebooks.py ../shared/rules src/funkoverse/content/data/rules

Each rulebook (a text file: a table of contents, then the sections under their headings)
becomes one TOML file of sections: its headings as the book heads them, each scenario card
of a "Scenario Cards" section and each glossary entry a section of its own, so that a rule
the game cites ("Glossary: Shift Off", "Flags: Rules") is one section. The text is the
rulebook's own, unchanged but for joined lines. The game page shows these sections (a
rule's text one tap from the log, and "How to play"); `funkoverse.content.rulebooks`
loads and checks them.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

BOOKS = {
    "dc-comics-102": "DC Comics 102",
    "universal-monsters-100": "Universal Monsters 100",
    "space-jam-a-new-legacy-100": "Space Jam: A New Legacy 100",
}
_CARD = re.compile(r"^([A-Z][\w' ]{2,30}) — ")
_ENTRY = re.compile(r"^(?:• )?\*?([A-Z][\w /,'&()-]{1,60}?): ")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _heading(lines: list[str], i: int) -> bool:
    line = lines[i].strip()
    return (
        bool(line)
        and (i == 0 or not lines[i - 1].strip())
        and len(line) < 60
        and "\t" not in line
        and (not line.endswith((".", ":", ";", ",")) or line == "F.A.Q.")
        and not line.startswith(("•", "Table of Contents"))
        and not line[0].isdigit()
    )


_SMALL = {"a", "an", "and", "as", "of", "or", "the", "to", "with"}


def _title(term: str) -> str:
    """A glossary term as a heading: "SHIFT DOWN/UP" -> "Shift Down/Up"."""
    if not term.isupper():
        return term
    words = term.lower().split(" ")
    return " ".join(
        w if i and w in _SMALL else "/".join(p[:1].upper() + p[1:] for p in w.split("/"))
        for i, w in enumerate(words)
    )


def split(text: str) -> tuple[str, list[dict[str, str]]]:
    """The book's title and its sections: id, title, part (the top heading it is under) and
    text (paragraphs separated by blank lines)."""
    lines = text.splitlines()
    book_title = lines[0].strip()
    first = max(i for i, x in enumerate(lines[:10]) if x.strip() == "Table of Contents") + 1
    while not lines[first].strip():
        first += 1
    start = first
    while start < len(lines) and (lines[start].lstrip().startswith("• ") or not lines[start]):
        start += 1
    tops = {x[2:].strip() for x in lines[first:start] if x.startswith("• ")}
    sections: list[dict[str, str]] = []
    part = ""
    current: dict[str, str] | None = None
    body: list[str] = []

    def close() -> None:
        if current is not None:
            current["text"] = "\n\n".join(p for p in "\n".join(body).split("\n\n") if p.strip())
            sections.append(current)

    container = ""  # a heading whose paragraphs are sections of their own
    for i in range(start, len(lines)):
        line = lines[i].strip()
        if _heading(lines, i):
            close()
            if line in tops:
                part = line
            container = line if line == "Glossary" or line.startswith("Scenario Cards") else ""
            current, body = {"title": line, "part": part}, []
            continue
        found = (_CARD if container.startswith("Scenario") else _ENTRY).match(line)
        if container and found and (line.startswith("•") or not lines[i - 1].strip()):
            close()
            current, body = {"title": _title(found.group(1)), "part": container}, [line]
            continue
        body.append(line)
    close()
    seen: dict[str, int] = {}
    for s in sections:
        sid = _slug(s["title"]) or "section"
        seen[sid] = seen.get(sid, 0) + 1
        s["id"] = sid if seen[sid] == 1 else f"{sid}-{seen[sid]}"
    return book_title, [s for s in sections if s["text"]]


def _string(text: str) -> str:
    return '"""\n' + text.replace("\\", "\\\\").replace('"""', '\\"""') + '"""'


def write(source: Path, out: Path, book_id: str) -> int:
    title, sections = split(source.read_text(encoding="utf-8"))
    rows = [
        f"# {title}: the rulebook's text, section by section as its headings divide it",
        "# (written by tools/rulebooks.py from the rulebook's text; the words are the",
        "# rulebook's own, lines joined). Shown by the game page's rule texts and How to play.",
        f'book = "{BOOKS[book_id]}"',
        f'title = "{title}"',
        "",
    ]
    for s in sections:
        rows += [
            "[[sections]]",
            f'id = "{s["id"]}"',
            f'title = "{s["title"]}"',
            f'part = "{s["part"]}"',
            f"text = {_string(s['text'])}",
            "",
        ]
    (out / f"{book_id}.toml").write_text("\n".join(rows), encoding="utf-8")
    return len(sections)


def main(argv: list[str]) -> None:
    source, out = Path(argv[1]), Path(argv[2])
    out.mkdir(parents=True, exist_ok=True)
    for book_id in BOOKS:
        n = write(source / f"{book_id}.txt", out, book_id)
        print(f"{book_id}: {n} sections")


if __name__ == "__main__":
    main(sys.argv)
