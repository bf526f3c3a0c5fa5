"""``companion islands``: list, check, guided entry of a board, the table's values file."""
import io
import json

from companion.cli import main
from maps import islands


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_shows_samples_labelled(capsys):
    code, out, _ = run(capsys, "islands", "list")
    assert code == 0 and out.count("SAMPLE") == 6


def test_check_a_map_and_a_bad_file(capsys, tmp_path):
    code, out, _ = run(capsys, "islands", "check", islands.sample_map(3))
    assert code == 0 and "3 players, 10 rounds" in out
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "smallworld-island/1"}')
    code, _, err = run(capsys, "islands", "check", str(bad))
    assert code == 2 and "bad.json: field 'name'" in err and err.count("\n") == 1


def test_guided_entry_writes_an_island_the_loader_accepts(capsys, tmp_path, monkeypatch):
    answers = "\n".join([
        "our-small-a", "S", "3",
        "fields", "magic", "y", "n", "n", "2",
        "hill", "", "n", "y", "y", "1 3",
        "forest", "cavern", "x", "n", "n", "n", "2",  # 'x' is refused and asked again
    ]) + "\n"
    path = tmp_path / "ours.json"
    code, out, _ = run(capsys, "islands", "new", str(path), stdin=answers, monkeypatch=monkeypatch)
    assert code == 0, out
    isl = islands.load_island(str(path))
    assert isl.size == "S" and not isl.sample
    assert isl.regions[1] == {"id": 2, "terrain": "hill", "murloc": True, "marker": True, "adjacent": [1, 3]}
    assert "answer y or n" in out


def test_guided_entry_refuses_an_inconsistent_board(capsys, tmp_path, monkeypatch):
    answers = "\n".join(["x", "S", "2", "fields", "", "y", "n", "y", "2", "hill", "", "n", "n", "n", "1 1"]) + "\n"
    code, _, err = run(capsys, "islands", "new", str(tmp_path / "x.json"), stdin=answers, monkeypatch=monkeypatch)
    assert code == 2 and "adjacent lists a region twice" in err and not (tmp_path / "x.json").exists()


def test_values_file_is_kept_and_checked(capsys, tmp_path):
    path = tmp_path / "values.json"
    code, out, _ = run(capsys, "islands", "values", str(path), "--race", "orcs=5", "--power", "farmer=3")
    assert code == 0 and json.loads(path.read_text()) == {"races": {"orcs": 5}, "powers": {"farmer": 3}}
    code, _, err = run(capsys, "islands", "values", str(path), "--race", "murlocs=3")
    assert code == 2 and "unknown name 'murlocs'" in err


def test_simulate_warcraft_writes_a_record_replay_reads(capsys, tmp_path):
    out_file = tmp_path / "g.jsonl"
    code, out, _ = run(capsys, "simulate", "--ruleset", "warcraft", "--players", "2", "--seed", "3",
                       "--out", str(out_file))
    assert code == 0 and "sample-large-1+sample-small-1: 2 players, 10 rounds" in out
    assert json.loads(out_file.read_text().splitlines()[0])["ruleset"] == "warcraft"
    code, replayed, _ = run(capsys, "replay", str(out_file))
    assert code == 0 and replayed.splitlines()[0] == out.strip()
    code, js, _ = run(capsys, "replay", "--json", str(out_file))
    assert json.loads(js)["ruleset"] == "warcraft" and "warcraft" in json.loads(js)


def test_rules_lists_the_warcraft_races(capsys):
    code, out, _ = run(capsys, "rules", "--ruleset", "warcraft")
    assert code == 0 and "16 races, 20 special powers" in out


def test_values_file_of_the_wrong_shape_or_unwritable_is_one_line(capsys, tmp_path):
    for text in ("[]", '{"races": []}'):
        path = tmp_path / "values.json"
        path.write_text(text)
        code, _, err = run(capsys, "islands", "values", str(path), "--race", "orcs=5")
        assert code == 2 and "values.json: options.values" in err and err.count("\n") == 1
        assert path.read_text() == text
    code, _, err = run(capsys, "islands", "values", str(tmp_path / "no" / "v.json"), "--race", "orcs=5")
    assert code == 2 and "v.json: cannot write" in err and err.count("\n") == 1


def test_simulate_warcraft_with_a_wrong_player_count_is_one_line(capsys):
    for argv in (("--players", "6"), ("--players", "1"), ("--players", "3", "--map", islands.sample_map(2))):
        code, _, err = run(capsys, "simulate", "--ruleset", "warcraft", *argv)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert "for 2 players; this game has 3" in err
