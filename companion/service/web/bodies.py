"""A request's body, read as untrusted: a JSON object (bounded nesting and numbers) or form fields.

Anything else is a 400 with one sentence, never a 500: a list where an object is wanted, JSON nested
a thousand deep, a 5,000-digit number.
"""
from __future__ import annotations

from flask import abort, request
from flask.json.provider import DefaultJSONProvider

from maps import files


class BoundedJSON(DefaultJSONProvider):
    """Flask's JSON, reading with the limits of ``maps.files.loads`` (a ValueError: Flask's 400)."""

    def loads(self, s, **kwargs):
        return files.loads(s, "the request body")


def json_object() -> dict:
    """The body as a dict: the JSON object sent, or the form fields; 400 for anything else."""
    if request.is_json or (request.data and not request.form):
        raw = request.get_data(cache=True)
        if not raw.strip():
            return {}
        try:
            data = files.loads(raw, "the request body")
        except files.BadInput as exc:
            abort(400, description=f"{str(exc)[:1].upper()}{str(exc)[1:]}.")
    else:
        data = request.form.to_dict()
    if not isinstance(data, dict):
        abort(400, description="Send a JSON object such as {\"action\": \"conquer 12\"}.")
    return data
