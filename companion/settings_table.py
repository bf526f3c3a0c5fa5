"""One table of the configuration file read into a settings dataclass: an unknown key or a value
of the wrong type (or outside its range) is refused in one line, ``FILE: [table] key: problem``."""
from __future__ import annotations

import dataclasses
import math
from typing import Any, Mapping


def problem_line(source: str, table: str, key: str, problem: str) -> str:
    return f"{source}: [{table}] {key}: {problem}"


def read(kind, values: Mapping[str, Any], table: str, source: str, error: type[ValueError] = ValueError,
         ranges: Mapping[str, tuple[float, float]] | None = None) -> dict[str, Any]:
    """The keys of ``values`` for dataclass ``kind``, each typed like its default (an int where a
    float is expected becomes a float, a list of names a tuple); ``ranges`` bounds some keys."""
    known = {f.name: f for f in dataclasses.fields(kind)}
    out = {}
    for key, value in values.items():
        if key not in known:
            raise error(problem_line(source, table, key, f"unknown key (known: {', '.join(known)})"))
        default = known[key].default
        ok, value = _typed(default, value)
        if not ok:
            want = "a list of names" if isinstance(default, tuple) else type(default).__name__
            raise error(problem_line(source, table, key, f"expected {want}, got {_shown(value)}"))
        too_big = _too_big(value)
        if too_big:
            raise error(problem_line(source, table, key, too_big))
        low_high = (ranges or {}).get(key)
        if low_high and not low_high[0] <= value <= low_high[1]:
            raise error(problem_line(source, table, key, f"expected {low_high[0]}-{low_high[1]}, got {value!r}"))
        out[key] = value
    return out


MAX_TEXT = 1024  # characters of one value: a path, a name, a camera description
MAX_ITEMS = 64  # names in one list


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:50]}... ({len(text)} characters)"


def _too_big(value: Any) -> str | None:
    """What makes a well-typed value unusable: too long, a NUL, a number that is not finite."""
    texts = list(value) if isinstance(value, tuple) else [value] if isinstance(value, str) else []
    if isinstance(value, tuple) and len(value) > MAX_ITEMS:
        return f"at most {MAX_ITEMS} names, got {len(value)}"
    for text in texts:
        if len(text) > MAX_TEXT:
            return f"at most {MAX_TEXT} characters, got {len(text)}"
        if "\0" in text:
            return "a NUL character is not allowed"
    if isinstance(value, float) and not math.isfinite(value):
        return f"expected a finite number, got {value!r}"
    return None


def _typed(default: Any, value: Any) -> tuple[bool, Any]:
    """Whether ``value`` has the type of ``default``, and the value as that type."""
    if isinstance(default, bool):
        return isinstance(value, bool), value
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool), value
    if isinstance(default, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return ok, float(value) if ok else value
    if isinstance(default, tuple):
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        return ok, tuple(value) if ok else value
    return isinstance(value, str), value
