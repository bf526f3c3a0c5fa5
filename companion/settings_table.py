"""One table of the configuration file read into a settings dataclass: an unknown key or a value
of the wrong type (or outside its range) is refused in one line, ``FILE: [table] key: problem``."""
from __future__ import annotations

import dataclasses
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
            raise error(problem_line(source, table, key, f"expected {want}, got {value!r}"))
        low_high = (ranges or {}).get(key)
        if low_high and not low_high[0] <= value <= low_high[1]:
            raise error(problem_line(source, table, key, f"expected {low_high[0]}-{low_high[1]}, got {value!r}"))
        out[key] = value
    return out


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
