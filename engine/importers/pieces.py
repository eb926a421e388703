"""A VASL saved game's layout of boards and its pieces, read from VASSAL's commands
(``vassal.py`` decodes them).

- ``bd`` records (VASL's ``ASLBoardPicker``): ``bd``, column, row, ``[r]NAME`` (r: turned half
  round), an optional crop rectangle (x, y, width, height), ``VER`` version, overlays
  (``OVR...``), ``SSR`` terrain changes, ``ZOOM``.  Column and row are the board's place in the
  grid of boards, row 0 on top.
- ``+/ID/TYPE/STATE``: one piece.  TYPE and STATE are its traits, outermost first; the innermost
  is the ``piece`` (VASSAL's BasicPiece): type ``piece;clone key;delete key;image;name``, state
  ``map;x;y;...``.  Layers that are switched on rename the piece or add to its name; the broken
  layer, the concealment and HIP traits are read too.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import ScenarioError, shown
from .vasl import board_id_from_filename
from .vassal import commands, split_escaped, trait_chain

MAX_PIECE_CHARS = 256 * 1024            # one piece command (VASL's: a few thousand)
MAX_PIECES = 50_000
MAX_BOARDS = 64


@dataclass(frozen=True)
class VsavOverlay:
    """An ``OVR name hex1 hex2`` of a board record (rules.md 11.1, 11.3)."""
    name: str
    hex1: str
    hex2: str


@dataclass(frozen=True)
class VsavBoard:
    """One ``bd`` record: a board of VASL's grid of boards."""
    column: int
    row: int
    name: str                       # VASL's board name ("02", "34", "RO"...)
    version: str = ""
    reversed: bool = False
    crop: tuple[int, int, int, int] | None = None      # x, y, width, height (board pixels)
    overlays: tuple["VsavOverlay", ...] = ()
    ssr: tuple[str, ...] = ()       # VASL's rule names, in the record's order
    zoom: float | None = None
    other: tuple[str, ...] = ()     # tokens of the record that are none of the above

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
    shown_layers: list[str] = field(default_factory=list)  # the names of the levels shown
    unknown_traits: list[str] = field(default_factory=list)
    palette: str = ""               # the palette list of its Wreck replacement ("Ttw", "trw")


@dataclass
class SavedGame:
    boards: list[VsavBoard]
    pieces: list[Piece]
    # VASSAL's stacks: each the ids of its pieces from the bottom up (``Stack.getState``)
    stacks: list[tuple[str, ...]] = field(default_factory=list)


_INT_RE = re.compile(r"^-?\d{1,7}$")
MAX_SSR, MAX_OVERLAYS = 64, 200
# VASL's board names ("02", "RO", "10a"): no folder, no "..", no NUL or line break in a file name
_BOARD_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}\Z")


def is_board_name(name: str) -> bool:
    """Whether ``name`` is a VASL board name as a save may give it: letters, digits, - and _, at
    most 40, so ``bdNAME.json`` is a file name in its folder and no path out of it."""
    return bool(_BOARD_NAME_RE.match(name))


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
        if not is_board_name(name):
            raise ScenarioError(f"board name {shown(name, 60)} is not a VASL board's (letters, "
                                "digits, - and _, at most 40)", place=place)
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
        version, overlays, ssr, zoom, other = "", [], [], None, []
        while i < len(toks) and toks[i] != "bd":       # rules.md 11.1: VER, OVR..., SSR..., ZOOM
            t = toks[i]
            if t == "VER" and i + 1 < len(toks):
                version = toks[i + 1]
                i += 2
            elif t == "OVR" and i + 3 < len(toks):
                overlays.append(VsavOverlay(toks[i + 1], toks[i + 2], toks[i + 3]))
                i += 4
            elif t == "ZOOM" and i + 1 < len(toks):
                zoom = _zoom(toks[i + 1], place)
                i += 2
            elif t == "SSR":
                i += 1          # every name to the end of the record (or a ZOOM)
                while i < len(toks) and toks[i] not in ("bd", "ZOOM"):
                    if toks[i] and toks[i] not in ssr:
                        ssr.append(toks[i])
                    i += 1
            else:               # not VASL's: kept and named in the import's report
                if t:
                    other.append(t)
                i += 1
        if len(ssr) > MAX_SSR or len(overlays) > MAX_OVERLAYS:
            raise ScenarioError(f"board {name!r}: more than {MAX_SSR} SSRs or {MAX_OVERLAYS} "
                                "overlays", place=place)
        out.append(VsavBoard(col, row, name, version, rev, crop, tuple(overlays), tuple(ssr),
                             zoom, tuple(other)))
        if len(out) > MAX_BOARDS:
            raise ScenarioError(f"more than {MAX_BOARDS} boards", place=place)
    return out


def _zoom(text: str, place: str) -> float:
    try:
        z = float(text)
    except ValueError:
        z = -1.0
    if not 0.05 <= z <= 20:
        raise ScenarioError(f"a board's ZOOM {shown(text, 20)} is not a factor from 0.05 to 20",
                            place=place)
    return z


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


# VASSAL's traits a VASL counter carries that say nothing of what it is (moves, menus, reports,
# labels, rotation, areas...): read past; any other is listed with the piece
KNOWN_TRAITS = {"emb2", "emb", "mark", "conceal", "hide", "PROP", "submenu", "translate",
                "moved", "report", "label", "hideCmd", "rotate", "placemark", "replace",
                "info", "AreaOfEffect", "globalkey", "macro", "obs", "prototype", "delete",
                "clone", "sendto", "return", "footprint", "restrict", "immob", "calcProp",
                "setprop", "setpropx", "DYNPROP", "button", "menuSeparator", "deselect",
                "propertySheet", "markmoves", "nonRect2", "pivot", "playSound", "childof",
                "mat", "matPiece", "attach", "multiLocation", "trigger", "locmsg", "border",
                "ASLcasualty", "ASLcounter", "placeDM", "turr"}


def _read_layer(piece: Piece, f: list[str], state: str) -> None:
    """One ``emb2`` trait (VASSAL's Embellishment, "layer"): its state is the level, negative
    when the layer is off; an always-active layer shows its level all the same.  The level's
    name renames the piece (VASSAL's getName, innermost layer first)."""
    images, names = split_escaped(f[16], ","), split_escaped(f[17], ",")
    prop = f[19] if len(f) > 19 else ""
    always = len(f) > 26 and f[26].strip().lower() == "true"
    piece.layer_names.extend(n for n in names if n)
    first = split_escaped(state, ";", 1)[0].strip()
    value = int(first) if _INT_RE.match(first) else 0
    level = abs(value) or (1 if always else 0)
    if not (value > 0 or always):
        return
    layer = _layer_name(names, level)
    if layer is not None:
        piece.name = _apply_layer(piece.name, layer)
        piece.shown_layers.append(layer.strip())
        if prop == "BRK" or layer.strip().lower().startswith("broken"):
            piece.broken = True
    if 0 < level <= len(images) and images[level - 1].strip():
        piece.image = images[level - 1]


_WRECK_LIST_RE = re.compile(r"ListWidget:([A-Za-z0-9 ()-]{1,40})/VASSAL\.build\.widget\.PieceSlot:")


def wreck_list(path: str) -> str:
    """The palette list a vehicle's Wreck counter is taken from (VASSAL's Replace trait names
    the slot by its place in VASL's palette: ``...ListWidget:ge/...ListWidget:Ttw/...PieceSlot:
    PzKw IVH Wreck``): "Ttw", or "" when the path names none."""
    m = _WRECK_LIST_RE.search(path.replace("\\/", "/"))
    return m.group(1) if m else ""


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
        f = split_escaped(t, ";", 30)
        kind = f[0]
        if kind == "emb2" and len(f) > 17:
            _read_layer(piece, f, s)
        elif kind == "mark" and len(f) > 1 and f[1] == "DBCounterType":
            piece.counter_type = s
        elif kind == "conceal":
            if len(f) > 3 and f[3]:
                nations.append(f[3])
            if split_escaped(s, ";", 1)[0] not in ("", "null"):
                piece.concealed = True
        elif kind == "replace" and len(f) > 3 and f[1] == "Wreck":
            piece.palette = wreck_list(f[3])
        elif kind == "hide":
            if s not in ("", "null"):
                piece.hidden = True
        elif kind not in KNOWN_TRAITS:
            piece.unknown_traits.append(kind[:40])
    folder = piece.image.split("/", 1)[0] if "/" in piece.image else ""
    piece.nation = (nations[0] if nations else folder).lower()
    return piece


def parse_stack(cmd: str) -> tuple[str, ...] | None:
    """A stack's ``AddPiece`` command (``+/id/stack/map;x;y;id1;id2...``): the ids of its
    pieces from the bottom up (VASSAL's ``Stack.getState``), or None for any other piece."""
    parts = split_escaped(cmd[:MAX_PIECE_CHARS], "/", 5)
    if len(parts) < 4 or not parts[2].startswith("stack"):
        return None
    state = split_escaped(parts[3], ";", MAX_PIECES)
    return tuple(s for s in state[3:] if s)


def parse_saved_game(text: str) -> SavedGame:
    boards: list[VsavBoard] | None = None
    pieces: list[Piece] = []
    stacks: list[tuple[str, ...]] = []
    for k, cmd in enumerate(commands(text)):
        place = f"command {k + 1}"
        if cmd.startswith("bd\t"):
            boards = parse_board_records(cmd, place)   # the last layout wins (VASL repeats it)
        elif cmd.startswith("+/"):
            stack = parse_stack(cmd)
            if stack:
                stacks.append(stack)
                continue
            p = parse_piece(cmd, place)
            if p is not None:
                pieces.append(p)
                if len(pieces) > MAX_PIECES:
                    raise ScenarioError(f"more than {MAX_PIECES} pieces")
    if not boards:
        raise ScenarioError("the saved game has no boards (VASL's board picker holds none): "
                            "nothing to open")
    return SavedGame(boards, pieces, stacks)
