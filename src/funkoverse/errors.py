"""Errors meant for people: one clear line that names what is wrong."""

import re

# control characters a message may have picked up from the input it quotes (a newline in
# a field's name, a terminal's escape sequence), written as escapes instead
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def one_line(text: str) -> str:
    """`text` on one line: every control character but a tab written as its escape."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


class UserError(Exception):
    """Bad input from a person or a file; its message is shown as is, on one line (what it
    quotes from the input cannot break it)."""

    def __init__(self, message: str = "") -> None:
        super().__init__(one_line(str(message)))
