"""The command line as a user meets it: exit codes, one-line errors, never a traceback."""
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "short-game.jsonl"


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_writes_a_record_that_replays_to_the_same_summary(tmp_path, capsys):
    out_file = tmp_path / "g.jsonl"
    code, out, _ = run(capsys, "simulate", "--map", "3p", "--seed", "5", "--out", str(out_file))
    assert code == 0 and "winner" in out and out.count("\n") == 1
    code2, out2, _ = run(capsys, "replay", str(out_file))
    assert code2 == 0 and out2.splitlines()[0] == out.strip()
    code3, out3, _ = run(capsys, "simulate", "--map", "3p", "--seed", "5", "--out", str(tmp_path / "h.jsonl"))
    assert (tmp_path / "h.jsonl").read_text() == out_file.read_text()


def test_simulate_with_another_player_count(capsys):
    code, out, _ = run(capsys, "simulate", "--map", "5p", "--players", "3", "--seed", "2")
    assert code == 0 and "3 players" in out


def test_replay_json_has_the_documented_fields(capsys):
    code, out, _ = run(capsys, "replay", str(EXAMPLE), "--json")
    state = json.loads(out)
    assert code == 0 and state["finished"] and state["winner"] == ["Ann"]
    assert [p["coins"] for p in state["players"]] == [92, 63]
    for key in ("round", "finished", "winner", "players", "regions"):
        assert key in state
    assert set(state["players"][0]) >= {"name", "coins", "active", "in_decline", "tokens_in_hand"}
    assert set(state["regions"]["0"]) >= {"owner", "race", "tokens", "in_decline", "markers"}


def test_replay_stops_at_the_first_illegal_action_with_file_line_reason(tmp_path, capsys):
    lines = EXAMPLE.read_text().splitlines()
    lines[2] = json.dumps({"act": "conquer", "region": 0})  # a Sea, and the Trolls are not Seafaring
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "replay", str(bad))
    assert code == 1 and err.startswith(f"{bad}:3: water: Region 0 (Sea) is a sea")
    assert "Traceback" not in err and err.count("\n") == 1


@pytest.mark.parametrize("line, message", [
    ("{not json", "bad JSON"),
    ('{"act": "conquer", "region": 99}', "unknown region 99"),
    ('{"act": "pick", "race": "dragons"}', "unknown race 'dragons'"),
    ('{"act": "conquer"}', "missing field 'region'"),
    ('{"act": "fly", "region": 3}', "unknown act 'fly'"),
    ('{"act": "conquer", "region": "three"}', "must be a whole number"),
])
def test_a_malformed_line_exits_2_naming_file_and_line(tmp_path, capsys, line, message):
    lines = EXAMPLE.read_text().splitlines()
    lines.insert(3, line)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 2 and f"{bad}:4: " in err and message in err and err.count("\n") == 1


def test_a_bad_header_or_missing_file_is_one_line(tmp_path, capsys):
    bad = tmp_path / "h.jsonl"
    bad.write_text(json.dumps({"format": "smallworld-record", "version": 1, "map": "4p", "players": ["A"],
                               "races": [], "powers": []}) + "\n")
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 2 and ":1: players" in err
    code, _, err = run(capsys, "replay", str(tmp_path / "nope.jsonl"))
    assert code == 2 and "cannot read" in err and err.count("\n") == 1


def test_rules_json_lists_14_races_and_20_powers(capsys):
    code, out, _ = run(capsys, "rules", "--json")
    info = json.loads(out)
    assert len(info["races"]) == 14 and len(info["powers"]) == 20
    ratmen = next(r for r in info["races"] if r["name"] == "ratmen")
    assert ratmen == {"name": "ratmen", "title": "Ratmen", "banner": 8, "in_box": 13}
    assert sum(r["in_box"] for r in info["races"]) == 168
    assert {"name": "dragon-master", "title": "Dragon Master", "badge": 5} in info["powers"]


def test_unknown_map_is_one_line(capsys):
    code, _, err = run(capsys, "simulate", "--map", "7p")
    assert code == 2 and "no such map" in err


def test_the_companion_command_has_help():
    out = subprocess.run([sys.executable, "-m", "companion", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "replay" in out.stdout and "simulate" in out.stdout


@pytest.mark.slow
def test_a_wheel_ships_the_board_data(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(tmp_path), str(ROOT)], check=True, capture_output=True)
    wheel = next(tmp_path.glob("*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert {f"maps/boards/{m}.json" for m in ("2p", "3p", "4p", "5p")} <= set(names)
    assert "companion/rules/game.py" in names
