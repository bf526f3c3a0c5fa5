"""Seeded chance outside the pure engine: stack orders, die rolls, badges from the reshuffled pile."""
from __future__ import annotations

import random

from .rules import pieces
from .rules import ruleset as rulesets
from .rules.setup import Setup

DEFAULT_NAMES = ("Ann", "Ben", "Cleo", "Dev", "Eli")


def seeded_setup(map_name: str, players: int | list[str], seed: int, ruleset: str = "smallworld") -> Setup:
    """A setup whose race and power stacks are shuffled by ``random.Random(seed)``."""
    rng = random.Random(seed)
    rules = rulesets.get(ruleset)
    names = list(DEFAULT_NAMES[:players]) if isinstance(players, int) else list(players)
    races, powers = rules.race_names(), rules.power_names()
    rng.shuffle(races)
    rng.shuffle(powers)
    return Setup(players=tuple(names), races=tuple(races), powers=tuple(powers), map=map_name, ruleset=ruleset)


def roll_die(rng: random.Random) -> int:
    """One roll of the Reinforcement Die (faces 0, 0, 0, 1, 2, 3)."""
    return rng.choice(pieces.DIE_FACES)
