"""Opening a VASL saved game (.vsav): synthetic saves written in VASSAL's format
(tests/vsav_synth.py), with counters on known hex centres, read back as a night position;
hostile files refused with one line naming the file."""
from __future__ import annotations

import io
import json
import zipfile
import zlib

import pytest
import vasl_synth
import vsav_synth as vs

from engine.cli import main
from engine.errors import ScenarioError
from engine.importers import pieces, vassal, vsav
from engine.night.files import load_scenario, save_scenario, scenario_to_json

BOARDS_2_34 = [(0, 0, "02"), (1, 0, "34")]


def position(result) -> dict:
    """The position read, as its file says it (SPEC.md): built from the objects, written."""
    return scenario_to_json(result.scenario())


def units_by_name(data) -> dict[str, dict]:
    return {u["vasl_name"]: u for u in data["units"]}


def load_position(result):
    return result.scenario()


# ------------------------------------------------------------------------ the encodings
def test_sequence_encoder_round_trip():
    """Delimiters inside values are escaped by a backslash, a value ending in a backslash is
    quoted: decoding gives the values back."""
    values = ["plain", "a;b", "ends\\", "'quoted'", "", "x;y;z"]
    assert vassal.split_escaped(vs.join(values, ";"), ";") == values


def test_nested_traits_decode_to_their_chain():
    piece = vs.squad("4-6-7 1sq", (500, 500))
    cmd = piece.command(7)
    types = vassal.trait_chain(vassal.split_escaped(cmd, "/")[2])
    assert types[0] == "mark;DBCounterType"
    assert types[-1].startswith("piece;K;D;")
    assert len(types) == len(piece.traits()) + 1


@pytest.mark.parametrize("deflated", [False, True])
def test_obfuscated_text_decodes(deflated):
    text = vs.game_text(BOARDS_2_34, [vs.squad("4-6-7 1sq", vs.hex_pixel("K5"))])
    raw = vs.obfuscate(text, key=0xC3, deflated=deflated)
    assert raw.startswith(b"!VCSZ" if deflated else b"!VCSK")
    assert vassal.decode_saved_game(raw) == text


# ------------------------------------------------------------------------ boards and hexes
def test_units_stand_on_the_hexes_of_their_centres(tmp_path):
    """Counters put on known hex centres of two boards side by side (2 west of 34), and one
    off-centre within its hex, each land on their hex."""
    pieces = [
        vs.squad("4-6-7 1sq", vs.hex_pixel("K5")),
        vs.squad("4-4-7 1sq", vs.hex_pixel("C3", (1, 0)), nation="ru"),
        vs.leader("9-2", vs.hex_pixel("P7")),
        vs.squad("5-2-7 1sq", vs.hex_pixel("Y2", (1, 0), dx=18, dy=-22), nation="ru"),
        vs.squad("8-3-8 Esq", vs.hex_pixel("B0")),
        vs.squad("6-2-8 Esq", vs.hex_pixel("GG10", (1, 0)), nation="ru"),
    ]
    path = vs.write_vsav(tmp_path / "g.vsav", BOARDS_2_34, pieces)
    r = vsav.read_vsav(path)
    assert r.boards == ["2", "34"]
    assert [(e["board"], e["at"]) for e in position(r)["map"]] == [("2", [0, 0]), ("34", [1, 0])]
    got = {n: u["hex"] for n, u in units_by_name(position(r)).items()}
    assert got == {"4-6-7 1sq": "2K5", "4-4-7 1sq": "34C3", "9-2": "2P7", "5-2-7 1sq": "34Y2",
                   "8-3-8 Esq": "2B0", "6-2-8 Esq": "34GG10"}
    assert r.skipped == []


def test_board_edge_hex_is_the_shared_hex(tmp_path):
    """GG5 of the west board and A5 of the east board are one hex on the joined map."""
    path = vs.write_vsav(tmp_path / "g.vsav", BOARDS_2_34,
                         [vs.leader("8-0", vs.hex_pixel("GG5"))])
    r = vsav.read_vsav(path)
    s = load_position(r)
    assert s.map.canonical(position(r)["units"][0]["hex"]) == s.map.canonical("2GG5")


def test_stacked_boards_and_a_turned_board(tmp_path):
    """Board 2 above board 34 turned half round ("r34"): a counter drawn on 34's own hex C3
    (mirrored in the map) stands on 34C3, and the map entry is rotated."""
    boards = [(0, 0, "02"), (0, 1, "r34")]
    pieces = [vs.squad("4-6-7 1sq", vs.hex_pixel("C3", (0, 1), rotated=True)),
              vs.squad("4-4-7 1sq", vs.hex_pixel("X9", (0, 0)), nation="ru")]
    r = vsav.read_vsav(vs.write_vsav(tmp_path / "g.vsav", boards, pieces))
    assert position(r)["map"][1]["rotated"] is True and position(r)["map"][1]["at"] == [0, 1]
    got = {n: u["hex"] for n, u in units_by_name(position(r)).items()}
    assert got == {"4-6-7 1sq": "34C3", "4-4-7 1sq": "2X9"}
    s = load_position(r)
    assert s.unit("ge1").hex == "34C3"


def test_cropped_board_counts_from_its_crop(tmp_path):
    """A board cropped to start at column F (x = 5 x 56.25 - 28) is drawn from there: a
    counter at the map's first pixels of that board stands in F."""
    crop = (253, 0, 1547, 645)
    boards = [(0, 0, "02", "6.1", crop)]
    x, y = vs.hex_pixel("K5")
    pieces = [vs.squad("4-6-7 1sq", (x - crop[0], y))]
    r = vsav.read_vsav(vs.write_vsav(tmp_path / "g.vsav", boards, pieces))
    assert position(r)["units"][0]["hex"] == "2K5"
    assert any("cropped" in n for n in r.notes)


# ------------------------------------------------------------------------ what the pieces are
def test_unit_kinds_sides_and_states(tmp_path):
    pieces = [
        vs.squad("4-6-7 1sq", vs.hex_pixel("K5"), broken=True),
        vs.squad("2-4-7 1hs", vs.hex_pixel("K6")),
        vs.plain("2-2-8 Icr", "ge/ge228C", vs.hex_pixel("K7"), nation="ge"),
        vs.leader("10-3", vs.hex_pixel("K8"), concealed=True),
        vs.plain("9-1 AL", "ge/geal91", vs.hex_pixel("K9"), nation="ge"),
        vs.plain("Hero", "ru/ruHero", vs.hex_pixel("L5"), nation="ru"),
        vs.tank("PzKw IVH", vs.hex_pixel("M5"), bu=True),
        vs.tank("SPW 251/1", vs.hex_pixel("M6"), bu=False),
        vs.truck("ZIS-5", vs.hex_pixel("M7")),
        vs.plain("81* MTR GrW 34 ca3", " ", vs.hex_pixel("N5"), counter_type="common",
                 nation="ge"),
        vs.plain("Radio", "ge/geradio", vs.hex_pixel("N6"), counter_type="common"),
        vs.squad("4-4-7 1sq", vs.hex_pixel("P5"), nation="ru", hidden=True),
    ]
    r = vsav.read_vsav(vs.write_vsav(tmp_path / "g.vsav", BOARDS_2_34, pieces))
    u = units_by_name(position(r))
    kinds = {n: (x["type"], x["side"]) for n, x in u.items()}
    assert kinds == {
        "broken 4-6-7 1sq": ("squad", "axis"), "2-4-7 1hs": ("half_squad", "axis"),
        "2-2-8 Icr": ("crew", "axis"), "10-3": ("leader", "axis"),
        "9-1 AL": ("armor_leader", "axis"), "Hero": ("hero", "allied"),
        "PzKw IVH vca3 BU": ("afv", "axis"), "SPW 251/1 vca3 CE": ("afv", "axis"),
        "ZIS-5 vca3": ("vehicle", "allied"), "81* MTR GrW 34 ca3": ("mortar", "axis"),
        "Radio": ("observer", "axis"), "4-4-7 1sq": ("squad", "allied")}
    assert u["broken 4-6-7 1sq"].get("broken") is True
    assert "broken" not in u["2-4-7 1hs"]
    assert u["10-3"].get("concealed") is True
    assert u["PzKw IVH vca3 BU"].get("bu") is True and "ce" not in u["PzKw IVH vca3 BU"]
    assert u["SPW 251/1 vca3 CE"].get("ce") is True and not u["SPW 251/1 vca3 CE"].get("bu")
    assert u["4-4-7 1sq"].get("concealed") is True and u["4-4-7 1sq"]["vasl_hidden"] is True
    s = load_position(r)            # the engine takes every state as a legal position
    assert len(s.units) == 12 and set(s.sides) == {"axis", "allied"}


def test_question_mark_conceals_the_stack_beneath(tmp_path):
    """A "?" counter on a stack conceals that side's units in the hex, not the enemy's."""
    at = vs.hex_pixel("K5")
    pieces = [vs.squad("4-6-7 1sq", at), vs.leader("8-1", at),
              vs.plain("?", "ge/geqmark", at, counter_type="common", nation="ge"),
              vs.squad("4-4-7 1sq", vs.hex_pixel("K5"), nation="ru"),
              vs.squad("8-3-8 Esq", vs.hex_pixel("K6"))]
    r = vsav.read_vsav(vs.write_vsav(tmp_path / "g.vsav", BOARDS_2_34, pieces))
    u = units_by_name(position(r))
    assert u["4-6-7 1sq"].get("concealed") and u["8-1"].get("concealed")
    assert not u["4-4-7 1sq"].get("concealed") and not u["8-3-8 Esq"].get("concealed")
    assert r.skipped == [{"piece": "?", "why": "a concealment counter (the units under it are "
                                                "marked concealed)"}]


def test_light_and_fire_markers(tmp_path):
    names = {"Starshell": "starshell", "IR": "ir", "Blaze": "blaze", "Flame": "flame",
             "Prep Fire": "prep_fire", "First Fire": "first_fire", "Final Fire": "final_fire"}
    pieces = [vs.marker(n, f"ML/{n.replace(' ', '')}", vs.hex_pixel(f"K{k + 1}"))
              for k, n in enumerate(names)]
    r = vsav.read_vsav(vs.write_vsav(tmp_path / "g.vsav", BOARDS_2_34, pieces))
    got = {m["vasl_name"]: (m["type"], m["hex"]) for m in position(r)["markers"]}
    assert got == {n: (t, f"2K{k + 1}") for k, (n, t) in enumerate(names.items())}
    assert position(r)["units"] == [] and r.skipped == []


def test_everything_else_is_skipped_with_its_reason(tmp_path):
    pieces = [
        vs.plain("User-Labeled", "DO/LabelMe", vs.hex_pixel("K5"), counter_type="global"),
        vs.plain("10-Turn Track", "tables/turn_track10", (100, 100), counter_type="global"),
        vs.plain("LMG", "ge/geLMG", vs.hex_pixel("K5"), counter_type="common"),
        vs.plain("75L AT PaK 40 ca3", " ", vs.hex_pixel("K6"), counter_type="common",
                 nation="ge"),
        vs.squad("4-6-7 1sq", (150, 2000)),                     # in the map's margin
        vs.squad("4-4-7 1sq", (30, 40), nation="ru", map="Casualties"),
        vs.plain("4-5-8 1sq", "xx/xx458S", vs.hex_pixel("K7")),   # unknown nationality
    ]
    r = vsav.read_vsav(vs.write_vsav(tmp_path / "g.vsav", BOARDS_2_34, pieces))
    assert position(r)["units"] == [] and position(r)["markers"] == []
    assert [s["piece"] for s in r.skipped] == [
        "User-Labeled", "10-Turn Track", "LMG", "75L AT PaK 40 ca3", "4-6-7 1sq", "4-4-7 1sq",
        "4-5-8 1sq"]
    why = [s["why"] for s in r.skipped]
    assert why[0] == why[1] == "a label, track or game marker"
    assert "support weapon" in why[2] and "Gun" in why[3]
    assert why[4] == "off the boards, waiting in the map's margin at (150, 2000)"
    assert "'Casualties'" in why[5] and "'xx'" in why[6]


def test_set_up_in_the_margins_opens_with_every_counter_waiting(tmp_path):
    """Like a scenario set-up (Hill 621): three boards stacked (2, 34 and 1) and every counter
    in the 400-pixel margin around them: the position opens with its boards and no unit, and
    lists each counter as waiting off the boards."""
    boards = [(0, 0, "02"), (0, 1, "34"), (0, 2, "01")]
    margin = [(60, 300), (2300, 900), (900, 2390), (399, 1200), (2215, 1300)]
    pieces = [vs.squad("4-6-7 1sq", p) for p in margin]
    r = vsav.read_vsav(vs.write_vsav(tmp_path / "g.vsav", boards, pieces))
    assert r.boards == ["2", "34", "1"]
    assert [e["at"] for e in position(r)["map"]] == [[0, 0], [0, 1], [0, 2]]
    assert position(r)["units"] == []
    assert [s["why"] for s in r.skipped] == [
        f"off the boards, waiting in the map's margin at ({x}, {y})" for x, y in margin]


def test_vasl_name_survives_save_and_load(tmp_path):
    path = vs.write_vsav(tmp_path / "g.vsav", BOARDS_2_34,
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5"))])
    out = tmp_path / "pos.json"
    vsav.import_vsav(path, out)
    s = load_scenario(out)
    assert s.units[0].extra["vasl_name"] == "4-6-7 1sq"
    save_scenario(s, tmp_path / "again.json")
    again = json.loads((tmp_path / "again.json").read_text())
    assert again["units"][0]["vasl_name"] == "4-6-7 1sq"


# ------------------------------------------------------------------------ boards from DIR
def test_missing_boards_are_refused_with_their_list(tmp_path):
    path = vs.write_vsav(tmp_path / "g.vsav", [(0, 0, "02"), (0, 1, "04"), (0, 2, "03")], [])
    with pytest.raises(ScenarioError) as e:
        vsav.read_vsav(path)
    assert str(e.value).startswith(f"{path}: missing board(s) 04, 03:")
    assert "\n" not in str(e.value)


def test_blank_boards_stand_in_for_missing_ones(tmp_path):
    path = vs.write_vsav(tmp_path / "g.vsav", [(0, 0, "02"), (0, 1, "04")],
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5", (0, 1)))])
    out = tmp_path / "out" / "pos.json"
    out.parent.mkdir()
    summary = vsav.import_vsav(path, out, blank_missing=True)
    assert summary["boards"] == ["2", "4"] and summary["units"] == 1
    assert any("blank open board" in n for n in summary["notes"])
    s = load_scenario(out)
    assert s.unit("ge1").hex == "4K5"
    assert (out.parent / "bd04-blank.json").is_file()
    assert s.map.terrain_name(s.map.index("4K5")) == "open"


def test_boards_folder_with_a_board_file_and_a_vasl_archive(tmp_path):
    """--boards DIR: board 05 as a VASL board archive (imported on the fly: woods in K5) and
    board 02 as a board file; the position names the imported board's new file."""
    folder = tmp_path / "boards"
    folder.mkdir()
    b = vasl_synth.SynthBoard("05")
    b.area("K5", vasl_synth.WOODS, "woods")
    b.write(folder / "bd05")
    from engine.boards import bundled_board, save_board
    save_board(bundled_board("2"), folder / "bd02.json")
    path = vs.write_vsav(tmp_path / "g.vsav", [(0, 0, "02"), (1, 0, "05")],
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5", (1, 0)))])
    out = tmp_path / "pos.json"
    summary = vsav.import_vsav(path, out, boards_dir=folder)
    data = json.loads(out.read_text())
    assert [e["board"] for e in data["map"]] == ["boards/bd02.json", "bd05.json"]
    assert summary["board_files"] == [str(tmp_path / "bd05.json")]
    s = load_scenario(out)
    assert s.unit("ge1").hex == "5K5"
    assert s.map.terrain_name(s.map.index("5K5")) == "woods"


# ------------------------------------------------------------------------ hostile files
def _zip(entries: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buf.getvalue()


def _refused(path, *words):
    with pytest.raises(ScenarioError) as e:
        vsav.read_vsav(path)
    msg = str(e.value)
    assert msg.startswith(str(path)) and "\n" not in msg
    for w in words:
        assert w in msg, msg
    return msg


def test_not_a_zip(tmp_path):
    p = tmp_path / "g.vsav"
    p.write_bytes(b"!VCSK00" + b"41" * 10)
    _refused(p, "not a ZIP")


def test_truncated_file(tmp_path):
    good = vs.write_vsav(tmp_path / "good.vsav", BOARDS_2_34,
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5"))]).read_bytes()
    p = tmp_path / "g.vsav"
    p.write_bytes(good[: len(good) // 2])
    _refused(p, "not a ZIP")


def test_truncated_text(tmp_path):
    raw = vs.obfuscate(vs.game_text(BOARDS_2_34, []))
    p = tmp_path / "g.vsav"
    p.write_bytes(_zip({"savedGame": raw[:-1]}))      # an odd number of hex digits
    _refused(p, "savedGame", "hex digits")


def test_bad_key(tmp_path):
    p = tmp_path / "g.vsav"
    p.write_bytes(_zip({"savedGame": b"!VCSKzz" + b"41" * 8}))
    _refused(p, "savedGame", "hex digits")


def test_not_a_saved_game(tmp_path):
    p = tmp_path / "g.vsav"
    p.write_bytes(_zip({"savedGame": b"PK whatever"}))
    _refused(p, "not a VASSAL saved game")
    p.write_bytes(_zip({"other": b"!VCSK00"}))
    _refused(p, "no savedGame entry")


def test_no_boards(tmp_path):
    text = vs.join(["begin_save", "", "end_save"], vs.ESC)
    p = tmp_path / "g.vsav"
    p.write_bytes(_zip({"savedGame": vs.obfuscate(text)}))
    _refused(p, "no boards")


def test_zip_bomb_entry_is_refused_before_inflating(tmp_path, monkeypatch):
    """An entry that inflates past the cap is refused from its declared size, and one that
    lies about its size stops at the cap."""
    monkeypatch.setattr(vassal, "MAX_ENTRY_BYTES", 100_000)
    p = tmp_path / "g.vsav"
    p.write_bytes(_zip({"savedGame": b"!VCSK00" + b"0" * 1_000_000}))
    _refused(p, "too large")
    raw = bytearray(p.read_bytes())
    # the central directory's and the local header's uncompressed size say 10 bytes
    for sig, off in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        k = raw.find(sig)
        raw[k + off:k + off + 4] = (10).to_bytes(4, "little")
    p.write_bytes(bytes(raw))
    _refused(p, "savedGame")


def test_deflated_bomb_is_refused(tmp_path, monkeypatch):
    """!VCSZ text that inflates beyond the cap stops at the cap."""
    monkeypatch.setattr(vassal, "MAX_TEXT_BYTES", 50_000)
    data = zlib.compress(b"x" * 5_000_000, 9)
    raw = b"!VCSZ00" + data.hex().encode()
    p = tmp_path / "g.vsav"
    p.write_bytes(_zip({"savedGame": raw}))
    _refused(p, "inflates to more than 50000 bytes")


def test_huge_file_is_refused_unread(tmp_path):
    """A file one byte over the limit (sparse: nothing is written) is refused from its size; read,
    it would be "not a ZIP"."""
    p = tmp_path / "g.vsav"
    with open(p, "wb") as f:
        f.truncate(vassal.MAX_FILE_BYTES + 1)
    _refused(p, "too large")


def test_damaged_piece_is_named(tmp_path):
    piece = vs.join(["+", "12", "piece;K;D;ge/x;x", "Main Map;abc;3"], "/")
    text = vs.join(["begin_save", piece, vs.board_record(BOARDS_2_34), "end_save"], vs.ESC)
    p = tmp_path / "g.vsav"
    p.write_bytes(_zip({"savedGame": vs.obfuscate(text)}))
    _refused(p, "command 2", "'abc' is not a whole number")


# ------------------------------------------------------------------------ command line
def test_cli_import_vsav_json(tmp_path, capsys):
    path = vs.write_vsav(tmp_path / "g.vsav", BOARDS_2_34,
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5")),
                          vs.marker("Starshell", "ML/ss", vs.hex_pixel("K6")),
                          vs.plain("LMG", "ge/geLMG", vs.hex_pixel("K5"), counter_type="common")])
    out = tmp_path / "pos.json"
    assert main(["import-vsav", str(path), "-o", str(out), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["boards"] == ["2", "34"]
    assert printed["units"] == 1 and printed["markers"] == 1
    assert printed["skipped"] == [{"piece": "LMG", "why": "a support weapon or fortification "
                                                         "(not a unit of the night rules)"}]
    assert main(["check", str(out), "--json"]) == 0


def test_cli_refuses_with_one_error_line_and_writes_nothing(tmp_path, capsys):
    path = vs.write_vsav(tmp_path / "g.vsav", [(0, 0, "07")], [])
    out = tmp_path / "pos.json"
    assert main(["import-vsav", str(path), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: {path}: missing board(s) 07")
    assert not out.exists()
    assert main(["import-vsav", str(path), "-o", str(out), "--boards", str(tmp_path / "no")]) == 2
    assert "--boards" in capsys.readouterr().err


def test_pieces_too_deep_or_too_long_are_refused(tmp_path, monkeypatch):
    """Bounds on one piece: its number of traits and its length (VASL's have about 50 traits
    and a few thousand characters)."""
    deep = vs.SynthPiece("x", "ge/x", (500, 500),
                         layers=[vs.Layer(["a"], ["b"], 1) for _ in range(vassal.MAX_TRAITS)])
    p = vs.write_vsav(tmp_path / "deep.vsav", BOARDS_2_34, [deep])
    _refused(p, "command 2", f"more than {vassal.MAX_TRAITS} traits")
    monkeypatch.setattr(pieces, "MAX_PIECE_CHARS", 300)
    p = vs.write_vsav(tmp_path / "long.vsav", BOARDS_2_34, [vs.squad("4-6-7 1sq", (500, 500))])
    _refused(p, "command 2", "the limit is 300")


# ------------------------------------------------------------ counters named by their figures
def test_counters_named_only_by_their_figures_are_read_by_them(tmp_path):
    """Many real saves name a squad only "4-6-7", sometimes with a nationality before or after
    it: such counters are squads, half squads, crews or leaders by VASL's image letter
    (ge467S: a squad) or their figures (A1.2: firepower 3 or less is a half squad, 4 or more a
    squad; 2-2-8 a crew), on the side of their traits, image folder or name."""
    pieces = [
        vs.figures("4-6-7", vs.hex_pixel("K5"), image="ge/ge467S"),
        vs.figures("6-4-8", vs.hex_pixel("K6"), nation="br"),          # a conceal trait
        vs.figures("ge 5-4-8", vs.hex_pixel("K7")),
        vs.figures("German 2-4-7", vs.hex_pixel("K8")),
        vs.figures("3-4-7 (am)", vs.hex_pixel("K9")),
        vs.figures("2-2-8", vs.hex_pixel("L5"), image="ru/ru228C"),
        vs.figures("3-4-7", vs.hex_pixel("L6"), image="it/it347S"),    # the image says squad
        vs.figures("ru 9-2", vs.hex_pixel("L7")),
        vs.figures("10-2 Ger", vs.hex_pixel("L8")),
        vs.figures("4-4-7", vs.hex_pixel("L9"), image="ru447S.png", broken=True),  # no folder
    ]
    r = vsav.read_vsav(vs.write_vsav(tmp_path / "g.vsav", BOARDS_2_34, pieces))
    assert r.skipped == []
    got = {n: (u["type"], u["side"], u["hex"]) for n, u in units_by_name(position(r)).items()}
    assert got == {
        "4-6-7": ("squad", "axis", "2K5"), "6-4-8": ("squad", "allied", "2K6"),
        "ge 5-4-8": ("squad", "axis", "2K7"), "German 2-4-7": ("half_squad", "axis", "2K8"),
        "3-4-7 (am)": ("half_squad", "allied", "2K9"), "2-2-8": ("crew", "allied", "2L5"),
        "3-4-7": ("squad", "axis", "2L6"), "ru 9-2": ("leader", "allied", "2L7"),
        "10-2 Ger": ("leader", "axis", "2L8"), "broken 4-4-7": ("squad", "allied", "2L9")}
    u = units_by_name(position(r))
    assert u["broken 4-4-7"].get("broken") is True
    assert u["ge 5-4-8"]["vasl_nation"] == "ge" and u["3-4-7 (am)"]["id"] == "am1"
    note = next(n for n in r.notes if "named only by their figures" in n)
    assert note.startswith("8 counter(s)")                       # the MMCs, not the leaders
    assert "4-6-7 (its image 'ge467S')" in note
    assert "German 2-4-7 (its figures (firepower 2: a half squad))" in note
    s = load_position(r)
    assert len(s.units) == 10


def test_a_figures_counter_whose_side_cannot_be_told_is_reported_not_guessed(tmp_path):
    """A "4-6-7" with no nationality in its name, image or traits is left out, and the import
    says so (skipped, with why, and a note); a word that is not a nationality makes the name no
    figures name at all."""
    pieces = [vs.figures("4-6-7", vs.hex_pixel("K5")),
              vs.figures("2-4-7", vs.hex_pixel("K6"), image="4-6-7.png"),
              vs.figures("4-5-8", vs.hex_pixel("K7"), nation="xx"),
              vs.figures("xx 4-6-7", vs.hex_pixel("L6"), image="ge/ge467S"),
              vs.figures("4-6-7 Lorem", vs.hex_pixel("K8"), image="ge/geX"),  # not a nation
              vs.figures("8-1", vs.hex_pixel("K9")),
              vs.figures("ge 4-6-7", vs.hex_pixel("L5"))]
    r = vsav.read_vsav(vs.write_vsav(tmp_path / "g.vsav", BOARDS_2_34, pieces))
    assert [u["vasl_name"] for u in position(r)["units"]] == ["ge 4-6-7"]
    why = {s["piece"]: s["why"] for s in r.skipped}
    assert why == {
        "4-6-7": "a squad whose side cannot be told: no nationality in its name, image or "
                 "traits",
        "2-4-7": "a half-squad whose side cannot be told: no nationality in its name, image or "
                 "traits",
        "4-5-8": "a squad whose side cannot be told: its nationality 'xx' is neither Axis "
                 "nor Allied",
        "xx 4-6-7": "not a unit or marker of the night rules",
        "4-6-7 Lorem": "not a unit or marker of the night rules",
        "8-1": "a leader whose side cannot be told: no nationality in its name, image or "
               "traits"}
    assert any(n.startswith("4 unit(s) left out: their side cannot be told") for n in r.notes)


def test_cli_import_vsav_reports_figures_and_unknown_sides(tmp_path, capsys):
    """The import command's report says which counters were read by their figures and which
    were left out for want of a side."""
    path = vs.write_vsav(tmp_path / "g.vsav", BOARDS_2_34,
                         [vs.figures("4-6-7", vs.hex_pixel("K5"), image="ge/ge467S"),
                          vs.figures("4-4-7", vs.hex_pixel("K6"))])
    out = tmp_path / "pos.json"
    assert main(["import-vsav", str(path), "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "units: 1" in text
    assert "1 x a squad whose side cannot be told" in text
    assert "read as squad, half squad or crew by 4-6-7 (its image 'ge467S')" in text
    assert "1 unit(s) left out: their side cannot be told" in text
    assert main(["check", str(out), "--json"]) == 0
