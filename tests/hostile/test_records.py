"""Mutated game records: `companion replay` answers one line (or the state), never a traceback,
and never reads more than a bounded regular file."""
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion import cli
from companion.rules.record import dumps
from companion.shuffle import seeded_setup
from companion.simulate import play

from .values import hostile_values

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "short-game.jsonl"


def _lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


BASE = _lines(EXAMPLE.read_text(encoding="utf-8"))
_game = play(seeded_setup("sample-large-1+sample-small-1", ["Ann", "Ben"], 3, "warcraft"), 3)
WARCRAFT = _lines(dumps(_game.setup, list(_game.history)[:60]))


def replay(tmp_path, capsys, text: str) -> tuple[int, str]:
    path = tmp_path / "game.jsonl"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    status = cli.main(["replay", str(path)])
    return status, capsys.readouterr().err


def one_line(status: int, err: str) -> None:
    assert status in (0, 1, 2)
    assert status == 0 or err.startswith(("companion replay: ", "/")), err
    assert err.count("\n") <= 1 and "Traceback" not in err, err
    assert len(err) < 600, err


@pytest.mark.parametrize("line, field, value", [
    (1, "act", ["conquer"]), (1, "act", {"act": "pick"}), (0, "ruleset", ["smallworld"]), (0, "ruleset", {}),
    (0, "map", "/dev/zero"), (0, "map", "/etc"), (0, "map", "x" * 5000), (0, "players", ["\ud800", "Ben"]),
    (2, "region", 10 ** 12), (2, "region", -1), (0, "players", ["A" * 5000, "B"]),
])
def test_the_causes_seen_are_one_line(tmp_path, capsys, line, field, value):
    lines = [dict(x) for x in BASE]
    lines[line][field] = value
    status, err = replay(tmp_path, capsys, "\n".join(json.dumps(x) for x in lines))
    one_line(status, err)
    assert status == 2, err


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"a": ' * 5000 + "1" + "}" * 5000,
                                  "1" * 5000, '{"act": "conquer", "region": ' + "9" * 4400 + "}"])
def test_deep_nesting_and_huge_numbers_are_one_line(tmp_path, capsys, text):
    status, err = replay(tmp_path, capsys, EXAMPLE.read_text(encoding="utf-8") + text + "\n")
    one_line(status, err)
    assert status == 2 and ":" in err


@pytest.mark.parametrize("path", ["/dev/zero", "/tmp", "/nonexistent/game.jsonl", "x" * 5000])
def test_only_a_regular_file_is_read(capsys, path):
    status = cli.main(["replay", path])
    one_line(status, capsys.readouterr().err)
    assert status == 2


def test_a_record_over_the_size_limit_is_refused_unread(tmp_path, capsys):
    status, err = replay(tmp_path, capsys, EXAMPLE.read_text(encoding="utf-8") + " " * (5 * 1024 * 1024))
    one_line(status, err)
    assert status == 2 and "too large" in err


def _mutate(lines: list[dict], where: int, key: str, value) -> str:
    lines = [dict(x) for x in lines]
    line = lines[where % len(lines)]
    keys = sorted(line)
    line[keys[hash(key) % len(keys)] if key == "?" else key] = value
    return "\n".join(json.dumps(x) for x in lines) + "\n"


FIELDS = st.sampled_from(["?", "act", "region", "race", "power", "tokens", "face", "regions", "map", "ruleset",
                          "players", "races", "powers", "options", "version", "format", "count", "banner"])


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(base=st.sampled_from([BASE, WARCRAFT]), where=st.integers(0, 80), key=FIELDS, value=hostile_values())
def test_any_mutated_field_is_one_line(tmp_path_factory, capsys, base, where, key, value):
    text = _mutate(base, where, key, value)
    status, err = replay(tmp_path_factory.mktemp("r"), capsys, text)
    one_line(status, err)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(base=st.sampled_from([BASE, WARCRAFT]), cut=st.integers(0, 10_000), junk=st.binary(max_size=40))
def test_torn_and_garbled_bytes_are_one_line(tmp_path_factory, capsys, base, cut, junk):
    raw = ("\n".join(json.dumps(x) for x in base) + "\n").encode()
    cut %= len(raw)
    path = tmp_path_factory.mktemp("r") / "game.jsonl"
    path.write_bytes(raw[:cut] + junk + raw[cut:])
    status = cli.main(["replay", str(path)])
    one_line(status, capsys.readouterr().err)
