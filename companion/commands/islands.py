"""companion islands list | check MAP_OR_FILE... | new FILE | values FILE [--race NAME=N] [--power NAME=N]

Small World of Warcraft boards are entered by the table, once: ``new`` asks for each region in
turn (terrain, symbols, anchor, Murloc, size icon, neighbours) and writes an island file that the
loader accepts. ``values`` keeps the banner and badge values a table has read off its pieces.
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
    n = sub.add_parser("new", help="enter one side of one of your boards, region by region")
    n.add_argument("file", metavar="FILE", help="where to write the island (JSON)")
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
    if action == "values":
        return _values(Path(args.file), args.race, args.power)
    raise UserError("say what to do: list, check, new or values (see companion islands --help)")


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
            raise UserError("input ended before the island was complete; nothing was written")
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


def _ids(text):
    try:
        ids = [int(t) for t in text.replace(",", " ").split()]
    except ValueError:
        raise ValueError("region numbers separated by spaces, e.g. 2 5 6") from None
    if not ids:
        raise ValueError("every region has at least one neighbour")
    return ids


def _new(path: Path) -> int:
    print("Enter one side of one board. Number its regions 1, 2, 3 ... as you like (write the numbers on a "
          "photo or a sketch), then answer for each region.")
    name = _ask("island name (e.g. our-large-a)", lambda t: t if t and "+" not in t else (_ for _ in ()).throw(
        ValueError("a name without '+'")))
    size = _ask("size icon printed on it (S, M, L)", lambda t: _one_of(("s", "m", "l"))(t).upper())
    count = _ask("how many regions", lambda t: int(t) if t.isdigit() and 1 <= int(t) <= 99 else (_ for _ in ()).throw(
        ValueError("a number from 1 to 99")))
    regions = []
    for rid in range(1, count + 1):
        print(f"region {rid}:")
        terrain = _ask("  terrain (" + ", ".join(islands.TERRAINS) + ")", _one_of(islands.TERRAINS))
        region = {"id": rid, "terrain": terrain}
        if terrain not in ("sea", "lake"):
            symbols = _ask("  symbols (magic, cavern, or none)", lambda t: [
                _one_of(islands.SYMBOLS)(s) for s in t.replace(",", " ").split() if s.lower() != "none"], "none")
            if symbols:
                region["symbols"] = symbols
            for flag, question in (("entry", "  anchor (Entry Region)? y/n"), ("murloc", "  Murloc symbol? y/n"),
                                   ("marker", "  the S/M/L size icon? y/n")):
                if _ask(question, _yes_no, "n"):
                    region[flag] = True
        region["adjacent"] = _ask("  neighbouring regions (numbers)", _ids)
        regions.append(region)
    data = {"format": islands.FORMAT, "name": name, "title": f"{name} (entered by this table)", "size": size,
            "sample": False, "regions": regions}
    text = json.dumps(data, indent=1)
    try:
        islands.parse_island(text, str(path))
    except maps.MapError as exc:
        raise UserError(f"{exc} (nothing was written; run again, or edit the JSON by hand)") from None
    try:
        path.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise UserError(f"{path}: cannot write: {exc.strerror}") from None
    print(f"wrote {path}: island {name!r}, {len(regions)} regions; use it in a map as e.g. {path}+...")
    return 0


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
