"""What the pieces read in one frame may be: the components' facts weighed against each piece's look.

Classification reads each piece alone; the game's components say more of a region's pieces together. A region
holds one race (and its special pieces), few races lie in decline at once, a Mountain lies on each region of the
map featuring one and nowhere else, a region's race tokens far outnumber its special pieces. ``weigh`` applies
these to one frame's labels, in order; each rule is its own function below and can be turned off in
``Settings``.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .classify import Model, vote
from .labels import DECLINED, OCCUPANTS, RACES
from .settings import Settings


def weigh(settings: Settings, model: Model, blobs, result, mountains: frozenset | None, specks: set,
          px_per_mm: float, beside: Callable[[int], float]) -> list:
    """The label of each piece (``blobs``, read as ``result``), or None where it is part of a piece counted
    already. ``mountains``: the map's Mountain regions; ``specks``: regions with a speck of change; ``beside(i)``:
    how lopsided the board's change is around piece ``i`` (``detect.lopsided``)."""
    labels = list(result.labels)
    if not len(blobs):
        return labels
    if settings.piece_kin_ratio > 0:
        labels = _kin_not_piece(settings, model, blobs, result, labels)
    if settings.one_occupant_per_region:
        labels = _one_occupant(settings, model, blobs, result, labels)
    if settings.few_races_in_decline:
        labels = _declined_in_frame(settings, model, blobs, result, labels)
    if settings.few_active_races:
        labels = _active_in_frame(settings, model, blobs, result, labels)
    if settings.mountains_on_mountain_regions:
        before = list(labels)
        sight = mountain_in_sight(model, settings.mountain_in_sight)
        labels = _mountains(model, blobs, result, labels, mountains, px_per_mm,
                            settings.mountain_kin_ratio, settings.mountain_part_ratio, settings.size_weight,
                            settings.mountain_fragment_ratio, sight)
        if settings.mountain_fragment_ratio > 0:
            labels = _mountain_fragment(model, blobs, result, list(labels), mountains, specks,
                                        settings.mountain_fragment_ratio, settings.mountain_apart, beside,
                                        settings.mountain_body)
        if settings.mountain_grey > 0 and sight:
            labels = _mountain_grey(model, blobs, result, labels, mountains, specks, settings.mountain_grey)
        if settings.one_occupant_per_region:
            labels = _vote_again(settings, model, blobs, result, before, labels)
    return labels


def _one_occupant(settings: Settings, model: Model, blobs, result, labels: list[str]) -> list[str]:
    """Race and Lost Tribe tokens of one region take the single occupant label that fits them best (rules: one
    race per region; each token's distances relative to its own nearest, summed), unless a token clearly shows
    another."""
    by_region: dict[int, list[int]] = {}
    for i, (b, lab) in enumerate(zip(blobs, labels)):
        if lab in OCCUPANTS:
            by_region.setdefault(b.region, []).append(i)
    index = {lab: k for k, lab in enumerate(model.labels)}
    for members in by_region.values():
        if len(members) < 2:
            continue
        # Each token's distances as shares of its own nearest: a token cut short or half in glare, far from every
        # kind, does not outvote the tokens that read clearly by how far it is from everything.
        pc = result.per_class[members]
        pc = pc / np.maximum(pc.min(1, keepdims=True), 1e-6)
        best = vote(model, pc)
        if best is None:
            continue
        for row, i in enumerate(members):
            own = index[labels[i]]
            if pc[row, best] <= settings.vote_ratio * pc[row, own] + 1e-9:
                labels[i] = model.labels[best]
    return labels


def _vote_again(settings: Settings, model: Model, blobs, result, before: list, labels: list) -> list:
    """Where a piece that voted among its region's tokens for their one race (``_one_occupant``, ``before``: the
    labels then) was found to be the Mountain or a part of it, by any of the Mountain rules, the others' race is
    chosen again from their own looks without it, as the rules before it chose (a special piece beside its kin, one
    race a region, few races in decline, few active races)."""
    again = {blobs[i].region for i, (was, now) in enumerate(zip(before, labels))
             if now in ("mountain", None) and was in OCCUPANTS}
    if not again:
        return labels
    mine = [i for i, b in enumerate(blobs) if b.region in again and labels[i] not in (None, "mountain")]
    looks = [None] * len(labels)
    for i in mine:
        looks[i] = result.labels[i]
    if settings.piece_kin_ratio > 0:
        looks = _kin_not_piece(settings, model, blobs, result, looks)
    looks = _one_occupant(settings, model, blobs, result, looks)
    out = list(labels)
    for i in mine:
        out[i] = looks[i]
    if settings.few_races_in_decline:
        out = _declined_in_frame(settings, model, blobs, result, out, again)
    if settings.few_active_races:
        out = _active_in_frame(settings, model, blobs, result, out, again)
    return out


def _kin_not_piece(settings: Settings, model: Model, blobs, result, labels: list[str]) -> list[str]:
    """A piece read as a special piece (a Hero, a Troll's Lair, a Fortress, ...) beside tokens read as one race (or the
    Lost Tribe) is one more token of that race when the race is nearly as near (within ``piece_kin_ratio``): a region
    holds several tokens of its occupant far more often than a special piece (the game has a few of each, the races
    many tokens), and a token half in glare or cut short by its neighbour is as far from its own kind as from a piece
    printed alike. The Mountains are left to their own rule."""
    index = {lab: k for k, lab in enumerate(model.labels)}
    kin: dict[int, list[int]] = {}
    pieces: dict[int, list[int]] = {}
    for i, (b, lab) in enumerate(zip(blobs, labels)):
        if lab in OCCUPANTS:
            kin.setdefault(b.region, []).append(i)
        elif lab not in (None, "mountain"):
            pieces.setdefault(b.region, []).append(i)
    for rid, here in pieces.items():
        if rid not in kin:
            continue
        race = vote(model, result.per_class[kin[rid]])
        if race is None:
            continue
        for i in here:
            if result.per_class[i, race] <= settings.piece_kin_ratio * result.per_class[i, index[labels[i]]]:
                labels[i] = model.labels[race]
    return labels


def _declined_in_frame(settings: Settings, model: Model, blobs, result, labels: list,
                       only: set | None = None) -> list:
    """Rules ("Going into Decline"): a player has one race in decline at a time (the one before is removed), and a
    race in decline keeps a token on each region it held. So few in-decline races lie on the board at once, each
    mostly on several regions. An in-decline race read on one region only, whose tokens find another in-decline
    race read on at least two other regions nearly as near (within ``decline_ratio``, summed), is that one:
    in-decline sides are printed alike and differ by their emblem, which a lone token may show poorly."""
    return _few_races(settings.decline_ratio, model, blobs, result, labels, DECLINED, only=only)


def _active_in_frame(settings: Settings, model: Model, blobs, result, labels: list,
                     only: set | None = None) -> list:
    """Rules: each player has one active race ("Picking a new Race" only after going into decline), spread over the
    regions it conquered. So few active races lie on the board at once, each mostly on several regions: one read on
    one region only, whose tokens find another (or the Lost Tribe) read on at least two other regions nearly as near
    (within ``decline_ratio``, summed), is that one. The Lost Tribe is no player's race: it only loses regions, and
    late in a game may hold one, so one read there keeps its label. The in-decline sides are weighed among
    themselves (``_declined_in_frame``): which side is up is the look's."""
    return _few_races(settings.decline_ratio, model, blobs, result, labels,
                      tuple(lab for lab in OCCUPANTS if lab not in DECLINED), RACES, only)


def _few_races(ratio: float, model: Model, blobs, result, labels: list, pool: tuple,
               lone: tuple | None = None, only: set | None = None) -> list:
    """Labels of ``lone`` (default: ``pool``) read on one region only, taken for another of ``pool`` read on at least
    two other regions when their tokens find it at most ``ratio`` times farther (summed over the region); ``only``:
    the regions looked at (default: all)."""
    lone = pool if lone is None else lone
    index = {lab: k for k, lab in enumerate(model.labels)}
    held: dict[str, set] = {}
    tokens: dict[int, list[int]] = {}
    for i, (b, lab) in enumerate(zip(blobs, labels)):
        if lab in pool:
            held.setdefault(lab, set()).add(b.region)
            if only is None or b.region in only:
                tokens.setdefault(b.region, []).append(i)
    for rid in sorted(tokens):
        here = tokens[rid]
        own = {labels[i] for i in here}
        if len(own) != 1 or len(held[next(iter(own))]) > 1 or next(iter(own)) not in lone:
            continue
        others = [lab for lab in sorted(held) if lab not in own and len(held[lab] - {rid}) >= 2]
        if not others:
            continue
        pc = result.per_class[here].sum(0)
        best = min(others, key=lambda lab: pc[index[lab]])
        if pc[index[best]] <= ratio * pc[index[next(iter(own))]]:
            for i in here:
                labels[i] = best
    return labels


def _mountains(model: Model, blobs, result, labels: list[str], mountains: frozenset | None,
               px_per_mm: float, kin_ratio: float = 5.0, part_ratio: float = 1.5, size_weight: float = 0.0,
               fragment_ratio: float = 0.0, sight: bool = False) -> list[str]:
    """Rules (setup): "Put a Mountain token on each Region of the map featuring a Mountain"; "Mountains are
    immovable". So a Mountain read off the Mountain regions is the next kind that fits; on a Mountain region
    the piece most like a Mountain of a Mountain's size (where enrollment measured it) is the Mountain, and
    other pieces read as Mountains there that touch it are parts of it. With none of them read as a Mountain, a
    piece counted as one more token of its pile only by the one-race rule (its own look another kind), a Mountain
    at most ``fragment_ratio`` times farther than that look, is the Mountain's fragment before a piece of a
    Mountain's size read as what it is (a Fortress beside Lost Tribe and a Mountain whose body hardly shows): its
    pile is other tokens than that piece (the one-race rule makes a Mountain of a Mountain's size read as a grey side
    and the token beside it one pile). With the Mountain in ``sight`` (reported whatever is read), a piece of its
    size is it only when a Mountain is at most ``fragment_ratio`` times farther than what it was read as."""
    if mountains is None or "mountain" not in model.labels:
        return labels
    k = model.labels.index("mountain")
    pc = result.per_class
    others = np.ones(len(model.labels), bool)
    others[k] = False
    size = float(model.areas[k]) * px_per_mm ** 2 if model.areas is not None and model.areas[k] > 0 else 0.0
    drop = set()
    by_region: dict[int, list[int]] = {}
    for i, b in enumerate(blobs):  # the pieces of each region, gathered once (not once per region)
        by_region.setdefault(b.region, []).append(i)
    for rid, here in by_region.items():
        if rid not in mountains:
            for i in here:
                if labels[i] == "mountain":
                    labels[i] = model.labels[int(np.argmin(np.where(others, pc[i], np.inf)))]
            continue
        # How much farther a Mountain is than what the piece was read as (1: read as a Mountain).
        # A Mountain may lie under a pile of race tokens, out of sight: only a piece of a Mountain's size (where
        # enrollment measured it) is taken for it.
        ratio = {i: pc[i, k] / max(float(pc[i].min()), 1e-9) for i in here}
        fit = {i: ratio[i] for i in here if (size and blobs[i].area >= 0.5 * size) or labels[i] == "mountain"}
        if sight and fragment_ratio > 0:
            # A Mountain in sight is reported whatever is read (``mountains_in_sight``): a piece of its size that
            # looks like none (a Dragon, a Fortress beside it) stays what it is.
            fit = {i: r for i, r in fit.items() if labels[i] == "mountain" or r <= fragment_ratio}
        rest = [i for i in here if i not in fit]
        if fit and rest and min(ratio[i] for i in rest) * kin_ratio <= min(fit.values()):
            # What is of a Mountain's size looks like none (a piece beside a Mountain whose body hardly shows): a
            # piece far more like a Mountain than it is the Mountain.
            fit = {i: ratio[i] for i in rest if ratio[i] * kin_ratio <= min(fit.values())}
        if fragment_ratio > 0 and fit and all(labels[i] != "mountain" for i in fit):
            # None read as a Mountain: a piece counted as one more of its pile only by the one-race rule (its own
            # look another kind) is the Mountain's fragment before a piece read as what it is.
            absorbed = {i: ratio[i] for i in rest if ratio[i] <= fragment_ratio and labels[i] != result.labels[i]
                        and sum(labels[j] == labels[i] for j in here if j not in fit) > 1}
            if absorbed:
                fit = absorbed
        outliers = set()
        if not fit:
            # None of a Mountain's size: its body may hardly show (its cap and part of its rim), and the fragment
            # is taken for the race beside it. Such a piece is far more like a Mountain than the region's other
            # pieces read as the same kind are; a Mountain under a pile of tokens leaves no such piece.
            for i in here:
                kin = [ratio[j] for j in here if j != i and labels[j] == labels[i]]
                if kin and ratio[i] * kin_ratio <= float(np.median(kin)):
                    outliers.add(i)
            if not outliers and size and size_weight > 0:
                # A fragment of the Mountain is any size up to it: a piece nearest a Mountain by its look alone (the
                # Mountain's size taken off its distance) is one.
                for i in here:
                    shrink = np.log(max(blobs[i].area, 1.0) / size)
                    if pc[i, k] / (1 + size_weight * shrink * shrink) <= float(pc[i].min()):
                        outliers.add(i)
            if not outliers:
                continue
            fit = {i: ratio[i] for i in outliers}
        best = min(fit, key=fit.get)
        labels[best] = "mountain"
        bx, by, bw, bh = blobs[best].bbox
        for i in here:
            if i == best:
                continue
            x, y, w, h = blobs[i].bbox
            touching = x <= bx + bw + 2 and bx <= x + w + 2 and y <= by + bh + 2 and by <= y + h + 2
            if labels[i] == "mountain" or i in outliers:
                if touching:
                    drop.add(i)
                elif labels[i] == "mountain":
                    labels[i] = model.labels[int(np.argmin(np.where(others, pc[i], np.inf)))]
            elif (touching and pc[i, k] <= part_ratio * float(pc[i].min())
                  and (not size or blobs[i].area + blobs[best].area <= 1.3 * size)):
                drop.add(i)  # a bit of its rim, nearly as like a Mountain as anything: with it, no larger than one
    return [None if i in drop else lab for i, lab in enumerate(labels)]


def _mountain_unread(blobs, labels: list, mountains: frozenset) -> dict[int, list[int]]:
    """The pieces read on each Mountain region where none of them was read as the Mountain, by region."""
    by_region: dict[int, list[int]] = {}
    for i, b in enumerate(blobs):
        if labels[i] is not None:
            by_region.setdefault(b.region, []).append(i)
    return {rid: here for rid, here in by_region.items()
            if rid in mountains and not any(labels[i] == "mountain" for i in here)}


def _mountain_fragment(model: Model, blobs, result, labels: list, mountains: frozenset | None, specks: set,
                       fragment_ratio: float, apart: float, beside=None, body: float = 0.0) -> list:
    """Rules (setup): every Mountain region holds its Mountain. Where none of a region's pieces was read as it,
    and no speck of change there is its cap (``mountain_specks``), the Mountain shows as one fragment (its cap and
    part of its rim, any size up to it) taken for another kind: the region's piece most like a Mountain is it when a
    Mountain is at most ``fragment_ratio`` times farther than what it was read as, and the region's other pieces (one
    at least: a token alone on a Mountain out of sight has nothing to be weighed against) are ``apart`` times farther
    from a Mountain than it, and it is the only piece of its kind there (tokens of one kind on a Mountain out of
    sight, one of them a little more like it, stay: the kin rule of ``_mountains`` judges those).

    A piece alone on such a region has nothing to be weighed against: it is the Mountain's fragment when a Mountain
    is at most ``fragment_ratio`` times farther and the board beside it changed unevenly, ``body`` more on one side
    than on the other (``beside``: a row's ``detect.lopsided``): the Mountain's body, which hardly changes the
    picture, lies on that side. A token alone leaves the board around it as it was."""
    if not mountains or "mountain" not in model.labels:
        return labels
    k = model.labels.index("mountain")
    for rid, here in _mountain_unread(blobs, labels, mountains).items():
        pc = result.per_class
        ratio = {i: float(pc[i, k]) / max(float(pc[i].min()), 1e-9) for i in here}
        best = min(here, key=lambda i: (ratio[i], i))
        if rid in specks and (labels[best] == result.labels[best] or sum(labels[i] == labels[best] for i in here) < 2):
            continue  # its cap is a speck (``mountain_specks``), unless the piece is counted as one more of its pile
        if len(here) == 1 and body > 0 and beside is not None:
            if ratio[best] <= fragment_ratio and beside(best) >= body:
                labels[best] = "mountain"
            continue
        # its kind by its own look: the one-race rule (``_one_occupant``) gives a fragment the kind of its pile
        if len(here) < 2 or sum(result.labels[i] == result.labels[best] for i in here) > 1:
            continue  # alone, nothing to weigh it against; one of a pile's kind: ``_mountains`` weighs its kin
        if ratio[best] <= fragment_ratio and all(ratio[i] >= apart * ratio[best] for i in here if i != best):
            labels[best] = "mountain"
    return labels


def mountain_specks(specks, mountains: frozenset | None, tokens: dict[int, dict[str, int]]) -> None:
    """Rules (setup): "Put a Mountain token on each Region of the map featuring a Mountain"; "Mountains are
    immovable". A Mountain in the board's own colour may change the picture only at its cap (the lamp's glare on
    it, or a lamp like the board's): a change too small for a piece on a Mountain region where no Mountain was
    read is that Mountain's. With no change there at all, nothing is reported (a Mountain under a pile)."""
    if not mountains:
        return
    for rid in sorted({rid for rid, _ in specks} & mountains):
        if rid in tokens and "mountain" not in tokens[rid]:
            tokens[rid]["mountain"] = 1


def mountain_in_sight(model: Model, larger: float) -> bool:
    """Whether the Mountain, enrolled at least ``larger`` times a race token's area (``Model.areas``), is wider than
    any token laid on it, so that it shows around it: never out of sight on its region."""
    if larger <= 0 or model.areas is None or "mountain" not in model.labels:
        return False
    races = [float(a) for lab, a in zip(model.labels, model.areas) if lab in OCCUPANTS and a > 0]
    return bool(races) and float(model.areas[model.labels.index("mountain")]) >= larger * float(np.median(races))


def _mountain_grey(model: Model, blobs, result, labels: list, mountains: frozenset | None, specks: set,
                   unsure: float) -> list:
    """A Mountain in sight (``mountain_in_sight``) on a Mountain region where none of the pieces was read as it
    and no speck of change is its cap (``mountain_specks``) shows as fragments taken for other kinds. Painted in
    the board's muted Mountain colour, a fragment looks like the printing's grey in-decline side but shows no
    emblem, the one thing that tells the grey sides apart: it is read as a grey side barely nearer than another
    (its own look's confidence under ``unsure``). Such pieces are the Mountain (the one most like it) and its
    parts; a grey side showing its emblem stays."""
    if not mountains:
        return labels
    k = model.labels.index("mountain")
    pc = result.per_class
    out = list(labels)
    for rid, here in _mountain_unread(blobs, labels, mountains).items():
        if rid in specks:
            continue
        grey = [i for i in here if result.labels[i] in DECLINED and result.confidence[i] < unsure]
        if not grey:
            continue
        best = min(grey, key=lambda i: (float(pc[i, k]) / max(float(pc[i].min()), 1e-9), i))
        for i in grey:
            out[i] = "mountain" if i == best else None
    return out


def mountains_in_sight(model: Model, mountains: frozenset | None, tokens: dict[int, dict[str, int]], hidden,
                       larger: float) -> None:
    """Rules (setup): "Put a Mountain token on each Region of the map featuring a Mountain"; "Mountains are
    immovable". A Mountain wider than any token laid on it (``mountain_in_sight``) shows around it: on a Mountain
    region in sight (not in ``hidden``) where no piece was read as it, it lies there all the same, its body in the
    board's own colour and its cap unchanged by the lamp. A Mountain a token's size may lie under a pile, out of
    sight: nothing is reported for it."""
    if not mountains or not mountain_in_sight(model, larger):
        return
    for rid in sorted(mountains):
        if rid in tokens and rid not in hidden and "mountain" not in tokens[rid]:
            tokens[rid]["mountain"] = 1
