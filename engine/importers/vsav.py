"""Open a VASL saved game (``.vsav``): its boards and counters become a night position.

VASSAL's encodings are read by ``vassal.py``, the layout and the pieces by ``pieces.py``, what
each counter is by ``piece_kinds.py``, the boards by ``vsav_boards.py``; here the game becomes
a position (``Scenario``, built directly: no JSON on the way), checked whole; nothing is
written here but by ``import_vsav`` (the command's position file) and ``save_boards`` (the
boards a caller asks to keep), each a step the caller takes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..boards import save_board
from ..errors import ScenarioError
from ..file_writes import own_folder
from ..night.checks import check
from ..night.files import BoardSource, build_map, save_scenario, unit_to_json
from ..night.scenario import MapEntry, Marker, Scenario, Unit
from ..overlay_file import overlay_file_name, save_overlay
from ..overlay_paste import left_to_ssr
from .location_counters import fit_levels, outside_entrenchments, with_locations
from .overlays import import_overlay
from .piece_kinds import (
    KIND_WORDS,
    classify,
    counter_name,
    figures_kind,
    marker_keys,
    named_figures,
    nation_of,
    side_of,
    tracked_of,
)
from .pieces import Piece, SavedGame, parse_saved_game
from .scen_info import DEFAULT_NVR, night_settings, read_scen_info
from .sides import Sides
from .vassal import read_saved_game
from .vsav_boards import (
    CACHE_FOLDER,
    PlacedBoard,
    hex_at,
    resolve_boards,
    ssr_not_applied,
)
from .waiting import PIECES_KEY, WAITING_KEY

MAIN_MAPS = ("Main Map", "Map0")
NIGHT_KEY = "vasl_night"        # the position's night as the save's scenario record says it
PHASES = ("RPh", "PFPh", "MPh", "DFPh", "AFPh", "RtPh", "APh", "CCPh")     # SPEC.md "phase"
_TURN_RE = re.compile(r"^(Axis|Allied) Turn (\d{1,3}) - (\w{3,4})$")
# markers that carry the side that fired: Gunflash and fire markers (E1.8), FFE (E1.91)
KEPT_PIECES = ("a support weapon", "a Gun")      # piece_kinds.classify's words for them
SIDED_MARKERS = ("gunflash", "prep_fire", "bounding_fire", "opportunity_fire", "advancing_fire",
                 "first_fire", "final_fire", "intensive_fire", "ffe")


@dataclass
class VsavImport:
    """A saved game read, in memory (nothing written): its boards as placed, the units and
    markers on them, the counters waiting in the margins and the pieces kept (``extra``: the
    ``waiting`` keys), what was skipped and why, and the notes for the player."""
    placed: list[PlacedBoard]
    units: list[Unit]
    markers: list[Marker]
    title: str
    phase: str
    attacker: str
    extra: dict = field(default_factory=dict)       # WAITING_KEY, PIECES_KEY
    skipped: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    overlays: dict = field(default_factory=dict)    # name -> OverlayFile (rules.md 11.3)
    nvr: int = DEFAULT_NVR
    nvr_from: str = "default"       # "save": VASL's scenario record gave it (rules.md 11.5)
    night: bool | None = None       # the record's night (None: not said)
    starshells_used: str = "never"
    turn_from: str = "default"      # "save": phase and attacker read from VASL's turn marker

    @property
    def boards(self) -> list[str]:
        return [p.board.id for p in self.placed]

    def unwritten(self) -> dict:
        """The boards in memory that the position's files will need (map entry -> board)."""
        return {p.ref: p.board for p in self.placed if p.write}

    def scenario(self, folder: str | Path | None = None) -> Scenario:
        """The position, built from the objects read (the boards in memory, none read again)
        and checked whole; ``folder``: where its relative board references start."""
        entries = [MapEntry(p.ref, (p.record.column, p.record.row), p.record.reversed,
                            {"vasl_board": p.record.name}, tuple(p.record.ssr),
                            tuple((o.name, o.hex1, o.hex2) for o in p.record.overlays),
                            p.record.crop)
                   for p in self.placed]      # rules.md 11.1: the record's SSRs, overlays, crop
        where = None if folder is None else str(folder)
        game_map = build_map(entries, BoardSource(where, {p.ref: p.board for p in self.placed},
                                                  self.overlays))
        units = fit_levels([u.replace(hex=game_map.canonical(u.hex)) for u in self.units],
                           game_map, self.notes)    # B23: a level the hex holds
        markers = tuple(m.replace(hex=game_map.canonical(m.hex)) for m in self.markers)
        extra = dict(self.extra) | ({NIGHT_KEY: self.night} if self.night is not None else {})
        return check(Scenario(tuple(entries), game_map, self.title, self.nvr, self.phase,
                              self.attacker, self.starshells_used, (), units, markers, extra,
                              where, night=self.night is not False))   # rules.md 11.5: day

    def summary(self) -> dict:
        return {"boards": self.boards, "units": len(self.units),
                "markers": len(self.markers), "skipped": self.skipped,
                "waiting": [{"id": u["id"], "name": u["name"], "side": u["side"],
                             "type": u["type"], "at": u["at"]}
                            for u in self.extra.get(WAITING_KEY, [])],
                "pieces": list(self.extra.get(PIECES_KEY, [])),
                "notes": self.notes,
                "nvr": self.nvr, "nvr_from": self.nvr_from, "night": self.night,
                "starshells_used": self.starshells_used, "turn_from": self.turn_from,
                "ssr_not_applied": ssr_not_applied(p.record for p in self.placed)}


def convert_game(game: SavedGame, placed: list[PlacedBoard], title: str,
                 sides: Sides | None = None) -> VsavImport:
    """One pass over the pieces, each to a unit, marker, kept piece or a reason.  ``sides``:
    which nationalities play on each side (None: each on its usual side)."""
    side_for = sides.side_of if sides is not None else side_of
    units: list[Unit] = []
    waiting: list[dict] = []                # units in the map's margins, to be placed
    markers: list[Marker] = []
    kept: list[dict] = []                   # support weapons and Guns: on their hex, no viewers
    skipped: list[dict] = []
    notes: list[str] = []
    counts: dict[str, int] = {}
    qmarks: set[tuple[str, str]] = set()        # (hex, side) under a "?" counter
    unsided = 0
    by_figures: list[str] = []              # MMCs named only by their figures ("4-6-7")
    vehicles: list[tuple[str, bool | None, str]] = []   # (name, tracked, how it was read)
    where = _locator(placed)

    for p in game.pieces:
        label = p.name or p.base_name or p.image or p.id
        if p.map not in MAIN_MAPS:
            skipped.append({"piece": label, "why": f"not on the main map (in VASSAL's "
                                                   f"{p.map!r} window)"})
            continue
        kind, what, flags = classify(p)
        nation = nation_of(p)
        if kind is None:
            hex_id = where(p)
            if what.startswith("a concealment counter") and hex_id and side_for(nation):
                qmarks.add((hex_id, side_for(nation)))
            elif what.startswith(KEPT_PIECES):     # on its hex, or waiting in the margin
                kept.append(_kept_piece(p, what, hex_id, side_for(nation)))
            skipped.append({"piece": label, "why": what})
            continue
        hex_id = where(p)
        side = side_for(nation)
        if kind == "unit" and what in ("afv", "vehicle") and side is not None:
            vehicles.append((counter_name(p, what), *tracked_of(p)))
        if hex_id is None:
            waits = kind == "unit" and side is not None       # listed to be placed
            skipped.append({"piece": label, "why": (
                "off the boards, waiting in the map's margin" if waits
                else "off the boards, in the map's margin (not placed)") + f" at ({p.x}, {p.y})"})
            if waits:
                waiting.append(_waiting(_unit(p, what, flags, label, nation, side, "", counts),
                                        p))
            continue
        if kind == "marker":
            markers.append(Marker(what, hex_id, side if what in SIDED_MARKERS else None,
                                  extra={**marker_keys(p, what), "vasl_name": label,
                                         "vasl_id": p.id}))
            continue
        fig, _ = named_figures(p.name)
        if side is None:
            # never a guess: the unit is left out and the report says why
            skipped.append({"piece": label, "why": _unsided_why(what, nation, sides)})
            unsided += 1
            continue
        if fig is not None and "fp" in fig.groupdict():
            by_figures.append(f"{label} ({figures_kind(fig, p.image)[1]})")
        units.append(_unit(p, what, flags, label, nation, side, hex_id, counts))
    units = outside_entrenchments(with_locations(units, game, notes), markers)   # B27
    units = _conceal_under_qmarks(units, qmarks)
    off_board = len(waiting) + sum(1 for k in kept if k.get("hex") is None)    # as listed
    notes += _notes(vehicles, by_figures, unsided, off_board)
    if sides is not None:
        notes.insert(0, f"sides: {sides.said()}, as asked")
    names = sides.names if sides is not None else ("axis", "allied")
    phase, attacker = _turn(game, units, notes, names)
    extra = ({WAITING_KEY: waiting} if waiting else {}) | ({PIECES_KEY: kept} if kept else {})
    result = VsavImport(placed, units, markers, title, phase, attacker, extra, skipped, notes)
    result.turn_from = "save" if game_turn(game.pieces)[1] in names else "default"
    return result


def _locator(placed: list[PlacedBoard]):
    """The hex a piece stands in ("2K5"), or None off the boards (remembered by position)."""
    cover: dict[tuple[int, int], str] = {}

    def where(p: Piece) -> str | None:
        if (p.x, p.y) in cover:
            return cover[(p.x, p.y)]
        for b, closed in [(b, False) for b in placed] + [(b, True) for b in placed]:
            local = b.local(p.x, p.y, closed)
            if local is not None:
                col, row = hex_at(b.geometry, *local, b.board.size)
                name = b.board.id + b.board.name(col, row)     # rules.md 11.6: as VASL names it
                cover[(p.x, p.y)] = name
                return name
        return None
    return where


def _conceal_under_qmarks(units: list[Unit], qmarks: set[tuple[str, str]]) -> list[Unit]:
    """A "?" on a stack conceals its side's units there (A12.1), never a vehicle."""
    return [u.replace(concealed=True) if (u.hex, u.side) in qmarks and not u.is_vehicle else u
            for u in units]


def _waiting(unit: Unit, p: Piece) -> dict:
    """A counter waiting in the map's margin, as the position keeps it (``waiting.py``): the
    unit without a hex, at its map position."""
    out = unit_to_json(unit)
    del out["hex"]
    return out | {"at": [p.x, p.y]}


def _kept_piece(p: Piece, what: str, hex_id: str | None, side: str | None) -> dict:
    """A support weapon or Gun kept on its hex (None: waiting in the margin, at its map
    position): listed, never a viewer (E1: the night rules' viewers are units)."""
    out = {"name": " ".join(p.name.split()) or p.base_name,
           "kind": "gun" if what.startswith("a Gun") else "support_weapon",
           "vasl_id": p.id} | ({"hex": hex_id} if hex_id is not None else {"at": [p.x, p.y]})
    if side is not None:
        out["side"] = side
    return out


def _turn(game: SavedGame, units: list[Unit], notes: list[str], names: tuple[str, str]
          ) -> tuple[str, str]:
    """The phase and the attacker: the turn VASL's marker shows, else PFPh and the first
    unit's side; ``names``: the two sides' names."""
    phase, attacker = game_turn(game.pieces)
    if attacker not in names:
        attacker = None             # the marker's "Axis" is no side of these (Finns vs Germans)
    if attacker is None:
        attacker = units[0].side if units else "allied"
    else:
        notes.append(f"phase {phase}, {attacker} attacking: read from VASL's turn marker")
    return phase, attacker


def game_turn(pieces: list[Piece]) -> tuple[str, str | None]:
    """The phase and the attacker VASL's turn and phase marker shows ("Axis Turn 1 - RPh"),
    else PFPh and None."""
    for p in pieces:
        m = _TURN_RE.match(p.name.strip())
        if m and m.group(3) in PHASES:
            return m.group(3), m.group(1).lower()
    return "PFPh", None


def _unsided_why(what: str, nation: str, sides: Sides | None = None) -> str:
    """Why a unit whose side cannot be told is left out."""
    what_words = KIND_WORDS.get(what, f"a {what.replace('_', ' ')}")
    if sides is not None:
        return (f"{what_words} of nationality {nation or 'unknown'!r}, on neither side of the "
                f"game ({sides.text()})")
    if nation:
        return (f"{what_words} whose side cannot be told: its nationality {nation!r} "
                "is neither Axis nor Allied")
    return (f"{what_words} whose side cannot be told: no nationality in its name, "
            "image or traits")


def _unit(p: Piece, what: str, flags: dict, label: str, nation: str, side: str, hex_id: str,
          counts: dict[str, int]) -> Unit:
    """The position's unit of a counter (its id numbered by nation in ``counts``; ``hex_id``
    "" for one waiting in the margin)."""
    prefix = nation if re.fullmatch(r"[a-z]{1,4}", nation) else side[:2]
    counts[prefix] = counts.get(prefix, 0) + 1
    known = {k: v for k, v in flags.items() if v is not None and (v or k == "bu")}
    if known.get("bu"):
        known.pop("ce", None)
    extra: dict = {"name": counter_name(p, what)}
    extra |= {k: v for k, v in known.items() if k not in ("bu", "ce", "tracked", "motorized")}
    extra |= {"vasl_name": label, "vasl_id": p.id}  # VASSAL's piece id: one counter in every save
    if nation:
        extra["vasl_nation"] = nation
    if p.hidden:
        extra["vasl_hidden"] = True
    # a hidden (HIP) unit is read as concealed: never a Known enemy unit (rules.md 3)
    return Unit(f"{prefix}{counts[prefix]}", side, what, hex_id,
                broken=p.broken and what not in ("afv", "vehicle", "mortar", "observer"),
                concealed=bool(p.concealed or p.hidden), bu=bool(known.get("bu")),
                ce=known.get("ce"), tracked=bool(known.get("tracked")),
                motorized=known.get("motorized"), extra=extra)


def _notes(vehicles: list[tuple[str, bool | None, str]], by_figures: list[str], unsided: int,
           off_board: int) -> list[str]:
    """What the player should check or finish after the import."""
    notes: list[str] = []
    read = sorted({f"{name}: {'tracked' if tracked else 'not tracked'}, {how}"
                   for name, tracked, how in vehicles if tracked is not None})
    if read:
        notes.append("vehicles read as tracked or not from VASL's palette (E1.14; a half-track "
                     "counts as tracked): " + "; ".join(read[:12])
                     + ("; ..." if len(read) > 12 else "") + ": check them in the Edit panel")
    unknown = sorted({name for name, tracked, _ in vehicles if tracked is None})
    if unknown:
        notes.append(f"vehicles the save does not say are tracked or not ({', '.join(unknown[:12])}"
                     + (", ..." if len(unknown) > 12 else "") + "): set it in the Edit panel "
                     "(E1.14: a moving tracked vehicle is seen farther)")
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
    return notes


def read_vsav(path: str | Path, boards_dir: str | Path | None = None,
              blank_missing: bool = False, cache_dir: str | Path | None = None,
              sides: Sides | None = None) -> VsavImport:
    """Read a .vsav and convert it (nothing written); boards imported earlier into
    ``cache_dir`` from the same archives are taken from there; ``sides``: the nationalities
    of each side (None: their usual sides).  ScenarioError naming the file."""
    path = Path(path)
    text = read_saved_game(path)
    try:
        game = parse_saved_game(text)
    except ScenarioError as e:
        raise e.at(file=str(path)) from None
    placed, notes = resolve_boards(game, boards_dir, blank_missing, str(path), cache_dir)
    result = convert_game(game, placed, f"{path.stem} (VASL saved game)", sides)
    night = night_settings(read_scen_info(text), (m.type for m in result.markers))
    result.nvr, result.nvr_from, result.night = night.nvr, night.nvr_from, night.night
    result.starshells_used = night.starshells_used
    result.notes[:0] = notes + list(night.notes)
    if boards_dir is not None:
        _read_overlays(result, Path(boards_dir))
    return result


def _read_overlays(result: VsavImport, boards_dir: Path) -> None:
    """Each overlay of the boards' records read from the boards folder's ``overlays/`` archives
    (rules.md 11.3), with how much of it was read; one that cannot be read is named and left
    out; those an SSR applies are named as such."""
    for p in result.placed:
        for o in p.record.overlays:
            if o.name in result.overlays:
                continue
            if left_to_ssr(o.name):
                result.notes.append(f"overlay {o.name}: applied by its SSR, not pasted (rules.md 11.3)")
                continue
            try:
                overlay, report = import_overlay(boards_dir, o.name)
            except ScenarioError as e:
                result.notes.append(f"overlay {o.name} on board {p.record.name} not laid: {e}")
                continue
            result.overlays[o.name] = overlay
            result.notes.extend(report.lines())


def vsav_scenario(path: str | Path, boards_dir: str | Path | None = None,
                  blank_missing: bool = False, sides: Sides | None = None):
    """Opening a save in the app: ``read_vsav``, then ``save_boards`` into the cache folder
    beside the save (``CACHE_FOLDER``: board file, raster and picture, as ``import-vasl``
    writes them) so that a second open is quick, then the position anchored at the save's
    folder; returns it and the import's summary.  Where that folder cannot be written, and
    for blank stand-ins, the boards stay in memory (their map entries name files that do not
    exist yet: saving the position saves them)."""
    folder = Path(path).resolve().parent
    cache = folder / CACHE_FOLDER
    result = read_vsav(path, boards_dir, blank_missing, cache, sides)
    save_boards(result, cache, imported_only=True)
    return _scenario(result, folder, path), result.summary()


def _scenario(result: VsavImport, folder: Path, path: str | Path) -> Scenario:
    try:
        return result.scenario(folder)
    except ScenarioError as e:
        raise e.at(file=str(path)) from None


def save_boards(result: VsavImport, folder: Path, imported_only: bool = False) -> list[str]:
    """Write the boards read in memory into ``folder`` (board file, raster, picture), each then
    named by its file in the position; returns the files written.  ``imported_only``: only the
    boards imported from VASL archives, best effort (a folder that cannot be written keeps
    them in memory: the cache beside a save); else every board to write, an error raised."""
    written = []
    for p in result.placed:
        if not p.write or (imported_only and p.source != "dir"):
            continue
        target = folder / p.ref
        try:
            if imported_only:
                own_folder(folder)      # the cache: a link there sends no board elsewhere
            board = save_board(p.board, target)
        except (OSError, ScenarioError):
            if imported_only:
                continue                # a folder that cannot be written: kept in memory
            raise
        p.board, p.ref, p.write = board, str(target), False
        written.append(str(target))
    for name, overlay in result.overlays.items():     # beside the boards (rules.md 11.3)
        target = folder / overlay_file_name(name)
        try:
            save_overlay(overlay, target)
        except (OSError, ScenarioError):
            if imported_only:
                continue
            raise
        written.append(str(target))
    return written


def import_vsav(path: str | Path, output: str | Path, boards_dir: str | Path | None = None,
                blank_missing: bool = False, sides: Sides | None = None) -> dict:
    """Write the position file ``output`` (and the board files it needs beside it) from a saved
    game; returns the summary.  Nothing is written when the game is refused."""
    out = Path(output)
    if out.suffix != ".json":
        raise ScenarioError("the position file name must end in .json", file=str(output),
                            place="-o")
    folder = out.resolve().parent
    result = read_vsav(path, boards_dir, blank_missing, folder, sides)
    _scenario(result, folder, path)                    # the whole check first
    written = save_boards(result, folder)
    save_scenario(_scenario(result, folder, path), out)
    summary = result.summary()
    summary["file"] = str(out)
    summary["board_files"] = written
    return summary


__all__ = ["read_vsav", "vsav_scenario", "save_boards", "import_vsav", "VsavImport", "convert_game"]
