"""The effects vocabulary: every step an ability, item, trait or action can be written in.

`ops` holds what a word is (`Op`), the registry `OPS` and the target pre-check of a
challenge action; each family of words is a module of its own that registers its words,
with its part of the pre-check: standing up, moving, challenging, assist and interact,
push and pull, placing, tokens, status cards, the cooldown track. `steps` follows an
ability's steps through them. Importing the package registers every family, so `OPS` is
whole wherever a word is looked up.
"""

from funkoverse.rules.vocabulary import assisting as assisting
from funkoverse.rules.vocabulary import challenging as challenging
from funkoverse.rules.vocabulary import cooldown as cooldown
from funkoverse.rules.vocabulary import moving as moving
from funkoverse.rules.vocabulary import placing as placing
from funkoverse.rules.vocabulary import pushing as pushing
from funkoverse.rules.vocabulary import standing as standing
from funkoverse.rules.vocabulary import statuses as statuses
from funkoverse.rules.vocabulary import tokens as tokens
