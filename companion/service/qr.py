"""QR codes for the join addresses, as inline SVG: with ``segno`` when it is installed, else None
(the table view then shows the address and the short code to type)."""
from __future__ import annotations

import io


def svg(text: str) -> str | None:
    try:
        import segno
    except ImportError:
        return None
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False, svgns=True)
    return out.getvalue().decode()
