"""Importing VASL boards: synthetic board files in VASL's format (tests/vasl_synth.py),
read back and compared hex by hex with what the generator drew; damaged files refused cleanly."""
from __future__ import annotations

import gzip
import json
import math
import struct
from pathlib import Path

import numpy as np
import pytest
import vasl_synth as synth
from support import refused, run_engine

import engine
from engine.boards import board_to_json, load_board, save_board
from engine.cli import main
from engine.errors import ScenarioError
from engine.hexes import board_hexes
from engine.importers import grid, losdata, vasl

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def drawn():
    return synth.standard_board("99")


@pytest.fixture(scope="module")
def payload(drawn):
    return drawn.payload()


@pytest.fixture(scope="module")
def board_file(drawn, tmp_path_factory):
    return drawn.write(tmp_path_factory.mktemp("vasl") / "bd99")


@pytest.fixture(scope="module")
def imported(board_file):
    return vasl.import_board(board_file)


# ------------------------------------------------------------------------------ the format
def test_java_framing_is_what_java_writes(payload):
    stream = synth.java_block_stream(payload)
    blocks = math.ceil(len(payload) / 1024)
    assert stream[:4] == b"\xac\xed\x00\x05"
    assert len(stream) == 4 + len(payload) + 5 * blocks          # every block 0x7A here
    assert stream[4] == 0x7A and struct.unpack(">i", stream[5:9])[0] == 1024
    assert len(payload) == 2 * 1800 * 645 + 16 + 346               # header, grid, stairways
    short = synth.java_block_stream(b"x" * 1030)                     # last block of 6 bytes
    assert short[4 + 5 + 1024] == 0x77 and short[4 + 5 + 1024 + 1] == 6
    assert losdata.block_data(stream) == payload
    assert losdata.block_data(synth.java_block_stream(payload, block=200)) == payload  # all 0x77


def test_geometry_matches_vasl():
    assert synth.centre("A1") == (0.0, 32.25)
    assert synth.centre("B0") == (56.25, 0.0)
    cols = np.array([0, 1, 32])
    rows = np.array([1, 0, 10])
    x, y = grid.GEO.centres(cols, rows)
    assert list(x) == [0.0, 56.25, 1800.0] and list(y) == [32.25, 0.0, 612.75]
    c, n = grid.hex_of_pixels(grid.GEO, np.array([3.0, 60.0, 1799.0, 300.0]),
                              np.array([30.0, 5.0, 640.0, 322.0]))
    assert list(zip(c.tolist(), n.tolist())) == [(0, 1), (1, 0), (32, 10), (5, 5)]


# ------------------------------------------------------------------------- the conversion
def test_synthetic_board_imports_hex_by_hex(drawn, imported):
    board, _ = imported
    assert board.id == "99" and board.title == "VASL board 99 (version 1.0)"
    wrong = {f"{c},{n}": (board.at(c, n), drawn.expected_at(c, n))
             for c, n in board_hexes() if board.at(c, n) != drawn.expected_at(c, n)}
    assert wrong == {}
    # the drawing holds every terrain the import must convert: woods, buildings, jungle, bamboo,
    # grain, and levels from a depression to a level-2 hill
    kinds = {t.terrain for t in drawn.expected.values()}
    assert {"woods", "building", "dense_jungle", "light_jungle", "bamboo", "grain"} <= kinds
    assert {t.level for t in drawn.expected.values()} >= {-1, 1, 2}


def test_buildings_levels_and_groups(imported):
    board, _ = imported
    at = lambda h: board.at(*engine.hexes.parse_local(h))   # noqa: E731
    assert [at(h).building for h in ("E4", "E5", "F5")] == ["E4"] * 3
    assert at("E4").upper_levels == 1                   # "Wooden Building, 1 Level"
    assert (at("T6").building, at("T7").building, at("T7").upper_levels) == ("T6", "T6", 2)
    assert (at("E2").terrain, at("E2").upper_levels, at("E2").building) == ("building", 0, None)
    assert at("V3").upper_levels == 2 and at("Y9").upper_levels == 3
    assert at("H5").building is None and at("H6").building is None       # not touching
    assert at("Q5").building is None and at("Q6").building is None       # a rowhouse wall


def test_report_names_what_is_not_imported(imported):
    board, report = imported
    text = "\n".join(report)
    for words in ("1 hexside of wall imported (99I6/1)", "1 hexside of hedge imported (99J8/1)",
                  "1 hexside of rowhouse wall imported (99Q6/1)", "'Palm Trees' (code 129) "
                  "imported as 'orchard'", "'Shellholes' (code 15)"):
        assert words in text
    assert "not imported" not in text.replace("fortifications are not imported", "")
    assert board.extra["import_report"] == report
    assert board.extra["imported_from"] == {"format": "vasl", "file": "bd99", "name": "99",
                                            "version": "1.0"}


def test_blocks_of_any_size_read_the_same(drawn, payload, imported, tmp_path):
    board, _ = vasl.import_board(drawn.write(tmp_path / "bd99", block=255))
    assert board_to_json(board) == board_to_json(imported[0])


def test_board_ids():
    name = vasl.board_id_from_filename
    assert [name("bd02"), name("bd34"), name("/x/bd00"), name("bdRO"), name("bd10a"),
            name("bd02.zip"), name("My Board!"), name("---")] == \
        ["2", "34", "0", "ro", "bd10a", "2", "myboard", "vasl"]


def test_id_option(board_file):
    board, _ = vasl.import_board(board_file, "kb")
    assert board.id == "kb"
    with pytest.raises(ScenarioError, match="--id: board id 'Bad'"):
        vasl.import_board(board_file, "Bad")


def test_without_metadata_a_standard_board_is_assumed(drawn, tmp_path):
    path = synth.write_archive(tmp_path / "bd99", {"LOSData": synth.los_data(drawn.payload())})
    board, report = vasl.import_board(path)
    assert board.at(10, 3).level == 2 and "no BoardMetadata.xml" in report[0]


# ------------------------------------------------------- imported boards work like any other
def test_imported_board_in_a_scenario(imported, tmp_path):
    board, _ = imported
    save_board(board, tmp_path / "bd99.json")
    again = load_board(tmp_path / "bd99.json")
    assert again == board and board_to_json(again) == board_to_json(board)
    scenario = {"format": "starshell-scenario", "version": 1, "nvr": 3,
                "map": [{"board": "bd99.json", "at": [0, 0]}],
                "units": [{"id": "A", "side": "allied", "type": "squad", "hex": "99X2"}]}
    (tmp_path / "night.json").write_text(json.dumps(scenario))
    s = engine.load_scenario(tmp_path / "night.json")
    field = engine.visibility_from(s, "A")
    assert len(field) == 346
    assert field["99X3"].sight == "nvr"
    assert field["99X5"].sight == "none"                 # behind the woods of 99X4
    assert any("99X4" in r for r in field["99X5"].reasons)
    assert field["99Y2"].sight == "nvr"


# --------------------------------------------------------------------------------- refused
def test_not_a_zip(tmp_path):
    path = tmp_path / "bd98"
    path.write_bytes(b"this is not a board\n" * 10)
    refused(path, "not a VASL board archive")


def test_truncated_archive(board_file, tmp_path):
    path = tmp_path / "bd97"
    data = board_file.read_bytes()
    path.write_bytes(data[:len(data) // 2])
    refused(path, "not a VASL board archive")


def test_zip_without_los_data(drawn, tmp_path):
    refused(drawn.write(tmp_path / "bd96", with_los=False), "no LOSData")


def test_truncated_los_data(drawn, payload, tmp_path):
    message = refused(drawn.write(tmp_path / "bd95", payload=payload[:1234]),
                      "LOSData: truncated after 1234 of 2322362 bytes")
    assert message == f"{tmp_path / 'bd95'}: LOSData: truncated after 1234 of 2322362 bytes"


def test_truncated_stream(drawn, payload, tmp_path):
    stream = synth.java_block_stream(payload)[:5000]
    refused(drawn.write(tmp_path / "bd94", los=gzip.compress(stream)),
            "LOSData: truncated after")
    cut = synth.los_data(payload)
    refused(drawn.write(tmp_path / "bd93", los=cut[:len(cut) // 2]), "LOSData: truncated")


def test_bad_magic(drawn, payload, tmp_path):
    stream = b"\xac\xed\x00\x06" + synth.java_block_stream(payload)[4:]
    refused(drawn.write(tmp_path / "bd92", los=gzip.compress(stream)),
            "LOSData: not a Java object stream (bad magic ac ed 00 06")
    refused(drawn.write(tmp_path / "bd91", los=b"PK\x03\x04 not gzip"),
            "LOSData: not gzip-compressed")
    odd = synth.java_block_stream(payload)[:4] + b"\x73\x72"
    refused(drawn.write(tmp_path / "bd90", los=gzip.compress(odd)),
            "unexpected Java record 0x73 at byte 4")


def test_unknown_terrain_code(drawn, tmp_path):
    terrain = drawn.terrain.copy()
    terrain[700, 300] = 250
    payload = synth.los_payload(drawn.elevation, terrain)
    refused(drawn.write(tmp_path / "bd89", payload=payload),
            "LOSData: unknown terrain code 250 (first at pixel x=700, y=300; 1 pixels)")


def test_levels_beyond_the_board_format(drawn, tmp_path):
    elevation = drawn.elevation.copy()
    elevation[150:190, 110:150] = 12                   # around D2's centre (168, 129)
    refused(drawn.write(tmp_path / "bd80", payload=synth.los_payload(elevation, drawn.terrain)),
            "LOSData: 80D2 is at level 12: a board's levels run from -10 to 10")


def test_grid_size_must_match_the_metadata(drawn, tmp_path):
    small = synth.los_payload(drawn.elevation[:1799], drawn.terrain[:1799])
    refused(drawn.write(tmp_path / "bd88", payload=small),
            "the grid is 1799 x 645 pixels, but a standard 33 x 10 hex board has 1800 x 645")
    refused(drawn.write(tmp_path / "bd87", metadata=synth.metadata_xml("87", width=34)),
            "LOSData is 33 x 10 hexes but the metadata says width=34")
    # rules.md 11.6: a board of another size imports with its size (VASL draws it alone) ...
    half = synth.los_payload(drawn.elevation[:900], drawn.terrain[:900], width=17)
    board, _ = vasl.import_board(drawn.write(tmp_path / "bd86", payload=half,
                                             metadata=synth.metadata_xml("86", width=17)))
    assert board.size == (17, 10)
    # ... within the sizes a board file may have (SPEC.md "size")
    wide = synth.los_payload(drawn.elevation[:900], drawn.terrain[:900], width=120)
    refused(drawn.write(tmp_path / "bd84", payload=wide,
                        metadata=synth.metadata_xml("84", width=120)),
            "120 x 10 hexes")


def test_bad_metadata(drawn, tmp_path):
    refused(drawn.write(tmp_path / "bd85", metadata=b"<boardMetadata width='33'"),
            "BoardMetadata.xml: not well-formed XML")
    bomb = b'<!DOCTYPE x [<!ENTITY a "aaaa">]><boardMetadata name="&a;"/>'
    refused(drawn.write(tmp_path / "bd84", metadata=bomb), "document type declarations")
    refused(drawn.write(tmp_path / "bd83", metadata=synth.metadata_xml("83", altHexGrain="TRUE")),
            "altHexGrain")


# ---------------------------------------------------------------------------- command line

def test_cli_imports_end_to_end(board_file, tmp_path):
    out = tmp_path / "board.json"
    done = run_engine("import-vasl", board_file, "-o", out, "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["ok"] is True and answer["board"] == "99" and answer["hexes"] == 346
    assert any("hexside of wall imported" in line for line in answer["report"])
    checked = run_engine("check", out, "--json")
    assert json.loads(checked.stdout) == {"ok": True, "board": "99", "hexes": 346}
    bad = tmp_path / "bd82"
    bad.write_bytes(board_file.read_bytes()[:4000])
    failed = run_engine("import-vasl", bad, "-o", tmp_path / "bd82.json")
    assert failed.returncode == 2
    assert failed.stderr.startswith(f"error: {bad}: not a VASL board archive")
    assert not (tmp_path / "bd82.json").exists()


def test_cli_writes_nothing_on_error(drawn, payload, tmp_path, capsys):
    bad = drawn.write(tmp_path / "bd81", payload=payload[:-5])
    out = tmp_path / "board.json"
    out.write_text("keep me")
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["import-vasl", str(bad), "-o", str(out), "--json"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {bad}: LOSData: truncated after 2322357 of 2322362 bytes")
    assert out.read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert main(["import-vasl", str(bad), "-o", str(tmp_path / "x.txt")]) == 2
    assert "must end in .json" in capsys.readouterr().err


def test_cli_text_output(board_file, tmp_path, capsys):
    out = tmp_path / "b.json"
    assert main(["import-vasl", str(board_file), "-o", str(out), "--id", "b7"]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"imported board b7 (346 hexes) into {out}")
    assert "not imported or approximated:" in text and load_board(out).id == "b7"
