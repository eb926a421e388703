"""A reason names each rule once: "clear, through 1 hindrance (+1 DRM, A6.1)", never "...
(+1 DRM, A6.1) (A6.1)"."""
from __future__ import annotations

import re
from collections import Counter

from test_raster_los import ORCHARD, Drawing, centre, line, table

from engine.los import explain_block
from engine.los.explain import cite

RULE = re.compile(r"\b[A-Z]\d+(?:\.\d+)+\b")


def test_a_clear_line_through_a_hindrance_cites_A6_1_once():
    d = Drawing()
    d.disc(*centre("E3"), 24, code=ORCHARD)
    m, t = table(d.board({"E3": "orchard"}))
    text = explain_block(m, line(m, t, "A2", "I4"), 0)
    assert "1 hindrance (+1 DRM, A6.1)" in text
    assert Counter(RULE.findall(text))["A6.1"] == 1, text
    clear = explain_block(m, line(m, t, "A1", "I1"), 0)
    assert clear.endswith("is clear (A6.1)"), clear


def test_cite_adds_a_rule_only_when_not_said():
    assert cite("blocked by the hexside (both block, A6.1)", "A6.1") == \
        "blocked by the hexside (both block, A6.1)"
    assert cite("blocked by woods", "A6.2") == "blocked by woods (A6.2)"
    assert cite("a wall (B9.2)", "B9.2 / A6.4") == "a wall (B9.2) (B9.2 / A6.4)"
