"""companion islands list | check MAP_OR_FILE... | new FILE | edit FILE REGION | show FILE | values FILE ...

Small World of Warcraft boards are entered by the table, once: ``new`` asks for each region in
turn (terrain, symbols, anchor, Murloc, size icon, neighbours), saves every answer in ``FILE.draft``
(run it again to go on where it stopped), keeps borders two-way as they are entered, draws the
island as text and writes an island file that the loader accepts. ``edit`` answers again for one
region, ``show`` draws an island. ``values`` keeps the banner and badge values a table has read off
its pieces.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import maps
from maps import files, islands

from ..errors import UserError
from ..rules import ruleset as rulesets

HELP = "Small World of Warcraft islands: list the samples, check island files, enter a board, keep values."


def add_arguments(p):
    sub = p.add_subparsers(dest="islands_command", metavar="ACTION")
    sub.add_parser("list", help="the shipped SAMPLE islands (not the printed boards)")
    c = sub.add_parser("check", help="check island files or a game map (islands joined by '+')")
    c.add_argument("names", nargs="+", metavar="MAP_OR_FILE")
    n = sub.add_parser("new", help="enter one side of one of your boards, region by region (saved as you go; "
                       "run it again to go on)")
    n.add_argument("file", metavar="FILE", help="where to write the island (JSON)")
    e = sub.add_parser("edit", help="answer again for one region of an island (or of one being entered)")
    e.add_argument("file", metavar="FILE")
    e.add_argument("region", type=int, metavar="REGION")
    w = sub.add_parser("show", help="draw an island (or one being entered) as text, to check it against the board")
    w.add_argument("file", metavar="FILE")
    v = sub.add_parser("values", help="show, check or add to a table's banner and badge values file")
    v.add_argument("file", metavar="FILE")
    v.add_argument("--race", action="append", default=[], metavar="NAME=N", help="a banner value read off the piece")
    v.add_argument("--power", action="append", default=[], metavar="NAME=N", help="a badge value read off the piece")


def run(args) -> int:
    action = getattr(args, "islands_command", None)
    if action == "list":
        for name in islands.builtin_names():
            isl = islands.load_island(name)
            print(f"{name}: {isl.size}, {len(isl.regions)} regions - {isl.title}")
        return 0
    if action == "check":
        return _check(args.names)
    if action == "new":
        return _new(Path(args.file))
    if action == "edit":
        return _edit(Path(args.file), args.region)
    if action == "show":
        return _show(Path(args.file))
    if action == "values":
        return _values(Path(args.file), args.race, args.power)
    raise UserError("say what to do: list, check, new, edit, show or values (see companion islands --help)")


def _check(names: list[str]) -> int:
    for name in names:
        try:
            if islands.SEPARATOR in name:
                board = islands.load(name)
                print(f"{name}: a map of {len(board)} regions for {board.players} players, {board.rounds} rounds")
            else:
                isl = islands.load_island(name)
                print(f"{name}: island {isl.name!r}, size {isl.size}, {len(isl.regions)} regions, good")
        except maps.MapError as exc:
            raise UserError(str(exc)) from None
    return 0


def _ask(prompt: str, check, default=None):
    """Ask until ``check`` accepts the answer (it returns the value or raises ValueError with a hint)."""
    while True:
        print(prompt + (f" [{default}]" if default is not None else "") + ": ", end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            raise UserError("input ended: the answers given so far are kept; run the same command again to go on")
        text = line.strip() or (str(default) if default is not None else "")
        try:
            return check(text)
        except ValueError as exc:
            print(f"  {exc}")


def _one_of(words):
    def check(text):
        if text.lower() not in words:
            raise ValueError(f"answer one of: {', '.join(words)}")
        return text.lower()
    return check


def _yes_no(text):
    if text.lower() in ("y", "yes"):
        return True
    if text.lower() in ("n", "no", ""):
        return False
    raise ValueError("answer y or n")


DRAFT = "smallworld-island-draft/1"


def _neighbours(rid: int, count: int):
    def check(text):
        try:
            ids = [int(t) for t in text.replace(",", " ").split()]
        except ValueError:
            raise ValueError("region numbers separated by spaces, e.g. 2 5 6") from None
        if not ids:
            raise ValueError("every region has at least one neighbour")
        if rid in ids:
            raise ValueError(f"region {rid} cannot border itself")
        if len(set(ids)) != len(ids):
            raise ValueError("a region is named twice")
        wrong = [i for i in ids if not 1 <= i <= count]
        if wrong:
            raise ValueError(f"this island has regions 1 to {count}; {wrong[0]} is not one of them")
        return sorted(ids)
    return check


def _draft_path(path: Path) -> Path:
    return path.with_name(path.name + ".draft")


def _load_draft(path: Path) -> dict | None:
    """The answers saved so far for ``path`` (its draft), or None."""
    draft = _draft_path(path)
    if not draft.exists():
        return None
    try:
        data = json.loads(draft.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"{draft}: cannot read the saved answers ({exc}); remove it to start again") from None
    if not isinstance(data, dict) or data.get("format") != DRAFT or not isinstance(data.get("regions"), list) \
            or not isinstance(data.get("count"), int):
        raise UserError(f"{draft}: not a draft of 'companion islands new'; remove it to start again")
    return data


def _save_draft(path: Path, data: dict) -> None:
    try:
        _draft_path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise UserError(f"{_draft_path(path)}: cannot write: {exc.strerror}") from None


def _ask_region(rid: int, count: int, regions: dict[int, dict], old: dict | None = None) -> dict:
    """The questions of one region; ``old`` (an edit) gives the defaults. Its neighbours default to
    the regions already entered that border it."""
    old = old or {}
    print(f"region {rid}:")
    terrain = _ask("  terrain (" + ", ".join(islands.TERRAINS) + ")", _one_of(islands.TERRAINS), old.get("terrain"))
    region = {"id": rid, "terrain": terrain}
    if terrain not in ("sea", "lake"):
        symbols = _ask("  symbols (magic, cavern, or none)", lambda t: [
            _one_of(islands.SYMBOLS)(s) for s in t.replace(",", " ").split() if s.lower() != "none"],
            " ".join(old.get("symbols", [])) or "none")
        if symbols:
            region["symbols"] = symbols
        for flag, question in (("entry", "  anchor (Entry Region)? y/n"), ("murloc", "  Murloc symbol? y/n"),
                               ("marker", "  the S/M/L size icon? y/n")):
            if _ask(question, _yes_no, "y" if old.get(flag) else "n"):
                region[flag] = True
    known = sorted(set(old.get("adjacent", [])) | {o for o, r in regions.items() if rid in r["adjacent"]})
    region["adjacent"] = _ask("  neighbouring regions (numbers)", _neighbours(rid, count),
                              " ".join(map(str, known)) or None)
    return region


def _link(rid: int, region: dict, regions: dict[int, dict]) -> None:
    """Borders go both ways: the regions already entered learn this region's answer."""
    for other, r in sorted(regions.items()):
        if other == rid:
            continue
        if other in region["adjacent"] and rid not in r["adjacent"]:
            r["adjacent"] = sorted(r["adjacent"] + [rid])
            print(f"  (region {other} now borders {rid} too)")
        elif other not in region["adjacent"] and rid in r["adjacent"]:
            r["adjacent"] = [o for o in r["adjacent"] if o != rid]
            print(f"  (region {other} no longer borders {rid})")


def _island(data: dict) -> dict:
    return {"format": islands.FORMAT, "name": data["name"], "title": f"{data['name']} (entered by this table)",
            "size": data["size"], "sample": False, "regions": sorted(data["regions"], key=lambda r: r["id"])}


def _finish(path: Path, data: dict) -> int:
    """Draw what was entered; write the island if the loader accepts it, else keep the draft."""
    print(draw(_island(data)))
    if len(data["regions"]) < data["count"]:
        _save_draft(path, data)
        return 0
    text = json.dumps(_island(data), indent=1)
    try:
        islands.parse_island(text, str(path))
    except maps.MapError as exc:
        _save_draft(path, data)
        raise UserError(f"{exc} (your answers are kept in {_draft_path(path)}: change a region with "
                        f"'companion islands edit {path} REGION')") from None
    try:
        path.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise UserError(f"{path}: cannot write: {exc.strerror}") from None
    _draft_path(path).unlink(missing_ok=True)
    print(f"wrote {path}: island {data['name']!r}, {data['count']} regions; use it in a map as e.g. {path}+...")
    return 0


def _new(path: Path) -> int:
    data = _load_draft(path)
    if data is None and path.exists():
        raise UserError(f"{path} exists: change one region with 'companion islands edit {path} REGION', "
                        "or choose another file")
    if data is None:
        print("Enter one side of one board. Number its regions 1, 2, 3 ... as you like (write the numbers on a "
              f"photo or a sketch), then answer for each region. Every answer is saved in {_draft_path(path)}: "
              "stop at any time and run the same command again to go on.")
        name = _ask("island name (e.g. our-large-a)", lambda t: t if t and "+" not in t else (_ for _ in ()).throw(
            ValueError("a name without '+'")))
        size = _ask("size icon printed on it (S, M, L)", lambda t: _one_of(("s", "m", "l"))(t).upper())
        count = _ask("how many regions", lambda t: int(t) if t.isdigit() and 1 <= int(t) <= 99 else
                     (_ for _ in ()).throw(ValueError("a number from 1 to 99")))
        data = {"format": DRAFT, "name": name, "size": size, "count": count, "regions": []}
        _save_draft(path, data)
    else:
        print(f"going on from {_draft_path(path)}: {len(data['regions'])} of {data['count']} regions entered")
    regions = {r["id"]: r for r in data["regions"]}
    for rid in range(1, data["count"] + 1):
        if rid in regions:
            continue
        region = _ask_region(rid, data["count"], regions)
        _link(rid, region, regions)
        regions[rid] = region
        data["regions"] = [regions[i] for i in sorted(regions)]
        _save_draft(path, data)
    return _finish(path, data)


def _edit(path: Path, rid: int) -> int:
    data = _load_draft(path)
    if data is None:
        if not path.exists():
            raise UserError(f"{path}: no such island (nor a draft of one): enter it with 'companion islands new'")
        try:
            isl = islands.parse_island(path.read_text(encoding="utf-8"), str(path))
        except OSError as exc:
            raise UserError(f"{path}: cannot read: {exc.strerror}") from None
        except maps.MapError as exc:
            raise UserError(str(exc)) from None
        data = {"format": DRAFT, "name": isl.name, "size": isl.size, "count": len(isl.regions),
                "regions": [dict(r) for r in isl.regions]}
    regions = {r["id"]: r for r in data["regions"]}
    if rid not in regions:
        raise UserError(f"{path}: region {rid} is not entered yet (regions: "
                        f"{', '.join(map(str, sorted(regions))) or 'none'})")
    region = _ask_region(rid, data["count"], regions, regions[rid])
    _link(rid, region, regions)
    regions[rid] = region
    data["regions"] = [regions[i] for i in sorted(regions)]
    _save_draft(path, data)
    return _finish(path, data)


def _show(path: Path) -> int:
    data = _load_draft(path)
    if data is not None:
        print(f"{_draft_path(path)} (not finished: {len(data['regions'])} of {data['count']} regions)")
        print(draw(_island(data)))
        return 0
    try:
        isl = islands.load_island(str(path))
    except maps.MapError as exc:
        raise UserError(str(exc)) from None
    print(draw({"name": isl.name, "size": isl.size, "regions": list(isl.regions)}))
    return 0


_TERRAIN = {"fields": "Fields", "forest": "Forest", "hill": "Hill", "mountain": "Mountain", "swamp": "Swamp",
            "sea": "~Sea~", "lake": "~Lake~"}


def draw(island: dict) -> str:
    """The island as entered, for the eye: one line per region (terrain, symbols, anchor, Murloc, size
    icon, borders) and the border grid, where ``#`` is a border both regions name and ``!`` one only
    one of them names (a mistake to fix with ``edit``)."""
    regions = sorted(island["regions"], key=lambda r: r["id"])
    ids = [r["id"] for r in regions]
    by_id = {r["id"]: r for r in regions}
    lines = [f"island {island['name']!r}, size {island['size']}, {len(regions)} regions"]
    for r in regions:
        marks = [s.capitalize() for s in r.get("symbols", [])]
        marks += [w for f, w in (("entry", "anchor"), ("murloc", "Murloc"), ("marker", "size icon")) if r.get(f)]
        lines.append(f"  {r['id']:>2} {_TERRAIN[r['terrain']]:<9} {', '.join(marks):<36} borders "
                     f"{' '.join(map(str, r['adjacent']))}")
    if len(ids) > 1:
        lines.append("  borders (# both ways; ! only one of the two regions names it):")
        lines.append("     " + "".join(f"{i:>3}" for i in ids))
        for a in ids:
            row = []
            for b in ids:
                ab, ba = b in by_id[a]["adjacent"], a in by_id[b]["adjacent"]
                row.append("  #" if ab and ba else "  !" if ab or ba else "  .")
            lines.append(f"  {a:>3}" + "".join(row))
    return "\n".join(lines)


def _values(path: Path, races: list[str], powers: list[str]) -> int:
    rules = rulesets.get("warcraft")
    data = {"races": {}, "powers": {}}
    if path.exists() or not (races or powers):  # only adding a value creates the file
        try:
            data = files.loads(files.read_text(path, "values file", 256 * 1024), str(path))
        except files.BadInput as exc:
            raise UserError(f"{exc}" + ("" if path.exists() else " (add --race NAME=N to start one)")) from None
    try:  # the file as it is, before anything is added to it
        rules.check_options({"values": data})
    except ValueError as exc:
        raise UserError(f"{path}: {exc}") from None
    for items, kind in ((races, "races"), (powers, "powers")):
        for item in items:
            name, _, number = item.partition("=")
            if not number.isdigit():
                raise UserError(f"--{kind[:-1]} {item}: write NAME=N, e.g. orcs=5")
            data.setdefault(kind, {})[name] = int(number)
    try:
        rules.check_options({"values": data})
    except ValueError as exc:
        raise UserError(f"{path}: {exc}") from None
    if races or powers:
        try:
            path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        except OSError as exc:
            raise UserError(f"{path}: cannot write: {exc.strerror}") from None
    print(json.dumps(data, sort_keys=True))
    return 0
