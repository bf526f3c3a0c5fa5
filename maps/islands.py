"""Small World of Warcraft islands: one board side each, joined into the map of one game.

An island file (``smallworld-island/1``) describes one side of one board: its regions, their
terrain and symbols, the Entry Regions (anchor icon), the Murloc symbols, the region carrying the
board's size icon (where the Artifact or Legendary Place marker is placed face down), and the
adjacency inside the island. The printed boards are not transcribed anywhere trustworthy: a table
enters its own boards once (``companion islands``); the files shipped here are SAMPLES.

A game's map name is its islands joined by ``+`` (``sample-large-1+sample-small-1``), each a shipped
island name or an island file path. Region ``r`` of the ``k``-th island (from 1) gets the game id
``100 * k + r``, so ``203`` reads "island 2, region 3".
"""
from __future__ import annotations

import functools

from dataclasses import dataclass
from importlib import resources

from . import fields, files
from .fields import MapError
from .model import Board, Region

FORMAT = "smallworld-island/1"
TERRAINS = ("fields", "forest", "hill", "mountain", "swamp", "sea", "lake")
SYMBOLS = ("cavern", "magic")
SIZES = {"S": "small", "M": "medium", "L": "large"}
# "Randomly select a set of Game Boards matching the number of players."
SETS = {5: {"L": 2, "M": 1, "S": 2}, 4: {"L": 1, "M": 2, "S": 1}, 3: {"L": 1, "M": 1, "S": 1}, 2: {"L": 1, "S": 1}}
ROUNDS = {5: 8, 4: 9, 3: 10, 2: 10}
_FLAGS = ("entry", "murloc", "marker")
SEPARATOR = "+"


@dataclass(frozen=True)
class IslandRegion(Region):
    """A region of one island, with its game id; ``marker`` is the region with the size icon."""

    island: int = 0
    island_name: str = ""
    murloc: bool = False
    marker: bool = False
    local: int = 0

    def describe(self) -> str:
        extra = [s.capitalize() for s in sorted(self.symbols)]
        terrain = "Fields" if self.terrain == "fields" else self.terrain.capitalize()
        return f"region {self.id} ({', '.join([terrain] + extra)}; island {self.island})"


@dataclass(frozen=True)
class Island:
    name: str
    title: str
    size: str  # S, M or L
    sample: bool
    regions: tuple[dict, ...]  # checked raw regions, local ids
    source: str = ""


@functools.lru_cache(maxsize=1)
def _builtin_names() -> tuple[str, ...]:
    folder = resources.files(__package__) / "islands"
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json")))


def builtin_names() -> list[str]:
    return list(_builtin_names())  # the package's files do not change while it runs


def load_island(name_or_path: str) -> Island:
    if name_or_path in builtin_names():
        res = resources.files(__package__) / "islands" / f"{name_or_path}.json"
        return parse_island(res.read_text(encoding="utf-8"), f"{name_or_path}.json")
    try:
        path = files.check_path(name_or_path, "island file")
    except files.BadInput as exc:
        raise MapError(f"{exc} (shipped sample islands: {', '.join(builtin_names())})") from None
    return parse_island(fields.read_text(path, "island file"), str(path))


def parse_island(text: str, source: str = "<island>") -> Island:
    """Check one island file; a MapError names the file, the region and the problem in one line."""
    data = fields.json_object(text, source, "an island")
    fail = fields.failing(source)
    fields.check_format(data, FORMAT, fail)
    unknown = set(data) - {"format", "name", "title", "size", "sample", "note", "regions"}
    if unknown:
        raise fail(f"unknown field {fields.shown(sorted(unknown)[0])}")
    if not isinstance(data.get("name"), str) or not data["name"] or SEPARATOR in data["name"]:
        raise fail(f"field 'name' must be a name without {SEPARATOR!r}")
    if not isinstance(data.get("size"), str) or data["size"] not in SIZES:
        raise fail(f"size must be S, M or L (the icon printed on the board), found {fields.shown(data.get('size'))}")
    if not isinstance(data.get("sample", False), bool):
        raise fail("sample must be true or false")
    raw = data.get("regions")
    if not isinstance(raw, list) or not raw:
        raise fail("field 'regions' must be a non-empty list")
    ids = fields.region_ids(raw, 1, 99, fail)
    by_id = {}
    for r in raw:
        rid = r["id"]
        fields.region_fields(r, ids, fail, terrains=TERRAINS, symbols=SYMBOLS, flags=_FLAGS, whole="island",
                             distinct_symbols=True)
        symbols = r.get("symbols", [])
        water = r["terrain"] in ("sea", "lake")
        if water and (symbols or any(r.get(f, False) for f in _FLAGS)):
            raise fail(f"a {r['terrain']} carries no symbol, anchor, Murloc or size icon", rid)
        # a Murloc on a Mountain is allowed: "Place a Murloc token on each Region of the map featuring a
        # Murloc symbol" and "Put a Mountain token on each Region of the map featuring a Mountain" both apply
        by_id[rid] = r
    for rid, r in by_id.items():
        fields.listed_back(rid, r["adjacent"], lambda o: by_id[o]["adjacent"], fail)
    markers = [rid for rid, r in by_id.items() if r.get("marker")]
    if len(markers) != 1:
        raise fail(f"exactly one region carries the size icon (marker: true); found {len(markers)}")
    if not any(r.get("entry") for r in by_id.values()):
        raise fail("no Entry Region (entry: true): a race could never land on this island")
    # every region reachable from every other inside the island
    seen, todo = set(), [next(iter(by_id))]
    while todo:
        rid = todo.pop()
        if rid not in seen:
            seen.add(rid)
            todo += by_id[rid]["adjacent"]
    if len(seen) != len(by_id):
        raise fail("is not connected to the rest of the island", min(set(by_id) - seen))
    return Island(name=data["name"], title=str(data.get("title", data["name"])), size=data["size"],
                  sample=bool(data.get("sample", False)), regions=tuple(raw), source=source)


def is_islands(name: str) -> bool:
    """Whether a map name names islands (rather than a base-game board)."""
    parts = name.split(SEPARATOR)
    return all(p in builtin_names() or p.endswith(".json") and _is_island_file(p) for p in parts)


def _is_island_file(path: str) -> bool:
    try:
        data = files.loads(files.read_text(path, "island file", fields.MAX_FILE), path)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT


def load(name: str, check_set: bool = True) -> Board:
    """The map of one game: its islands joined, ids ``100 * island + region``."""
    parts = [p for p in name.split(SEPARATOR)]
    if not 2 <= len(parts) <= 5:
        raise MapError(f"{name}: a Small World of Warcraft map is 2 to 5 islands joined by '+', "
                       f"found {len(parts)}")
    islands = [load_island(p) for p in parts]
    players = len(islands)
    if check_set:
        sizes = {s: sum(1 for i in islands if i.size == s) for s in "LMS"}
        want = {s: SETS[players].get(s, 0) for s in "LMS"}
        if sizes != want:
            def words(d):
                return " + ".join(f"{n} {SIZES[s]}" for s, n in d.items() if n) or "none"
            raise MapError(f"{name}: {players} players play on {words(want)} islands, found {words(sizes)}")
    if len({i.name for i in islands}) != len(islands):
        raise MapError(f"{name}: an island is listed twice (each board is in the box once)")
    regions = []
    for k, isl in enumerate(islands, start=1):
        for r in isl.regions:
            local = r["id"]
            terrains = {o["id"]: o["terrain"] for o in isl.regions}
            adjacent = frozenset(100 * k + o for o in r["adjacent"])
            regions.append(IslandRegion(
                id=100 * k + local, terrain=r["terrain"], symbols=frozenset(r.get("symbols", [])),
                entry=bool(r.get("entry")), murloc=bool(r.get("murloc")), marker=bool(r.get("marker")),
                coastal=r["terrain"] not in ("sea", "lake") and any(terrains[o] in ("sea", "lake") for o in r["adjacent"]),
                adjacent=adjacent, island=k, island_name=isl.name, local=local))
    sample = any(i.sample for i in islands)
    title = " + ".join(i.title for i in islands)
    return Board(name=name, title=("SAMPLE islands (not the printed boards): " if sample else "") + title,
                 players=players, rounds=ROUNDS[players], regions=tuple(regions), ruleset="warcraft",
                 source=" + ".join(i.source for i in islands))


def sample_map(players: int) -> str:
    """The shipped SAMPLE islands for a player count, e.g. ``sample-large-1+sample-small-1``."""
    names = []
    for size, word in (("L", "large"), ("M", "medium"), ("S", "small")):
        names += [f"sample-{word}-{i}" for i in range(1, SETS[players].get(size, 0) + 1)]
    return SEPARATOR.join(names)
