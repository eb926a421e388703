"""The overlays show the engine's answers: checked on the pixels the view shows, with the colours
of app.style (composed as the scene paints them)."""
from __future__ import annotations

import numpy as np
from app_testing import DATA, close, pixel, scene_point, settle

import engine
from app import style
from app.night.document import Document

QUIET = ("nvr_ring", "moving_rings", "coordinates")     # lines and labels that might cross a sample


def quiet(window):
    for name in QUIET:
        window.layer_actions[name].setChecked(False)


def plain_hexes(window, field, code: int) -> list[str]:
    """Open level-0 hexes with the verdict ``code``, unlit, unmarked, not blind, inside a board."""
    s = window.document.scenario
    m = s.map
    light = engine.illumination(s)
    taken = {m.index(u.hex) for u in s.units} | {m.index(mk.hex) for mk in s.markers}
    out = []
    for i in np.flatnonzero(field.codes == code):
        i = int(i)
        if (m.terrain_name(i) != "open" or m.level[i] != 0 or light.lit[i] or field.blind[i]
                or light.blind[i] or i in taken or not (1 <= m.board_of[i].row <= 9)
                or m.board_of[i].col in (0, 32)):
            continue
        out.append(m.names[i])
    return out


def test_selecting_a_unit_shows_its_night_field(window, qtbot):
    quiet(window)
    doc = window.document
    doc.select("L1")
    settle(qtbot, doc)
    field = engine.visibility_from(doc.scenario, "L1")
    seen = plain_hexes(window, field, 1)
    unseen = plain_hexes(window, field, 0)
    assert seen and unseen
    ground = style.GROUND[0]
    for hex_id in seen[:3]:
        assert close(pixel(window.view, hex_id), style.over(ground, style.SIGHT_NVR)), hex_id
    for hex_id in unseen[:3]:
        assert close(pixel(window.view, hex_id), style.over(ground, style.SIGHT_NONE)), hex_id
    # and without a viewer the same hexes show bare ground
    doc.select(None)
    settle(qtbot, doc)
    assert close(pixel(window.view, seen[0]), ground)
    assert close(pixel(window.view, unseen[0]), ground)


def test_a_gunflash_only_hex_is_amber(window, qtbot):
    quiet(window)
    doc = window.document
    s = doc.scenario
    doc.edit(s.with_marker(engine.Marker("gunflash", "34P3", "axis")), "gunflash")
    doc.select("A2")
    settle(qtbot, doc)
    field = engine.visibility_from(doc.scenario, "A2")
    assert field["34P3"].sight == "gunflash"
    # the marker covers the centre; a free point of the hex shows the amber tint
    expected = style.over(style.GROUND[0], style.SIGHT_GUNFLASH)
    assert close(pixel(window.view, "34P3"), expected)


def test_a_starshell_lights_its_circle(window, qtbot):
    quiet(window)
    doc = window.document
    m = doc.scenario.map
    probe = "34X5"                                    # 2 hexes from 34X3, far from any light
    assert close(pixel(window.view, probe), style.GROUND[0])
    lit_before = window.scene.lit.areas[0][1].boundingRect()
    doc.add_marker(engine.Marker("starshell", "34X3"))
    settle(qtbot, doc)
    assert engine.illumination(doc.scenario).lit[m.index(probe)]
    assert window.scene.lit.areas[0][1].boundingRect() != lit_before
    assert close(pixel(window.view, probe), style.over(style.GROUND[0], style.LIT))
    assert len(window.scene.light_circles.outlines) == 3
    assert any(i.kind == "marker" and i.piece.hex == "34X3" for i in window.scene.counters.items)
    doc.undo_stack.undo()                              # the edit is undoable
    settle(qtbot, doc)
    assert close(pixel(window.view, probe), style.GROUND[0])
    assert len(window.scene.light_circles.outlines) == 2


def test_w12_like_starshell_seen_from_afar(qtbot, settings, messages):
    """Units in 2CC6 and 2Y4, a starshell in 2Y4: from 2CC6, 2Y4 is lit and seen; 2CC9, behind
    the level-2 hill of 2CC8, is dark."""
    from app.night.window import NightWindow
    doc = Document.open_file(DATA / "w12_like.json")
    w = NightWindow(doc, settings)
    qtbot.addWidget(w)
    w.resize(1400, 800)
    w.show()
    qtbot.waitExposed(w)
    quiet(w)
    doc.select("A")
    settle(qtbot, doc)
    w.view.fit_map()
    lit_seen = style.over(style.GROUND[0], style.LIT, style.SIGHT_NVR)
    assert close(pixel(w.view, "2Y4"), lit_seen)
    assert close(pixel(w.view, "2CC9"), style.over(style.GROUND[0], style.SIGHT_NONE))


def test_blind_hexes_are_hatched(window, qtbot):
    doc = window.document
    doc.select("G2")                                    # on the level-2 hill of 2CC8
    settle(qtbot, doc)
    blind = doc.answers.field.blind_at_night      # A6.4 where a night verdict can change
    assert blind.any()
    assert not window.scene.viewer_blind.fill.isEmpty()
    m = doc.scenario.map
    for i in np.flatnonzero(blind):
        assert window.scene.viewer_blind.fill.contains(scene_point(m, m.names[i]))
    # the default's Blaze in 34J8 cannot light 34H7, behind the dense jungle of 34I8
    assert window.scene.blaze_shadows.fill.contains(scene_point(m, "34H7"))
    assert not window.scene.blaze_shadows.fill.contains(scene_point(m, "34I8"))
    doc.add_marker(engine.Marker("blaze", "2BB7", radius=2))      # behind the woods of 2CC6
    settle(qtbot, doc)
    shadows = doc.answers.light.blind
    assert shadows.sum() > 1
    for i in np.flatnonzero(shadows):
        assert window.scene.blaze_shadows.fill.contains(scene_point(m, m.names[i]))


def test_rings_follow_the_viewer(window, qtbot):
    doc = window.document
    doc.select("T1")                                    # a BU AFV: NVR halved (E1.14)
    settle(qtbot, doc)
    a = doc.answers
    assert a.nvr == doc.scenario.nvr // 2
    assert len(window.scene.nvr_ring.outlines) == 1
    assert len(window.scene.moving_rings.outlines) == len(set(a.moving_ranges))
    assert "NVR 1" in [label[1] for label in window.scene.nvr_ring.labels]
