"""The server's refusals: a status, a code of the spec and one line for a person."""

from __future__ import annotations

from typing import Any

from funkoverse.errors import one_line


class ApiError(Exception):
    """A refusal of the API: its status, code and one line for a person (server-api.md); a
    control character it quotes from the input (a newline in a field's name) is written as
    its escape."""

    def __init__(self, status: int, code: str, message: str) -> None:
        message = one_line(message)
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


def unavailable(what: str = "the games database") -> ApiError:
    """503: the write could not be made now; nothing changed (server-api.md, hardening)."""
    return ApiError(
        503, "unavailable", f"{what} cannot take the write now; nothing changed, try again"
    )
