"""Load a map file and refuse it, in one line, if it is malformed or inconsistent.

The line always names the file, the region (when there is one) and what is wrong, e.g.
``house.json: region 6: coastal is false but it borders sea region 0``.
"""
from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from .model import SYMBOLS, TERRAINS, Board, Region

FORMAT = "smallworld-map/1"
_FLAGS = ("lost_tribe", "border", "entry", "coastal")


class MapError(ValueError):
    """A map file that cannot be used; the message is one line a user can act on."""


def builtin_names() -> list[str]:
    """Names of the boards shipped inside the package: 2p, 3p, 4p, 5p."""
    folder = resources.files(__package__) / "boards"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


def load(name_or_path: str) -> Board:
    """A shipped board by name (``4p``) or any map file by path."""
    if name_or_path in builtin_names():
        res = resources.files(__package__) / "boards" / f"{name_or_path}.json"
        return parse(res.read_text(encoding="utf-8"), f"{name_or_path}.json")
    path = Path(name_or_path)
    if not path.exists():
        raise MapError(f"{name_or_path}: no such map (built-in maps: {', '.join(builtin_names())})")
    return load_file(path)


def load_file(path: str | Path) -> Board:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise MapError(f"{path}: cannot read: {exc}") from None
    return parse(text, str(path))


def parse(text: str, source: str = "<map>") -> Board:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MapError(f"{source}:{exc.lineno}: not valid JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise MapError(f"{source}: a map is a JSON object")

    def fail(msg: str, region: object = None) -> MapError:
        where = f"region {region}: " if region is not None else ""
        return MapError(f"{source}: {where}{msg}")

    if data.get("format") != FORMAT:
        raise fail(f"format must be {FORMAT!r}, found {data.get('format')!r}")
    for key, kind in (("name", str), ("players", int), ("rounds", int), ("regions", list)):
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            raise fail(f"field {key!r} is missing or not a {kind.__name__}")
    if not 2 <= data["players"] <= 5:
        raise fail(f"players must be 2 to 5, found {data['players']}")
    if not 1 <= data["rounds"] <= 20:
        raise fail(f"rounds must be 1 to 20, found {data['rounds']}")

    raw_regions = data["regions"]
    seen: set[int] = set()
    for index, raw in enumerate(raw_regions):
        if not isinstance(raw, dict):
            raise fail(f"regions[{index}] is not an object")
        rid = raw.get("id")
        if not isinstance(rid, int) or isinstance(rid, bool) or rid < 0:
            raise fail(f"regions[{index}]: id must be a whole number >= 0, found {rid!r}")
        if rid in seen:
            raise fail("id is used twice", rid)
        seen.add(rid)
    if not raw_regions:
        raise fail("the map has no regions")

    regions = [_region(raw, seen, fail) for raw in raw_regions]
    by_id = {r.id: r for r in regions}
    for r in regions:
        _check_consistent(r, by_id, fail)
    return Board(name=data["name"], title=str(data.get("title", data["name"])), players=data["players"],
                 rounds=data["rounds"], regions=tuple(regions), ruleset=str(data.get("ruleset", "smallworld")),
                 source=source)


def _region(raw: dict, ids: set[int], fail) -> Region:
    rid = raw["id"]
    unknown = set(raw) - {"id", "terrain", "symbols", "adjacent", *_FLAGS}
    if unknown:
        raise fail(f"unknown field {sorted(unknown)[0]!r}", rid)
    terrain = raw.get("terrain")
    if terrain not in TERRAINS:
        raise fail(f"terrain {terrain!r} is not one of {', '.join(TERRAINS)}", rid)
    symbols = raw.get("symbols", [])
    if not isinstance(symbols, list) or any(s not in SYMBOLS for s in symbols):
        raise fail(f"symbols must be a list of {', '.join(SYMBOLS)}, found {symbols!r}", rid)
    flags = {}
    for flag in _FLAGS:
        value = raw.get(flag, False)
        if not isinstance(value, bool):
            raise fail(f"{flag} must be true or false, found {value!r}", rid)
        flags[flag] = value
    adjacent = raw.get("adjacent")
    if not isinstance(adjacent, list) or not adjacent:
        raise fail("adjacent must be a non-empty list of region ids", rid)
    for other in adjacent:
        if other not in ids or isinstance(other, bool):
            raise fail(f"adjacent lists {other!r}, which is not a region of this map", rid)
        if other == rid:
            raise fail("adjacent lists the region itself", rid)
    if len(set(adjacent)) != len(adjacent):
        raise fail("adjacent lists a region twice", rid)
    return Region(id=rid, terrain=terrain, symbols=frozenset(symbols), adjacent=frozenset(adjacent), **flags)


def _check_consistent(r: Region, by_id: dict[int, Region], fail) -> None:
    for other in sorted(r.adjacent):
        if r.id not in by_id[other].adjacent:
            raise fail(f"adjacent lists {other}, but region {other} does not list {r.id}", r.id)
    if r.water:
        if r.symbols:
            raise fail(f"a {r.terrain} cannot carry the symbol {sorted(r.symbols)[0]}", r.id)
        if r.lost_tribe:
            raise fail(f"a Lost Tribe cannot start on a {r.terrain}", r.id)
    if r.lost_tribe and r.mountain:
        raise fail("a Lost Tribe cannot start on a Mountain (it holds the Mountain marker)", r.id)
    shore = sorted(o for o in r.adjacent if by_id[o].water)
    coastal = not r.water and bool(shore)
    if r.coastal != coastal:
        if coastal:
            raise fail(f"coastal is false but it borders {by_id[shore[0]].terrain} region {shore[0]}", r.id)
        raise fail("coastal is true but it borders no sea or lake" if not r.water
                   else "coastal is true on a sea or lake (coastal is for land regions)", r.id)
    border_seas = [o for o in r.adjacent if by_id[o].terrain == "sea" and by_id[o].border]
    if r.entry and not (r.border or border_seas):
        raise fail("entry is true but it neither touches the edge nor a sea that does", r.id)
    if not r.entry and (r.border or (border_seas and not r.water)):
        raise fail("entry is false but it touches the edge of the board or a sea that does", r.id)
