"""Open a VASL saved game (``.vsav``): its boards and counters become a night position.

The file: a ZIP archive whose ``savedGame`` entry starts ``!VCSK``, then the key as two hex
digits, then every byte of the text XOR-ed with the key, as two hex digits (``!VCSZ``: the same
around deflated text).  The text is VASSAL commands separated by ESC (0x1B); a compound command's
own commands are nested the same way.  VASSAL's ``SequenceEncoder`` writes a delimiter that
belongs to a value as a backslash and the delimiter, and quotes a value ending in a backslash
between apostrophes.

- ``bd`` records (VASL's ``ASLBoardPicker``): ``bd``, column, row, ``[r]NAME`` (r: turned half
  round), an optional crop rectangle (x, y, width, height), ``VER`` version, overlays
  (``OVR...``), ``SSR`` terrain changes, ``ZOOM``.  Column and row are the board's place in the
  grid of boards, row 0 on top.
- ``+/ID/TYPE/STATE``: one piece.  TYPE and STATE are its traits, outermost first, separated by
  tabs (each inner trait escaped once more); the innermost is the ``piece`` (VASSAL's
  BasicPiece): type ``piece;clone key;delete key;image;name``, state ``map;x;y;...``.

VASL's main map puts its boards behind a margin of 400 pixels; a board is 56.25 x 64.5 pixel
hexes, A1's centre at (0, 32.25) (or the geometry of its archive), cropped and turned as its
``bd`` record says.  A counter stands in the hex whose centre is nearest its position.  What the
counters are is read from their traits: the name VASSAL would show (layers that are switched on
rename the piece or add to its name), the image's nationality folder (``ge/``, ``ru/``...), the
broken layer, the concealment and HIP traits, and the "?" counters stacked on units.  A counter
named only by its figures ("4-6-7", "ge 4-6-7") is read by its image letter or its figures; a
unit whose side nothing tells is left out and reported, never guessed.
"""
from __future__ import annotations

import lzma
import os
import re
import tempfile
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..boards import Board, HexTerrain, bundled_board, load_board, save_board
from ..errors import ScenarioError
from ..hexes import COLUMN_NAMES, board_hexes
from ..jsonio import atomic_write_json
from .grid import GEO, Geometry
from .vasl import board_id_from_filename
from .vasl6 import convert, read_archive

SAVED_GAME = "savedGame"
HEADER_XOR, HEADER_XOR_DEFLATED = b"!VCSK", b"!VCSZ"
XZ_MAGIC = b"\xfd7zXZ\x00"
ESC = "\x1b"

MAX_FILE_BYTES = 64 * 1024 * 1024       # the .vsav file
MAX_ENTRY_BYTES = 40 * 1024 * 1024      # the savedGame entry (hex digits: twice the text)
MAX_TEXT_BYTES = 16 * 1024 * 1024       # the decoded (inflated) text (Hill 621: 0.5 MiB)
MAX_NESTING = 16                        # compound commands inside compound commands
MAX_TRAITS = 200                        # traits of one piece (VASL's have about 50)
MAX_PIECE_CHARS = 256 * 1024            # one piece command (VASL's: a few thousand)
MAX_PIECES = 50_000
MAX_BOARDS = 64
MAP_EDGE = 400                          # VASL's main map: pixels of margin around the boards
BOARD_PIXELS = (1800, 645)              # a standard geomorphic board: 32 x 56.25, 10 x 64.5
MAIN_MAPS = ("Main Map", "Map0")

# the nationality folders of VASL's counter images, by side
AXIS = {"ge", "it", "ja", "fi", "hu", "ro", "bu", "sl", "cr", "ax", "ss", "nk"}
ALLIED = {"ru", "am", "br", "fr", "ch", "po", "gr", "du", "be", "yu", "nz", "an", "in", "al",
          "us", "un", "sk", "ff"}


# ------------------------------------------------------------------- VASSAL's encodings
def split_escaped(text: str, delim: str, limit: int | None = None) -> list[str]:
    """VASSAL's ``SequenceEncoder.Decoder``: split at every ``delim`` not escaped by a backslash;
    an escaped one loses its backslash; a token quoted in apostrophes loses them.  ``limit``:
    only the first tokens (the rest of the text is not looked at)."""
    rx = _SPLITTERS.get(delim)
    if rx is None:
        rx = _SPLITTERS.setdefault(delim, re.compile(r"(?<!\\)" + re.escape(delim)))
    parts = rx.split(text, limit or 0)
    if limit is not None:
        parts = parts[:limit]
    escaped = "\\" + delim
    return [_unquote(p.replace(escaped, delim)) for p in parts]


_SPLITTERS: dict[str, re.Pattern] = {}


def _unquote(t: str) -> str:
    return t[1:-1] if len(t) > 1 and t[0] == "'" and t[-1] == "'" else t


def _separator(k: int) -> re.Pattern:
    rx = _SEPARATORS.get(k)
    if rx is None:
        rx = _SEPARATORS.setdefault(k, re.compile(r"(?<!\\)" + r"\\" * k + "\t"))
    return rx


_SEPARATORS: dict[int, re.Pattern] = {}


def trait_chain(text: str) -> list[str]:
    """A piece's traits (types or states), outermost first.  Each trait is written as its own
    encoding, a tab and the rest of the chain with a backslash put before each of its tabs, so
    the tab closing the k-th trait (from 0) follows exactly k backslashes: one pass finds them
    all (linear time however deep the chain)."""
    out: list[str] = []
    start = 0
    while True:
        k = len(out)
        m = _separator(k).search(text, start)
        if m is None:
            out.append(_unquote(text[start:].replace("\\" * (k + 1) + "\t", "\t")))
            return out
        out.append(_unquote(text[start:m.start()].replace("\\" * (k + 1) + "\t", "\t")))
        start = m.end()
        if len(out) >= MAX_TRAITS:
            raise ScenarioError(f"a piece with more than {MAX_TRAITS} traits")


def commands(text: str, depth: int = 0):
    """The simple commands of the saved game, nested compounds flattened, in order."""
    if depth > MAX_NESTING:
        raise ScenarioError(f"commands nested more than {MAX_NESTING} deep")
    for c in split_escaped(text, ESC):
        if ESC in c:
            yield from commands(c, depth + 1)
        elif c:
            yield c


# ------------------------------------------------------------------------- the archive
def _inflate(data: bytes, place: str) -> bytes:
    if data[:6] == XZ_MAGIC:
        d = lzma.LZMADecompressor()
        try:
            out = d.decompress(data, MAX_TEXT_BYTES + 1)
        except lzma.LZMAError as e:
            raise ScenarioError(f"damaged compressed text ({e})", place=place) from None
    else:
        zlib_header = len(data) > 1 and data[0] & 0x0F == 8 and (data[0] * 256 + data[1]) % 31 == 0
        wbits = 15 if zlib_header else (31 if data[:2] == b"\x1f\x8b" else -15)
        d = zlib.decompressobj(wbits)
        try:
            out = d.decompress(data, MAX_TEXT_BYTES + 1)
        except zlib.error as e:
            raise ScenarioError(f"damaged deflated text ({e})", place=place) from None
        if len(out) <= MAX_TEXT_BYTES and not d.eof:
            raise ScenarioError("the deflated text is truncated", place=place)
    if len(out) > MAX_TEXT_BYTES:
        raise ScenarioError(f"the text inflates to more than {MAX_TEXT_BYTES} bytes "
                            "(the limit)", place=place)
    return out


def decode_saved_game(raw: bytes, place: str = SAVED_GAME) -> str:
    """The text of a ``savedGame`` entry (``!VCSK``/``!VCSZ``, XZ, or plain text)."""
    header = raw[:5]
    if header in (HEADER_XOR, HEADER_XOR_DEFLATED):
        body = raw[5:].strip()
        if len(body) < 2:
            raise ScenarioError("truncated: no key after the header", place=place)
        try:
            key = int(body[:2].decode("ascii"), 16)
            data = bytes.fromhex(body[2:].decode("ascii"))
        except (ValueError, UnicodeDecodeError):
            raise ScenarioError("damaged: the key and the text must be hex digits, two a byte "
                                "(truncated or not a VASSAL saved game)", place=place) from None
        data = data.translate(bytes(b ^ key for b in range(256)))
        if header == HEADER_XOR_DEFLATED:
            data = _inflate(data, place)
    elif raw[:6] == XZ_MAGIC:
        data = _inflate(raw, place)
    elif raw.lstrip()[:10] == b"begin_save":
        data = raw
    else:
        raise ScenarioError(f"starts {raw[:5]!r}, not !VCSK or !VCSZ: not a VASSAL saved game",
                            place=place)
    if len(data) > MAX_TEXT_BYTES:
        raise ScenarioError(f"the text is larger than {MAX_TEXT_BYTES} bytes (the limit)",
                            place=place)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_saved_game(path: str | Path) -> str:
    """The command text of a .vsav file; ScenarioError (naming the file) on any problem."""
    path = Path(path)
    try:
        if path.is_dir():
            raise ScenarioError("is a folder, not a VASL saved game")
        if not path.exists():
            raise ScenarioError("no such file")
        if path.stat().st_size > MAX_FILE_BYTES:
            raise ScenarioError(f"too large for a saved game ({path.stat().st_size} bytes; the "
                                f"limit is {MAX_FILE_BYTES})")
        try:
            archive = zipfile.ZipFile(path)
        except zipfile.BadZipFile:
            raise ScenarioError("not a VASL saved game (not a ZIP file, or truncated)") from None
        with archive:
            info = next((i for i in archive.infolist() if i.filename == SAVED_GAME), None)
            if info is None:
                raise ScenarioError(f"the archive has no {SAVED_GAME} entry: not a VASSAL "
                                    "saved game")
            if info.file_size > MAX_ENTRY_BYTES:
                raise ScenarioError(f"too large ({info.file_size} bytes; the limit is "
                                    f"{MAX_ENTRY_BYTES})", place=SAVED_GAME)
            try:
                with archive.open(info) as f:
                    raw = f.read(MAX_ENTRY_BYTES + 1)
            except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError) as e:
                raise ScenarioError(f"cannot be read from the archive ({e})",
                                    place=SAVED_GAME) from None
            if len(raw) > MAX_ENTRY_BYTES:
                raise ScenarioError(f"inflates to more than {MAX_ENTRY_BYTES} bytes (the limit)",
                                    place=SAVED_GAME)
        return decode_saved_game(raw)
    except ScenarioError as e:
        raise e.at(file=str(path)) from None
    except OSError as e:
        raise ScenarioError(f"cannot read: {e.strerror or e}", file=str(path)) from None


# ---------------------------------------------------------------------------- the game
@dataclass(frozen=True)
class VsavBoard:
    """One ``bd`` record: a board of VASL's grid of boards."""
    column: int
    row: int
    name: str                       # VASL's board name ("02", "34", "RO"...)
    version: str = ""
    reversed: bool = False
    crop: tuple[int, int, int, int] | None = None
    overlays: tuple[str, ...] = ()
    ssr: str = ""

    @property
    def board_id(self) -> str:
        return board_id_from_filename("bd" + self.name)


@dataclass
class Piece:
    """A piece of the saved game, as far as we read it."""
    id: str
    name: str                       # the name VASSAL shows (active layers applied)
    base_name: str                  # the BasicPiece's own name
    image: str                      # the image shown (active layer or the piece's own)
    map: str
    x: int
    y: int
    counter_type: str = ""          # VASL's DBCounterType mark: unit, common, global...
    nation: str = ""
    broken: bool = False
    concealed: bool = False
    hidden: bool = False
    layer_names: list[str] = field(default_factory=list)   # every layer name of the piece


@dataclass
class SavedGame:
    boards: list[VsavBoard]
    pieces: list[Piece]


_INT_RE = re.compile(r"^-?\d{1,7}$")


def parse_board_records(text: str, place: str) -> list[VsavBoard]:
    toks = split_escaped(text, "\t")
    out: list[VsavBoard] = []
    i = 0
    while i < len(toks):
        if toks[i] != "bd":
            i += 1
            continue
        if all(not t for t in toks[i + 1:i + 4]):        # "bd" alone: no board chosen yet
            i += 1
            continue
        if i + 3 >= len(toks) or not (_INT_RE.match(toks[i + 1]) and _INT_RE.match(toks[i + 2])):
            raise ScenarioError("a board record needs a column, a row and a board name",
                                place=place)
        col, row, name = int(toks[i + 1]), int(toks[i + 2]), toks[i + 3]
        if not (0 <= col <= 20 and 0 <= row <= 20):
            raise ScenarioError(f"board {name!r} at column {col}, row {row}: the grid of boards "
                                "runs 0..20", place=place)
        rev = name.startswith("r") and len(name) > 1       # VASL writes a turned board "r02"
        if rev:
            name = name[1:]
        i += 4
        crop = None
        if i + 3 < len(toks) and all(_INT_RE.match(t) for t in toks[i:i + 4]):
            crop = tuple(int(t) for t in toks[i:i + 4])
            i += 4
        version, overlays, ssr = "", [], ""
        while i < len(toks) and toks[i] != "bd":
            t = toks[i]
            if t == "VER" and i + 1 < len(toks):
                version = toks[i + 1]
                i += 2
            elif t == "SSR" and i + 1 < len(toks):
                ssr = toks[i + 1]
                i += 2
            elif t == "ZOOM" and i + 1 < len(toks):
                i += 2
            elif t.startswith("OVR"):
                overlays.append(t)
                i += 1
            else:
                if t:
                    overlays.append(t)
                i += 1
        out.append(VsavBoard(col, row, name, version, rev, crop, tuple(overlays), ssr))
        if len(out) > MAX_BOARDS:
            raise ScenarioError(f"more than {MAX_BOARDS} boards", place=place)
    return out


def _int(text: str, what: str, place: str) -> int:
    if not _INT_RE.match(text.strip()):
        raise ScenarioError(f"the {what} {text!r} is not a whole number", place=place)
    return int(text.strip())


def _layer_name(names: list[str], level: int) -> str | None:
    return names[level - 1] if 0 < level <= len(names) and names[level - 1] else None


def _apply_layer(name: str, layer: str) -> str:
    # VASSAL's Embellishment: "X +" puts X before the name, "+ X" after it, else X replaces it
    if layer.endswith("+"):
        return layer[:-1] + name
    if layer.startswith("+"):
        return name + layer[1:]
    return layer


def parse_piece(cmd: str, place: str) -> Piece | None:
    """An ``AddPiece`` command (``+/id/type/state``); None for a stack."""
    if len(cmd) > MAX_PIECE_CHARS:
        raise ScenarioError(f"a piece command of {len(cmd)} characters (the limit is "
                            f"{MAX_PIECE_CHARS})", place=place)
    parts = split_escaped(cmd, "/", 5)
    if len(parts) < 4:
        raise ScenarioError("a piece command needs an id, a type and a state", place=place)
    pid, type_text, state_text = parts[1], parts[2], parts[3]
    if type_text.startswith("stack") or type_text == "":
        return None
    try:
        types, states = trait_chain(type_text), trait_chain(state_text)
    except ScenarioError as e:
        raise e.at(place=place) from None
    if len(states) < len(types):
        states += [""] * (len(types) - len(states))
    base = split_escaped(types[-1], ";", 6)
    if base[0] != "piece":
        return None                     # not a counter (VASSAL's other piece kinds)
    name = base[4] if len(base) > 4 else ""
    image = base[3] if len(base) > 3 else ""
    state = split_escaped(states[len(types) - 1], ";", 4)
    if len(state) < 3:
        raise ScenarioError("a piece's state needs a map, x and y", place=place)
    piece = Piece(pid, name, name, image, state[0], _int(state[1], "x", place),
                  _int(state[2], "y", place))
    nations = []
    for t, s in zip(reversed(types[:-1]), reversed(states[:len(types) - 1])):
        f = split_escaped(t, ";", 24)
        kind = f[0]
        if kind == "emb2" and len(f) > 17:
            images, names = split_escaped(f[16], ","), split_escaped(f[17], ",")
            prop = f[19] if len(f) > 19 else ""
            piece.layer_names.extend(n for n in names if n)
            first = split_escaped(s, ";", 1)[0].strip()
            level = int(first) if _INT_RE.match(first) else 0
            layer = _layer_name(names, level)
            if layer is not None:
                piece.name = _apply_layer(piece.name, layer)
                if prop == "BRK" or layer.strip().lower().startswith("broken"):
                    piece.broken = True
            if 0 < level <= len(images) and images[level - 1].strip():
                piece.image = images[level - 1]
        elif kind == "mark" and len(f) > 1 and f[1] == "DBCounterType":
            piece.counter_type = s
        elif kind == "conceal":
            if len(f) > 3 and f[3]:
                nations.append(f[3])
            if split_escaped(s, ";", 1)[0] not in ("", "null"):
                piece.concealed = True
        elif kind == "hide":
            if s not in ("", "null"):
                piece.hidden = True
    folder = piece.image.split("/", 1)[0] if "/" in piece.image else ""
    piece.nation = (nations[0] if nations else folder).lower()
    return piece


def parse_saved_game(text: str) -> SavedGame:
    boards: list[VsavBoard] | None = None
    pieces: list[Piece] = []
    for k, cmd in enumerate(commands(text)):
        place = f"command {k + 1}"
        if cmd.startswith("bd\t"):
            boards = parse_board_records(cmd, place)   # the last layout wins (VASL repeats it)
        elif cmd.startswith("+/"):
            p = parse_piece(cmd, place)
            if p is not None:
                pieces.append(p)
                if len(pieces) > MAX_PIECES:
                    raise ScenarioError(f"more than {MAX_PIECES} pieces")
    if not boards:
        raise ScenarioError("the saved game has no boards (VASL's board picker holds none): "
                            "nothing to open")
    return SavedGame(boards, pieces)


# ------------------------------------------------------------------------ what a piece is
MARKERS = (
    (re.compile(r"\bstar ?shell"), "starshell"),
    (re.compile(r"^ir$|^ir\b|illuminating round"), "ir"),
    (re.compile(r"\bblaze"), "blaze"),
    (re.compile(r"\bflames?\b"), "flame"),
    (re.compile(r"\bprep fire\b"), "prep_fire"),
    (re.compile(r"\bfirst fire\b"), "first_fire"),
    (re.compile(r"\bfinal fire\b"), "final_fire"),
    (re.compile(r"^ffe\b|fire for effect"), "ffe"),
    (re.compile(r"\bgunflash"), "gunflash"),
)
_SMC_RE = re.compile(r"^\d{1,2}\\?[-+]\d(?![-\d])")
_MMC_RE = re.compile(r"^\d{1,2}-\d{1,2}-\d{1,2}\b.*?(sq|hs|cr)\b", re.IGNORECASE)

# nationality words a piece's name may carry before or after its figures ("ge 4-6-7",
# "4-6-7 (ru)", "German 9-2"): VASL's folder codes and these words
NATION_WORDS = {
    "german": "ge", "ger": "ge", "russian": "ru", "rus": "ru", "soviet": "ru", "sov": "ru",
    "american": "am", "amer": "am", "british": "br", "brit": "br", "italian": "it",
    "ita": "it", "japanese": "ja", "jap": "ja", "finnish": "fi", "fin": "fi", "french": "fr",
    "fre": "fr", "hungarian": "hu", "hun": "hu", "romanian": "ro", "rom": "ro",
    "bulgarian": "bu", "slovak": "sl", "croatian": "cr", "polish": "po", "pol": "po",
    "greek": "gr", "dutch": "du", "belgian": "be", "yugoslav": "yu", "chinese": "ch",
    "axis": "ax", "allied": "al",
}
_NATION = r"[A-Za-z]{2,9}"
_WRAP = (r"^(?:[(\[]?(?P<pre>{n})[)\]]?[\s:_-]*)?{core}(?:[\s:_-]*[(\[]?(?P<post>{n})[)\]]?)?$")
# an MMC named only by its strength figures: firepower-range-morale (A1.2)
_FIGURES_RE = re.compile(_WRAP.format(
    n=_NATION, core=r"(?P<fp>\d{1,2})-(?P<rng>\d{1,2})-(?P<mor>\d{1,2})"))
# an SMC named by its morale and leadership modifier ("9-2", "10-3", "6+1"), A10.7
_RATING_RE = re.compile(_WRAP.format(n=_NATION, core=r"(?P<rating>\d{1,2}\\?[-+]\d)"))
# VASL's MMC images: nationality, the figures, S(quad) / H(alf squad) / C(rew): ge/ge467S
_MMC_IMAGE_RE = re.compile(r"(?:^|/)(?P<nat>[a-z]{2})(?P<digits>\d{3,6})(?P<kind>[SHC])[^/]*$")
MMC_KINDS = {"S": "squad", "H": "half_squad", "C": "crew"}
KIND_WORDS = {"squad": "a squad", "half_squad": "a half-squad", "crew": "a crew",
              "leader": "a leader"}


def side_of(nation: str) -> str | None:
    if nation in AXIS:
        return "axis"
    if nation in ALLIED:
        return "allied"
    return None


def _nation_word(word: str | None) -> str | None:
    """The nationality code a name's prefix or suffix stands for (None: not a nationality)."""
    if not word:
        return None
    w = word.lower()
    code = NATION_WORDS.get(w, w)
    return code if side_of(code) else None


def _named_figures(name: str) -> tuple[re.Match | None, str | None]:
    """(match, nationality) when the name is only figures, with at most a nationality word
    before or after: an MMC's ``4-6-7`` or an SMC's ``9-2``.  A word that is not a nationality
    makes it no such name."""
    bare = name.strip()
    if bare.lower().startswith("broken "):
        bare = bare[7:].strip()
    for rx in (_FIGURES_RE, _RATING_RE):
        m = rx.match(bare)
        if m is None:
            continue
        words = [w for w in (m.group("pre"), m.group("post")) if w]
        codes = [_nation_word(w) for w in words]
        if any(c is None for c in codes) or len(set(codes)) > 1:
            return None, None
        return m, (codes[0] if codes else None)
    return None, None


def figures_kind(m: re.Match, image: str) -> tuple[str, str]:
    """What an MMC named only by its figures is, and how that was read: VASL's image letter
    when its figures agree (ge467S: a squad), else the figures.  A1.2-A1.3: a half squad has
    about half its squad's firepower: firepower 3 or less reads as a half squad, 4 or more as
    a squad; 2-2-8 is the crew (A21.1)."""
    digits = m.group("fp") + m.group("rng") + m.group("mor")
    im = _MMC_IMAGE_RE.search(image or "")
    if im and im.group("digits") == digits:
        return MMC_KINDS[im.group("kind")], f"its image {image.rsplit('/', 1)[-1]!r}"
    fp = int(m.group("fp"))
    if digits == "228":
        return "crew", "its figures 2-2-8 (a crew)"
    if fp <= 3:
        return "half_squad", f"its figures (firepower {fp}: a half squad)"
    return "squad", f"its figures (firepower {fp}: a squad)"


def nation_of(p: Piece) -> str:
    """The piece's nationality: its traits or image folder, else a nationality word of its
    name (``ge 4-6-7``), else the nationality of a VASL MMC image without a folder
    (``ge467S.png``); "" when nothing says."""
    if side_of(p.nation):
        return p.nation
    _, word = _named_figures(p.name)
    if word:
        return word
    im = _MMC_IMAGE_RE.search(p.image or "")
    if im and side_of(im.group("nat")):
        return im.group("nat")
    return p.nation


def classify(p: Piece) -> tuple[str, str, dict] | tuple[None, str, dict]:
    """("unit", type, flags) / ("marker", type, {}) / (None, why, {})."""
    low = p.name.lower().strip()
    base_low = p.base_name.lower()
    for rx, mtype in MARKERS:
        if rx.search(low) or rx.search(base_low):
            return "marker", mtype, {}
    if p.counter_type == "global" or p.image.startswith(("tables/", "DO/")):
        return None, "a label, track or game marker", {}
    if low == "?" or base_low == "?":
        return None, "a concealment counter (the units under it are marked concealed)", {}
    names = " ".join([p.name] + p.layer_names)
    bare = low.removeprefix("broken ").strip()
    vehicle = "/veh/" in p.image or bool(re.search(r"\bvca\d", names))
    if vehicle:
        armoured = bool(re.search(r"(^|[\s+])(BU|CE)\b", names))
        flags = {}
        if armoured:
            flags["bu"] = bool(re.search(r"\sBU\b", p.name))
            flags["ce"] = bool(re.search(r"\sCE\b", p.name))
        else:
            flags["ce"] = bool(re.search(r"\sCE\b", p.name)) or None
        return "unit", "afv" if armoured else "vehicle", flags
    if re.search(r"\bmtr\b|mortar", low):
        return "unit", "mortar", {}
    if "/ord/" in p.image or re.search(r"\bca\d\b", low):
        return None, "a Gun (not a unit of the night rules)", {}
    if base_low in ("radio", "field phone", "phone") or re.search(r"\bradio\b|field phone", low):
        return "unit", "observer", {}
    if re.search(r"\bhero\b", low) or "hero" in base_low:
        return "unit", "hero", {}
    if re.search(r"\bal$", bare) or re.search(r"/..al\d", p.image.lower()):
        return "unit", "armor_leader", {}
    m = _MMC_RE.match(bare)
    if m:
        return "unit", {"sq": "squad", "hs": "half_squad", "cr": "crew"}[m.group(1).lower()], {}
    if base_low.endswith(("ldr", "com")) or _SMC_RE.match(bare):
        return "unit", "leader", {}
    fig, _ = _named_figures(p.name)
    if fig is not None:
        # a counter named only by its figures ("4-6-7", "ge 4-6-7", "9-2 ru"), A1.2 / A10.7
        if "rating" in fig.groupdict():
            return "unit", "leader", {}
        return "unit", figures_kind(fig, p.image)[0], {}
    if p.counter_type == "common":
        return None, "a support weapon or fortification (not a unit of the night rules)", {}
    return None, "not a unit or marker of the night rules", {}


# ---------------------------------------------------------------------- the geometry
@dataclass
class PlacedBoard:
    record: VsavBoard
    board: Board
    ref: str                        # the map entry's board reference
    geometry: Geometry
    size: tuple[int, int]           # the uncropped board image, pixels
    source: str                     # "dir", "bundled", "blank"
    write: bool = False             # a new board file to write beside the position
    origin: tuple[int, int] = (0, 0)

    @property
    def bounds(self) -> tuple[int, int]:
        c = self.record.crop
        w = c[2] if c and c[2] > 0 else self.size[0]
        h = c[3] if c and c[3] > 0 else self.size[1]
        return w, h

    def local(self, x: int, y: int, closed: bool = False) -> tuple[float, float] | None:
        """Board image pixels of a main map point on this board, or None (VASL's ASLBoard
        ``localCoordinates``: turned boards mirror, then the crop's corner is added).  A board
        holds [0, width) x [0, height); ``closed``: also its east and south edges, where the
        centres of the last half hexes lie."""
        w, h = self.bounds
        px, py = x - self.origin[0], y - self.origin[1]
        inside = (0 <= px <= w and 0 <= py <= h) if closed else (0 <= px < w and 0 <= py < h)
        if not inside:
            return None
        if self.record.reversed:
            px, py = w - px, h - py
        c = self.record.crop
        if c:
            px, py = px + c[0], py + c[1]
        return px, py


_HEXES = board_hexes()
_HEX_COLS = np.array([c for c, _ in _HEXES])
_HEX_ROWS = np.array([r for _, r in _HEXES])


def hex_at(geometry: Geometry, x: float, y: float) -> tuple[int, int]:
    """The board hex whose centre is nearest the pixel: the hex containing it."""
    cx, cy = geometry.centres(_HEX_COLS, _HEX_ROWS)
    k = int(np.argmin((cx - x) ** 2 + (cy - y) ** 2))
    return _HEXES[k]


def _layout(placed: list[PlacedBoard]) -> None:
    """VASSAL's Map.setBoardBoundaries: a board's corner is the margin plus the widths of the
    boards left of it in its row and the heights of those above it in its column."""
    by_slot = {(p.record.column, p.record.row): p for p in placed}
    for p in placed:
        c, r = p.record.column, p.record.row
        x = MAP_EDGE + sum(by_slot[(k, r)].bounds[0] for k in range(c) if (k, r) in by_slot)
        y = MAP_EDGE + sum(by_slot[(c, k)].bounds[1] for k in range(r) if (c, k) in by_slot)
        p.origin = (x, y)


# ------------------------------------------------------------------------------ boards
class MissingBoards(ScenarioError):
    """Boards of the layout found neither in the boards folder nor among the bundled ones."""

    def __init__(self, problem: str, file: str, boards: list[str]):
        super().__init__(problem, file=file)
        self.boards = boards


def _candidates(folder: Path, rec: VsavBoard) -> list[Path]:
    names = {f"bd{rec.name}", f"bd{rec.name.upper()}", f"bd{rec.name.lower()}",
             f"bd{rec.board_id}", f"bd{rec.board_id.zfill(2)}"}
    out = []
    for n in sorted(names):
        out += [folder / f"{n}.json", folder / n, folder / f"{n}.zip"]
    out.append(folder / f"{rec.board_id}.json")
    return out


def _blank(board_id: str) -> Board:
    return Board(board_id, f"Blank open board standing in for VASL board {board_id}",
                 HexTerrain("open", 0), {})


def resolve_boards(game: SavedGame, boards_dir: str | Path | None, blank_missing: bool,
                   file: str) -> tuple[list[PlacedBoard], list[str]]:
    placed: list[PlacedBoard] = []
    notes: list[str] = []
    missing: list[str] = []
    folder = Path(boards_dir) if boards_dir else None
    if folder is not None and not folder.is_dir():
        raise ScenarioError("is not a folder", file=str(boards_dir), place="--boards")
    for rec in game.boards:
        bid = rec.board_id
        found = None
        if folder is not None:
            found = next((c for c in _candidates(folder, rec) if c.is_file()), None)
        if found is not None and found.suffix == ".json":
            board = load_board(found)
            placed.append(PlacedBoard(rec, board, str(found.resolve()), GEO, BOARD_PIXELS, "dir"))
            notes.append(f"board {rec.name}: the board file {found}")
        elif found is not None:
            archive = read_archive(found)
            try:
                board, report = convert(archive, bid)
            except ScenarioError as e:
                raise e.at(file=str(found)) from None
            grid = archive.los.grid_size
            placed.append(PlacedBoard(rec, board, f"bd{rec.name}.json", archive.geometry,
                                      (int(grid[0]), int(grid[1])), "dir", write=True))
            notes.append(f"board {rec.name}: imported from the VASL board archive {found}"
                         + (f" ({len(report)} approximation(s), see import-vasl)" if report else ""))
        else:
            try:
                board = bundled_board(bid)
            except ScenarioError:
                board = None
            if board is not None:
                placed.append(PlacedBoard(rec, board, bid, GEO, BOARD_PIXELS, "bundled"))
                notes.append(f"board {rec.name}: no VASL board archive or board file for it, "
                             f"so Starshell's bundled stand-in of board {bid} is used (it holds "
                             "only some of the board's terrain)")
            elif blank_missing:
                placed.append(PlacedBoard(rec, _blank(bid), f"bd{rec.name}-blank.json", GEO,
                                          BOARD_PIXELS, "blank", write=True))
                notes.append(f"board {rec.name}: missing, so a blank open board stands in for "
                             "it (no terrain at all: the night field ignores its hills, woods "
                             "and buildings)")
            else:
                missing.append(rec.name)
        if rec.crop:
            notes.append(f"board {rec.name} is cropped in VASL ({', '.join(map(str, rec.crop))}"
                         "): Starshell shows the whole board")
        if rec.overlays:
            notes.append(f"board {rec.name}: overlays not applied ({', '.join(rec.overlays)})")
        if rec.ssr:
            notes.append(f"board {rec.name}: SSR terrain changes not applied ({rec.ssr})")
    if missing:
        where = f"in {boards_dir}" if boards_dir else "(no --boards folder given)"
        raise MissingBoards(
            f"missing board(s) {', '.join(missing)}: no VASL board archive (bdNN) or board file "
            f"{where} and no bundled board of that id; give the folder of your VASL boards with "
            "--boards DIR, or use blank open boards for the missing ones (--blank-missing)",
            file, missing)
    seen: dict[str, str] = {}
    for p in placed:
        if p.board.id in seen:
            raise ScenarioError(f"boards {seen[p.board.id]} and {p.record.name} are both board "
                                f"{p.board.id!r}: a map holds a board once", file=file)
        seen[p.board.id] = p.record.name
    _layout(placed)
    return placed, notes


# ------------------------------------------------------------------------------ convert
@dataclass
class VsavImport:
    data: dict                              # the scenario as JSON (board refs: placed[k].ref)
    placed: list[PlacedBoard]
    skipped: list[dict]
    notes: list[str]

    @property
    def boards(self) -> list[str]:
        return [p.board.id for p in self.placed]

    def summary(self) -> dict:
        return {"boards": self.boards, "units": len(self.data["units"]),
                "markers": len(self.data["markers"]), "skipped": self.skipped,
                "notes": self.notes}


def convert_game(game: SavedGame, placed: list[PlacedBoard], title: str) -> VsavImport:
    units: list[dict] = []
    markers: list[dict] = []
    skipped: list[dict] = []
    notes: list[str] = []
    counts: dict[str, int] = {}
    qmarks: set[tuple[str, str]] = set()        # (hex, side) under a "?" counter
    cover: dict[tuple[int, int], str] = {}
    off_board = 0
    unsided = 0
    by_figures: list[str] = []              # MMCs named only by their figures ("4-6-7")

    def where(p: Piece) -> str | None:
        if (p.x, p.y) in cover:
            return cover[(p.x, p.y)]
        for b, closed in [(b, False) for b in placed] + [(b, True) for b in placed]:
            local = b.local(p.x, p.y, closed)
            if local is not None:
                col, row = hex_at(b.geometry, *local)
                name = f"{b.board.id}{COLUMN_NAMES[col]}{row}"
                cover[(p.x, p.y)] = name
                return name
        return None

    for p in game.pieces:
        label = p.name or p.base_name or p.image or p.id
        if p.map not in MAIN_MAPS:
            skipped.append({"piece": label, "why": f"not on the main map (in VASSAL's "
                                                   f"{p.map!r} window)"})
            continue
        kind, what, flags = classify(p)
        nation = nation_of(p)
        if kind is None:
            if what.startswith("a concealment counter"):
                hex_id = where(p)
                if hex_id is not None and side_of(nation):
                    qmarks.add((hex_id, side_of(nation)))
            skipped.append({"piece": label, "why": what})
            continue
        hex_id = where(p)
        if hex_id is None:
            off_board += 1
            skipped.append({"piece": label, "why": f"off the boards, waiting in the map's margin "
                                                   f"at ({p.x}, {p.y})"})
            continue
        side = side_of(nation)
        if kind == "marker":
            mk = {"type": what, "hex": hex_id}
            if side is not None and what in ("prep_fire", "first_fire", "final_fire", "ffe"):
                mk["side"] = side
            mk["vasl_name"] = label
            markers.append(mk)
            continue
        fig, _ = _named_figures(p.name)
        if side is None:
            # never a guess: the unit is left out and the report says why
            what_words = KIND_WORDS.get(what, f"a {what.replace('_', ' ')}")
            if nation:
                why = (f"{what_words} whose side cannot be told: its nationality {nation!r} "
                       "is neither Axis nor Allied")
            else:
                why = (f"{what_words} whose side cannot be told: no nationality in its name, "
                       "image or traits")
            skipped.append({"piece": label, "why": why})
            unsided += 1
            continue
        if fig is not None and "fp" in fig.groupdict():
            by_figures.append(f"{label} ({figures_kind(fig, p.image)[1]})")
        prefix = nation if re.fullmatch(r"[a-z]{1,4}", nation) else side[:2]
        counts[prefix] = counts.get(prefix, 0) + 1
        u: dict = {"id": f"{prefix}{counts[prefix]}", "side": side, "type": what, "hex": hex_id}
        if p.broken and what not in ("afv", "vehicle", "mortar", "observer"):
            u["broken"] = True
        if p.concealed or p.hidden:
            # a hidden (HIP) unit is read as concealed: never a Known enemy unit (RULES.md 3)
            u["concealed"] = True
        for k, v in flags.items():
            if v is not None and (v or k == "bu"):
                u[k] = v
        if u.get("bu"):
            u.pop("ce", None)
        u["vasl_name"] = label
        if nation:
            u["vasl_nation"] = nation
        if p.hidden:
            u["vasl_hidden"] = True
        units.append(u)
    for u in units:
        if (u["hex"], u["side"]) in qmarks and u["type"] not in ("afv", "vehicle"):
            u["concealed"] = True
    if any(u["type"] in ("afv", "vehicle") for u in units):
        notes.append("vehicles: the save does not say which are tracked; set it in the Edit "
                     "panel (E1.14: a moving tracked vehicle is seen farther)")
    if by_figures:
        notes.append(f"{len(by_figures)} counter(s) named only by their figures, read as "
                     "squad, half squad or crew by " + "; ".join(by_figures[:12])
                     + ("; ..." if len(by_figures) > 12 else "") + ": check them in the Edit "
                     "panel")
    if unsided:
        notes.append(f"{unsided} unit(s) left out: their side cannot be told (no Axis or Allied "
                     "nationality in the name, image or traits; see skipped): place them with "
                     "the Palette panel")
    if off_board:
        notes.append(f"{off_board} counter(s) wait off the boards, in the map's margin (a "
                     "set-up not yet placed?)")
    attacker = units[0]["side"] if units else "allied"
    data = {"format": "starshell-scenario", "version": 1, "title": title,
            "map": [{"board": b.ref, "at": [b.record.column, b.record.row]}
                    | ({"rotated": True} if b.record.reversed else {})
                    | {"vasl_board": b.record.name} for b in placed],
            "nvr": 3, "phase": "PFPh", "attacker": attacker, "starshells_used": "never",
            "units": units, "markers": markers}
    return VsavImport(data, placed, skipped, notes)


def read_vsav(path: str | Path, boards_dir: str | Path | None = None,
              blank_missing: bool = False) -> VsavImport:
    """Read a .vsav and convert it (nothing written).  ScenarioError naming the file."""
    path = Path(path)
    text = read_saved_game(path)
    try:
        game = parse_saved_game(text)
    except ScenarioError as e:
        raise e.at(file=str(path)) from None
    placed, notes = resolve_boards(game, boards_dir, blank_missing, str(path))
    result = convert_game(game, placed, f"{path.stem} (VASL saved game)")
    result.notes[:0] = notes
    return result


def vsav_scenario(path: str | Path, boards_dir: str | Path | None = None,
                  blank_missing: bool = False):
    """The saved game as a Scenario anchored at the .vsav's folder, and the import's summary.
    Boards imported from VASL archives and blank stand-ins are boards in memory (their map
    entries name files that do not exist yet: saving the position saves them first)."""
    from ..night.files import scenario_from_json
    result = read_vsav(path, boards_dir, blank_missing)
    with tempfile.TemporaryDirectory(prefix="starshell-vsav-") as tmp:
        for p in result.placed:
            if p.write:
                save_board(p.board, Path(tmp) / p.ref)
        s = scenario_from_json(result.data, file=str(path), folder=tmp)
    return s.replace(folder=str(Path(path).resolve().parent)), result.summary()


def import_vsav(path: str | Path, output: str | Path, boards_dir: str | Path | None = None,
                blank_missing: bool = False) -> dict:
    """Write the position file ``output`` (and the board files it needs beside it) from a saved
    game; returns the summary.  Nothing is written when the game is refused."""
    from ..night.files import scenario_from_json
    out = Path(output)
    if out.suffix != ".json":
        raise ScenarioError("the position file name must end in .json", file=str(output),
                            place="-o")
    result = read_vsav(path, boards_dir, blank_missing)
    folder = out.resolve().parent
    with tempfile.TemporaryDirectory(prefix="starshell-vsav-") as tmp:
        for p in result.placed:
            if p.write:
                save_board(p.board, Path(tmp) / p.ref)
        scenario_from_json(result.data, file=str(path), folder=tmp)   # the whole check first
    written = []
    for p in result.placed:
        if p.write:
            target = folder / p.ref
            save_board(p.board, target)
            written.append(str(target))
    data = dict(result.data)
    data["map"] = [dict(e) for e in data["map"]]
    for e, p in zip(data["map"], result.placed):
        if p.source == "dir" and not p.write:         # a board file of the boards folder
            try:
                e["board"] = Path(os.path.relpath(p.ref, folder)).as_posix()
            except ValueError:                          # another drive (Windows)
                pass
    atomic_write_json(out, data)
    summary = result.summary()
    summary["file"] = str(out)
    summary["board_files"] = written
    return summary


__all__ = ["read_saved_game", "decode_saved_game", "parse_saved_game", "read_vsav",
           "vsav_scenario", "import_vsav", "split_escaped", "VsavBoard", "Piece", "SavedGame",
           "MissingBoards"]
