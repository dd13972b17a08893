"""Events across the language line: the kernel's event rows (the bytes of its structs) as
the engine's `Event` values."""

from __future__ import annotations

from funkoverse.rules.bridge.building import Building
from funkoverse.rules.bridge.numbering import EVENT_KINDS, EVENT_ROW, NIL
from funkoverse.rules.core.events import Event


class Events(Building):
    """The kernel's events as the engine's."""

    def decode(self, raw: bytes) -> tuple[Event, ...]:
        """The kernel's record of one choice (its events' bytes) as `Event` values."""
        return tuple(self.events(raw)) if raw else ()

    def events(self, raw: bytes) -> list[Event]:
        """The kernel's events (`Kernel.events`: their structs' bytes) as the engine's
        `Event` values."""
        st = self.strings
        label = self.labels
        out = []
        for (
            kind,
            secret,
            piece,
            other,
            side,
            card,
            name,
            source,
            rule,
            square,
            origin,
            number,
            total,
            count,
            *picked,
        ) in EVENT_ROW.iter_unpack(raw):
            names = picked[:count]
            out.append(
                Event(
                    EVENT_KINDS[kind],
                    piece=st[piece] if piece >= 0 else None,
                    other=st[other] if other >= 0 else None,
                    side=st[side] if side >= 0 else None,
                    square=label[square] if square >= 0 else None,
                    origin=label[origin] if origin >= 0 else None,
                    number=None if number == NIL else number,
                    total=None if total == NIL else total,
                    card=st[card] if card >= 0 else None,
                    name=st[name] if name >= 0 else None,
                    source=st[source] if source >= 0 else None,
                    secret=secret,
                    rule=st[rule] if rule >= 0 else None,
                    names=tuple([st[n] for n in names]) if names else (),
                )
            )
        return out
