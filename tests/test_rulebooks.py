"""The rulebooks' text shipped with the package (content/data/rules, content/rulebooks.py):
every rule the game cites opens a section of a rulebook or a card, the files are checked as
they are read, and the server gives them to the page, with a finished game's result and its
rounds for the lobby and the replay."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from funkoverse.content.rulebooks import _book, find, rule_text, rulebooks
from funkoverse.errors import UserError
from funkoverse.rules.core.events import RULES
from serverclient import SHORT_GAME, new_game, play_out, served

SRC = Path(__file__).resolve().parent.parent / "src" / "funkoverse"


def cited_in_code() -> set[str]:
    """Every rule an event may cite: each kind's, and each `rule="..."` a hook or step
    gives."""
    found = {r for r in RULES.values() if r}
    for path in [*(SRC / "rules").glob("*.py"), *(SRC / "content" / "hooks").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.keyword)
                and node.arg == "rule"
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
            ):
                found.add(node.value.value)
    return found


@pytest.mark.parametrize("cite", sorted(cited_in_code()))
def test_every_rule_the_log_cites_opens_its_text(cite: str) -> None:
    found = rule_text(cite)
    assert found is not None, cite
    assert found["text"].strip() and found["title"]


def test_a_citation_finds_the_section_it_names() -> None:
    assert find("Taking a Turn, step 4").title == "Taking a Turn"  # type: ignore[union-attr]
    assert "Exhaust your character" in find("Taking a Turn, step 4").text  # type: ignore[union-attr]
    assert find("Glossary: Shift Off").title == "Shift Off"  # type: ignore[union-attr]
    assert find("Flags: Rules").title == "Flags"  # type: ignore[union-attr]
    timing = find("FAQ, Timing: knocked down in the middle of an action")
    assert timing is not None and "knocked down in the middle" in timing.text
    assert find("No Such Rule Anywhere") is None


def test_each_book_is_whole_and_its_ids_unique() -> None:
    books = rulebooks()
    assert [b.id for b in books][:2] == ["dc-comics-102", "universal-monsters-100"]
    for b in books:
        ids = [s.id for s in b.sections]
        assert len(ids) == len(set(ids)) and len(ids) > 40, b.id
        assert b.title.startswith("Funkoverse Strategy Game")


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"book": "X", "title": "T"}, "field 'sections' is missing"),
        (
            {"book": "X", "title": "T", "sections": [{"id": "a", "title": "A", "part": ""}]},
            "'text'",
        ),
        (
            {
                "book": "X",
                "title": "T",
                "sections": [
                    {"id": "a", "title": "A", "part": "", "text": "t"},
                    {"id": "a", "title": "B", "part": "", "text": "u"},
                ],
            },
            "already a section",
        ),
        ({"book": "X", "title": "T", "sections": [], "extra": 1}, "'extra' is not known"),
    ],
)
def test_a_damaged_rulebook_file_is_refused_naming_the_file_and_field(
    data: dict[str, Any], said: str
) -> None:
    with pytest.raises(UserError, match=r"rules/x\.toml") as caught:
        _book("x", data, "rules/x.toml")
    assert said in str(caught.value)


def test_the_server_gives_the_rules_and_the_result_of_a_game(tmp_path: Path) -> None:
    with served(tmp_path / "games.db") as client:
        books = client.get("/api/rules").json()["books"]
        assert {b["id"] for b in books} >= {"dc-comics-102", "universal-monsters-100"}
        found = client.get("/api/rules/find", params={"cite": "Glossary: Shift Off"}).json()
        assert found["title"] == "Shift Off" and found["text"]
        missing = client.get("/api/rules/find", params={"cite": "Nowhere"})
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
        page = client.get("/rules")
        assert page.status_code == 200 and "rules.js" in page.text

        gid, tokens = new_game(client, **SHORT_GAME)
        for path in ("result", "rounds"):
            early = client.get(f"/api/games/{gid}/{path}")
            assert early.status_code == 409 and early.json()["error"]["code"] == "not_finished"
        v = play_out(client, gid, tokens)
        chapters = client.get(f"/api/games/{gid}/rounds").json()
        assert chapters["undone"] == [] and chapters["rounds"][0]["round"] == 1
        assert [r["round"] for r in chapters["rounds"]] == list(range(1, v["state"]["round"] + 1))
        result = client.get(f"/api/games/{gid}/result").json()
        assert result["winner"] == v["winner"]
        assert result["points"] == {s: v["state"]["sides"][s]["points"] for s in ("dark", "light")}
        assert result["round"] == v["state"]["round"]
