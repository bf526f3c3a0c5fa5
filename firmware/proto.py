"""Framing of the scoring box's serial protocol (firmware/PROTOCOL.md): checksums, lines, frames.

Plain Python that runs unchanged under MicroPython on the Pico and under CPython on the host:
no annotations, no f-strings, no dataclasses.
"""

VERSION = 1
MAX_LINE = 96  # bytes from "$" to the checksum; longer lines are dropped
SEQ_MOD = 10000


def crc16(data):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of ``data`` (bytes)."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def encode(seq, kind, fields=()):
    """One frame as bytes: ``$<seq>,<KIND>[,<field>...]*<CRC>\\n``."""
    body = ",".join([str(seq), kind] + [str(f) for f in fields]).encode()
    return b"$" + body + b"*" + ("%04X" % crc16(body)).encode() + b"\n"


class BadFrame(ValueError):
    """A line that is not a frame; the message says why in a few words."""


def decode(line):
    """``(seq, kind, fields)`` from one line without its ending; raises ``BadFrame``."""
    if not line.startswith(b"$"):
        raise BadFrame("no $ at the start")
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 5:
        raise BadFrame("no *checksum at the end")
    body = line[1:star]
    for byte in body:
        if byte < 0x20 or byte > 0x7E or byte == 0x24 or byte == 0x2A:  # printable, not $ or *
            raise BadFrame("a byte that is not printable ASCII")
    try:
        claimed = int(line[star + 1:].decode(), 16)
    except ValueError:
        raise BadFrame("the checksum is not hex")
    if claimed != crc16(body):
        raise BadFrame("checksum mismatch")
    parts = body.decode().split(",")
    if len(parts) < 2 or not parts[0].isdigit() or int(parts[0]) >= SEQ_MOD or not parts[1]:
        raise BadFrame("no sequence number and kind")
    return int(parts[0]), parts[1], parts[2:]


class LineSplitter:
    """Cuts a byte stream into candidate frames; reports torn lines and junk instead of guessing.

    A frame starts at ``$`` and ends at ``\\n`` (a ``\\r`` before it is dropped, so both endings
    work). Bytes before a ``$`` on the same line, a frame cut short by a new ``$``, and lines longer
    than ``MAX_LINE`` come back as problems, each described once.
    """

    def __init__(self):
        self._buf = bytearray()
        self._overflow = False

    def feed(self, data):
        """Return a list of ``(line, problem)`` pairs: a line to decode, or None and a description."""
        out = []
        for byte in data:
            if byte == 0x0A:  # \n
                self._end_line(out)
            elif byte == 0x24:  # $ starts a frame, whatever came before it
                self._drop(out)
                self._buf.append(byte)
            elif self._overflow:
                continue
            elif len(self._buf) >= MAX_LINE + 2:
                self._overflow = True
                self._buf = bytearray()
                out.append((None, "line longer than %d bytes" % MAX_LINE))
            else:
                self._buf.append(byte)
        return out

    def _drop(self, out):
        line = bytes(self._buf)
        self._buf = bytearray()
        if self._overflow:
            self._overflow = False
        elif line.startswith(b"$"):
            out.append((None, "torn line %s" % _show(line)))
        elif line.strip(b"\r \t\x00"):
            out.append((None, "junk %s" % _show(line)))

    def _end_line(self, out):
        line = bytes(self._buf).rstrip(b"\r")
        overflow = self._overflow
        self._buf = bytearray()
        self._overflow = False
        if overflow:
            return
        if line.startswith(b"$"):
            out.append((line, None))
        elif line.strip(b"\r \t\x00"):
            out.append((None, "junk line %s" % _show(line)))


def _show(line):
    """A short printable rendering of raw bytes for a log line."""
    text = "".join(chr(b) if 0x20 <= b < 0x7F else "." for b in line[:40])
    return repr(text + ("..." if len(line) > 40 else ""))
