"""The night planner in the window (rules.md 10): the best starshell ranked in the Starshell
panel (labels on the map, a click aims), the threat map from the View menu (hover: who sees
the hex), the Route tool (the way drawn, its seen steps named in the Explanation panel); every
answer worked out on the Document's engine thread.  The numbers are the engine's
(``api.night.advise``, ``threat``, ``route``) and, for the seed's cases, a player's reading of
W-10 and W-14."""
from __future__ import annotations

import threading
from fractions import Fraction

import numpy as np
import pytest
from app_testing import drag, hex_pos, scene_point, settle, steps
from PySide6.QtCore import QPoint, Qt

import engine
from app.night.planner.install import route_html
from app.night.planner.overlay import BEST_SHOWN, overlaps
from app.night.tools import Spot
from engine import api
from engine.boards import assets_dir

SCENARIOS = assets_dir() / "scenarios"
W10, W14 = SCENARIOS / "W-10.json", SCENARIOS / "W-14.json"


def advised(qtbot, window):
    p = window.hand.planner
    qtbot.waitUntil(lambda: "advice" not in p.working and p.advice is not None, timeout=20000)
    return p.advice


@pytest.fixture
def w10(window_on, qtbot):
    w = window_on(W10)
    w.document.select("L1")
    w.tool_actions["starshell"].trigger()
    settle(qtbot, w.document)
    return w


def test_the_starshell_panel_ranks_every_legal_placement_as_the_engine_does(w10, qtbot):
    advice = advised(qtbot, w10)
    doc, panel = w10.document, w10.planner_ui.advice
    expected = api.night.advise(doc.scenario, "L1")
    assert [(o.method, o.at) for o in advice.options] == [(o.method, o.at) for o in expected.options]
    rows = [panel.list.item(k).text() for k in range(panel.list.count())]
    assert len(rows) == len(expected.options)
    for rank, (row, o) in enumerate(zip(rows, expected.options), start=1):
        assert row.startswith(f"{rank}. {o.at} by ")
        assert f"gain {float(o.gain):.2f}" in row and expected.says(o) in row
        assert f"{float(o.expected_enemy_lit):.2f} enemy lit" in row
        assert f"usage dr \u2264 {o.usage_dr_max} ({o.usage_dr_max}/6)" in row
    # W-10: L1 places by method 2 along its LOS to 2BB5 (2U6 .. 2Z5, and 2X5); 2BB5 is lit by
    # the starshell in 2BB3 already, so each placement lights it for sure and gains nothing
    # there (E1.9): the best blinds L1 least
    by_two = {o.at for o in advice.options if o.method == "2"}
    assert by_two <= {"2U6", "2V6", "2W6", "2X6", "2Y6", "2Z5", "2X5"} and "2W6" in by_two
    assert all(o.enemy_lit == {"S1": 1} and o.expected_enemy_gain == 0 for o in advice.options)
    assert advice.best.friendly_lit["L1"] == min(o.friendly_lit["L1"] for o in advice.options)
    assert "1 lit already (E1.9)" in rows[0]
    # the best placements labelled on the map, best first
    m = doc.scenario.map
    firsts = list(dict.fromkeys(o.at for o in expected.options))[:BEST_SHOWN]
    assert [i for i, _ in w10.planner_ui.layer.item.best] == [m.index(h) for h in firsts]


def test_a_click_on_a_row_aims_the_starshell_tool_there(w10, qtbot):
    advice = advised(qtbot, w10)
    panel, scene = w10.planner_ui.advice, w10.scene
    k = next(k for k, o in enumerate(advice.options) if o.method == "3")
    o = advice.options[k]
    panel.list.itemClicked.emit(panel.list.item(k))
    assert w10.hand.starshell.method == o.method == "3"
    assert w10.method_actions["3"].isChecked()
    assert scene.drift.at == scene.map.index(o.at) and scene.drift.method == "3"
    assert o.at in w10.starshell_panel.preview.text()
    assert w10.document.undo_stack.count() == 0          # aimed, not fired


def test_a_target_hex_ranks_by_its_chance_counted_over_the_36_drift_outcomes(window_on, qtbot):
    # W-10 without the starshell in 2BB3: 2BB5 is dark, the squad not Known: no method 2
    s = api.night.load_scenario(W10)
    w = window_on(s.replace(markers=()))
    w.document.select("L1")
    w.tool_actions["starshell"].trigger()
    advised(qtbot, w)
    panel = w.planner_ui.advice
    panel.target.setText("2BB5")
    panel.target.editingFinished.emit()
    qtbot.waitUntil(lambda: w.hand.planner.advice is not None
                    and w.hand.planner.advice.objective == "target:2BB5", timeout=20000)
    advice = w.hand.planner.advice
    assert advice.options and all(o.method != "2" for o in advice.options)
    m = w.document.scenario.map
    for o in advice.options:      # the plain count: the 36 ends, each lighting 3 hexes around
        ends = api.night.drift.distribution(m, m.index(o.at), o.method)
        near = sum(Fraction(round(p * 36), 36) for h, p in ends.items()
                   if h != "off-map" and m.distance(m.index(h), m.index("2BB5")) <= 3)
        assert o.target_lit == near
    chances = [o.target_lit for o in advice.options]
    assert chances == sorted(chances, reverse=True) and chances[0] > 0
    assert f"2BB5 lit {advice.best.target_lit}" in panel.list.item(0).text()
    assert "target:2BB5" in panel.status.text()


def test_the_advice_is_worked_out_on_the_engine_thread_and_says_so(w10, qtbot, monkeypatch):
    advised(qtbot, w10)
    threads = []
    advise = api.night.advise_steps

    def recorded(*args):
        threads.append(threading.current_thread().name)
        return (yield from advise(*args))
    monkeypatch.setattr(api.night, "advise_steps", recorded)
    p, said = w10.hand.planner, []
    p.workingChanged.connect(lambda: said.append((set(p.working),
                                                  w10.planner_ui.advice.status.text())))
    before = p.advice
    w10.document.move_unit("L1", "2T5")
    qtbot.waitUntil(lambda: p.advice is not before and "advice" not in p.working, timeout=20000)
    advice = p.advice
    assert said[0][0] == {"advice"} and "Working out the best starshells" in said[0][1]
    assert threads and all(t.startswith("starshell-engine") for t in threads)
    assert [o.at for o in advice.options] == [
        o.at for o in api.night.advise(w10.document.scenario, "L1").options]


def threat_on(qtbot, window, side: str):
    ui = window.planner_ui
    ui.fill_menu()
    action = next(a for a in ui.threat_menu.actions() if a.text().startswith(f"of the {side} units"))
    action.trigger()
    p = window.hand.planner
    qtbot.waitUntil(lambda: p.threat is not None and "threat" not in p.working, timeout=20000)
    return p


def test_the_threat_map_counts_the_enemies_that_see_each_hex_w14(window_on, qtbot):
    w = window_on(W14)
    p = threat_on(qtbot, w, "allied")
    s, m = w.document.scenario, w.document.scenario.map
    expected = api.night.threat(s, "allied")
    counts = p.threat_counts()
    assert counts.tolist() == (expected.nvr + expected.gunflash).tolist()
    # W-14: 2DD6, between the lit 2DD5 and 2DD7, is seen by no Good Order enemy
    assert counts[m.index("2DD6")] == 0
    fill = w.planner_ui.layer.fill
    assert [mask.tolist() for mask in fill.masks] == [
        (counts == k if k < 4 else counts >= 4).tolist() for k in (1, 2, 3, 4)]
    assert not any(mask[m.index("2DD6")] for mask in fill.masks)
    # hover: the count on the map, the watchers named in the status bar
    seen_at = next(i for i in range(m.size) if counts[i] > 0)
    w.view.hexHovered.emit(seen_at)
    assert w.planner_ui.layer.item.hovered == seen_at
    words = w.statusBar().currentMessage()
    assert words.startswith(f"{m.names[seen_at]}: {counts[seen_at]} enemy unit(s) see an "
                            "allied unit here")            # the side's name, in plain words
    assert "allied's" not in words
    assert not any("'s units" in a.text() for a in w.planner_ui.threat_menu.actions())
    viewers = [v for v, on in zip(expected.viewers, expected.seen()[:, seen_at]) if on]
    assert all(v in words for v in viewers)
    # read for a moving vehicle, 1.5 x NVR (E1.14): E1 and E2 stand lit, and so blinded, they
    # see only lit hexes (E1.101): a moving vehicle is seen where a squad is, no farther
    w.planner_ui.mode_actions["vehicle"].trigger()
    assert p.threat_counts().tolist() == expected.seen(vehicle=True).sum(axis=0).tolist()
    assert p.threat_counts().tolist() == counts.tolist()


def test_a_moving_vehicle_is_seen_farther_out_by_a_viewer_in_the_dark(window, qtbot):
    p = threat_on(qtbot, window, "allied")
    on_foot = p.threat_counts()
    window.planner_ui.fill_menu()
    window.planner_ui.mode_actions["tracked"].trigger()
    assert p.threat_mode == "tracked"
    tracked = p.threat_counts()
    expected = api.night.threat(window.document.scenario, "allied")
    assert tracked.tolist() == expected.seen(vehicle=True, tracked=True).sum(axis=0).tolist()
    assert (tracked >= on_foot).all() and (tracked > on_foot).any()     # 2 x NVR (E1.14)


def test_the_threat_map_follows_the_position_and_goes_off(window_on, qtbot):
    w = window_on(W14)
    p = threat_on(qtbot, w, "allied")
    before = p.threat
    w.document.move_unit("E1", "2Z5")
    qtbot.waitUntil(lambda: p.threat is not before and "threat" not in p.working, timeout=20000)
    assert p.threat_counts().tolist() == api.night.threat(
        w.document.scenario, "allied").seen().sum(axis=0).tolist()
    off = next(a for a in w.planner_ui.threat_menu.actions() if a.text() == "off")
    off.trigger()
    assert p.threat is None and w.planner_ui.layer.item.counts is None
    assert w.planner_ui.layer.fill.masks == []


def test_the_route_tool_finds_the_dark_way_w14(window_on, qtbot):
    w = window_on(W14)
    w.tool_actions["route"].trigger()
    assert w.hand.tool == "route"
    view = w.view
    start = hex_pos(view, "2GG6") - QPoint(4, 0)   # F3, at the board's edge: its centre dot is
    # on the edge itself, so the press is a few pixels inside the board
    drag(qtbot, view, start, steps(start, hex_pos(view, "2DD6"), 8))
    p = w.hand.planner
    qtbot.waitUntil(lambda: p.route is not None and "route" not in p.working
                    and p.route.path[-1] == "2DD6", timeout=20000)
    expected = api.night.route(w.document.scenario, "F3", "2DD6")
    # W-14: into 2DD6 unseen, although adjacent to the lit E1 and E2 (they are lit, it is not)
    assert p.route.path == expected.path and p.route.dark and expected.dark
    assert p.route.hexes == 3 == m_distance(w, "2GG6", "2DD6")       # the shortest way
    m = w.document.scenario.map
    assert w.planner_ui.layer.item.route == ([m.index(h) for h in expected.path], {})
    html = w.explanation.toHtml()
    assert "Route F3" in html and "dark: no Good Order enemy sees it" in html
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert p.route is None and w.planner_ui.layer.item.route is None
    assert "Route F3" not in w.explanation.toHtml()


def test_a_seen_route_names_each_seen_step_who_sees_it_and_why(window, qtbot):
    p = window.hand.planner
    window.hand.set_tool("route")
    window.hand.route.press(_spot(window, "2Y7"))
    window.hand.route.release(_spot(window, "2CC3"))
    qtbot.waitUntil(lambda: p.route is not None and "route" not in p.working, timeout=20000)
    expected = api.night.route(window.document.scenario, "A1", "2CC3")
    r = p.route
    assert r.path == expected.path and r.seen == expected.seen and not r.dark
    m = window.document.scenario.map
    assert window.planner_ui.layer.item.route[1] == {m.index(h): len(v) for h, v in r.seen.items()}
    html = route_html(p)
    for hex_, who in expected.seen.items():
        assert f"<b>{hex_}</b>" in html
        for unit, why in who.items():
            assert f"{unit} \u2013 {why}" in html
    assert "seen in" in window.explanation.toPlainText()


def test_a_route_from_no_unit_is_refused_with_a_sentence(window, qtbot):
    window.hand.set_tool("route")
    told = []
    window.hand.told.connect(told.append)
    empty = next(h for h in window.document.scenario.map.names
                 if all(u.hex != h for u in window.document.scenario.units))
    window.hand.route.press(_spot(window, empty))
    window.hand.route.release(_spot(window, "2CC3"))
    assert window.hand.planner.route_ends is None
    assert told and "press on a unit" in told[-1]


def m_distance(window, a: str, b: str) -> int:
    m = window.scene.map
    return int(m.distance(m.index(a), m.index(b)))


def _spot(window, hex_id):
    m = window.scene.map
    return Spot(m.index(hex_id), scene_point(m, hex_id))


def test_a_movement_cost_table_counts_the_route_in_movement_points(window, qtbot, tmp_path):
    table = tmp_path / "costs.json"
    table.write_text('{"woods": 2, "building": null}')
    p = window.hand.planner
    assert window.planner_ui.load_costs(str(table))
    p.set_route("A1", "2CC3")
    qtbot.waitUntil(lambda: p.route is not None and "route" not in p.working, timeout=20000)
    costs = {"woods": 2, "building": None}
    expected = api.night.route(window.document.scenario, "A1", "2CC3", costs)
    assert p.route.path == expected.path and p.route.cost == expected.cost
    assert f"{expected.cost:g} MF of your table" in window.explanation.toPlainText()
    assert window.planner_ui.load_costs(None)
    qtbot.waitUntil(lambda: p.route is not None and p.costs is None
                    and "route" not in p.working, timeout=20000)
    asl = api.night.route(window.document.scenario, "A1", "2CC3")
    assert f"{asl.cost:g} MF;" in window.explanation.toPlainText()
    assert "of your table" not in window.explanation.toPlainText()


def test_a_bad_cost_table_is_named_with_its_fault(window, qtbot, tmp_path, messages):
    not_a_table = tmp_path / "list.json"
    not_a_table.write_text("[1, 2]")
    assert not window.planner_ui.load_costs(str(not_a_table))
    assert messages and str(not_a_table) in messages[-1][2]
    bad = tmp_path / "bad.json"
    bad.write_text('{"woods": "slow"}')
    p = window.hand.planner
    assert window.planner_ui.load_costs(str(bad))        # read; each cost checked by the route
    p.set_route("A1", "2CC3")
    qtbot.waitUntil(lambda: p.route_error is not None, timeout=20000)
    assert p.route is None and str(bad) in p.route_error and "woods" in p.route_error
    assert str(bad) in window.explanation.toPlainText()


def test_the_whole_side_is_ranked_one_roller_a_hex_and_a_click_selects_the_firer(window_on, qtbot):
    # W-21: seven allied units in 2M5; L rolls the hex's one starshell (E1.92), the IR mortars
    # M1 and M2 fire IR (no per-hex limit)
    w = window_on(SCENARIOS / "W-21.json")
    w.document.select("L")
    w.tool_actions["starshell"].trigger()
    advised(qtbot, w)
    panel = w.planner_ui.advice
    panel.whole_side.setChecked(True)
    p = w.hand.planner
    qtbot.waitUntil(lambda: p.advice is not None and p.advice.unit is None
                    and "advice" not in p.working, timeout=20000)
    expected = api.night.advise(w.document.scenario, None, "allied")
    got = [(o.by, o.method, o.at) for o in p.advice.options]
    assert got == [(o.by, o.method, o.at) for o in expected.options]
    assert {o.by for o in expected.options} >= {"L", "M1"}
    assert all(o.method.startswith("ir") for o in expected.options if o.by != "L")
    assert all(r in panel.status.text() for r in expected.reasons)
    k = next(k for k, o in enumerate(p.advice.options[:40]) if o.by != "L")
    o = p.advice.options[k]
    assert f"({o.by})" in panel.list.item(k).text()
    panel.list.itemClicked.emit(panel.list.item(k))
    assert w.document.viewer == o.by
    assert w.scene.drift.at == w.scene.map.index(o.at) and w.scene.drift.method == o.method


def test_certain_only_for_what_the_shot_adds_and_hold_fire_when_nothing_gains(w10, qtbot):
    """W-10: S1 is lit already whatever the drift (E1.9): the panel no longer says "at least
    one lit: certain" but "Don't fire: no placement helps" (rules.md 11.7)."""
    advice = advised(qtbot, w10)
    panel = w10.planner_ui.advice
    assert advice.options[0].any_enemy_lit == 1 and advice.advice == "hold"
    rows = [panel.list.item(k).text() for k in range(panel.list.count())]
    assert "Don't fire: no placement helps." in panel.status.text()
    assert not any("certain" in row for row in rows)


@pytest.mark.parametrize("change, words", [
    ({"starshell_attempts": ("2T6",)}, "one attempt per hex per phase (E1.92)"),
    ({"starshells_used": "never"}, "no trigger for the first starshell of the game"),
    ({"hero": True}, "heroes may not fire starshells (E1.92, W-07)"),
])
def test_the_panel_says_why_a_unit_may_not_fire(window_on, qtbot, change, words):
    """As the command line does: no E1.91 trigger, the hex's attempt used, a hero (E1.92)."""
    s = engine.load_scenario(W10)
    if change.pop("hero", False):
        s = s.with_unit(s.unit("L1").replace(type="hero"))
    s = s.replace(**change)
    if "starshells_used" in change:         # no LOS to S1 either: S1 out of sight, far away
        s = s.replace(markers=()).with_unit(s.unit("S1").replace(hex="2GG10"))
    w = window_on(s)
    w.document.select("L1")
    w.tool_actions["starshell"].trigger()
    advice = advised(qtbot, w)
    assert advice.options == ()
    text = w.planner_ui.advice.status.text()
    assert "L1 may fire no starshell or IR now:" in text
    assert words in text and all(r in text for r in advice.reasons)


def crowded(per_side: int = 90):
    """W-10's board with many units a side: the planner's questions take several steps."""
    s = engine.load_scenario(W10)
    names = s.map.names
    units = [s.unit("L1")]
    units += [s.unit("S1").replace(id=f"E{k}", hex=names[(k * 7) % len(names)])
              for k in range(per_side)]
    units += [s.unit("L1").replace(id=f"A{k}", type="squad", hex=names[(k * 11) % len(names)])
              for k in range(per_side)]
    return s.replace(units=tuple(units))


def test_the_planner_works_a_step_at_a_time_and_cancel_stops_it(window_on, qtbot):
    """The engine's steps through the job runner (its progress in the status bar); the panel's
    Cancel stops the advice between two steps, and the panel says so; asked again, it answers."""
    w = window_on(crowded())
    p, panel = w.hand.planner, w.planner_ui.advice
    w.document.select("L1")
    panel.whole_side.setChecked(True)
    w.tool_actions["starshell"].trigger()
    assert "advice" in p.working and panel.stop.isVisibleTo(panel)
    assert w.planner_ui.stop_action.isEnabled()
    panel.stop.click()
    assert "advice" not in p.working and p.advice is None and not panel.stop.isVisibleTo(panel)
    assert "Stopped working out the best starshells" in panel.status.text()
    assert not w.planner_ui.stop_action.isEnabled()
    settle(qtbot, w.document)
    assert p.advice is None                          # the stopped job's answer never came
    panel.whole_side.setChecked(False)               # another question: asked again
    qtbot.waitUntil(lambda: p.advice is not None and "advice" not in p.working, timeout=30000)
    assert p.advice.unit == "L1"


def test_threat_counts_keep_off_the_counters(window_on, qtbot):
    # a number over a counter hides its name: each hex's count goes under its centre or above
    # it, wherever the counters shown leave room, else only hovering says it
    w = window_on(W14)
    p = threat_on(qtbot, w, "allied")
    counts = p.threat_counts()
    item = w.planner_ui.layer.item
    for zoom in (1.0, 2.5):
        w.view.resetTransform()
        w.view.scale(zoom, zoom)
        scale = w.view.transform().m11()
        clear = w.scene.counter_rects(scale)
        assert len(clear)
        s = w.document.scenario
        occupied = {s.map.index(x.hex) for x in (*s.units, *s.markers)}
        spots = {i: item.number_spot(i, clear) for i in np.flatnonzero(counts).tolist()}
        assert all(spot is None or not overlaps(spot, clear) for spot in spots.values())
        if zoom > 2:        # close up, a hex with no counter of its own always has room
            assert all(spot is not None for i, spot in spots.items() if i not in occupied)
