"""The table's corrections to its log: past actions put right in place (``inputs.Correct``).

A move the camera took wrongly long ago (a redeployment under a stack, a conquest misread) is put
right where it stands, not by taking back every action since and typing them again: the edits are
made on the record and the whole record is replayed through the rules.
"""
from __future__ import annotations

HOWS = ("replace", "insert", "remove")  # what a correction does to the action at its place


def edited(history: list, edits) -> list:
    """``history`` with the table's ``edits`` made (each ``seq`` numbering ``history``): the actions
    to replay. ValueError, in the table's words, for an edit that cannot be made."""
    if not edits:
        raise ValueError("No correction was sent.")
    changed, inserts = {}, {}
    for e in edits:
        if e.how not in HOWS:
            raise ValueError(f"'{e.how}' is no correction: replace, insert or remove.")
        last = len(history) if e.how == "insert" else len(history) - 1
        if not 0 <= e.seq <= last:
            raise ValueError(f"There is no action {e.seq + 1} in the log to {e.how}." if history
                             else "The log is empty: there is nothing to correct.")
        if e.how != "remove" and e.action is None:
            raise ValueError(f"Say which action to {'put in place of' if e.how == 'replace' else 'insert before'} "
                             f"action {e.seq + 1}.")
        if e.how == "insert":
            inserts.setdefault(e.seq, []).append(e.action)
        elif e.seq in changed:
            raise ValueError(f"Action {e.seq + 1} is corrected twice: keep one correction.")
        else:
            changed[e.seq] = e
    out = []
    for k in range(len(history) + 1):
        out += inserts.get(k, [])
        if k < len(history):
            e = changed.get(k)
            if e is None:
                out.append(history[k])
            elif e.how == "replace":
                out.append(e.action)
    return out


def edit_words(e) -> str:
    """One correction in the table's words."""
    if e.how == "remove":
        return f"action {e.seq + 1} taken out"
    if e.how == "insert":
        return f"{e.action.notation()} put in before action {e.seq + 1}"
    return f"action {e.seq + 1} is now {e.action.notation()}"
