"""The board as an RGB array: the game page's drawing (`web/board.js`), rasterised.

It draws from what the page draws from (`board_to_json` and `view_to_json`), in the page's
colours and shapes: light squares with faint coordinates, starting areas tinted in their
side's colour, blocked squares filled, obscured terrain hatched, walls thick and dark with
their posts, point markers as lettered discs, flags and control markers in their side's
colour, characters as round pieces in their side's colour with their two- or three-letter
name (tipped and faded when knocked down, a moon when exhausted, a ring on the active one).
The scenario's layers that the page shows only for some rules (control areas, leader
squares) and the page's interactive marks are left out.

Pillow draws the shapes and the letters, at three times the size and then scaled down, so
edges are smooth. Pillow is a single wheel with no dependencies; without it the letters
would need a bitmap font of our own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from funkoverse.rules import GameState, board_to_json, view_to_json

M = 0.45  # the margin for the coordinates, in squares (board.js)
SUPERSAMPLE = 3
SIDE_COLORS = {  # web/api.js
    "dark": "#6a3fa5",
    "light": "#d99a1e",
    "seat1": "#6a3fa5",
    "seat2": "#d99a1e",
    "seat3": "#1f8f86",
    "seat4": "#c2456d",
}
PAPER = "#f6f1e7"
INK = "#211d1a"
WALL = "#2a2420"
BLOCKED = "#8a8073"
GRID = "#d7ccb9"
COORD = "#a99c88"
HATCH = "#6b7f6a"
THING = "#8d8577"

Image = npt.NDArray[np.uint8]


def side_color(side: str | None) -> str:
    return SIDE_COLORS.get(side or "", "#555555")


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def _mix(color: str, under: str, alpha: float) -> tuple[int, int, int]:
    """`color` at `alpha` over `under` (the page's '#rrggbb33' tints and faded pieces)."""
    a, b = _rgb(color), _rgb(under)
    r, g, bl = (round(alpha * x + (1 - alpha) * y) for x, y in zip(a, b, strict=True))
    return r, g, bl


def short_name(name: str) -> str:
    """Two letters of a character's name, as the page writes them (board.js shortName)."""
    base = re.sub(r"\s*\(.*\)$", "", name)
    words = [w for w in base.split() if w.lower() != "the"]
    if len(words) >= 2 and words[1].lower() != "of":
        return words[0][0].upper() + words[1][0].lower()
    w = words[0] if words else base
    return w[:1].upper() + w[1:2].lower()


def piece_labels(characters: Sequence[dict[str, Any]]) -> dict[str, str]:
    """Each character's label, with a numeral when two share a name (board.js pieceLabels)."""
    by_name: dict[str, list[str]] = {}
    for c in characters:
        by_name.setdefault(re.sub(r"\s*\(.*\)$", "", c["name"]), []).append(c["id"])
    out = {}
    for c in characters:
        same = by_name[re.sub(r"\s*\(.*\)$", "", c["name"])]
        out[c["id"]] = short_name(c["name"]) + (
            str(same.index(c["id"]) + 1) if len(same) > 1 else ""
        )
    return out


def _xy(label: str | None) -> tuple[int, int] | None:
    found = re.fullmatch(r"([a-z]+)(\d+)", label or "")
    if found is None:
        return None
    x = 0
    for ch in found[1]:
        x = x * 26 + ord(ch) - 96
    return x - 1, int(found[2]) - 1


def _column_letters(x: int) -> str:
    out = ""
    n = x + 1
    while n:
        r = (n - 1) % 26
        out = chr(97 + r) + out
        n = (n - 1) // 26
    return out


class _Canvas:
    """Pillow's drawing in the page's units: one square is 1.0, the margin `M`."""

    def __init__(self, width: float, height: float, square: int) -> None:
        from PIL import Image as PILImage
        from PIL import ImageDraw

        self.k = square * SUPERSAMPLE
        self.size = (round(width * self.k), round(height * self.k))
        self.image = PILImage.new("RGB", self.size, _rgb(PAPER))
        self.draw = ImageDraw.Draw(self.image)
        self.fonts: dict[int, Any] = {}

    def p(self, x: float, y: float) -> tuple[float, float]:
        return x * self.k, y * self.k

    def w(self, width: float) -> int:
        return max(1, round(width * self.k))

    def rect(self, x: float, y: float, w: float, h: float, **kw: Any) -> None:
        if "width" in kw:
            kw["width"] = self.w(kw["width"])
        self.draw.rectangle((*self.p(x, y), *self.p(x + w, y + h)), **kw)

    def circle(self, cx: float, cy: float, r: float, **kw: Any) -> None:
        if "width" in kw:
            kw["width"] = self.w(kw["width"])
        self.draw.ellipse((*self.p(cx - r, cy - r), *self.p(cx + r, cy + r)), **kw)

    def line(self, x1: float, y1: float, x2: float, y2: float, color: Any, width: float) -> None:
        self.draw.line((*self.p(x1, y1), *self.p(x2, y2)), fill=color, width=self.w(width))

    def polygon(self, points: Sequence[tuple[float, float]], **kw: Any) -> None:
        if "width" in kw:
            kw["width"] = self.w(kw["width"])
        self.draw.polygon([self.p(x, y) for x, y in points], **kw)

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float,
        color: Any,
        anchor: str = "mm",
        angle: int = 0,
    ) -> None:
        from PIL import Image as PILImage
        from PIL import ImageDraw, ImageFont

        px = max(6, round(size * self.k))
        if px not in self.fonts:
            self.fonts[px] = ImageFont.load_default(size=px)
        font = self.fonts[px]
        if not angle:
            self.draw.text(self.p(x, y), text, fill=color, font=font, anchor=anchor)
            return
        patch = PILImage.new("RGBA", (4 * px, 4 * px), (0, 0, 0, 0))
        ImageDraw.Draw(patch).text(
            (2 * px, 2 * px), text, fill=(*color, 255), font=font, anchor="mm"
        )
        patch = patch.rotate(angle)
        px_x, px_y = self.p(x, y)
        self.image.paste(patch, (round(px_x) - 2 * px, round(px_y) - 2 * px), patch)

    def array(self) -> Image:
        from PIL import Image as PILImage

        small = self.image.resize(
            (self.size[0] // SUPERSAMPLE, self.size[1] // SUPERSAMPLE), PILImage.Resampling.LANCZOS
        )
        return np.asarray(small, dtype=np.uint8).copy()


def render(state: GameState, square: int = 40) -> Image:
    """The board of `state` (a view: draw what its seat may see) as a (height, width, 3)
    uint8 array, `square` pixels a square."""
    board = board_to_json(state.board)
    view = view_to_json(state)
    width, height = board["width"], board["height"]
    c = _Canvas(width + 2 * M, height + 2 * M, square)
    _squares(c, board)
    c.rect(M, M, width, height, outline=_rgb(WALL), width=0.1)
    _walls(c, board)
    for x in range(width):
        c.text(M + x + 0.5, M - 0.22, _column_letters(x), 0.24, _rgb(COORD))
    for y in range(height):
        c.text(M - 0.12, M + y + 0.5, str(y + 1), 0.24, _rgb(COORD), anchor="rm")
    for thing in view["things"]:
        _thing(c, thing)
    labels = piece_labels(view["characters"])
    for piece in view["characters"]:
        _piece(c, piece, labels[piece["id"]], piece["id"] == view["active"])
    return c.array()


def _squares(c: _Canvas, board: dict[str, Any]) -> None:
    fill: dict[str, tuple[int, int, int]] = {}
    for side, squares in board["start_areas"].items():
        for label in squares:
            fill[label] = _mix(side_color(side), PAPER, 0x33 / 255)
    blocked = set(board["blocked"])
    for y in range(board["height"]):
        for x in range(board["width"]):
            label = _column_letters(x) + str(y + 1)
            color = _rgb(BLOCKED) if label in blocked else fill.get(label, _rgb(PAPER))
            c.rect(M + x, M + y, 1, 1, fill=color, outline=_rgb(GRID), width=0.012)
    hatch = _mix(HATCH, PAPER, 0.45)
    for label in board["obscured"]:
        found = _xy(label)
        if found is None:
            continue
        x, y = found
        for k in range(1, 10):  # lines at 45 degrees, 0.2 apart (the page's pattern)
            t = k * 0.2
            a = (M + x + max(0.0, t - 1), M + y + min(1.0, t))
            b = (M + x + min(1.0, t), M + y + max(0.0, t - 1))
            c.line(*a, *b, hatch, 0.05)


def _walls(c: _Canvas, board: dict[str, Any]) -> None:
    ends: set[tuple[int, int]] = set()
    for a, b in board["walls"]:
        pa, pb = _xy(a), _xy(b)
        if pa is None or pb is None:
            continue
        (ax, ay), (bx, by) = pa, pb
        if ay == by:
            x = max(ax, bx)
            x1, y1, x2, y2 = x, ay, x, ay + 1
        else:
            y = max(ay, by)
            x1, y1, x2, y2 = ax, y, ax + 1, y
        c.line(M + x1, M + y1, M + x2, M + y2, _rgb(WALL), 0.09)
        for px, py in ((x1, y1), (x2, y2)):
            c.circle(M + px, M + py, 0.045, fill=_rgb(WALL))  # round caps
            ends.add((px, py))
    w, h = board["width"], board["height"]
    for cx, cy in board["points"]:
        if 0 < cx < w and 0 < cy < h and (cx, cy) not in ends:
            c.rect(M + cx - 0.07, M + cy - 0.07, 0.14, 0.14, fill=_rgb(WALL))


def _thing(c: _Canvas, t: dict[str, Any]) -> None:
    found = _xy(t["square"])
    if found is None:
        return
    cx, cy = M + found[0] + 0.5, M + found[1] + 0.5
    color = _rgb(side_color(t["side"])) if t["side"] else _rgb(THING)
    ink = _rgb(INK)
    role = t["role"]
    if role == "point":
        c.circle(cx, cy, 0.32, fill=_rgb("#fffaf0"), outline=ink, width=0.05)
        c.text(cx, cy, str(t["ref"] or ""), 0.3, ink)
    elif role == "flag":
        pole = [(-0.22, 0.34), (-0.22, -0.36), (0.3, -0.18), (-0.2, 0.02)]
        c.polygon([(cx + x, cy + y) for x, y in pole], fill=color, outline=ink, width=0.04)
    elif role == "control":
        c.rect(cx - 0.27, cy - 0.27, 0.54, 0.54, fill=color, outline=ink, width=0.04)
        c.text(cx, cy, "C", 0.3, (255, 255, 255))
    elif role == "tunnel":
        c.circle(cx, cy, 0.3, outline=color, width=0.1)
        c.circle(cx, cy, 0.16, fill=_rgb("#3a2f26"))
    elif role == "minion":
        c.circle(cx, cy, 0.25, fill=color, outline=(255, 255, 255), width=0.05)
        c.text(cx, cy, "m", 0.3, (255, 255, 255))
    elif role == "bonus":
        star = [(0, -0.34), (0.3, -0.1), (0.19, 0.28), (-0.19, 0.28), (-0.3, -0.1)]
        c.polygon([(cx + x, cy + y) for x, y in star], fill=color, outline=ink, width=0.04)
        c.text(cx, cy + 0.02, "B", 0.3, (255, 255, 255))
    else:
        c.circle(cx, cy, 0.22, fill=color)


def _piece(c: _Canvas, p: dict[str, Any], label: str, active: bool) -> None:
    found = _xy(p["square"])
    if found is None:
        return
    cx, cy = M + found[0] + 0.5, M + found[1] + 0.5
    color = side_color(p["side"])
    if active:
        c.circle(cx, cy, 0.47, outline=(255, 255, 255), width=0.06)
        c.circle(cx, cy, 0.47, outline=_rgb(INK), width=0.035)
    # knocked down: the page tips the piece and fades it to 58%
    faded = 1.0 if p["standing"] else 0.58
    body = _mix(color, PAPER, faded)
    rim = _mix("#ffffff", PAPER, faded)
    r = 0.3 if p["kind"] == "companion" else 0.38
    c.circle(cx, cy, r, fill=body, outline=rim, width=0.055)
    c.text(cx, cy, label, 0.3, rim, angle=0 if p["standing"] else -90)
    if p["exhausted"]:
        mx, my = cx + 0.3, cy - 0.3
        c.circle(mx, my, 0.14, fill=_rgb(INK), outline=(255, 255, 255), width=0.03)
        c.circle(mx - 0.01, my + 0.01, 0.08, fill=_rgb("#f3e7c9"))
        c.circle(mx + 0.03, my - 0.02, 0.07, fill=_rgb(INK))  # a crescent moon
