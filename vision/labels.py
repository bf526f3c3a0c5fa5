"""The token kinds the companion recognises, as the labels used by enrollment folders."""

RACES = ("amazons", "dwarves", "elves", "ghouls", "giants", "halflings", "humans", "orcs",
         "ratmen", "skeletons", "sorcerers", "tritons", "trolls", "wizards")
PIECES = ("lost-tribe", "mountain", "troll-lair", "fortress", "encampment", "hero", "dragon", "hole")
DECLINED = tuple(f"{r}-decline" for r in RACES)  # the in-decline sides
LABELS = RACES + DECLINED + PIECES


def is_label(name: str) -> bool:
    """Whether ``name`` is one of the recognised labels."""
    return name in LABELS

# Kinds that hold a region: one race (active or in decline) or the Lost Tribe. Rules ("Occupied
# regions") allow only one of them per region; the special pieces may lie beside it.
OCCUPANTS = RACES + tuple(f"{r}-decline" for r in RACES) + ("lost-tribe",)
