"""companion replay FILE [--json]"""
from __future__ import annotations

import json
import sys

from ..errors import UserError
from ..rules import RecordError
from ..rules.record import IllegalRecordLine, read, replay
from ..summary import describe_state

HELP = "Replay a game record (JSON Lines) and print the final state."


def add_arguments(p):
    p.add_argument("file", metavar="FILE", help="the game record: a header line, then one action per line")
    p.add_argument("--json", action="store_true", help="print the state as JSON")


def run(args) -> int:
    try:
        game = replay(read(args.file))
    except IllegalRecordLine as exc:
        print(f"{exc.source}:{exc.line}: {exc.reason}: {exc.sentence}", file=sys.stderr)
        return 1
    except RecordError as exc:
        raise UserError(str(exc)) from None
    if args.json:
        print(json.dumps(game.snapshot(), indent=1))
    else:
        print(describe_state(game))
    return 0
