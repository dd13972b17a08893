"""Named Python hooks: the escape hatch for card behaviour a card file cannot say.

A trait's behaviour is data in its card file (`content.traits`); what those words cannot
say, a Python `rules.core.hooks.Hook` can, registered here by whoever brings it (a lab
script, a test) and named by a card file (`hooks = ["whisper"]`). The compiled kernel does
not run Python hooks: a game with one is played by the Python engine, which says so
(`rules.bridge.unsupported` names the hook).
"""

from __future__ import annotations

from funkoverse.errors import UserError
from funkoverse.rules.core.hooks import Hook

HOOKS: dict[str, Hook] = {}


def register(hook: Hook) -> Hook:
    """Make `hook` a name card files may use; a second hook of the same name is refused."""
    found = HOOKS.get(hook.name)
    if found is not None and found is not hook:
        raise UserError(f"two hooks are named '{hook.name}'")
    HOOKS[hook.name] = hook
    return hook
