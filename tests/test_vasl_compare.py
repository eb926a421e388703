"""tools/vasl_compare.py: Starshell's LOS against an answer file of the VASL oracle kit's format.

The boards are the tests' own generated ones (tests/vasl_synth.py: a VASL 6 archive,
tests/vasl5_synth.py: a VASL 5 picture); the answer files are written here from Starshell's
own answers (so they agree on every pair), then a few answers are flipped and the tool must
report exactly those pairs.  No VASL code, archive or answer is used."""
from __future__ import annotations

import gzip
import json

import numpy as np
import pytest
import vasl5_synth
import vasl_synth

from engine.los import los_table
from tools import vasl_compare as vc

REASONS = ["", "Terrain is higher than both the source and target (A6.2)"]


def _local(game_map, i: int) -> str:
    return game_map.names[i][len(game_map.placements[0].board.id):]


def own_answers(board, sources: list[int]) -> dict:
    """Starshell's own ground answers in the kit's format, from ``sources`` to every hex."""
    m = vc.build_map(board)
    table = los_table(m)
    pairs = {}
    for v in sources:
        row = table.from_location(v, 0)
        pairs[_local(m, v)] = {_local(m, t): [int(not row.clear[t]), int(not row.clear[t]),
                                              int(row.hindrances[t])]
                               for t in range(m.size) if t != v}
    return {"board": "bd99", "reasons": REASONS, "pairs": pairs}


def own_upper(board, hex_index: int, levels: int, targets: list[int]) -> dict:
    """Starshell's own answers between the upper levels of one hex and ``targets``, both ways."""
    m = vc.build_map(board)
    table = los_table(m)
    name = _local(m, hex_index)
    up = {"reasons": REASONS, "pairs": {}, "reverse": {}, "locations": {}}
    for level in range(1, levels + 1):
        key = f"{name}@{level}"
        up["locations"][key] = {"vasl_name": f"{name} Level {level}"}
        row = table.from_location(hex_index, level)
        up["pairs"][key] = {_local(m, t): [int(not row.clear[t]), 1, 0] for t in targets}
        for t in targets:
            back = table.line(t, 0, hex_index, level)
            up["reverse"].setdefault(_local(m, t), {})[key] = [int(not back.clear[0]), 1, 0]
    return up


def _flip(pairs: dict, keys: list[tuple[str, str]]) -> None:
    for src, tgt in keys:
        old = pairs[src][tgt]
        pairs[src][tgt] = [1 - old[0], 1 - old[0], old[2]]


def _reported(part: dict) -> set[tuple[str, str]]:
    return {(e["src"], e["tgt"]) for c in part["causes"] for e in c["examples"]}


@pytest.fixture(scope="module")
def board6(tmp_path_factory):
    path = vasl_synth.standard_board("99").write(tmp_path_factory.mktemp("cmp") / "bd99")
    return vc.read_board(path)


def test_own_answers_agree_on_every_pair_and_flips_are_reported(board6):
    m = vc.build_map(board6)
    sources = [m.index(h) for h in ("99A1", "99K3", "99T6", "99R2", "99J7", "99GG3")]
    answers = own_answers(board6, sources)
    report = vc.compare(board6, answers, limit=10)
    g = report["ground"]
    assert g["pairs"] == 6 * (m.size - 1)
    assert g["agree"] == g["pairs"] and g["percent"] == 100.0 and g["causes"] == []
    same = report["field_vs_direct"]
    assert same["agree"] == same["pairs"] == g["pairs"] and same["differ"] == []
    blocked = [(s, t) for s, row in answers["pairs"].items() for t, a in row.items() if a[0]]
    clear = [(s, t) for s, row in answers["pairs"].items() for t, a in row.items() if not a[0]]
    flips = blocked[:2] + clear[:3]
    _flip(answers["pairs"], flips)
    report = vc.compare(board6, answers, limit=10)
    g = report["ground"]
    assert g["pairs"] - g["agree"] == 5 and _reported(g) == set(flips)
    by_direction = {}
    for c in g["causes"]:
        by_direction[c["direction"]] = by_direction.get(c["direction"], 0) + c["count"]
    assert by_direction == {vc.STARSHELL_BLOCKS: 2, vc.VASL_BLOCKS: 3}
    vasl_side = [c for c in g["causes"] if c["direction"] == vc.VASL_BLOCKS]
    assert all(c["cause"].startswith(REASONS[1]) for c in vasl_side)


def test_upper_levels_both_ways(board6):
    m = vc.build_map(board6)
    t6 = m.index("99T6")
    assert int(m.upper_levels[t6]) == 2
    targets = [i for i in range(0, m.size, 7) if i != t6]
    up = own_upper(board6, t6, 2, targets)
    answers = own_answers(board6, [m.index("99A1")])
    report = vc.compare(board6, answers, up, field=False)
    parts = report["upper"]
    assert parts["locations"] == 2 and parts["locations_starshell_lacks"] == {}
    for key in ("upper_to_ground", "ground_to_upper"):
        assert parts[key]["pairs"] == 2 * len(targets)
        assert parts[key]["agree"] == parts[key]["pairs"], parts[key]["causes"]
    src = _local(m, targets[3])
    _flip(up["reverse"], [(src, "T6@2")])
    up["locations"]["T6@3"] = {}
    up["pairs"]["T6@3"] = {_local(m, targets[0]): [0, 0, 0]}
    report = vc.compare(board6, answers, up, field=False)
    parts = report["upper"]
    assert parts["locations_starshell_lacks"] == {"T6@3": 2}
    assert _reported(parts["ground_to_upper"]) == {(src, "T6@2")}


def test_vasl5_board_and_command_line(tmp_path, capsys):
    b = vasl5_synth.SynthBoard()
    b.hex_("K3", "woods", 0)
    b.hex_("K4", "open", 1)
    path = b.write(tmp_path / "bd98")
    board = vc.read_board(path)
    m = vc.build_map(board)
    answers = own_answers(board, [m.index("98K2"), m.index("98J4")])
    _flip(answers["pairs"], [("K2", "K5")])
    file = tmp_path / "bd98_vasl_los.json.gz"
    with gzip.open(file, "wt") as f:
        json.dump(answers, f)
    assert vc.main([str(path), str(file), "--json", "--no-field"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ground"]["pairs"] - report["ground"]["agree"] == 1
    assert _reported(report["ground"]) == {("K2", "K5")}
    assert vc.main([str(path), str(file), "--limit", "1"]) == 0
    text = capsys.readouterr().out
    assert "K2 -> K5" in text and "prepared field vs direct rows" in text


def test_read_grid_layout(tmp_path):
    import struct
    terrain = np.array([[0, 60], [8, 30], [1, 2]], np.int16)      # [x, y], W=3, H=2
    level = np.array([[0, 1], [-1, 0], [2, 3]], np.int8)
    raw = struct.pack(">ii", 3, 2) + terrain.astype(">i2").tobytes() + level.tobytes()
    path = tmp_path / "g_grid.bin.gz"
    path.write_bytes(gzip.compress(raw))
    t, lv = vc.read_grid(path)
    assert t.tolist() == terrain.tolist() and lv.tolist() == level.tolist()


def test_vasl5_board_read_with_a_named_metadata_file(tmp_path, capsys):
    """``--metadata``: a VASL 5 archive read with a BoardMetadata.xml, as VASL's pipeline reads
    it: the building's upper levels are there (without it Starshell lacks them)."""
    b = vasl5_synth.SynthBoard()
    b.hex_("E4", "building", 0)
    path = b.write(tmp_path / "bd98")
    meta = tmp_path / "BoardMetadata.xml"
    meta.write_bytes(vasl5_synth.board_metadata([("E4", "Wooden Building, 2 Level")]))
    board = vc.read_board(path, metadata=str(meta))
    m = vc.build_map(board)
    e4 = m.index("98E4")
    targets = [i for i in range(0, m.size, 9) if i != e4]
    up, answers = own_upper(board, e4, 2, targets), own_answers(board, [m.index("98A1")])
    files = {}
    for name, data in (("los", answers), ("up", up)):
        files[name] = tmp_path / f"bd98_vasl_{name}.json.gz"
        with gzip.open(files[name], "wt") as f:
            json.dump(data, f)
    args = [str(path), str(files["los"]), "--up", str(files["up"]), "--json", "--no-field"]
    assert vc.main(args + ["--metadata", str(meta)]) == 0
    parts = json.loads(capsys.readouterr().out)["upper"]
    assert parts["locations"] == 2 and parts["locations_starshell_lacks"] == {}
    assert parts["upper_to_ground"]["agree"] == parts["upper_to_ground"]["pairs"] > 0
    assert vc.main(args) == 0
    parts = json.loads(capsys.readouterr().out)["upper"]
    assert parts["locations_starshell_lacks"] == {"E4@1": 0, "E4@2": 0}


def test_ssr_rules_are_applied_before_comparing(tmp_path, capsys):
    """``--ssr``: answers made under WoodsToBrush agree with the board under that rule, and
    not with the board as drawn (the woods block lines brush does not)."""
    b = vasl5_synth.SynthBoard()
    b.hex_("K3", "woods", 0)
    path = b.write(tmp_path / "bd98")
    brush, outcome = vc.with_ssr(vc.read_board(path), ["WoodsToBrush", "Mud"])
    assert outcome.applied == ["WoodsToBrush"] and outcome.no_effect == ["Mud"]
    m = vc.build_map(brush)
    answers = own_answers(brush, [m.index("98K2"), m.index("98J2"), m.index("98K4")])
    file = tmp_path / "bd98_vasl_los.json.gz"
    with gzip.open(file, "wt") as f:
        json.dump(answers, f)
    assert vc.main([str(path), str(file), "--json", "--no-field", "--ssr", "WoodsToBrush"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ground"]["pairs"] == report["ground"]["agree"] > 0
    assert report["ssr"]["applied"] == ["WoodsToBrush"]
    assert vc.main([str(path), str(file), "--json", "--no-field"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ground"]["agree"] < report["ground"]["pairs"]


def test_a_joined_board_turned_180_degrees(tmp_path, capsys):
    # --join PATH@COL,ROW,r: the board turned as VASL's reversed board, keyed by its own names
    first = vasl_synth.standard_board("99").write(tmp_path / "bd99")
    second = vasl_synth.standard_board("98").write(tmp_path / "bd98")
    m = vc.build_map(vc.read_board(first), [(vc.read_board(second), (1, 0), True)])
    table = los_table(m)
    pairs = {}
    for name in ("99T6", "98T6", "98C3"):
        v = m.index(name)
        row = table.from_location(v, 0)
        pairs[name] = {m.names[t]: [int(not row.clear[t]), int(not row.clear[t]),
                                    int(row.hindrances[t])] for t in range(m.size) if t != v}
    file = tmp_path / "joined_vasl_los.json.gz"
    with gzip.open(file, "wt") as f:
        json.dump({"board": "bd99", "reasons": REASONS, "pairs": pairs}, f)
    args = [str(first), str(file), "--json", "--no-field"]
    assert vc.main(args + ["--join", f"{second}@1,0,r"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ground"]["agree"] == report["ground"]["pairs"] == 3 * (m.size - 1)
    assert vc.main(args + ["--join", f"{second}@1,0"]) == 0
    assert json.loads(capsys.readouterr().out)["ground"]["agree"] < 3 * (m.size - 1)
    with pytest.raises(SystemExit):
        vc.main(args + ["--join", f"{second}@1,0,x"])
