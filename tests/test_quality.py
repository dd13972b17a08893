"""Lint and type checks are part of the test suite: ruff everywhere, mypy strict on the rules core."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing() -> None:
    result = _run(sys.executable, "-m", "ruff", "check", "src", "tests")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_applied() -> None:
    result = _run(sys.executable, "-m", "ruff", "format", "--check", "src", "tests")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_the_rules_core() -> None:
    result = _run(sys.executable, "-m", "mypy")
    assert result.returncode == 0, result.stdout + result.stderr


# ---------------------------------------------------------------- one owner for each seam

import ast  # noqa: E402
import re  # noqa: E402

SRC = ROOT / "src" / "funkoverse"
CHOICE_WORDS = (
    "first|roll|pick|give|leader|place|return|choose|move|challenge|assist|interact|ability|"
    "item|companion|companion-action|target|push|pull|carry|put|token|status|shift|shiftoff|"
    "minion|flag|champion|blood"
)
_ID = re.compile(rf"^({CHOICE_WORDS}):[\w:.-]*$")
_PREFIX = re.compile(rf"^({CHOICE_WORDS}):$")
_ROLE_PREFIXES = ("point-", "flag-", "control-", "bonus-", "tunnel-", "minion-")


def _code_strings(tree: ast.AST) -> tuple[set[int], list[ast.AST]]:
    """Docstring nodes (to skip) and every node of the tree."""
    docs: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
    return docs, list(ast.walk(tree))


def _modules() -> list[tuple[str, ast.AST]]:
    return [
        (str(path.relative_to(SRC)), ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted(SRC.rglob("*.py"))
    ]


def test_no_code_outside_rules_choices_splits_or_formats_a_choice_id() -> None:
    """A choice is a value (rules/core/choices.py): nothing else splits an id at its colons, builds
    one in an f-string, or spells one out as a string."""
    found = []
    for name, tree in _modules():
        if name == "rules/core/choices.py":
            continue
        docs, nodes = _code_strings(tree)
        for node in nodes:
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr in ("partition", "rpartition", "split", "rsplit") and any(
                    isinstance(a, ast.Constant) and a.value == ":" for a in node.args
                ):
                    found.append(f"{name}:{node.lineno} splits at ':'")
            elif isinstance(node, ast.JoinedStr) and node.values:
                head = node.values[0]
                if (
                    isinstance(head, ast.Constant)
                    and isinstance(head.value, str)
                    and _PREFIX.match(head.value)
                ):
                    found.append(f"{name}:{node.lineno} formats an id f'{head.value}...'")
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docs
                and _ID.match(node.value)
            ):
                found.append(f"{name}:{node.lineno} spells out the id '{node.value}'")
    assert not found, "\n".join(found)


def test_no_code_reads_a_markers_role_from_its_id() -> None:
    """Markers and tokens carry their role (`Piece.role`); no code reads it from an id's
    prefix."""
    found = []
    for name, tree in _modules():
        if name == "rules/core/choices.py":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                args = [a.value for a in node.args if isinstance(a, ast.Constant)]
                if node.func.attr in ("startswith", "removeprefix") and any(
                    isinstance(a, str) and a.startswith(_ROLE_PREFIXES) for a in args
                ):
                    found.append(f"{name}:{node.lineno} reads a role from an id")
                if node.func.attr == "rsplit" and "-" in args:
                    found.append(f"{name}:{node.lineno} cuts an id at '-'")
    assert not found, "\n".join(found)


def test_only_rules_view_decides_what_a_seat_may_see() -> None:
    """rules/core/view.py is the one filter: nothing else hides a pick (`HIDDEN`) or reads whether
    an event or a logged choice is a secret."""
    found = []
    # the store keeps an entry's flag as it is, and decides nothing with it; the soak's leak
    # checker reads the flags to check the filter's work, and hides nothing
    allowed_secret = {
        "rules/core/view.py",
        "rules/session.py",
        "rules/core/events.py",
        "rules/core/spec.py",
        "server/store.py",
        "soak/secrecy.py",
    }
    for name, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == "HIDDEN" and name != "rules/core/view.py":
                found.append(f"{name}:{node.lineno} uses HIDDEN")
            if (
                isinstance(node, ast.Attribute)
                and node.attr == "secret"
                and isinstance(node.ctx, ast.Load)
                and name not in allowed_secret
                and not (
                    isinstance(node.value, ast.Name) and node.value.id in ("draft", "d", "request")
                )
                and not (name == "server/models.py" and isinstance(node.value, ast.Name))
            ):
                found.append(f"{name}:{node.lineno} reads .secret")
    assert not found, "\n".join(found)
