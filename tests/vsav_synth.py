"""Synthetic VASL saved games (``.vsav``), written the way VASSAL writes them (we ship none).

A ZIP with a ``savedGame`` entry: ``!VCSK``, the key as two hex digits, then every byte of the
text XOR-ed with the key as two hex digits (``!VCSZ``: the same around deflated text).  The
text: VASSAL commands joined by ESC, a compound's own commands nested (each ESC inside escaped
by a backslash).  VASSAL's ``SequenceEncoder`` puts a backslash before a delimiter inside a value
and quotes a value that ends in a backslash between apostrophes.

A piece: ``+/ID/TYPE/STATE``; TYPE and STATE are its traits outermost first, each trait's
encoding followed by a tab and the rest escaped once more; the innermost trait is the
``piece`` (BasicPiece: ``piece;K;D;image;name`` and ``map;x;y;gpid``).  Traits written here:
VASL's ``mark;DBCounterType``, ``hide`` (HIP), ``conceal``, ``emb2`` layers (an active layer
renames the piece, ``"X +"`` puts X before its name, ``"+ X"`` after).

``hex_pixel`` gives the main map pixel of a hex centre: a margin of 400 pixels, boards of
1800 x 645 pixels in their grid of boards, hexes 56.25 x 64.5, A1's centre at (0, 32.25).
"""
from __future__ import annotations

import io
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from engine.hexes import parse_local

ESC = "\x1b"
EDGE = 400
BOARD_W, BOARD_H = 1800, 645
HEX_W, HEX_H = 56.25, 64.5


def escape(value: str, delim: str) -> str:
    """SequenceEncoder.append's escaping of one value."""
    body = value.replace(delim, "\\" + delim)
    if value.endswith("\\") or (value.startswith("'") and value.endswith("'")):
        return f"'{body}'"
    return body


def join(values, delim: str) -> str:
    return delim.join(escape(str(v), delim) for v in values)


def nest(own: str, inner: str, delim: str = "\t") -> str:
    """A decorator's encoding: ``SequenceEncoder(own, delim).append(inner)``."""
    return own + delim + escape(inner, delim)


def board_pixel(col: int, row: int) -> tuple[float, float]:
    """A hex centre in its board's image (VASL's geometry)."""
    odd = col % 2
    return HEX_W * col, HEX_H / 2 + HEX_H * (row - 1 + odd) - HEX_H / 2 * odd


def hex_pixel(local_hex: str, slot: tuple[int, int] = (0, 0), rotated: bool = False,
              dx: float = 0, dy: float = 0) -> tuple[int, int]:
    """The main map pixel of a board hex (``"K5"``) on the board in ``slot`` (column, row)."""
    col, row = parse_local(local_hex)
    x, y = board_pixel(col, row)
    if rotated:
        x, y = BOARD_W - x, BOARD_H - y
    return (round(EDGE + slot[0] * BOARD_W + x + dx), round(EDGE + slot[1] * BOARD_H + y + dy))


@dataclass
class Layer:
    """An ``emb2`` trait: its images and names, the active level (1-based; <= 0: off)."""
    images: list[str]
    names: list[str]
    level: int = 1
    prop: str = ""
    always: bool = False            # an always-active layer: its level shows even when < 0

    def type(self) -> str:
        return join(["emb2", "", "2", "F", "", "2", "E", "", "2", "Q", "", "", "0", "false", "0",
                     "0", join(self.images, ","), join(self.names, ","), "false", self.prop, "",
                     "", "false", "", "1", "1", "true" if self.always else "false", "70,130",
                     ""], ";")

    def state(self) -> str:
        return str(self.level)


@dataclass
class SynthPiece:
    name: str
    image: str
    pos: tuple[int, int]
    map: str = "Main Map"
    counter_type: str = "unit"
    nation: str | None = None         # a conceal trait of this nationality
    concealed: bool = False
    hidden: bool = False
    layers: list[Layer] = field(default_factory=list)   # innermost last
    more: list[tuple[str, str]] = field(default_factory=list)   # other traits (type, state)
    pid: int | None = None            # VASSAL's piece id (else numbered by the save's order)

    def traits(self) -> list[tuple[str, str]]:
        out = [("mark;DBCounterType", self.counter_type)]
        out.append(("hide;72,130;HIP;;player:;0.3", "player1" if self.hidden else "null"))
        if self.nation:
            n = self.nation
            out.append((join(["conceal", "C", f"{n}/{n}qmark", n, ""], ";"),
                        "player1;|0" if self.concealed else "null;"))
        out += [(layer.type(), layer.state()) for layer in self.layers]
        return out + self.more

    def command(self, pid: int) -> str:
        type_text = join(["piece", "K", "D", self.image, self.name], ";")
        state_text = join([self.map, self.pos[0], self.pos[1], pid], ";")
        for t, s in reversed(self.traits()):
            type_text, state_text = nest(t, type_text), nest(s, state_text)
        return join(["+", str(pid), type_text, state_text], "/")


# --------------------------------------------------------------------------- counters
def squad(name: str, pos, nation: str = "ge", broken: bool = False, **kw) -> SynthPiece:
    """A squad like VASL's: a layer of good-order sides (the active one names it) under a
    broken layer ("broken +" before the name) driven by the BRK property."""
    img = f"{nation}/{nation}{name[:5].replace('-', '')}S"
    good = Layer([img, img + "x"], [name, name + " x"], 1, "SQ")
    brk = Layer([img + "b"], ["broken +"], 1 if broken else -1, "BRK")
    return SynthPiece("5-5-8 Esq", " ", pos, nation=nation, layers=[brk, good], **kw)


def leader(rating: str, pos, nation: str = "ge", broken: bool = False, **kw) -> SynthPiece:
    img = f"{nation}/{nation}L{rating.replace('-', '').replace('+', '')}"
    brk = Layer([img + "b"], ["broken +"], 1 if broken else -1, "BRK")
    return SynthPiece(f"{nation}LDR", " ", pos, nation=nation,
                      layers=[brk, Layer([img], [rating], 1, "")], **kw)


def figures(name: str, pos, image: str = " ", nation: str | None = None, broken: bool = False,
            **kw) -> SynthPiece:
    """A counter whose piece name is only its figures ("4-6-7", "ge 4-6-7", "9-2 ru"), as many
    VASL saves hold: no layer names it; the image, a conceal trait of ``nation`` and the
    broken layer ("broken +" before the name) say the rest, when they are there."""
    brk = Layer([(image.strip() or "x") + "b"], ["broken +"], 1 if broken else -1, "BRK")
    return SynthPiece(name, image, pos, nation=nation, layers=[brk], **kw)


def plain(name: str, image: str, pos, counter_type: str = "unit", **kw) -> SynthPiece:
    return SynthPiece(name, image, pos, counter_type=counter_type, **kw)


def wreck(name: str, nation: str, palette: str) -> tuple[str, str]:
    """A vehicle's Replace trait giving its Wreck counter, named by its place in the palette
    (a nationality's list, then the list of that kind of vehicle: ``palette``)."""
    path = "/".join(["VASSAL.build.module.PieceWindow:?", f"VASSAL.build.widget.ListWidget:{nation}",
                     f"VASSAL.build.widget.ListWidget:{palette}",
                     "VASSAL.build.widget.PieceSlot:" + name.replace("/", "\\/") + " Wreck"])
    return join(["replace", "Wreck", "70,130", path, "null", "0", "0", "true", "", "", "709", "0",
                 "false"], ";"), ""


def tank(name: str, pos, nation: str = "ge", bu: bool = True, palette: str | None = None,
         **kw) -> SynthPiece:
    """An AFV: the vehicle's covered arc (``+ vca3``...) and its BU/CE layer; ``palette``: the
    palette list of its Wreck (none: no Replace trait)."""
    ca = Layer([" "] * 6, [f"+ vca{k}" for k in (3, 4, 5, 6, 1, 2)], 1)
    hatch = Layer([" ", " "], ["+ BU", "+ CE"], 1 if bu else 2)
    more = [wreck(name, nation, palette)] if palette else []
    return SynthPiece(name, f"{nation}/veh/{name.lower().replace(' ', '')}", pos,
                      nation=nation, layers=[hatch, ca], more=more, **kw)


def truck(name: str, pos, nation: str = "ru", palette: str | None = None, **kw) -> SynthPiece:
    ca = Layer([" "] * 6, [f"+ vca{k}" for k in (3, 4, 5, 6, 1, 2)], 1)
    more = [wreck(name, nation, palette)] if palette else []
    return SynthPiece(name, f"{nation}/veh/{name.lower()}", pos, nation=nation, layers=[ca],
                      more=more, **kw)


def marker(name: str, image: str, pos) -> SynthPiece:
    return SynthPiece(name, image, pos, counter_type="common")


# ----------------------------------------------------------- VASL's markers, after its buildFile
# (the shapes of VASL's piece definitions: one basic piece, its layers naming what it shows)
FIRE_LAYERS = ["Prep Fire", "Bnd. Fire", "Opp. Fire", "Adv. Fire"]
COLOURS = ["Red +", "Green +", "Blue +"]


def fire_marker(shown: str, pos) -> SynthPiece:
    """VASL's fire marker: one piece "Prep Fire" whose always-active layer shows one of
    Prep / Bnd. / Opp. / Adv. Fire."""
    level = FIRE_LAYERS.index(shown) + 1
    layer = Layer([f"MS/Fire{k}" for k in range(4)], FIRE_LAYERS, level, always=True)
    return SynthPiece("Prep Fire", " ", pos, counter_type="global", layers=[layer])


def first_fire_marker(pos, final: bool = False, version: int = 1) -> SynthPiece:
    """VASL's First Fire marker: an always-active layer First Fire / IFP / SW under a Final
    Fire layer, on (level 1) or off (-1)."""
    final_layer = Layer(["MS/Final"], ["Final Fire"], 1 if final else -1)
    first = Layer(["MS/First", "MS/FirstIFP", "MS/FirstSW"],
                  ["First Fire", "First Fire IFP", "First Fire SW"], version, always=True)
    return SynthPiece("First Fire", " ", pos, counter_type="global", layers=[final_layer, first])


def intensive_fire(pos, no_fire: bool = False) -> SynthPiece:
    layer = Layer(["MS/FireInt", "MS/FireNo"], ["Int. Fire", "No Fire"], 2 if no_fire else 1,
                  always=True)
    return SynthPiece("Int. Fire", " ", pos, counter_type="global", layers=[layer])


def light_marker(name: str, pos, colour: int = 1) -> SynthPiece:
    """Starshell, IR or Trip Flare: the basic piece of that name under a colour layer
    ("Red +" before the name)."""
    layer = Layer([f"MS/C{k}" for k in range(3)], COLOURS, colour, always=True)
    return SynthPiece(name, "MS/_night12", pos, counter_type="global", layers=[layer])


def smoke(pos, strength: int = 1) -> SynthPiece:
    layer = Layer(["ML/Smk3", "ML/Smk2"], ["White +3 Smoke", "White +2 Smoke"], strength)
    return SynthPiece("Smoke", " ", pos, counter_type="global", layers=[layer])


def qmark(pos, nation: str = "ge") -> SynthPiece:
    return SynthPiece("?", f"{nation}/{nation}qmark", pos, counter_type="common", nation=nation)


def turn_marker(side: str, turn: int, phase: str, pos=(2300, 150)) -> SynthPiece:
    return SynthPiece(f"{side} Turn {turn} - {phase}", f"tables/turn_phase_{side.lower()}", pos,
                      counter_type="")


# --------------------------------------------------------------------------- the file
def board_record(boards) -> str:
    """``bd`` records as VASL's ``ASLBoard.getState`` writes them (rules.md 11.1): (column, row,
    name[, version[, crop[, setup]]]), name "r34" for a turned board; ``setup`` a dict of
    ``overlays`` [(name, hex1, hex2)], ``ssr`` [rule names] and ``zoom``."""
    parts = []
    for b in boards:
        col, row, name = b[:3]
        version = b[3] if len(b) > 3 else "6.1"
        crop = b[4] if len(b) > 4 else None
        setup = b[5] if len(b) > 5 else {}
        parts += ["bd", str(col), str(row), name]
        if crop:
            parts += [str(v) for v in crop]
        parts += ["VER", version]
        for ovr in setup.get("overlays", ()):
            parts += ["OVR", *ovr]
        if setup.get("ssr"):
            parts += ["SSR", *setup["ssr"]]
        if setup.get("zoom") is not None:
            parts += ["ZOOM", str(setup["zoom"])]
    return "\t".join(parts) + "\t"


OLDER_INFO = ("Axis", "Allied", "1", "3 ", "4 ", "4 ", "3 ", "?", "?")     # rules.md 11.5


def info_record(layout: str = "older", night: bool = True, nvr: int | str = 3,
                weather: str = "Clear", notes: str = "") -> str:
    """VASL's scenario record (``ScenInfo.getState``, command ``INFO``, rules.md 11.5) in one of
    its layouts: "older" (nine fields, then the notes), "weather" (weather, EC, wind, wind
    direction, night Yes/No, NVR, then the notes) or "shader" (six flags, night first, six
    levels, then the notes); "short": as the synthetic saves before this wrote it."""
    if layout == "short":
        return "INFO\tAxis\tAllied\t1"
    fields = list(OLDER_INFO)
    if layout == "weather":
        fields += [weather, "0", "None", "1", "Yes" if night else "No", str(nvr)]
    elif layout == "shader":
        fields += ["true" if night else "false"] + ["false"] * 5 + ["0"] * 6
    elif layout != "older":
        raise ValueError(layout)
    return "INFO\t" + join(fields + [notes], "\t")


def stack_command(pid: int, pos, piece_ids, map_name: str = "Main Map") -> str:
    """VASSAL's stack (``Stack.getState``: map, x, y, then its pieces' ids from the bottom up)."""
    return join(["+", str(pid), "stack", join([map_name, pos[0], pos[1], *piece_ids], ";")], "/")


def game_text(boards, pieces, extra: tuple[str, ...] = (), info: str | None = None,
              stacks=()) -> str:
    """The command text: begin_save, the pieces in a nested compound (then ``stacks``: lists
    of pieces, bottom first, each a VASSAL stack), the scenario record (``info``:
    ``info_record``'s; default the older layout), the boards, end_save."""
    ids = {id(p): str(p.pid or 1000 + k) for k, p in enumerate(pieces)}
    commands = [p.command(int(ids[id(p)])) for p in pieces]
    commands += [stack_command(9000 + k, s[0].pos, [ids[id(p)] for p in s])
                 for k, s in enumerate(stacks)]
    compound = ESC + join(commands, ESC)
    cmds = ["begin_save", "", compound, info or info_record(), board_record(boards),
            "GlobalProperty\t;AxisCVP;0;Casualties", *extra, "end_save"]
    return join(cmds, ESC)


def obfuscate(text: bytes | str, key: int = 0x5A, deflated: bool = False) -> bytes:
    data = text.encode("utf-8") if isinstance(text, str) else text
    header = b"!VCSK"
    if deflated:
        data, header = zlib.compress(data), b"!VCSZ"
    return header + f"{key:02x}".encode() + bytes(b ^ key for b in data).hex().encode()


def write_vsav(path: str | Path, boards, pieces, *, deflated: bool = False, key: int = 0x5A,
               raw: bytes | None = None, info: str | None = None, stacks=()) -> Path:
    """A .vsav on ``boards`` holding ``pieces`` (or the ``savedGame`` bytes ``raw``); ``info``:
    its scenario record (``info_record``)."""
    path = Path(path)
    entry = raw if raw is not None else obfuscate(
        game_text(boards, pieces, info=info, stacks=stacks), key, deflated)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("savedGame", entry)
        z.writestr("savedata", "<?xml version=\"1.0\"?><data/>")
        z.writestr("moduledata", "<?xml version=\"1.0\"?><data><name>VASL</name></data>")
    path.write_bytes(buf.getvalue())
    return path
