"""The pieces of Small World of Warcraft other than the 16 races (Game Content, p. 1)."""

MURLOC = "murloc"
MURLOC_TOKENS = 15

MOUNTAIN = "mountain"
WISP_WALL = "wisp-wall"
FORT = "fort"
WATCH_TOWER = "watch-tower"
MILITARY_OBJECTIVE = "military-objective"
CHAMPION = "champion"
BEAST = "beast"
FACE_DOWN = "face-down"  # an Artifact or Legendary Place marker not yet revealed
BOMB = "bomb"  # a Bomb token lying face down in a region

# Harmony tokens and Bombs are tracked apart (who holds them; which faces are still unseen).
MARKERS_IN_BOX = {MOUNTAIN: 10, WISP_WALL: 9, FORT: 10, WATCH_TOWER: 6, MILITARY_OBJECTIVE: 2, CHAMPION: 1,
                  BEAST: 5}
HARMONY_TOKENS = 4
BOMBS = {"exploding": 6, "dud": 6}

# "+1 additional Race token for each Wisp Wall, Fort, or Mountain"; the Champion "counts as 1 Race
# token for defense"; Beasts are "treated like Race tokens"
DEFENCE_MARKERS = (MOUNTAIN, WISP_WALL, FORT, CHAMPION, BEAST)
MARKER_NAMES = {MOUNTAIN: "Mountain", WISP_WALL: "Wisp Wall", FORT: "Fort", WATCH_TOWER: "Watch Tower",
                MILITARY_OBJECTIVE: "Military Objective", CHAMPION: "Champion", BEAST: "Beast",
                FACE_DOWN: "face-down marker", BOMB: "Bomb"}

ARTIFACTS = ("aegis-of-aggramar", "ashes-of-alar", "doomhammer", "frostmourne", "heart-of-azeroth")
PLACES = ("battleground", "dark-portal", "karazhan", "lights-hope-chapel", "meeting-stone", "spirit-healer",
          "well-of-eternity")
MARKER_TITLES = {
    "aegis-of-aggramar": "Aegis of Aggramar", "ashes-of-alar": "Ashes of Al'ar", "doomhammer": "Doomhammer",
    "frostmourne": "Frostmourne", "heart-of-azeroth": "Heart of Azeroth", "battleground": "Battleground",
    "dark-portal": "Dark Portal", "karazhan": "Karazhan", "lights-hope-chapel": "Light's Hope Chapel",
    "meeting-stone": "Meeting Stone", "spirit-healer": "Spirit Healer", "well-of-eternity": "Well of Eternity"}

FACTIONS = ("alliance", "horde", "neutral")
MAX_VALUE = 20  # the largest number a banner or badge could plausibly carry (a typing guard)
