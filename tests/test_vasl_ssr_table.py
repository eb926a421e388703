"""tools/vasl_ssr_table.py: every board x SSR set of a kit run compared with Starshell under the
same rules (rules.md 11.2).

The board is the tests' own generated one (tests/vasl5_synth.py); the kit's folders are written
here from Starshell's own answers under the rules, then one answer is flipped and the tool must
count exactly that pair.  No VASL code, archive or answer is used."""
from __future__ import annotations

import gzip
import json

import vasl5_synth

from engine.los import los_table
from tools import vasl_compare as vc
from tools import vasl_ssr_table as st

REASONS = ["", "Terrain is higher than both the source and target (A6.2)"]
SOURCES = ("K2", "J2", "K4", "L3")


def _answers(board) -> dict:
    """Starshell's own ground answers from SOURCES to every hex, in the kit's format."""
    m = vc.build_map(board)
    table = los_table(m)
    local = lambda i: m.names[i][len(board.id):]  # noqa: E731
    pairs = {}
    for name in SOURCES:
        v = m.index(board.id + name)
        row = table.from_location(v, 0)
        pairs[name] = {local(t): [int(not row.clear[t]), int(not row.clear[t]),
                                  int(row.hindrances[t])] for t in range(m.size) if t != v}
    return {"board": "bd98", "reasons": REASONS, "pairs": pairs}


def _write(path, doc) -> None:
    with gzip.open(path, "wt") as f:
        json.dump(doc, f)


def _kit(tmp_path):
    """A board with a woods hex, and a kit work folder: plain answers, WoodsToBrush answers
    with one pair flipped, NoGrain skipped (no grain on the board), a level rule VASL refuses."""
    synth = vasl5_synth.SynthBoard()
    synth.hex_("K3", "woods", 0)
    boards = tmp_path / "boards"
    boards.mkdir()
    synth.write(boards / "bd98")
    plain = vc.read_board(boards / "bd98")
    brush, outcome = vc.with_ssr(plain, ["WoodsToBrush"])
    assert outcome.applied == ["WoodsToBrush"]
    work = tmp_path / "W"
    (work / "out").mkdir(parents=True)
    (work / "work").mkdir()
    _write(work / "out" / "bd98_plain_vasl_los.json.gz", _answers(plain))
    flipped = _answers(brush)
    first = flipped["pairs"]["K2"]["M4"]
    flipped["pairs"]["K2"]["M4"] = [1 - first[0], 1 - first[0], first[2]]
    clear = [t for t, a in flipped["pairs"]["J2"].items() if not a[0]]
    flipped["pairs"]["J2"][clear[0]][2] += 1            # VASL counts one hindrance more there
    _write(work / "out" / "bd98_ssr_WoodsToBrush_vasl_los.json.gz", flipped)
    (work / "out" / "bd98_skipped.txt").write_text(
        "NoGrain: changes nothing on bd98's map (skipped)\n"
        "Level1ToLevel_1: VASL turns LOS off: BoardException: Invalid from or to value\n")
    return boards, work


def test_each_set_is_compared_under_its_rules(tmp_path):
    boards, work = _kit(tmp_path)
    rows = {" ".join(r): st.measure(boards, work, st.find_cell(work, "bd98", r))
            for r in [(), ("WoodsToBrush",), ("NoGrain",), ("Level1ToLevel_1",)]}
    plain, brush, grain, refused = (rows[k] for k in ("", "WoodsToBrush", "NoGrain",
                                                        "Level1ToLevel_1"))
    assert plain["differ"] == 0 and plain["pairs"] == 4 * 345
    assert plain["hindrances"]["same"] == plain["hindrances"]["pairs"] > 0
    assert brush["hindrances"]["starshell_fewer"] == 1 and brush["hindrances"]["starshell_more"] == 0
    assert brush["differ"] == 1 and brush["ssr"]["applied"] == ["WoodsToBrush"]
    assert brush["causes"][0]["examples"][0]["src"] == "K2"
    assert brush["causes"][0]["examples"][0]["tgt"] == "M4"
    # the pairs the rule turns from blocked to clear (or back) in VASL's answers: Starshell
    # answers them all as VASL but the flipped pair, when it is one of them
    plain_pairs = vc.read_json_gz(work / "out" / "bd98_plain_vasl_los.json.gz")["pairs"]
    brush_pairs = vc.read_json_gz(work / "out" / "bd98_ssr_WoodsToBrush_vasl_los.json.gz")["pairs"]
    changed = {(s, t) for s in brush_pairs for t in brush_pairs[s]
               if plain_pairs[s][t][0] != brush_pairs[s][t][0]}
    assert len(changed) > 1
    assert brush["rule_changed"] == {"pairs": len(changed),
                                     "agree": len(changed) - (("K2", "M4") in changed)}
    assert grain["map_unchanged"] and grain["differ"] == 0 and "rule_changed" not in grain
    assert "VASL turns LOS off" in refused["vasl_refused"] and "pairs" not in refused
    # the rules matter: the board as drawn disagrees with the answers under WoodsToBrush
    as_drawn = st.Cell("bd98", (), work / "out" / "bd98_ssr_WoodsToBrush_vasl_los.json.gz",
                       work / "work" / "bd98_ssr_WoodsToBrush", False)
    assert st.measure(boards, work, as_drawn)["differ"] > 1


def test_the_table_lists_every_set(tmp_path, capsys):
    boards, work = _kit(tmp_path)
    out = tmp_path / "rows.jsonl"
    assert st.main([str(boards), str(work), "bd98", "--set", "none", "--set", "WoodsToBrush",
                    "--set", "NoGrain", "--set", "Level1ToLevel_1", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    first, second = text.strip().split("\n\n")
    lines = [ln for ln in first.splitlines() if ln.startswith("| bd98 |")]
    assert [ln.split(" | ")[1] for ln in lines] == [
        "none", "WoodsToBrush", "NoGrain (map unchanged)", "Level1ToLevel_1"]
    assert " | 1,380 | 99.928 % | 1 | " in lines[1]
    assert len(out.read_text().splitlines()) == 4
    matrix = second.splitlines()
    assert matrix[0] == "| board | none | WoodsToBrush | NoGrain | Level1ToLevel_1 |"
    assert matrix[2] == "| bd98 | 100.000 (0) | 99.928 (1) | 100.000 (0) = | LOS off |"
