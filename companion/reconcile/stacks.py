"""Stacks: what the counts read on a race's regions say about the tokens no sight shows.

An overhead camera sees the top of a stack, so a count read is a lower bound; the rules say how
many tokens the race has on the board (all it owns but those in hand). Those no sight shows lie
where they make the counts read likeliest: a region read full sight after sight hides more, one
read with a token alone in many sights holds one, a count a sight or two read that the others
contradict (a token over the outline, one on its way) is a misread.
"""
from __future__ import annotations

import math

# Each token beyond the first is seen (not under another) with even odds: players stack them as
# often as not (no guess about this table's habit). A count read above what lies there is a misread,
# rarer than reading all that lies there by this much a token.
SEEN_ODDS = 0.5
OVERREAD = 0.02


def seen_share(v: int, n: int) -> float:
    """The chance that ``v`` of ``n`` tokens on a region show (``SEEN_ODDS`` each beyond the first)."""
    if not 1 <= v <= n:
        return 0.0
    return math.comb(n - 1, v - 1) * SEEN_ODDS ** (v - 1) * (1 - SEEN_ODDS) ** (n - v)


def likelihood(reads: dict[int, int], n: int, room: int | None = None) -> float:
    """The log-likelihood of ``n`` tokens on a region that the sights read so (``reads``: count read
    -> how many sights read it); ``room``: how many lie there side by side (vision's), a region that
    shows all it can hold hides the next ones on top."""
    total = 0.0
    for v, sights in reads.items():
        if v > n:
            p = OVERREAD ** (v - n) * seen_share(n, n)
        elif room and v >= room:
            p = sum(seen_share(k, n) for k in range(v, n + 1))
        else:
            p = seen_share(v, n)
        total += sights * math.log(max(p, 1e-300))
    return total


def fullness(shown: int, region: int, room: dict[int, int] | None) -> float:
    """How full a region shows: the tokens read there over how many lie on it side by side (vision's
    ``room``; a region that shows all it can hold hides the next ones under them); the count read
    when vision does not say."""
    return shown / room[region] if room and room.get(region) else float(shown)


def spread(least: dict[int, int], spare: int, reads: dict[int, dict[int, list[int]]],
           room: dict[int, int] | None = None, prefer: dict[int, int] | None = None) -> dict[int, int]:
    """``least`` on each region and ``spare`` tokens more (``reads``: per region, each count read
    there -> the numbers of the sights that read it). First one token at a time where the most
    sights read more than it holds, the latest sight on a tie (when the counts read add up to more
    than there are, a count a few sights read that the others contradict, a token seen over the
    outline or tokens on their way, gives way to them). The tokens no sight shows then lie together
    under the one stack where they make the counts read likeliest (``likelihood``: a region read
    full sight after sight, not one read with a token alone in many, nor one of a count a single
    sight read), on a tie the stack read fullest (``fullness``), then where ``prefer`` has the most
    (a guess that fits stays), then the lowest region."""
    counts = dict(least)
    room = room or {}
    prefer = prefer or {}
    reads = {r: reads.get(r, {}) for r in counts}

    def more(r: int) -> tuple[int, int]:
        """How many sights read more than ``counts`` has on ``r``, and the latest of them."""
        sights = [s for n, read in reads[r].items() if n > counts[r] for s in read]
        return len(sights), max(sights, default=-1)

    while spare:
        r = max(counts, key=lambda r: (more(r), prefer.get(r, 0), -r))
        if not more(r)[0]:
            break
        counts[r] += 1
        spare -= 1
    if spare:
        tally = {r: {n: len(read) for n, read in reads[r].items()} for r in counts}

        def gain(r: int) -> float:
            return round(likelihood(tally[r], counts[r] + spare, room.get(r)) - likelihood(tally[r], counts[r], room.get(r)), 9)

        counts[max(counts, key=lambda r: (gain(r), fullness(max(tally[r], default=0), r, room),
                                          prefer.get(r, 0), -r))] += spare
    return counts
