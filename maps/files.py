"""Reading what a user or a device hands us (a map, an island, a record, a request body) without
trusting it: regular files only, a size limit, UTF-8, and JSON with bounded nesting and numbers.

Every refusal is a ``BadInput`` (a ``ValueError``) whose message is one line that names the file.
The limits are far above any real map, island or record and far below what hurts a Raspberry Pi.
"""
from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path

MAX_FILE = 4 * 1024 * 1024  # bytes: the longest real record is ~200 KB, a map ~20 KB
MAX_DEPTH = 24  # nesting of JSON arrays and objects: a record line needs 3
MAX_DIGITS = 15  # digits of a JSON number: region ids, counts, seeds
MAX_PATH = 1024  # characters of a path a user types


class BadInput(ValueError):
    """Input refused before use; the message is one line a user can act on."""


def check_path(path: str | os.PathLike, what: str = "file") -> Path:
    """``path`` as a Path if it names an existing regular file (not a device, a pipe or a folder)."""
    text = os.fspath(path)
    if not text or len(text) > MAX_PATH or "\0" in text:
        shown = text[:60] + ("..." if len(text) > 60 else "")
        raise BadInput(f"{shown!r}: not a usable {what} path")
    p = Path(text)
    try:
        info = p.stat()
    except FileNotFoundError:
        raise BadInput(f"{p}: cannot read: no such {what}") from None
    except OSError as exc:
        raise BadInput(f"{p}: cannot read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise BadInput(f"{p}: is a folder, not a {what}")
    if not stat.S_ISREG(info.st_mode):
        raise BadInput(f"{p}: is not a regular file (a device or a pipe), not a {what}")
    return p


def read_bytes(path: str | os.PathLike, what: str = "file", limit: int = MAX_FILE) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes."""
    p = check_path(path, what)
    try:
        with open(p, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # swapped since the check
                raise BadInput(f"{p}: is not a regular file, not a {what}")
            data = f.read(limit + 1)
    except OSError as exc:
        raise BadInput(f"{p}: cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise BadInput(f"{p}: too large for a {what} (over {limit // 1024} KB)")
    return data


def read_text(path: str | os.PathLike, what: str = "file", limit: int = MAX_FILE) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes."""
    data = read_bytes(path, what, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise BadInput(f"{path}:{line}: not UTF-8 text (byte {data[exc.start]:#04x})") from None


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BadInput(f"a number of {len(text)} digits (at most {MAX_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    if len(text) > 40:
        raise BadInput(f"a number of {len(text)} characters")
    value = float(text)
    if not math.isfinite(value):
        raise BadInput(f"the number {text} is too large")
    return value


def _constant(text: str):
    raise BadInput(f"{text} is not a number JSON allows")


def depth(value: object) -> int:
    """How deeply arrays and objects nest in ``value`` (counted without recursion); a ``BadInput``
    for a string that is not text (a lone surrogate such as ``"\\ud800"`` cannot be printed)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, str):
            _text(item)
            continue
        if isinstance(item, dict):
            for key in item:
                _text(key)
            item = list(item.values())
        elif not isinstance(item, list):
            continue
        deepest = max(deepest, level)
        if level > MAX_DEPTH:
            return level
        todo.extend((v, level + 1) for v in item)
    return deepest


def _text(value: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise BadInput("a string holds an unpaired surrogate escape (not text)") from None


def loads(text: str | bytes, source: str = "<input>", line: int | None = None,
          max_depth: int = MAX_DEPTH) -> object:
    """Parse JSON; a ``BadInput`` says ``source:LINE: ...`` for bad JSON, deep nesting or huge numbers
    (``line``: the file line this text is, for a JSON Lines file)."""
    def fail(msg: str, at: int | None = None) -> BadInput:
        at = line if line is not None else at
        return BadInput(f"{source}:{at}: {msg}" if at is not None else f"{source}: {msg}")

    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise fail("not UTF-8 text") from None
    try:
        data = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise fail(f"bad JSON: {exc.msg} (column {exc.colno})", exc.lineno) from None
    except BadInput as exc:
        raise fail(str(exc)) from None
    except RecursionError:
        raise fail(f"JSON nested more than {max_depth} deep") from None
    except (ValueError, MemoryError) as exc:
        raise fail(f"not usable JSON ({type(exc).__name__})") from None
    try:
        deep = depth(data)
    except BadInput as exc:
        raise fail(str(exc)) from None
    if deep > max_depth:
        raise fail(f"JSON nested more than {max_depth} deep")
    return data


def number(low: float, high: float, kind: type = int):
    """An argparse ``type`` for a number a user types, in ``low..high``: argparse prints
    ``error: argument --size: must be from 5 to 200, not -5`` (the option named) and exits 2."""
    import argparse

    def parse(text: str):
        try:
            value = kind(text) if len(text) <= 30 else None
        except ValueError:
            value = None
        if value is None or value != value or not low <= value <= high:
            word = "a whole number" if kind is int else "a number"
            shown = text if len(text) <= 30 else text[:27] + "..."
            raise argparse.ArgumentTypeError(f"must be {word} from {low:g} to {high:g}, not {shown!r}")
        return value
    parse.__name__ = kind.__name__
    return parse
