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


def test_guided_entry_asks_again_for_a_bad_border_and_keeps_borders_two_way(capsys, tmp_path, monkeypatch):
    answers = "\n".join(["x", "S", "2", "fields", "", "y", "n", "y", "2",
                          "hill", "", "n", "n", "n", "1 1", "2", ""]) + "\n"  # twice, itself, then the default
    path = tmp_path / "x.json"
    code, out, _ = run(capsys, "islands", "new", str(path), stdin=answers, monkeypatch=monkeypatch)
    assert code == 0, out
    assert "a region is named twice" in out and "region 2 cannot border itself" in out
    assert "neighbouring regions (numbers) [1]" in out  # region 1 said it borders 2
    assert islands.load_island(str(path)).regions[1]["adjacent"] == [1]
    assert not (tmp_path / "x.json.draft").exists()


def test_guided_entry_is_saved_as_you_go_and_goes_on_where_it_stopped(capsys, tmp_path, monkeypatch):
    path = tmp_path / "ours.json"
    first = "\n".join(["ours", "M", "3", "fields", "magic", "y", "n", "y", "2 3"]) + "\n"  # stops after region 1
    code, _, err = run(capsys, "islands", "new", str(path), stdin=first, monkeypatch=monkeypatch)
    assert code == 2 and "answers given so far are kept" in err and err.count("\n") == 1
    assert not path.exists() and json.loads((tmp_path / "ours.json.draft").read_text())["regions"][0]["id"] == 1
    rest = "\n".join(["hill", "", "n", "y", "n", "", "mountain", "", "y", "y", "n", ""]) + "\n"
    code, out, _ = run(capsys, "islands", "new", str(path), stdin=rest, monkeypatch=monkeypatch)
    assert code == 0, out
    assert "going on from" in out and "1 of 3 regions entered" in out
    isl = islands.load_island(str(path))
    assert [r["adjacent"] for r in isl.regions] == [[2, 3], [1], [1]]
    assert isl.regions[2]["murloc"] and isl.regions[2]["terrain"] == "mountain"  # a Murloc on a Mountain
    assert "  3 Mountain  anchor, Murloc" in out  # the island is drawn
    assert "  1  .  #  #" in out


def test_a_finished_island_the_loader_refuses_is_kept_and_one_region_edited(capsys, tmp_path, monkeypatch):
    path = tmp_path / "ours.json"
    answers = "\n".join(["ours", "S", "2", "fields", "", "n", "n", "y", "2", "hill", "", "n", "n", "n", ""]) + "\n"
    code, out, err = run(capsys, "islands", "new", str(path), stdin=answers, monkeypatch=monkeypatch)
    assert code == 2 and "no Entry Region" in err and "companion islands edit" in err and err.count("\n") == 1
    assert "island 'ours', size S, 2 regions" in out and not path.exists()
    edit = "\n".join(["", "", "y", "", "", ""]) + "\n"  # region 2: keep all but the anchor
    code, out, _ = run(capsys, "islands", "edit", str(path), "2", stdin=edit, monkeypatch=monkeypatch)
    assert code == 0, out
    assert islands.load_island(str(path)).regions[1] == {"id": 2, "terrain": "hill", "entry": True, "adjacent": [1]}
    assert not (tmp_path / "ours.json.draft").exists()
    code, out, _ = run(capsys, "islands", "show", str(path))
    assert code == 0 and "  2 Hill      anchor" in out
    code, _, err = run(capsys, "islands", "edit", str(path), "7", stdin="", monkeypatch=monkeypatch)
    assert code == 2 and "region 7 is not entered yet" in err


def test_new_does_not_overwrite_an_island(capsys, tmp_path, monkeypatch):
    path = tmp_path / "ours.json"
    path.write_text("{}")
    code, _, err = run(capsys, "islands", "new", str(path), stdin="x\n", monkeypatch=monkeypatch)
    assert code == 2 and "exists" in err and path.read_text() == "{}"


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
