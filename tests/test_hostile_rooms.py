"""Hostile inputs to the fire and tabletop rooms and the night room's riders: each ends within
seconds with a message naming the file and the place, or a correct answer (the chart pack's
factor, the fire map's size, the table's elements, thin bases, facings, riders' carriers).
The bounds count this process's own CPU time: other work on the machine does not move them."""
from __future__ import annotations

import json
import time

import pytest

from engine.api import ScenarioError, assets_dir, tabletop
from engine.api import napoleonic as nap
from engine.night.files import scenario_from_json

FIRE = assets_dir() / "fire"


@pytest.mark.parametrize("factor", ["1e99999999", "1e-99999999", "1e9999999999999", "1e0"])
def test_an_enfilade_factor_with_an_exponent_is_refused_at_once(tmp_path, factor):
    pack = json.loads((FIRE / "charts" / "sample.json").read_text())
    pack["enfilade"] = {"defence": factor}
    path = tmp_path / "charts.json"
    path.write_text(json.dumps(pack))
    started = time.process_time()
    with pytest.raises(ScenarioError) as e:
        nap.load_charts(str(path), tmp_path)
    assert time.process_time() - started < 2
    assert e.value.file == str(path) and e.value.place == "enfilade.defence"


def test_a_fire_map_larger_than_the_bound_is_refused_before_it_is_built(tmp_path):
    boards = []
    for k in range(64):
        board = {"format": "starshell-board", "version": 1, "id": f"big{k}", "size": [104, 99],
                 "default": {"terrain": "open", "level": 0}, "hexes": {}}
        (tmp_path / f"big{k}.json").write_text(json.dumps(board))
        boards.append({"board": f"big{k}.json", "at": [k % 8, k // 8]})
    data = json.loads((FIRE / "N-03.json").read_text())
    data.update(map=boards, units=[], charts="sample")
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(data))
    started = time.process_time()
    with pytest.raises(ScenarioError) as e:
        nap.load_position(path)
    assert time.process_time() - started < 5
    assert e.value.file == str(path) and e.value.place.startswith("map[")
    assert "11072 hexes" in str(e.value)


def element(i, x, y, facing=0.0, **more) -> dict:
    return {"id": str(i), "side": "blue" if i % 2 else "red", "type": "Bw", "x": x, "y": y,
            "facing": facing, **more}


def table(*elements) -> dict:
    return {"format": "starshell-table", "version": 1, "elements": list(elements)}


def test_two_bases_too_thin_to_see_overlapping_are_refused():
    data = table(element(1, 0, 0, depth=1.5e-6), element(2, 0, 0, depth=1.5e-6))
    with pytest.raises(ScenarioError) as e:
        tabletop.table_from_json(data, file="t.json")
    assert e.value.file == "t.json" and e.value.place == "elements[0].depth"


def test_a_facing_just_below_zero_is_zero_not_360():
    t = tabletop.table_from_json(table(element(1, 0, 0, facing=-1e-20)), file="t.json")
    assert 0.0 <= t.element("1").facing < 360.0
    assert tabletop.table_to_json(t)["elements"][0]["facing"] == 0.0


def test_more_elements_than_a_shot_can_answer_in_seconds_are_refused():
    many = [element(i, (i % 20) * 1.2, (i // 20) * 1.0) for i in range(tabletop.MAX_ELEMENTS + 1)]
    with pytest.raises(ScenarioError) as e:
        tabletop.table_from_json(table(*many), file="t.json")
    assert e.value.place == "elements" and str(tabletop.MAX_ELEMENTS) in e.value.problem


def test_a_shot_among_the_most_elements_allowed_answers_within_seconds():
    n = tabletop.MAX_ELEMENTS
    side = 13
    many = [dict(element(i, (i % side) * 1.2, (i // side) * 1.0),
                 side="blue" if (i // side) % 2 == 0 else "red",
                 facing=0 if (i // side) % 2 == 0 else 180) for i in range(n)]
    t = tabletop.table_from_json(table(*many), file="t.json")
    started = time.process_time()
    report = tabletop.shoot(t, "0")
    assert time.process_time() - started < 15
    assert report["shooter"] == "0"


def test_a_vehicle_aboard_one_that_is_aboard_it_is_refused(tmp_path):
    data = json.loads((assets_dir() / "scenarios" / "W-12.json").read_text())
    a, b = data["units"][0], data["units"][1]
    b["hex"] = a["hex"]
    a.update(type="afv", aboard=b["id"])
    b.update(type="afv", aboard=a["id"])
    with pytest.raises(ScenarioError) as e:
        scenario_from_json(data, file="pos.json", folder=str(tmp_path))
    assert e.value.place.endswith(".aboard") and "itself aboard" in e.value.problem


@pytest.mark.parametrize("key", ["charts", "board"])
def test_an_absolute_path_outside_the_positions_folder_is_refused(tmp_path, key):
    game = tmp_path / "game"
    game.mkdir()
    data = json.loads((FIRE / "N-03.json").read_text())
    if key == "charts":          # (refused before it is looked for: whether it exists or not)
        data["charts"] = "/outside/charts.json"
    else:
        data["map"][0]["board"] = "/outside/n1.json"
    path = game / "pos.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ScenarioError) as e:
        nap.load_position(path)
    assert e.value.file == str(path) and "outside the position's folder" in e.value.problem


def test_a_position_saved_elsewhere_names_its_files_relative_and_reloads(tmp_path):
    game, other = tmp_path / "game", tmp_path / "other"
    game.mkdir()
    other.mkdir()
    (game / "n1.json").write_text((FIRE / "boards" / "n1.json").read_text())
    (game / "charts.json").write_text((FIRE / "charts" / "sample.json").read_text())
    data = json.loads((FIRE / "N-03.json").read_text())
    data.update(charts="charts.json")
    data["map"][0]["board"] = "n1.json"
    (game / "pos.json").write_text(json.dumps(data))
    nap.save_position(nap.load_position(game / "pos.json"), other / "pos.json")
    saved = json.loads((other / "pos.json").read_text())
    assert saved["charts"] == "../game/charts.json" and saved["map"][0]["board"] == "../game/n1.json"
    assert nap.load_position(other / "pos.json").charts.path == str(other / "../game/charts.json")
