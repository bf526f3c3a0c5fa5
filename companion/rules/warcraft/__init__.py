"""Small World of Warcraft: the second ruleset, on the base game's engine (see docs/warcraft.md)."""
from ..ruleset import register
from . import actions  # noqa: F401  (registers the Warcraft actions with the record reader)
from .ruleset import WarcraftRuleset

RULESET = register(WarcraftRuleset())
