"""The field checks that map files and island files share. Each refusal is one ``MapError`` line:
the file, the region (when there is one), the field and what is wrong."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Collection, Iterable

from . import files

Fail = Callable[..., "MapError"]


class MapError(ValueError):
    """A map file that cannot be used; the message is one line a user can act on."""


def shown(value: object) -> str:
    """A wrong value as an error line shows it: short, whatever it is."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def read_text(path: Path, what: str = "map file") -> str:
    """A regular file's UTF-8 text, of a bounded size."""
    try:
        return files.read_text(path, what, MAX_FILE)
    except files.BadInput as exc:
        raise MapError(str(exc)) from None


MAX_FILE = 1024 * 1024  # the largest shipped map is ~20 KB


def json_object(text: str, source: str, what: str) -> dict:
    """The file's JSON object; ``what`` names it in the error ("a map")."""
    try:
        data = files.loads(text, source)
    except files.BadInput as exc:
        raise MapError(str(exc)) from None
    if not isinstance(data, dict):
        raise MapError(f"{source}: {what} is a JSON object")
    return data


def failing(source: str) -> Fail:
    """``fail(msg, region=None)``: the MapError naming the file and the region."""
    def fail(msg: str, region: object = None) -> MapError:
        where = f"region {region}: " if region is not None else ""
        return MapError(f"{source}: {where}{msg}")
    return fail


def check_format(data: dict, expected: str, fail: Fail) -> None:
    if data.get("format") != expected:
        raise fail(f"format must be {expected!r}, found {shown(data.get('format'))}")


def region_ids(raw_regions: list, lowest: int, highest: int | None, fail: Fail) -> set[int]:
    """The ids of the raw regions: objects, whole numbers in range, each once."""
    words = f">= {lowest}" if highest is None else f"from {lowest} to {highest}"
    ids: set[int] = set()
    for index, raw in enumerate(raw_regions):
        if not isinstance(raw, dict):
            raise fail(f"regions[{index}] is not an object")
        rid = raw.get("id")
        if not isinstance(rid, int) or isinstance(rid, bool) or rid < lowest or highest is not None and rid > highest:
            raise fail(f"regions[{index}]: id must be a whole number {words}, found {shown(rid)}")
        if rid in ids:
            raise fail("id is used twice", rid)
        ids.add(rid)
    return ids


def region_fields(raw: dict, ids: set[int], fail: Fail, *, terrains: Collection[str], symbols: Collection[str],
                  flags: Iterable[str], whole: str, distinct_symbols: bool = False) -> dict[str, bool]:
    """Check one raw region's own fields and adjacency list; returns its flags. ``whole`` is what
    the regions make up ("map"), for the error lines."""
    rid = raw["id"]
    flags = tuple(flags)
    unknown = set(raw) - {"id", "terrain", "symbols", "adjacent", *flags}
    if unknown:
        raise fail(f"unknown field {shown(sorted(unknown)[0])}", rid)
    terrain = raw.get("terrain")
    if terrain not in terrains:
        raise fail(f"terrain {shown(terrain)} is not one of {', '.join(terrains)}", rid)
    marks = raw.get("symbols", [])
    if not isinstance(marks, list) or any(s not in symbols for s in marks) \
            or distinct_symbols and len(set(marks)) != len(marks):
        raise fail(f"symbols must be a list of {', '.join(symbols)}, found {shown(marks)}", rid)
    values = {}
    for flag in flags:
        value = raw.get(flag, False)
        if not isinstance(value, bool):
            raise fail(f"{flag} must be true or false, found {shown(value)}", rid)
        values[flag] = value
    adjacent = raw.get("adjacent")
    if not isinstance(adjacent, list) or not adjacent:
        of = "" if whole == "map" else f" of this {whole}"
        raise fail(f"adjacent must be a non-empty list of region ids{of}", rid)
    for other in adjacent:
        if not isinstance(other, int) or isinstance(other, bool) or other not in ids:
            raise fail(f"adjacent lists {shown(other)}, which is not a region of this {whole}", rid)
        if other == rid:
            raise fail("adjacent lists the region itself", rid)
    if len(set(adjacent)) != len(adjacent):
        raise fail("adjacent lists a region twice", rid)
    return values


def listed_back(rid: int, adjacent: Iterable[int], adjacent_of: Callable[[int], Collection[int]],
                fail: Fail) -> None:
    """Adjacency goes both ways: each region ``rid`` lists also lists ``rid``."""
    for other in adjacent:
        if rid not in adjacent_of(other):
            raise fail(f"adjacent lists {other}, but region {other} does not list {rid}", rid)
