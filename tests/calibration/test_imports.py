"""DESIGN.md's package rules for calibration: it may import vision and maps; vision never imports it."""
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported(folder: str) -> dict[str, set[str]]:
    """{top-level module imported: files importing it} for every .py file under ``folder``."""
    out: dict[str, set[str]] = {}
    for path in ROOT.joinpath(folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                out.setdefault(name.split(".")[0], set()).add(str(path.relative_to(ROOT)))
    return out


def test_calibration_imports_only_vision_maps_and_their_libraries():
    allowed = set(sys.stdlib_module_names) | {"vision", "maps", "numpy", "cv2"}
    bad = {name: files for name, files in imported("calibration").items() if name not in allowed}
    assert not bad


def test_vision_and_maps_never_import_calibration_or_the_companion():
    for folder in ("vision", "maps"):
        found = imported(folder)
        assert "calibration" not in found and "companion" not in found, folder
