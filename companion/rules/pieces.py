"""The game's pieces other than races: markers, Lost Tribes, the Reinforcement Die."""

LOST_TRIBE = "lost-tribe"
LOST_TRIBE_TOKENS = 18

MOUNTAIN = "mountain"
TROLL_LAIR = "troll-lair"
FORTRESS = "fortress"
ENCAMPMENT = "encampment"
HOLE = "hole"
HERO = "hero"
DRAGON = "dragon"

MARKERS_IN_BOX = {MOUNTAIN: 9, TROLL_LAIR: 10, FORTRESS: 6, ENCAMPMENT: 5, HOLE: 2, HERO: 2, DRAGON: 1}
DEFENCE_MARKERS = (MOUNTAIN, TROLL_LAIR, FORTRESS, ENCAMPMENT)
IMMUNITY_MARKERS = (HERO, DRAGON, HOLE)
# the markers that leave a region with its last token (abandoned or conquered, the rules take them off:
# "Remove the Lair if you abandon the Region or when an enemy conquers it"); a Mountain stays
HELD_MARKERS = tuple(kind for kind in MARKERS_IN_BOX if kind != MOUNTAIN)
MARKER_NAMES = {MOUNTAIN: "Mountain", TROLL_LAIR: "Troll's Lair", FORTRESS: "Fortress",
                ENCAMPMENT: "Encampment", HOLE: "Hole-in-the-Ground", HERO: "Hero", DRAGON: "Dragon"}

DIE_FACES = (0, 0, 0, 1, 2, 3)
STARTING_COINS = 5
FINAL_ATTEMPT_MAX_SHORTFALL = 3
