"""The token kinds the companion recognises, as the labels used by enrollment folders."""

RACES = ("amazons", "dwarves", "elves", "ghouls", "giants", "halflings", "humans", "orcs",
         "ratmen", "skeletons", "sorcerers", "tritons", "trolls", "wizards")
PIECES = ("lost-tribe", "mountain", "troll-lair", "fortress", "encampment", "hero", "dragon", "hole")
LABELS = RACES + tuple(f"{r}-decline" for r in RACES) + PIECES


def is_label(name: str) -> bool:
    """Whether ``name`` is one of the recognised labels."""
    return name in LABELS
