"""A Raspberry Pi's budget, measured on ONE core of this machine (``taskset -c 0``), on the pip stack
and on the Debian stack (Raspberry Pi OS bookworm's python3, numpy 1.24 and OpenCV 4.6) side by
side. Prints JSON.

    python bench/pi.py [--frames 20] [--games 1] [--debian-python PATH] [--stacks pip,debian]

Per stack: observe per frame at the Pi camera's sizes (Camera Module 3: 1536x864, 1920x1080,
2304x1296; the hard tier: another lamp, blur, noise; the live path, registration re-checked from
the last frame; each frame observed ``--repeat`` times, its figure the least CPU time, since the
neighbours on a shared machine only ever add; ``observe_new_pose``: the same with no rectification
maps kept, as in the first frames after the camera moved), the stillness test per frame, stillness to accepted state (the moment the scene
has been still long enough to the follower's decision: bench/follow.py's figure, one 2-player game
on the hard tier at 1080p), ``companion serve`` start-up to the first page served and its memory
(RSS), and ``companion demo``'s memory once it has followed a few moves through the simulated
camera (the service with vision running). The Debian stack is the venv deploy/install.sh makes
(``--debian-python``; default: made afresh with ``deploy/install.sh --root`` in a temporary folder).

Times are CPU time on that core (this machine's cores are shared: wall time would measure the
neighbours); start-up is CPU seconds until the first page is served, with the wall time beside it.

Targets (one core here): observe <= 25 ms per 1080p frame, stillness to state <= 250 ms p95,
RSS <= 250 MB, serve serving in <= 3 s. A Pi 4 core is several times slower: docs/hardware.md.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# CPU time of this thread: what one uncontended core takes (this machine's cores are shared, so
# wall time would measure the neighbours); start-up is also given in wall time.
CLOCK = time.thread_time
SIZES = {"1536x864": (1536, 864), "1920x1080": (1920, 1080), "2304x1296": (2304, 1296)}
TARGETS = {"observe_ms_1080p_median": 25.0, "stillness_to_state_ms_p95": 250.0, "serve_rss_mb": 250.0,
           "demo_rss_mb": 250.0, "serve_start_s": 3.0}


def pct(values, q):
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))], 2) if values else None


# ---- the worker: one stack, already pinned to one core ----

def observe_per_frame(frames: int, repeat: int) -> dict:
    import cv2
    import numpy as np

    import maps
    from vision import layout
    from vision.classify import enroll
    from vision.observe import Calibration, observe
    from vision.register import forget_poses
    from vision.render import TIERS, Session, enrollment_samples, random_state
    from vision.settings import Settings
    from vision.still import StillnessGate

    cv2.setNumThreads(1)
    settings = Settings()
    geometry = layout.generate(maps.load("4p"))
    model = enroll(settings, enrollment_samples(4242, seed=1))
    out = {}
    for name, size in SIZES.items():
        realism = type(TIERS["hard"])(**{**TIERS["hard"].__dict__, "frame_size": size})
        session = Session(geometry, 17, 4242, realism)
        calibration = Calibration.build(settings, geometry, session.empty())
        rng = np.random.default_rng(5)
        images = [session.frame(random_state(geometry, rng))[0] for _ in range(frames)]
        prior, ms, moved_ms, still_ms = None, [], [], []
        gate = StillnessGate(settings)
        observe(settings, calibration, model, images[0], None)  # warm: first calls allocate
        for k, img in enumerate(images):
            t0 = CLOCK()
            gate.update(img, k * 0.1)
            still_ms.append((CLOCK() - t0) * 1000)
            best = best_moved = None
            for _ in range(repeat):  # the same frame from the same prior: the same work every time
                forget_poses()  # as if the camera had just moved: no rectification maps kept
                t0 = CLOCK()
                observe(settings, calibration, model, img, prior)
                t = CLOCK() - t0
                best_moved = t if best_moved is None else min(best_moved, t)
            for _ in range(repeat):
                t0 = CLOCK()
                _, after = observe(settings, calibration, model, img, prior)
                t = CLOCK() - t0
                best = t if best is None else min(best, t)
            prior = after
            ms.append(best * 1000)
            moved_ms.append(best_moved * 1000)
        out[name] = {"observe_ms_median": pct(ms, 0.5), "observe_ms_p95": pct(ms, 0.95),
                     "observe_new_pose_ms_median": pct(moved_ms, 0.5),
                     "still_test_ms_median": pct(still_ms, 0.5)}
    return out


def stillness_to_state(games: int) -> dict:
    import importlib.util  # bench/follow.py (not on the path: bench/vision.py would hide the vision package)
    spec = importlib.util.spec_from_file_location("bench_follow", ROOT / "bench" / "follow.py")
    follow = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(follow)
    follow.time = SimpleNamespace(perf_counter=CLOCK, process_time=CLOCK, time=time.time)  # its latency in CPU time too
    one_game = follow.one_game
    latency, observe_ms, actions = [], [], 0
    for g in range(games):
        r = one_game(("2p", 900 + g, "hard", (1920, 1080), 0.0, False, None, False, 100))  # no cache, no --explain
        latency += r["latency_ms"]
        observe_ms += r["observe_ms"]
        actions += r["actions"]
    return {"games": games, "actions": actions, "sights": len(latency),
            "stillness_to_state_ms_median": pct(latency, 0.5), "stillness_to_state_ms_p95": pct(latency, 0.95),
            "observe_full_search_ms_median": pct(observe_ms, 0.5)}


def _rss_mb(pid: int) -> tuple[float, float]:
    """(now, peak) resident memory of a process, MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return (int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024)


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) a process has used."""
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")


def _start(command: list[str], data: str, first_line_has: str):
    t0 = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "companion", *command, "--host", "127.0.0.1", "--port", "0",
                              "--data", data], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             env={**os.environ, "PYTHONUNBUFFERED": "1"})
    url = None
    while url is None:
        line = child.stdout.readline()
        if not line:
            raise RuntimeError(f"companion {command[0]} ended before serving")
        if first_line_has in line and "http://" in line:
            url = "http://" + line.split("http://", 1)[1].split()[0]
    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(url, timeout=5).read()
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)
    return child, url, time.perf_counter() - t0, _cpu_s(child.pid)


def service_figures() -> dict:
    out = {}
    with tempfile.TemporaryDirectory() as data:
        child, url, start_s, start_cpu_s = _start(["serve"], data, "the table view is at")
        try:
            for path in ("", "api/state", "games", "setup", "join", "static/table.js"):
                try:
                    urllib.request.urlopen(url.rstrip("/") + "/" + path, timeout=10).read()
                except OSError:
                    pass
            now, peak = _rss_mb(child.pid)
            out.update(serve_start_s=round(start_cpu_s, 2), serve_start_wall_s=round(start_s, 2),
                       serve_rss_mb=round(now, 1), serve_rss_peak_mb=round(peak, 1))
        finally:
            child.terminate()
            child.wait(30)
    with tempfile.TemporaryDirectory() as data:
        child, url, start_s, start_cpu_s = _start(["demo", "--pace", "0.2"], data, "open http://")
        try:
            deadline = time.monotonic() + 240
            actions = 0
            while time.monotonic() < deadline and actions < 12:  # moves followed through the camera
                actions = json.load(urllib.request.urlopen(url.rstrip("/") + "/api/state", timeout=10)).get("actions", 0)
                time.sleep(0.5)
            now, peak = _rss_mb(child.pid)
            out.update(demo_actions_followed=actions, demo_rss_mb=round(now, 1), demo_rss_peak_mb=round(peak, 1),
                       demo_start_s=round(start_cpu_s, 2), demo_start_wall_s=round(start_s, 2))
        finally:
            child.terminate()
            child.wait(30)
    return out


def worker(args) -> dict:
    import cv2
    import numpy
    stack = {"python": sys.version.split()[0], "opencv": cv2.__version__, "numpy": numpy.__version__,
             "numpy_from": "debian" if numpy.__file__.startswith("/usr/lib/python3/") else "pip",
             "cores_allowed": len(os.sched_getaffinity(0))}
    t0 = time.time()
    stack["frames"] = observe_per_frame(args.frames, args.repeat)
    stack.update(stillness_to_state(args.games))
    stack.update(service_figures())
    stack["observe_ms_1080p_median"] = stack["frames"]["1920x1080"]["observe_ms_median"]
    stack["seconds"] = round(time.time() - t0)
    return stack


# ---- the runner: each stack in its own interpreter on core 0 ----

def debian_python(given: str | None, scratch: Path) -> str:
    """The given venv's python, else a fresh venv made by deploy/install.sh --root (what a Pi gets today)."""
    if given:
        return given
    root = scratch / "root"
    subprocess.run(["bash", str(ROOT / "deploy/install.sh"), "--root", str(root)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return str(root / "opt/companion/venv/bin/python")


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20, help="frames observed at each camera size (default 20)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="times each frame is observed; its figure is the least CPU time (default 3)")
    parser.add_argument("--games", type=int, default=1, help="2-player games followed for stillness to state")
    parser.add_argument("--stacks", default="pip,debian", help="which stacks (default: pip,debian)")
    parser.add_argument("--debian-python", help="the Debian-stack venv's python (default: built by install.sh --root)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.frames < 2 or args.games < 1 or args.repeat < 1:
        parser.error("--frames must be at least 2, --games and --repeat at least 1")
    if args.worker:
        print(json.dumps(worker(args)))
        return
    taskset = shutil.which("taskset")
    result = {"cpu": cpu_model(), "one_core": bool(taskset), "frames": args.frames, "repeat": args.repeat, "games": args.games,
              "targets": TARGETS, "stacks": {}, "met": {}}
    with tempfile.TemporaryDirectory() as scratch:
        for stack in args.stacks.split(","):
            python = sys.executable if stack == "pip" else debian_python(args.debian_python, Path(scratch))
            command = ([taskset, "-c", "0"] if taskset else []) + [python, str(Path(__file__).resolve()), "--worker",
                                                                    "--frames", str(args.frames), "--games", str(args.games),
                                                                    "--repeat", str(args.repeat)]
            done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
            if done.returncode != 0:
                result["stacks"][stack] = {"error": done.stderr.strip().splitlines()[-1:]}
                continue
            figures = json.loads(done.stdout.strip().splitlines()[-1])
            result["stacks"][stack] = figures
            result["met"][stack] = {k: figures.get(k) is not None and figures[k] <= v for k, v in TARGETS.items()}
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
