"""companion rules [--json] [--ruleset NAME]"""
from __future__ import annotations

import json

from ..errors import UserError
from ..rules import ruleset as rulesets

HELP = "List the ruleset's races (banner value, tokens in the box) and special powers (badge value)."


def add_arguments(p):
    p.add_argument("--json", action="store_true", help="print as JSON")
    p.add_argument("--ruleset", default="smallworld", help="the ruleset (default smallworld)")


def run(args) -> int:
    try:
        info = rulesets.get(args.ruleset).describe()
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if args.json:
        print(json.dumps(info, indent=1))
        return 0
    print(f"{info['title']}: {len(info['races'])} races, {len(info['powers'])} special powers")
    for r in info["races"]:
        extra = f" (+{r['extra_tokens']} for conquest)" if r.get("extra_tokens") else ""
        print(f"  {r['title']:<12} banner {r['banner']}{extra}, {r['in_box']} in the box")
    for p in info["powers"]:
        print(f"  {p['title']:<14} badge {p['badge']}")
    return 0
