"""deploy/flash-firmware.sh copies exactly the firmware the Pico needs, and that code stays MicroPython."""
import ast
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
HOST_ONLY = {"sim.py", "main.py"}  # main.py goes to the root as :main.py
MICROPYTHON_MODULES = {"select", "sys", "time", "machine", "neopixel", "proto", "scorebox", "firmware"}


def dry_run():
    result = subprocess.run(["bash", str(ROOT / "deploy/flash-firmware.sh"), "--dry-run", "--device", "/dev/scorebox"],
                            capture_output=True, text=True, timeout=30, env={"PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_every_pico_module_is_copied_and_main_started():
    out = dry_run()
    copied = {name.split(":firmware/")[1] for name in out.split() if name.startswith(":firmware/")}
    assert copied == {p.name for p in FIRMWARE.glob("*.py")} - HOST_ONLY
    assert ":main.py" in out and "connect /dev/scorebox" in out and out.rstrip().endswith("reset")


def test_pico_code_imports_only_what_micropython_has():
    for path in FIRMWARE.glob("*.py"):
        if path.name == "sim.py":
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [(node.module or "firmware").split(".")[0]] if node.level == 0 else []
            else:
                assert not isinstance(node, (ast.JoinedStr, ast.AnnAssign)), f"{path.name}: keep to MicroPython syntax"
                continue
            assert set(names) <= MICROPYTHON_MODULES, f"{path.name} imports {names}"
