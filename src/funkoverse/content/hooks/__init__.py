"""Named hooks for card behaviour the effects vocabulary cannot say.

A content file names its hooks (`hooks = ["champion-of-themyscira"]`); the loader
looks them up here. Each box's hooks live in a module of their own. Their classes are
declared to the rules as the box's own (`rules.core.hooks.shipped`): the compiled kernel
plays those, and only those, by name.
"""

from __future__ import annotations

from collections.abc import Mapping

from funkoverse.content.hooks import dc_comics as dc_comics
from funkoverse.content.hooks import universal_monsters as universal_monsters
from funkoverse.rules.core.hooks import Hook, shipped


def _registry() -> Mapping[str, Hook]:
    found: dict[str, Hook] = {}
    for module in (dc_comics, universal_monsters):
        for hook in module.HOOKS:
            found[hook.name] = hook
            shipped(type(hook))
    return found


HOOKS: Mapping[str, Hook] = _registry()
