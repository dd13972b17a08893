"""Named hooks for card behaviour the effects vocabulary cannot say.

A content file names its hooks (`hooks = ["champion-of-themyscira"]`); the loader
looks them up here. Each box's hooks live in a module of their own.
"""

from __future__ import annotations

from collections.abc import Mapping

from funkoverse.content.hooks import dc_comics as dc_comics
from funkoverse.content.hooks import universal_monsters as universal_monsters
from funkoverse.rules.hooks import Hook


def _registry() -> Mapping[str, Hook]:
    found: dict[str, Hook] = {}
    for module in (dc_comics, universal_monsters):
        for hook in module.HOOKS:
            found[hook.name] = hook
    return found


HOOKS: Mapping[str, Hook] = _registry()
