"""The faster paths of the first field give exactly what the straightforward ones give.

- the shared line crossings, built for many differences at once (symmetry groups, lines along a
  hexspine from their pattern), are each difference's one-line answer (``hex_lines.line_crossing``,
  ``hex_lines.line_transits``), with the sides lines enter their hexes by;
- a JSON file read without the walks over every value (nothing in its text could be refused)
  is what the walks give, and a file they refuse is refused with the same message;
- a board's hexes of one spelling share one HexTerrain, but ``true`` is never taken for ``1``;
- a map built from arrays is the map built hex by hex (``Board.at``);
- a fire's light asks only the lines to its circle: the same as the whole row's;
- on a map with walls and hedges only, the short path for lines along hexspines gives the same
  lines (what blocks, why, where) as the general one.
"""
import json
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.boards import Board, HexTerrain, board_from_json, hexside_key
from engine.errors import ScenarioError
from engine.hex_lines import line_crossing, line_transits
from engine.hexes import board_hexes, column_name
from engine.jsonio import (
    MAX_DEPTH,
    _check_values,
    _Constant,
    _depth,
    _pairs,
    _parse_int,
    parse_json_text,
)
from engine.los import LosTable
from engine.los.geometry import _DIR_OF, OWN, SPINE, _canonical, _Crossings, transit_flags
from engine.maps import Map, Placement
from engine.night.light import illumination
from engine.night.scenario import MapEntry, Marker, Scenario, Unit
from engine.terrain import TERRAINS

# ------------------------------------------------------------------- line crossings


def _one_line(dq: int, dr: int) -> dict:
    """What the shared crossings keep of one difference, computed for it alone: its canonical
    difference's line_crossing and line_transits moved back by its symmetry, and the sides."""
    canon, inv, sgn = _canonical(dq, -dq - dr, dr)
    x, _, z = canon
    cr = line_crossing(x, z)

    def back(a):                       # canonical axial offsets (k x 2) -> this difference's
        cube = np.stack([a[:, 0], -a[:, 0] - a[:, 1], a[:, 1]])
        c = sgn * cube[inv]
        return c[0], c[2]
    iq, ir = back(cr.interior.reshape(-1, 2))
    out = {"iq": iq, "ir": ir, "it": 2 * cr.interior_t}
    spine = len(cr.sides_t) > 0
    if spine:
        tr = line_transits(x, z)
        x1q, x1r = back(tr.sides[:, 0, :])
        x2q, x2r = back(tr.sides[:, 1, :])
        s1q, s1r = back(cr.sides[:, 0, :])
        s2q, s2r = back(cr.sides[:, 1, :])
        cube = lambda q, r: np.stack([q, -q - r, r])  # noqa: E731
        out.update(sq1=s1q, sr1=s1r, sq2=s2q, sr2=s2r, st=2 * cr.sides_t, xq1=x1q, xr1=x1r,
                   xq2=x2q, xr2=x2r, xt=tr.t, xdir=_DIR_OF[x2q - x1q + 1, x2r - x1r + 1],
                   xflag=transit_flags(cube(x1q, x1r), cube(x2q, x2r), dq, dr))
    else:
        z0 = np.zeros(0, np.int64)
        out.update(sq1=z0, sr1=z0, sq2=z0, sr2=z0, st=z0, xq1=z0, xr1=z0, xq2=z0, xr2=z0, xt=z0,
                   xdir=z0, xflag=np.zeros(0, np.int8))
    # the side each interior hex is entered by (none along a hexspine), an end's own side or
    # one on an end's hexspine; the side the line enters its end by
    idir, iflag = [], []
    prev = (0, 0)
    for k, (q, r) in enumerate(zip(iq.tolist(), ir.tolist())):
        d = (prev[0] - q, prev[1] - r)
        idir.append(6 if spine else int(_DIR_OF[d[0] + 1, d[1] + 1]))
        near = lambda a, o: max(abs(a[0] - o[0]), abs(a[1] - o[1]),  # noqa: E731
                                abs(a[0] + a[1] - o[0] - o[1])) == 1
        if k == 0:
            iflag.append(OWN)
        elif (near(prev, (0, 0)) and near((q, r), (0, 0))) or \
                (near(prev, (dq, dr)) and near((q, r), (dq, dr))):
            iflag.append(SPINE)
        else:
            iflag.append(0)
        prev = (q, r)
    out["idir"] = np.array(idir, np.int64)
    out["iflag"] = np.array(iflag, np.int8)
    if spine or (dq, dr) == (0, 0):
        out["tdir"] = 6
    else:
        out["tdir"] = int(_DIR_OF[prev[0] - dq + 1, prev[1] - dr + 1])
    return out


def _kept(table: _Crossings, i: int) -> dict:
    out = {}
    for pre, names in (("i", ("iq", "ir", "it", "idir", "iflag")),
                       ("s", ("sq1", "sr1", "sq2", "sr2", "st")),
                       ("x", ("xq1", "xr1", "xq2", "xr2", "xt", "xdir", "xflag"))):
        a, n = getattr(table, pre + "start")[i], getattr(table, pre + "count")[i]
        for name in names:
            out[name] = getattr(table, name)[a:a + n]
    out["tdir"] = int(table.tdir[i])
    return out


def _assert_same(keys, batches):
    table = _Crossings()
    for part in np.array_split(keys, batches):
        table.ids(part[:, 0], part[:, 1])
    ids = table.ids(keys[:, 0], keys[:, 1])
    for (dq, dr), i in zip(keys.tolist(), ids.tolist()):
        got, want = _kept(table, i), _one_line(dq, dr)
        for name, v in want.items():
            if name == "tdir":
                assert got[name] == v, (dq, dr, name)
            else:
                assert np.array_equal(got[name], v) and got[name].dtype == v.dtype, \
                    (dq, dr, name, got[name], v)


def test_every_difference_up_to_range_14_is_kept_as_its_one_line_answer():
    """All 841 differences of |dq|, |dr| <= 14 (lines along hexspines included), in batches of
    every size: interior hexes, their order, the sides they are entered by and their flags,
    hexside runs and the hexsides crossed along hexspines."""
    rng = np.random.default_rng(3)
    keys = rng.permutation(np.stack(np.meshgrid(np.arange(-14, 15), np.arange(-14, 15),
                                                indexing="ij"), axis=-1).reshape(-1, 2))
    _assert_same(keys, [1, 4, 60, 300])


@settings(max_examples=20, deadline=None)
@given(d=st.lists(st.tuples(st.integers(-80, 80), st.integers(-80, 80)), min_size=1,
                  max_size=25, unique=True),
       spines=st.lists(st.tuples(st.integers(1, 60), st.integers(0, 5)), max_size=6))
def test_long_lines_and_lines_along_hexspines_are_their_one_line_answers(d, spines):
    """Long differences of every symmetry, and lines along each of the six hexspines."""
    along = [(2, -1), (1, 1), (-1, 2), (-2, 1), (-1, -1), (1, -2)]
    keys = set(d) | {(k * along[j][0], k * along[j][1]) for k, j in spines}
    _assert_same(np.array(sorted(keys)), [len(keys) // 2])


# ------------------------------------------------------------------------- JSON files


def _walked(raw: bytes) -> object:
    """parse_json_text with every walk done: depth, then the values."""
    text = raw.decode("utf-8-sig")
    data = json.loads(text, parse_constant=_Constant, object_pairs_hook=_pairs,
                      parse_int=_parse_int)
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise ScenarioError(f"nested deeper than {MAX_DEPTH} levels", file="f")
    return _check_values(data, "f")


def _outcome(f, raw):
    try:
        v = f(raw)
        return "ok", json.dumps(v, sort_keys=True, default=str), repr(v)
    except ScenarioError as e:
        return "refused", str(e)


_scalars = st.sampled_from(['1', '-2', '2.5', '1e999', '-1e999', 'NaN', 'Infinity', 'true',
                            'null', '"a"', '"]]}}"', '"\\\\"', '"\\"[["', '"\\ud800"',
                            '"\\\\ud800"', '"\\ud83d\\ude00"', '"\u00e9"', '9' * 101])
_keys = st.sampled_from(['"a"', '"b"', '"\\udc00"', '"[{"'])
_values = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3).map(lambda v: "[" + ", ".join(v) + "]"),
    st.lists(st.tuples(_keys, inner), max_size=3).map(
        lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}")), max_leaves=12)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_values, nest=st.integers(0, 34))
def test_a_file_read_without_the_walks_is_what_the_walks_give(text, nest):
    """Values the walks refuse (NaN, a key twice, huge numbers, lone surrogates, too deep)
    wherever they are, brackets and quotes inside strings: the same data or the same
    message."""
    raw = ("[" * nest + text + "]" * nest).encode()
    assert _outcome(lambda r: parse_json_text(r, "f"), raw) == _outcome(_walked, raw)


def test_a_lone_surrogate_in_text_given_as_str_is_refused_as_before():
    with pytest.raises(ScenarioError, match="not valid Unicode"):
        parse_json_text('{"a": "\ud800"}', "f")
    assert parse_json_text('{"a": "\\\\ud800"}', "f") == {"a": "\\ud800"}


# ---------------------------------------------------------------------------- boards


def test_hexes_of_one_spelling_share_a_terrain_but_true_is_no_level_1():
    data = {"format": "starshell-board", "version": 1, "id": "t1",
            "hexes": {"A1": {"terrain": "woods", "level": 1}, "A2": {"terrain": "woods",
                                                                     "level": 1}}}
    b = board_from_json(data)
    assert b.hexes[(0, 1)] == b.hexes[(0, 2)] == HexTerrain("woods", 1)
    data["hexes"]["A3"] = {"terrain": "woods", "level": True}
    with pytest.raises(ScenarioError, match="level must be a whole number") as e:
        board_from_json(data)
    assert "hexes.A3.level" in str(e.value)


# ------------------------------------------------------------------------------ maps


def _board(bid: str, size, rng: random.Random, default: str = "open") -> Board:
    hexes = {}
    for c, n in board_hexes(size):
        if rng.random() < 0.4:
            t = rng.choice(["woods", "building", "building", "grain", "rubble", "open"])
            hexes[(c, n)] = HexTerrain(t, rng.choice([0, 1, 2]),
                                       rng.choice([None, f"g{c % 3}"]) if t == "building" else None,
                                       rng.choice([0, 1]) if t == "building" else 0,
                                       half_level=rng.random() < 0.05)
    sides = {hexside_key(c, n, rng.randint(1, 6), size): "wall"
             for c, n in board_hexes(size) if rng.random() < 0.1}
    return Board(bid, bid, HexTerrain(default), hexes, size=size, hexsides=sides)


def _hex_by_hex(m: Map) -> dict:
    """What Map holds per hex, from Board.at (the names of both halves of a joined hex)."""
    names = {}
    for p, (ox, oy) in zip(m.placements, m.origins):
        columns, rows = p.board.size
        for c, n in board_hexes(p.board.size):
            pc, pn = (c, n) if not p.rotated else \
                (columns - 1 - c, (rows + 1 - n) if c % 2 == 0 else (rows - n))
            names[f"{p.board.id}{column_name(c)}{n}"] = ((ox + pc, oy + pn), p, c, n)
    return names


@pytest.mark.parametrize("seed", range(6))
def test_a_map_built_from_arrays_is_the_map_built_hex_by_hex(seed):
    """Joined halves (the north-easternmost names the hex), boards of other sizes, turned
    boards, buildings across a join."""
    rng = random.Random(seed)
    slots = rng.sample([(c, r) for c in range(3) for r in range(2)], rng.randint(2, 5))
    places = []
    for k, at in enumerate(slots):
        size = rng.choice([(33, 10), (33, 10), (17, 6), (10, 5)])
        b = _board(f"b{k}", size, rng, rng.choice(["open", "building"]))
        places.append(Placement(b, at, size[0] % 2 == 1 and rng.random() < 0.4))
    m = Map(places)
    halves = _hex_by_hex(m)
    assert set(m._index_of_name) == set(halves)
    for name, (pos, p, c, n) in halves.items():
        i = m._index_of_name[name]
        assert m.index_of_pos[pos] == i and (int(m.col[i]), int(m.row[i])) == pos
    for i, name in enumerate(m.names):
        pos, p, c, n = halves[name]
        here = [h for h in halves.values() if h[0] == pos]
        assert p is max((h[1] for h in here), key=lambda q: (-q.at[1], q.at[0]))
        spec = p.board.at(c, n)
        assert (m.board_of[i].board, m.board_of[i].col, m.board_of[i].row) == (p.board.id, c, n)
        assert m.terrain[i] == TERRAINS[spec.terrain].code and m.level[i] == spec.level
        assert m.upper_levels[i] == spec.upper_levels
        assert m.half_level[i] == (spec.half_level or TERRAINS[spec.terrain].half_level)
        assert (m.building[i] is None) == (spec.terrain != "building")
    # a building drawn across a join is one building: its hexes' groups are merged
    for name, (pos, p, c, n) in halves.items():
        i = m._index_of_name[name]
        if p.board.at(c, n).terrain == "building" and m.building[i] is not None:
            group = f"{p.board.id}:{p.board.at(c, n).building}" if p.board.at(c, n).building \
                else name
            same = [j for j in range(m.size) if m.building[j] == m.building[i]]
            mine = [m._index_of_name[o] for o, h in halves.items()
                    if h[1] is p and p.board.at(h[2], h[3]).terrain == "building"
                    and (f"{p.board.id}:{p.board.at(h[2], h[3]).building}"
                         if p.board.at(h[2], h[3]).building else o) == group]
            assert set(mine) <= set(same)


# ----------------------------------------------------------------------------- lights


def test_a_fire_lights_what_the_whole_row_from_it_would_light():
    """E1.9: Blazes reach the hexes of their circle their daytime LOS reaches: asking only
    the circle's lines gives the whole row's answer there."""
    rng = random.Random(4)
    boards = [_board(f"f{k}", (33, 10), rng) for k in range(2)]
    m = Map([Placement(boards[0], (0, 0)), Placement(boards[1], (1, 0))])
    fires = [Marker("blaze", rng.choice(m.names), radius=r) for r in (1, 2, 3, 4)]
    s = Scenario(tuple(MapEntry(p.board.id, p.at) for p in m.placements), m, markers=tuple(fires))
    ill = illumination(s)
    table = LosTable(m)
    assert len(ill.sources) == len(fires)
    for (_, reached), (_, c, _, circle), refused in zip(ill.sources, ill.circles, ill.refused):
        row = table.from_location(c, 0).clear
        assert circle.sum() > 1 and np.array_equal(reached, circle & row)
        assert np.array_equal(refused, circle & ~row)
    assert (~ill.blind | ~ill.lit).all()


def test_a_scenario_whose_units_alone_changed_keeps_its_lights_and_gunflashes():
    """E1.9, E1.8: what the lights reach and where the Gunflashes are depend on the map and
    the markers only; a unit moved (a drag step) keeps them, the same as computed anew; a
    marker moved has them computed again."""
    from engine.night.light import _illumination
    from engine.night.verdicts import gunflash_mask
    rng = random.Random(5)
    boards = [_board(f"g{k}", (33, 10), rng) for k in range(2)]
    m = Map([Placement(boards[0], (0, 0)), Placement(boards[1], (1, 0))])
    lights = (Marker("blaze", "g0E5", radius=2), Marker("starshell", "g1C4"),
              Marker("gunflash", "g0H7", side="axis"))
    units = (Unit("A", "allied", "squad", "g0E4"), Unit("G", "axis", "squad", "g1F6"))
    s = Scenario(tuple(MapEntry(p.board.id, p.at) for p in m.placements), m, units=units,
                 markers=lights)
    lit, flashes = illumination(s), gunflash_mask(s)
    assert lit.lit.any() and flashes.any()
    moved = s.moved("A", "g1C5").with_unit(s.unit("G").replace(broken=True))
    assert illumination(moved) is lit and gunflash_mask(moved) is flashes
    fresh = _illumination(moved)
    assert np.array_equal(fresh.lit, lit.lit) and np.array_equal(fresh.blind, lit.blind)
    assert illumination(moved).unit_lit(moved.unit("A")) == bool(lit.lit[m.index("g1C5")])
    other = s.with_marker(Marker("starshell", "g0C3"), 1)
    assert illumination(other) is not lit and gunflash_mask(other) is not flashes
    assert not np.array_equal(illumination(other).lit, lit.lit)
    assert np.array_equal(illumination(other).lit, _illumination(other).lit)


# ------------------------------------------------------------------------------ walls


def test_walls_along_hexspines_block_as_the_general_path_says():
    """On a map with walls and hedges only, lines along hexspines (the short path) and all
    others: what blocks, why and where, as when the general hexside path is taken."""
    rng = random.Random(9)
    boards = []
    for k in range(2):
        b = _board(f"w{k}", (33, 10), rng)
        sides = {hexside_key(c, n, rng.randint(1, 6)): rng.choice(["wall", "hedge"])
                 for c, n in board_hexes() if rng.random() < 0.35}
        boards.append(Board(b.id, b.title, b.default, b.hexes, hexsides=sides))
    m = Map([Placement(boards[0], (0, 0)), Placement(boards[1], (1, 0))])
    short, general = LosTable(m), LosTable(m)
    assert not short.any_nonwall and not short.any_own_seen
    general.any_own_seen = True        # the general path (it finds nothing more here)
    targets = np.arange(m.size)
    for v in rng.sample(range(m.size), 60):
        for level in (0, 1):
            ve = int(short.ground[v]) + level
            a = short.lines(v, ve, targets, short.ground[:-1])
            b = general.lines(v, ve, targets, general.ground[:-1])
            for f in ("clear", "kind", "block_h1", "block_h2", "hindrances", "block_side"):
                assert np.array_equal(getattr(a, f), getattr(b, f)), (v, level, f)
