"""Service benchmark: the table view and five phones open in Chromium; the time from an accepted
action to its update in each browser (median, 95th percentile) and the service's resident memory.
Prints JSON. Not a test.

    python bench/service.py [--actions 60] [--ruleset warcraft]
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import tempfile
import threading
import time

from playwright.sync_api import sync_playwright

from companion.service.config import Config, ServiceSettings
from companion.service.inputs import NewGame, Play
from companion.service.server import Server
from companion.shuffle import seeded_setup
from companion.simulate import play

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=60)
    parser.add_argument("--pace", type=float, default=0.3, help="seconds between actions")
    parser.add_argument("--ruleset", default="smallworld",
                        help="smallworld (the 5p map) or warcraft (the 5-player SAMPLE islands)")
    args = parser.parse_args()
    from companion.rules import ruleset as rulesets
    rules = rulesets.get(args.ruleset)
    default_map = getattr(rules, "default_map", None)
    map_name = default_map(5) if default_map else "5p"
    with tempfile.TemporaryDirectory() as data:
        config = Config(service=ServiceSettings(host="127.0.0.1", port=0, data_dir=data, table_code="BENCH1"))
        server = Server(config, hardware=False)
        server.start_service()
        threading.Thread(target=server.run, daemon=True).start()
        url = f"http://127.0.0.1:{server.port}"
        owner = server.service.owner
        setup = seeded_setup(map_name, 5, 1, rules.name)
        owner.submit(NewGame(setup)).result(5)
        accepted: dict[int, float] = {}
        owner.listeners.append(lambda p: accepted.setdefault(p.version, time.time() * 1000))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            pages = [browser.new_context().new_page()]
            pages[0].goto(url + "/")
            for code in owner.published.codes:
                page = browser.new_context().new_page()
                page.goto(f"{url}/join/{code}")
                page.wait_for_url(url + "/seat")
                pages.append(page)
            for page in pages:
                page.wait_for_function("Object.keys(window.__seen).length > 0")
            history = play(setup, 1).history[:args.actions]
            versions = []
            for action in history:
                owner.submit(Play(action)).result(5)
                versions.append(owner.published.version)
                time.sleep(args.pace)
            time.sleep(1.0)
            latencies = []
            for page in pages:
                seen = page.evaluate("window.__seen")
                for v in versions:
                    if str(v) in seen and v in accepted:
                        latencies.append(seen[str(v)] - accepted[v])
            memory = rss_mb()
            browser.close()
        server.close()
    latencies.sort()
    print(json.dumps({
        "ruleset": rules.name, "map": map_name,
        "browsers": len(pages), "actions": len(versions), "updates_measured": len(latencies),
        "updates_expected": len(versions) * len(pages),
        "latency_ms_median": round(statistics.median(latencies), 1),
        "latency_ms_p95": round(latencies[int(0.95 * (len(latencies) - 1))], 1),
        "service_rss_mb": round(memory, 1),
        "targets": {"latency_ms_p95": 250, "service_rss_mb": 250},
    }, indent=1))


if __name__ == "__main__":
    main()
