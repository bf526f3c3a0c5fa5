"""companion follow --setup RECORD --geometry G --model M --reference EMPTY --record OUT FRAMES..."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from maps import files
from maps.files import number

from ..errors import UserError
from ..reconcile import Follower
from ..reconcile.view import describe
from ..rules import RecordError
from ..rules.actions import parse_notation
from ..rules.record import IllegalRecordLine, read, replay, write

HELP = "Follow a game from a folder of camera frames: write the inferred record, print each flag as it happens."


def add_arguments(p):
    p.add_argument("--setup", required=True, metavar="RECORD",
                   help="the game's record so far: its header (players, map, stacks) and any actions already played")
    p.add_argument("--geometry", required=True, help="the board geometry file (python -m vision geometry)")
    p.add_argument("--model", required=True, help="the token model (python -m vision enroll)")
    p.add_argument("--reference", required=True, metavar="EMPTY", help="a photo of the empty board")
    p.add_argument("--record", required=True, metavar="OUT", help="where to write the inferred record")
    p.add_argument("--inputs", metavar="FILE",
                   help="what the camera cannot see, one JSON object a line: "
                        '{"after": "frame-012.png", "input": "die 3"} (die N, declare REGION, confirm, answer N, '
                        "or any action such as \"pick ratmen\")")
    p.add_argument("--explain", action="store_true",
                   help="print, for each sight, the differences, the hypotheses tried and the one chosen")
    p.add_argument("--fps", type=number(0.1, 240, float), default=10.0,
                   help="frames per second of the sequence, 0.1 to 240 (default 10)")
    p.add_argument("frames", nargs="+", metavar="FRAMES", help="image files, or a folder of them, in time order")


def _frames(specs: list[str]) -> list[Path]:
    out: list[Path] = []
    for spec in specs:
        path = Path(spec)
        if path.is_dir():
            out += sorted(p for p in path.iterdir() if p.suffix.lower() in (".png", ".jpg", ".jpeg"))
        elif path.exists():
            out.append(path)
        else:
            raise UserError(f"{spec}: no such file or folder")
    if not out:
        raise UserError("no frames found (png or jpg)")
    return out


COMMANDS = ("die", "declare", "confirm", "answer")


def _inputs(path: str | None) -> dict[str, list[str]]:
    """The inputs file, each line checked as it is read: ``{"after": FRAME, "input": TEXT}``."""
    if not path:
        return {}
    out: dict[str, list[str]] = {}
    try:
        lines = files.read_text(path, "inputs file").splitlines()
    except files.BadInput as exc:
        raise UserError(str(exc)) from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = files.loads(line, path, number)
            after, text = Path(str(data["after"])[:1024]).name, str(data["input"])[:200].strip()
        except files.BadInput as exc:
            raise UserError(str(exc)) from None
        except (KeyError, TypeError):
            raise UserError(f'{path}:{number}: expected {{"after": FRAME, "input": TEXT}}') from None
        problem = _check(text)
        if problem:
            raise UserError(f"{path}:{number}: input {text!r}: {problem}")
        out.setdefault(after, []).append(text)
    return out


def _check(text: str) -> str:
    """Why an input line cannot be read ('' when it can)."""
    words = text.split()
    if not words:
        return "empty"
    if words[0] in COMMANDS:
        wants_number = words[0] != "confirm"
        if wants_number and (len(words) != 2 or not words[1].lstrip("-").isdigit()):
            return f"expected '{words[0]} N'"
        if not wants_number and len(words) != 1:
            return "expected 'confirm' alone"
        return ""
    try:
        parse_notation(text)
    except ValueError as exc:
        return str(exc)
    return ""


def run(args) -> int:
    from vision import geometry
    from vision.classify import load_model
    from vision.errors import VisionError
    from vision.observe import Calibration, observe
    from vision.settings import Settings
    from vision.sources import read_image
    from vision.still import StillnessGate
    try:
        record = read(args.setup)
        game = replay(record)
    except IllegalRecordLine as exc:
        raise UserError(f"{exc.source}:{exc.line}: {exc.reason}: {exc.sentence}") from None
    except RecordError as exc:
        raise UserError(str(exc)) from None
    frames = _frames(args.frames)
    extra = _inputs(args.inputs)
    settings = Settings()
    try:
        geo = geometry.load(args.geometry)
        model = load_model(args.model)
        calibration = Calibration.build(settings, geo, read_image(args.reference))
    except VisionError as exc:
        raise UserError(str(exc)) from None
    follower = Follower()
    follower.explain = args.explain
    gate = StillnessGate(settings)
    prior = None
    flags = 0

    def take(out, where: str) -> None:
        nonlocal flags
        for line in out.trace:
            print(f"{where}: explain: {line}")
        for _ in range(out.rewind):  # a correction confirmed: the last actions taken back first
            print(f"{where}: taken back: {game.undo().notation()}")
        for number, action in out.missed:  # actions missed then, seen now: into the past
            game.insert(number, action)
            print(f"{where}: missed before action {number + 1}: {action.notation()}")
        for number, action in out.amend:  # earlier actions seen better first, then the new ones
            was = game.replace(number, action)
            print(f"{where}: amended action {number + 1}: {was.notation()} -> {action.notation()}")
        for action in out.actions:
            game.apply(action)
            print(f"{where}: {action.notation()}")
        for alert in out.raised:
            flags += 1
            who = f" ({alert.player})" if alert.player else ""
            print(f"{where}: FLAG {alert.code}{who}: {alert.sentence}", flush=True)
            if alert.region is not None and follower.last_seen is not None:
                print(f"{where}:   {describe(game, follower.last_seen, alert.region)}")
        if out.refused is not None:
            print(f"{where}: REFUSED {out.note}", flush=True)
        elif out.note and not out.actions and not out.raised:
            print(f"{where}: {out.note}")
        if out.question:
            print(f"{where}: QUESTION {out.question.text} " +
                  " | ".join(f"[{i}] {o}" for i, o in enumerate(out.question.to_json()["options"])), flush=True)

    for index, path in enumerate(frames):
        try:
            image = read_image(path)
        except VisionError as exc:
            raise UserError(str(exc)) from None
        if gate.update(image, index / args.fps):
            obs, prior = observe(settings, calibration, model, image, prior)
            if not obs.registered:
                print(f"{path.name}: board not registered: {obs.reason}", file=sys.stderr)
            else:
                take(follower.observe(game, obs), path.name)
        for text in extra.get(path.name, []):
            take(_input(follower, game, text, path.name), path.name)
    write(args.record, record.setup, game.history)
    print(f"wrote {args.record}: {len(game.history)} actions; {flags} flags")
    return 0


def _input(follower: Follower, game, text: str, where: str):
    """One input the camera cannot see (checked when the file was read): the same path as the service's."""
    words = text.split()
    if words[0] == "die":
        return follower.die(game, int(words[1]))
    if words[0] == "declare":
        return follower.declare(game, int(words[1]))
    if words[0] == "confirm":
        return follower.confirm(game)
    if words[0] == "answer":
        return follower.answer(game, int(words[1]))
    return follower.typed(game, parse_notation(text))
