"""Following whole games from the camera: simulated games rendered board by board (with a moving
hand between still boards, the hard tier's light and blur), through stillness, observation and
reconciliation; illegal conquests injected along the way. Prints JSON.

    python bench/follow.py [--games4 20] [--games5 10] [--tier hard] [--size 1920x1080] [--workers 2]
                           [--first-seed 0] [--cache DIR] [--explain]
                           [--table-reacts]

Stillness to accepted state counts the worker's CPU time (observing each still frame a vote took,
the follower) plus a camera's frame interval between two frames, not the wall clock.

--cache DIR keeps each sight's observation (vision's reading of a rendered frame) in DIR and replays
it in later runs: every frame is then rendered from its own seed (the game, the step of the true game,
the look), so a change to the follower sees the same frames. --explain adds, per game, where the
record first left the true game ("drifts": the step, what the camera read, the hypotheses tried).

An injected illegal conquest is made on the true board (illegal in the true game), then taken back:
the camera shows the table as it is, never the record's board, so a record that left the game is
judged as a real table would judge it.

With --table-reacts the simulated table answers each alert as players would with what the dashboard
offers: when the game went wrong they first press "the board is right" and confirm its corrections
if they put the board right, else correct the game log in place (the table screen's Correct: the
fewest moves typed in place of wrong ones or inserted, or taken out, the latest first, until the
game's state is the true one; an old wrong move a later one undid is left); when the camera misread
a region they override the alert. entered_by_hand_per_game counts the moves typed; taps_per_game
the buttons pressed (the board is right, a confirmation, a move taken out, save, an override). The
moves typed are not counted as inferred. Earlier measures are printed too:
retyped_after_first_difference_per_game (every action after the first wrong one typed again) and
entered_every_wrong_action_per_game (every wrong action put right, however old).
"""
from __future__ import annotations

import argparse
import difflib
import json
import math
import os
import random
import statistics
import sys
import time
import zlib
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import maps  # noqa: E402
from companion.reconcile import expected_view  # noqa: E402
from companion.reconcile.view import race_label  # noqa: E402
from companion.rules import Game  # noqa: E402
from companion.rules.actions import Conquer, Redeploy, Resettle  # noqa: E402
from companion.shuffle import seeded_setup  # noqa: E402
from companion.simulate import play  # noqa: E402
from tests.reconcile.harness import EXTRA_SIGHTS, follow  # noqa: E402
from vision import layout  # noqa: E402
from vision.classify import enroll  # noqa: E402
from vision.errors import RegistrationError  # noqa: E402
from vision.observe import Calibration, Observation, observe  # noqa: E402
from vision.render import TIERS, Session, enrollment_samples  # noqa: E402
from vision.settings import Settings  # noqa: E402
from vision.still import StillnessGate  # noqa: E402

DESIGN_SEED = 4242  # token art never used while developing
INJECTED = ("not-adjacent", "not-entry", "too-few-tokens", "water", "immune", "ally", "not-your-race",
            "conquests-over", "race-in-decline")
_MODEL = {}
FOREIGN_DESIGNS = 9000  # the foreign tier's held-out printings (bench/vision.py's "heldout" range)
# between two still frames of one board when the follower holds for another look: a camera at 15
# frames a second (the renderer's time to make the frame is not counted, a camera does not spend it)
FRAME_MS = 1000 / 15


def cpu() -> float:
    """The worker's CPU seconds (vision runs on one thread here): what observing and following take on
    a quiet machine, however busy this one is (wall time under a shared machine's load says nothing)."""
    return time.process_time()


def _bench_vision():
    """bench/vision.py (named like the package it measures: loaded by its path)."""
    if "bench_vision" not in _MODEL:
        import importlib.util
        spec = importlib.util.spec_from_file_location("bench_vision", Path(__file__).with_name("vision.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _MODEL["bench_vision"] = module
    return _MODEL["bench_vision"]


def model(settings):
    if "m" not in _MODEL:
        _MODEL["m"] = enroll(settings, enrollment_samples(DESIGN_SEED, seed=1))
    return _MODEL["m"]


def geometry(map_name):
    if map_name not in _MODEL:  # the layout of a map takes seconds: once per worker
        _MODEL[map_name] = layout.generate(maps.load(map_name))
    return _MODEL[map_name]


class Cache:
    """Observations kept on disk (``--cache``), one JSON file a game: key -> (observation, observe ms)."""

    def __init__(self, folder, name):
        self.path = Path(folder) / f"{name}.json" if folder else None
        self.kept = json.loads(self.path.read_text()) if self.path and self.path.exists() else {}
        self.new = 0

    def get(self, key):
        if self.path is None or key not in self.kept:
            return None
        obs, ms = self.kept[key]
        return Observation.from_json(obs), ms

    def put(self, key, obs, ms):
        if self.path is not None:
            self.kept[key] = (obs.to_dict(), ms)
            self.new += 1

    def save(self):
        if self.path is not None and self.new:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(self.kept))


def one_game(job):
    map_name, seed, tier, size, inject_rate, reacts, cache_dir, explain, designs = job
    cv2.setNumThreads(1)
    settings = Settings()
    realism = TIERS[tier]
    realism = type(realism)(**{**realism.__dict__, "frame_size": size})
    truth = play(seeded_setup(map_name, int(map_name[0]), seed), seed)
    cache = Cache(cache_dir, f"{tier}-{map_name}-{seed}-{size[0]}x{size[1]}"
                  + (f"-design{designs}" if realism.style != "plain" else ""))
    table = {"moved": 0}

    def camera():
        """The session, its calibration and the model, made when a frame must be rendered."""
        if "cal" in table:
            return table["session"], table["cal"], table["mdl"]
        geo = geometry(map_name)
        session, cal, moved = None, None, 0
        if realism.style != "plain":  # another printing, calibrated through the calibration flow (bench/vision.py)
            tab, cal, mdl = _bench_vision().calibrated(settings, map_name, seed, designs + seed % 100, tier)
            session = tab.session
        while cal is None:  # as at a real table: if the empty board cannot be registered, move the lamp
            session = Session(geo, seed + 7919 * moved, DESIGN_SEED, realism)
            for _ in range(3):
                try:
                    cal = Calibration.build(settings, geo, session.empty())
                    break
                except RegistrationError:
                    continue
            moved += cal is None
        if realism.style == "plain":
            mdl = model(settings)
        table.update(session=session, cal=cal, mdl=mdl, moved=moved)
        return session, cal, mdl

    if cache.path is None:
        camera()
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    gate = StillnessGate(settings)
    clock = [0.0]
    latency, observe_ms = [], []
    injected = Counter()
    flagged = Counter()
    flagged_sure = []
    wrong = []

    last = {}
    # the sights of the true game so far, the board's digest, and 0 (a sight of the true game), 1 (an
    # injected conquest) or 2 (the board put right after it): what a frame's own seed is made of
    step = [0, 0, 0]

    def key_rng(look, part):
        """The frame's own random numbers with a cache (``part``: 0 the hand, 1 where the tokens lie, 2
        the light's noise): the same frame whatever the follower did before."""
        if cache.path is None:
            return rng
        return np.random.default_rng([seed, step[0], step[2], look, part, step[1]])

    def observed(img, key):
        session, cal, mdl = camera()
        t0 = cpu()
        obs, _ = observe(settings, cal, mdl, img)
        ms = (cpu() - t0) * 1000
        cache.put(key, obs, ms)
        return Observation.from_json(obs.to_dict()) if cache.path else obs, ms

    def sight(board_view):
        """A hand over the table, then still frames until the gate fires: what the camera reports."""
        last["board"], last["look"] = board_view, 0
        step[1] = zlib.crc32(json.dumps(sorted((r, sorted(v.items())) for r, v in board_view.items())).encode())
        key = f"{step[0]}-{step[2]}-{step[1]}/0"
        if (hit := cache.get(key)) is not None:
            observe_ms.append(hit[1])
            return hit[0], cpu() - hit[1] / 1000
        session, _, _ = camera()
        hand, _ = session.frame(board_view, hand=True, rng=key_rng(0, 0))
        gate.update(hand, clock[0])
        clock[0] += 0.1
        tokens, _ = session.place(board_view, key_rng(0, 1))
        last["tokens"], last["placed"] = tokens, key
        img, _ = session.render(tokens, None, key_rng(0, 2))
        for _ in range(100):
            clock[0] += 0.1
            if gate.update(img, clock[0]):
                break
        obs, ms = observed(img, key)
        observe_ms.append(ms)
        return obs, cpu() - ms / 1000

    def still_again():
        """The next still frame of the same board (the tokens where they lay; the light's noise anew):
        what a camera gives when the follower wants another look."""
        clock[0] += 0.1
        last["look"] += 1
        key = f"{step[0]}-{step[2]}-{step[1]}/{last['look']}"
        if (hit := cache.get(key)) is not None:
            observe_ms.append(hit[1])
            return hit[0], cpu() - hit[1] / 1000
        session, _, _ = camera()
        if last.get("placed") != key.rsplit("/", 1)[0] + "/0":  # the first look was kept: lay them as it did
            last["tokens"], _ = session.place(last["board"], key_rng(0, 1))
            last["placed"] = key.rsplit("/", 1)[0] + "/0"
        img, _ = session.render(last["tokens"], None, key_rng(last["look"], 2))
        obs, ms = observed(img, key)
        observe_ms.append(ms)
        return obs, cpu() - ms / 1000

    pending = {}
    looks = []  # (the true game's length, its board, the counts read): each sight's first look (--explain)

    def seen_of(live):
        step[0], step[2] = step[0] + 1, 0
        if "held" in pending:  # the last look was taken still holding (a board alert seen once): it decided
            latency.append(pending.pop("held") - FRAME_MS)
        seen, t0 = sight(expected_view(live))
        pending["t0"] = t0
        if explain:
            looks.append((len(live.history), expected_view(live), {r: dict(v.tokens) for r, v in seen.regions.items()}))
        return seen

    def again_of(live):
        seen, t0 = still_again()
        pending["t0"] = t0
        return seen

    def inject(ours, follower, was):
        """An illegal conquest made on the true board before the true game's next sight, then taken back
        (the board put right): illegal in the true game, judged by the follower against its record."""
        if pick.random() >= inject_rate or was.phase != "conquest" or was.current_player < 0:
            return
        candidates = []
        for tribe in was.tribes.values():
            label = race_label(was, tribe.name)
            mine = tribe is was.active_tribe(was.turn.player)
            for r in was.board.ids:
                if was.regions[r].race == tribe.name:
                    continue
                reason = was.explain(Conquer(r) if mine else Conquer(r, tribe.name))
                if reason is not None and reason.code in INJECTED:
                    candidates.append((reason.code, r, label))
        if not candidates:
            return
        code = pick.choice(sorted({c for c, _, _ in candidates}))
        _, region, label = pick.choice([c for c in candidates if c[0] == code])
        true_board = expected_view(was)
        board = {r: dict(v) for r, v in true_board.items()}
        board[region] = {label: 1, **{k: v for k, v in board[region].items() if k in ("mountain",)}}
        step[2] = 1
        seen, _ = sight(board)
        outs = [follower.observe(ours, seen)]
        while outs[-1].hold and len(outs) <= EXTRA_SIGHTS:  # another still frame, as the camera gives
            outs[-1].apply_to(ours)
            seen, _ = still_again()
            outs.append(follower.observe(ours, seen))
        raised = [a for out in outs for a in out.raised]
        actions = [a for out in outs for a in out.actions]
        injected[code] += 1
        if any(a.region == region and a.code == code for a in raised) and not actions:
            flagged[code] += 1
            flagged_sure.append(round(follower.evidence.sure(region), 3))
        else:
            read = seen.regions.get(region)
            wrong.append({"expected": code, "region": region, "got": [a.code for a in raised],
                          "actions": [a.notation() for a in actions],
                          "camera": dict(read.tokens) if read else None,
                          "confidence": round(float(read.confidence), 3) if read else None,
                          "confidences": {k: round(float(c), 3) for k, c in read.confidences.items()} if read else None,
                          "sure": round(follower.evidence.sure(region), 3),
                          "trace": [line for out in outs for line in out.trace][-4:]})
        out = outs[-1]
        out.apply_to(ours)
        step[2] = 2
        seen, _ = sight(true_board)  # the table puts it right: the true board, not the record's
        out = follower.observe(ours, seen)
        out.apply_to(ours)

    from companion.reconcile import Follower

    class Timed(Follower):
        """Stillness to accepted state: from the first still frame's observation to the outcome that
        decides, over every still frame a vote took (their observations, the follower, a frame's
        interval between two)."""

        def see(self, game, seen, hidden=frozenset(), unsure=frozenset(), vote=True):
            out = super().see(game, seen, hidden, unsure, vote)
            if "t0" in pending:
                spent = pending.pop("held", 0.0) + (cpu() - pending.pop("t0")) * 1000
                if out.hold:
                    pending["held"] = spent + FRAME_MS
                else:
                    latency.append(spent)
            return out

    follower = Timed()
    follower.explain = explain
    run = follow(truth, seen_of, follower, before_sight=inject, table_reacts=reacts, again=again_of)
    cache.save()
    t_actions = Counter(a.notation() for a in truth.history)
    o_actions = Counter(a.notation() for a in run.ours.history)
    return {"map": map_name, "seed": seed, "actions": sum(t_actions.values()),
            "inferred": max(0, sum((t_actions & o_actions).values()) - run.entered),
            "corrections": run.corrections, "entered": run.entered, "retyped": run.retyped, "in_place": run.in_place,
            "taps": run.taps, "fixes": run.fixes, "accepted": run.accepted, "exact": run.ours.fingerprint() == truth.fingerprint(),
            "false_alerts": len([a for a in run.alerts]), "questions": run.questions,
            "latency_ms": latency, "observe_ms": observe_ms, "injected": dict(injected), "flagged": dict(flagged),
            "misflagged": wrong[:5], "lamp_moved": table["moved"], "drifts": run.drifts,
            "alerts": [f"{a.code} on {a.region} ({s})" for a, s in zip(run.alerts, run.raised_sure)],
            "flagged_sure": flagged_sure, "amended": run.amended, "missed": sorted((t_actions - o_actions).elements()),
            "extra": sorted((o_actions - t_actions).elements()), **(splits(truth, run.ours, looks) if explain else {})}


def splits(truth, ours, looks) -> dict:
    """The redeployments and resettlements the record holds split otherwise than the true game (paired
    in the two histories' alignment), with the counts read, sight by sight, on the regions where the two
    splits differ until a move changed one of them; and how often each count was read where each number
    of tokens lay (``reads``, for the odds of the whole run)."""
    reads = Counter()
    for _, board, read in looks:
        for r, here in board.items():
            for label, n in here.items():
                reads[n, read.get(r, {}).get(label, 0)] += 1
    t_notes, o_notes = [a.notation() for a in truth.history], [a.notation() for a in ours.history]
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=t_notes, b=o_notes, autojunk=False).get_opcodes():
        if tag != "replace" or i2 - i1 != j2 - j1:
            continue
        for true, held in zip(truth.history[i1:i2], ours.history[j1:j2]):
            if type(true) is not type(held) or not isinstance(true, (Redeploy, Resettle)):
                continue
            given, record = dict(true.tokens), dict(held.tokens)
            regions = sorted(r for r in set(given) | set(record) if given.get(r, 0) != record.get(r, 0))
            step = i1 + truth.history[i1:i2].index(true) + 1
            board = next((b for n, b, _ in looks if n == step), None)
            if board is None:
                continue
            then = Game(truth.setup)
            for action in truth.history[:step]:
                then.apply(action)
            label = race_label(then, then.regions[next(iter(given))].race)
            sights = []
            for n, now, read in looks:
                if n < step:
                    continue
                if any(now[r].get(label, 0) != board[r].get(label, 0) for r in regions):
                    break
                sights.append({r: read.get(r, {}).get(label, 0) for r in regions})
            out.append({"true": true.notation(), "record": held.notation(), "label": label,
                        "tokens": {r: [board[r].get(label, 0), board[r].get(label, 0) + record.get(r, 0) - given.get(r, 0)]
                                   for r in regions}, "read": sights})
    return {"splits": out, "reads": reads}


def judged_splits(results) -> tuple[dict, list]:
    """Each split of ``splits`` weighed by this camera's own odds of reading v tokens where n lie (the
    whole run's sights): which one the counts read favour, by more than twice the odds, or neither."""
    reads = Counter()
    for r in results:
        reads.update(r.get("reads", {}))
    by_n = Counter()
    for (n, _), k in reads.items():
        by_n[n] += k

    def odds(v, n):
        if not by_n[n]:
            n = max((m for m in by_n if m < n), default=n)
        return (reads[n, v] + 0.5) / (by_n[n] + 0.5 * (n + 2))

    verdicts, cases = Counter(), []
    for r in results:
        for s in r.get("splits", []):
            ll = sum(math.log(odds(read[reg], s["tokens"][reg][0])) - math.log(odds(read[reg], s["tokens"][reg][1]))
                     for read in s["read"] for reg in read)
            verdict = ("no sight" if not s["read"] else "true split" if ll > math.log(2)
                       else "record's split" if ll < -math.log(2) else "neither")
            verdicts[f"{s['true'].split()[0]}: {verdict}"] += 1
            cases.append({"game": f"{r['map']}-{r['seed']}", **{k: s[k] for k in ("true", "record")},
                          "tokens true/record": {str(k): v for k, v in s["tokens"].items()},
                          "read": [list(x.values()) for x in s["read"]], "log odds true - record": round(ll, 2),
                          "favours": verdict})
    return dict(sorted(verdicts.items())), cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games4", type=int, default=20)
    parser.add_argument("--games5", type=int, default=10)
    parser.add_argument("--tier", default="hard", choices=sorted(TIERS))
    parser.add_argument("--size", default="1920x1080", help="frame size, WxH (default 1920x1080, as bench/vision.py)")
    parser.add_argument("--inject", type=float, default=0.08, help="chance of an injected illegal conquest per sight")
    parser.add_argument("--first-seed", type=int, default=0,
                        help="the games' seeds start here (four-player games: N, N+1, ...; five-player: N+100, ...): "
                             "develop on other seeds than the ones reported")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--foreign-seeds", choices=["dev", "heldout"], default="heldout",
                        help="the foreign tier's printings: held out (design seeds 9000+, reported) or dev (100+)")
    parser.add_argument("--cache", default=None, help="keep and replay each sight's observation in this folder")
    parser.add_argument("--explain", action="store_true",
                        help="per game, where the record first left the true game and why (drifts)")
    parser.add_argument("--table-reacts", action="store_true",
                        help="the table answers each alert: corrects the game by hand, or tells the camera it misread")
    args = parser.parse_args()
    w, h = (int(x) for x in args.size.split("x"))
    designs = FOREIGN_DESIGNS if args.foreign_seeds == "heldout" else 100
    jobs = [("4p", args.first_seed + s, args.tier, (w, h), args.inject, args.table_reacts, args.cache, args.explain,
             designs) for s in range(args.games4)]
    jobs += [("5p", args.first_seed + 100 + s, args.tier, (w, h), args.inject, args.table_reacts, args.cache, args.explain,
              designs) for s in range(args.games5)]
    start = time.time()
    results = []
    with Pool(args.workers) as pool:
        for r in pool.imap_unordered(one_game, jobs, chunksize=1):
            results.append(r)  # progress, one line a game, so a cut-short run still tells something
            print(json.dumps({k: r[k] for k in ("map", "seed", "actions", "inferred", "false_alerts", "questions",
                                                 "amended", "corrections", "entered", "taps", "accepted", "injected", "flagged")}),
                  file=sys.stderr, flush=True)
    lat = sorted(x for r in results for x in r["latency_ms"])
    obs = sorted(x for r in results for x in r["observe_ms"])
    injected, flagged = Counter(), Counter()
    for r in results:
        injected.update(r["injected"])
        flagged.update(r["flagged"])
    actions = sum(r["actions"] for r in results)
    print(json.dumps({
        "games": len(results), "tier": args.tier, "frame_size": args.size, "table_reacts": args.table_reacts,
        "actions": actions,
        "actions_inferred_share": round(sum(r["inferred"] for r in results) / actions, 4),
        "games_exact": sum(r["exact"] for r in results),
        "false_alerts_per_game": round(statistics.mean(r["false_alerts"] for r in results), 2),
        "questions_per_game": round(statistics.mean(r["questions"] for r in results), 2),
        "corrections_per_game": round(statistics.mean(r["corrections"] for r in results), 2),
        "entered_by_hand_per_game": round(statistics.mean(r["entered"] for r in results), 2),
        "taps_per_game": round(statistics.mean(r["taps"] + r["accepted"] for r in results), 2),
        # the measures before: every action after the first wrong one typed again (until 2026-11-24's
        # fourth session), every action the record has wrong put right in place however old (until now)
        "retyped_after_first_difference_per_game": round(statistics.mean(r["retyped"] for r in results), 2),
        "entered_every_wrong_action_per_game": round(statistics.mean(r["in_place"] for r in results), 2),
        "accepted_per_game": round(statistics.mean(r["accepted"] for r in results), 2),
        "injected": sum(injected.values()),
        "injected_flagged_share": round(sum(flagged.values()) / max(1, sum(injected.values())), 4),
        "injected_by_reason": {k: f"{flagged[k]}/{injected[k]}" for k in sorted(injected)},
        "stillness_to_state_ms_median": round(lat[len(lat) // 2], 1) if lat else None,
        "stillness_to_state_ms_p95": round(lat[int(0.95 * len(lat)) - 1], 1) if lat else None,
        "observe_ms_median": round(obs[len(obs) // 2], 1) if obs else None,
        "lamp_moved": sum(r["lamp_moved"] for r in results),
        "amended_per_game": round(statistics.mean(r["amended"] for r in results), 2),
        "misflagged_examples": [m for r in results for m in r["misflagged"]][:5],
        "missed_by_kind": dict(Counter(a.split()[0] for r in results for a in r["missed"])),
        "first_drift": {f"{r['map']}-{r['seed']}": r["drifts"][0]["step"] if r["drifts"] else None for r in results},
        **({"drifts": {f"{r['map']}-{r['seed']}": r["drifts"] for r in results},
            "false_alerts": {f"{r['map']}-{r['seed']}": r["alerts"] for r in results},
            "missed": {f"{r['map']}-{r['seed']}": {"true": r["missed"], "record": r["extra"]} for r in results if r["missed"]},
            "table_fixes": {f"{r['map']}-{r['seed']}": r["fixes"] for r in results if r["fixes"]},
            "flagged_sure": sorted(x for r in results for x in r["flagged_sure"]),
            **dict(zip(("splits_favour", "splits"), judged_splits(results)))} if args.explain else {}),
        "seconds": round(time.time() - start),
    }, indent=1))


if __name__ == "__main__":
    main()
