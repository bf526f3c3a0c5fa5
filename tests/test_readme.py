"""The README's first lines are the two set-up commands, and CI runs exactly the second one."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def commands():
    lines = ROOT.joinpath("README.md").read_text().splitlines()
    assert lines[0] == "```", "the README opens with the two set-up commands"
    return lines[1], lines[2]


def test_ci_runs_exactly_the_readme_test_command():
    demo, test = commands()
    assert "pytest" in test and "venv" in test and "venv" in demo
    ci = [line.strip() for line in ROOT.joinpath(".ci/run").read_text().splitlines()]
    assert test in ci


def test_the_tests_never_install_into_the_demos_environment():
    """Line 2 reinstalled the package into line 1's .venv while its demo ran: every static file and
    the error page itself failed. Each line has its own environment."""
    demo, test = commands()
    venv = lambda line: line.split("python3 -m venv ", 1)[1].split()[0]
    assert venv(demo) != venv(test)
    assert f"{venv(test)}/bin/pip" in test and f"{venv(demo)}/bin/" not in test
    assert f"{venv(demo)}/bin/companion demo" in demo


def test_project_never_reads_the_shared_folder():
    for folder in ("companion", "maps", "vision", "calibration", "firmware", "tests", "bench"):
        for path in ROOT.joinpath(folder).rglob("*.py"):
            if path.name == "test_readme.py":
                continue
            assert "../shared" not in path.read_text(), f"{path} reads ../shared"
