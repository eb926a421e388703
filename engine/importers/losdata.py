"""Decode a VASL 6 board archive's ``LOSData`` entry: per-pixel elevations and terrain codes.

``LOSData``: gzip around a Java object stream (``AC ED 00 05``, then block-data records ``0x77``
+ 1 length byte or ``0x7A`` + a 4-byte length, Java flushing every 1024 bytes).  The records'
payload, big-endian: width, height (hexes), gridWidth, gridHeight (pixels) as int32; then for
each pixel column x, for each pixel row y, one signed elevation byte (levels) and one terrain
code byte; then one stairway byte per hex.  A damaged stream is refused with one ScenarioError
(its place ``LOSData``; the caller adds the file).
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

import numpy as np

from ..errors import ScenarioError

LOS_DATA = "LOSData"
JAVA_MAGIC = b"\xac\xed\x00\x05"
GZIP_MAGIC = b"\x1f\x8b"
TC_BLOCKDATA, TC_BLOCKDATALONG = 0x77, 0x7A

# Bounds checked before anything is allocated (a standard board: 1800 x 645 pixels, 2.3 MB of
# payload in about 2,300 blocks)
MAX_GRID_PIXELS = 10_000_000                # gridWidth x gridHeight
MAX_STREAM_BYTES = 2 * MAX_GRID_PIXELS + 64 * 1024   # decompressed LOSData (2 bytes a pixel)
MAX_ENTRY_BYTES = MAX_STREAM_BYTES          # compressed LOSData in the archive
MAX_BLOCKS = 1 << 18                        # block-data records in the stream
CHUNK = 256 * 1024                          # compressed bytes decompressed at a time


@dataclass(frozen=True)
class LosData:
    """The decoded ``LOSData``: size in hexes, and the pixel grids indexed [x, y]."""
    width: int
    height: int
    elevation: np.ndarray       # int8
    terrain: np.ndarray         # uint8

    @property
    def grid_size(self) -> tuple[int, int]:
        return self.terrain.shape


def gunzip(raw: bytes, progress=None) -> bytes:
    """The decompressed ``LOSData`` (ScenarioError without file: the caller adds it), at most
    ``MAX_STREAM_BYTES``; decompressed a chunk at a time, ``progress(fraction)`` after each."""
    if raw[:2] != GZIP_MAGIC:
        raise ScenarioError(f"not gzip-compressed (bad magic {raw[:2].hex(' ') or 'none'}; "
                            f"expected 1f 8b)", place=LOS_DATA)
    d = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    out = bytearray()
    try:
        for at in range(0, len(raw), CHUNK):
            out += d.decompress(raw[at:at + CHUNK], MAX_STREAM_BYTES + 1 - len(out))
            if len(out) > MAX_STREAM_BYTES or d.eof:
                break
            if progress is not None:
                progress(min(1.0, (at + CHUNK) / len(raw)))
    except zlib.error as e:
        raise ScenarioError(f"damaged compressed data ({e})", place=LOS_DATA) from None
    if len(out) > MAX_STREAM_BYTES:
        raise ScenarioError(f"larger than {MAX_STREAM_BYTES} bytes once decompressed",
                            place=LOS_DATA)
    if not d.eof:
        raise ScenarioError(f"truncated after {len(out)} bytes (the compressed data ends "
                            "early)", place=LOS_DATA)
    return out


def block_data(stream: bytes) -> bytes:
    """The payload of a Java object stream that holds only block-data records."""
    if stream[:4] != JAVA_MAGIC:
        raise ScenarioError(f"not a Java object stream (bad magic {stream[:4].hex(' ') or 'none'};"
                            f" expected ac ed 00 05)", place=LOS_DATA)
    view = memoryview(stream)
    out = bytearray()
    got = 0
    blocks = 0
    pos, n = 4, len(stream)
    while pos < n:
        blocks += 1
        if blocks > MAX_BLOCKS:      # Java writes a block per 1024 bytes: this is no VASL stream
            raise ScenarioError(f"more than {MAX_BLOCKS} data blocks", place=LOS_DATA)
        tag = stream[pos]
        if tag == TC_BLOCKDATA and pos + 2 <= n:
            length, start = stream[pos + 1], pos + 2
        elif tag == TC_BLOCKDATALONG and pos + 5 <= n:
            length = int.from_bytes(stream[pos + 1:pos + 5], "big", signed=True)
            start = pos + 5
            if length < 0:
                raise ScenarioError(f"a block at byte {pos} has a negative length {length}",
                                    place=LOS_DATA)
        elif tag in (TC_BLOCKDATA, TC_BLOCKDATALONG):
            raise ScenarioError(f"truncated after {got} bytes (in a block header)",
                                place=LOS_DATA)
        else:
            raise ScenarioError(f"unexpected Java record 0x{tag:02x} at byte {pos} "
                                "(only block data is expected)", place=LOS_DATA)
        end = start + length
        if end > n:
            raise ScenarioError(f"truncated after {got + n - start} bytes (a block of "
                                f"{length} bytes is cut short)", place=LOS_DATA)
        out += view[start:end]
        got += length
        pos = end
    return bytes(out)


def parse_payload(payload: bytes) -> LosData:
    """The header and pixel grids of the stream's payload (sizes checked first)."""
    if len(payload) < 16:
        raise ScenarioError(f"truncated after {len(payload)} bytes (the header has 16)",
                            place=LOS_DATA)
    width, height, gw, gh = struct.unpack(">iiii", payload[:16])
    if not (1 <= width <= 100 and 1 <= height <= 100 and 1 <= gw <= 100_000
            and 1 <= gh <= 100_000 and gw * gh <= MAX_GRID_PIXELS):
        raise ScenarioError(f"implausible sizes: {width} x {height} hexes, {gw} x {gh} pixels",
                            place=LOS_DATA)
    cells = gw * gh
    stairways = sum(height + col % 2 for col in range(width))
    expected = 16 + 2 * cells + stairways
    if len(payload) < expected:
        raise ScenarioError(f"truncated after {len(payload)} of {expected} bytes",
                            place=LOS_DATA)
    if len(payload) > expected:
        raise ScenarioError(f"{len(payload) - expected} unexpected bytes after the data "
                            f"({expected} expected)", place=LOS_DATA)
    grid = np.frombuffer(payload, dtype=np.uint8, count=2 * cells, offset=16).reshape(gw, gh, 2)
    return LosData(width, height, grid[:, :, 0].view(np.int8), grid[:, :, 1])


def read_los_data(raw: bytes, progress=None) -> LosData:
    """Decode the bytes of a ``LOSData`` entry."""
    return parse_payload(block_data(gunzip(raw, progress)))
