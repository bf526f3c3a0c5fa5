"""Load a map file and refuse it, in one line, if it is malformed or inconsistent.

The line always names the file, the region (when there is one) and what is wrong, e.g.
``house.json: region 6: coastal is false but it borders sea region 0``.
"""
from __future__ import annotations

import functools

from importlib import resources
from pathlib import Path

from . import fields, files
from .fields import MapError
from .model import SYMBOLS, TERRAINS, Board, Region

FORMAT = "smallworld-map/1"
_FLAGS = ("lost_tribe", "border", "entry", "coastal")


@functools.lru_cache(maxsize=1)
def _builtin_names() -> tuple[str, ...]:
    folder = resources.files(__package__) / "boards"
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json")))


def builtin_names() -> list[str]:
    """Names of the boards shipped inside the package: 2p, 3p, 4p, 5p."""
    return list(_builtin_names())  # the package's files do not change while it runs


def load(name_or_path: str) -> Board:
    """A shipped board by name (``4p``) or any map file by path."""
    if name_or_path in builtin_names():
        res = resources.files(__package__) / "boards" / f"{name_or_path}.json"
        return parse(res.read_text(encoding="utf-8"), f"{name_or_path}.json")
    try:
        path = files.check_path(name_or_path, "map file")
    except files.BadInput as exc:
        raise MapError(f"{exc} (built-in maps: {', '.join(builtin_names())})") from None
    return load_file(path)


def load_file(path: str | Path) -> Board:
    path = Path(path)
    return parse(fields.read_text(path), str(path))


def parse(text: str, source: str = "<map>") -> Board:
    data = fields.json_object(text, source, "a map")
    fail = fields.failing(source)
    fields.check_format(data, FORMAT, fail)
    for key, kind in (("name", str), ("players", int), ("rounds", int), ("regions", list)):
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            raise fail(f"field {key!r} is missing or not a {kind.__name__}")
    if not 2 <= data["players"] <= 5:
        raise fail(f"players must be 2 to 5, found {data['players']}")
    if not 1 <= data["rounds"] <= 20:
        raise fail(f"rounds must be 1 to 20, found {data['rounds']}")

    raw_regions = data["regions"]
    seen = fields.region_ids(raw_regions, 0, None, fail)
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
    flags = fields.region_fields(raw, ids, fail, terrains=TERRAINS, symbols=SYMBOLS, flags=_FLAGS, whole="map")
    rid, terrain, symbols, adjacent = raw["id"], raw["terrain"], raw.get("symbols", []), raw["adjacent"]
    return Region(id=rid, terrain=terrain, symbols=frozenset(symbols), adjacent=frozenset(adjacent), **flags)


def _check_consistent(r: Region, by_id: dict[int, Region], fail) -> None:
    fields.listed_back(r.id, sorted(r.adjacent), lambda o: by_id[o].adjacent, fail)
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
