"""Thousands of random edits on the Document: move, add, delete, edit, undo, redo, save,
load.  An edit the engine refuses (``api.check``: a passenger moved away from its vehicle...)
changes nothing.  After every step the position equals a plain model of the undo history, the
undo stack stands where the model does, the position passes ``api.check`` and round-trips through
save/load unchanged."""
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from PySide6.QtWidgets import QApplication

import engine
from app.night.document import Document
from engine import api
from engine.boards import assets_dir
from engine.night.files import scenario_from_json, scenario_to_json
from engine.night.scenario import MARKER_TYPES, Marker, Unit

START = assets_dir() / "scenarios" / "default.json"
HEXES = ["2A1", "2T6", "2BB5", "2CC8", "2GG5", "34A5", "34H7", "34I8", "34U6", "2DD6", "2Y4",
         "34GG10", "2B0"]
FLAGS = ["concealed", "broken", "pinned", "bypass"]
APP = QApplication.instance() or QApplication([])


class DocumentMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="starshell-stateful-"))
        self.doc = Document.open_file(START)
        self.history = [scenario_to_json(self.doc.scenario)]
        self.at = 0
        self.next_id = 0
        self.saved = None

    # ---------------------------------------------------------------- model
    def _pushed(self):
        self.history = self.history[:self.at + 1] + [scenario_to_json(self.doc.scenario)]
        self.at += 1

    def _edit(self, change) -> None:
        """Make one edit: pushed on the model, or refused by the engine leaving all as it was."""
        before = self.s
        try:
            change()
        except engine.ScenarioError:
            assert self.s is before
            return
        self._pushed()

    @property
    def s(self) -> engine.Scenario:
        return self.doc.scenario

    # ---------------------------------------------------------------- edits
    @precondition(lambda self: self.s.units)
    @rule(k=st.integers(0, 99), hex_id=st.sampled_from(HEXES))
    def move(self, k, hex_id):
        u = self.s.units[k % len(self.s.units)]
        self._edit(lambda: self.doc.move_unit(u.id, hex_id))

    @rule(side=st.sampled_from(["allied", "axis"]), hex_id=st.sampled_from(HEXES),
          type_=st.sampled_from(["squad", "leader", "crew", "hero", "half_squad", "mortar"]))
    def add_unit(self, side, hex_id, type_):
        self.next_id += 1
        unit = Unit(f"N{self.next_id}", side, type_, self.s.map.canonical(hex_id))
        self._edit(lambda: self.doc.edit(self.s.with_unit(unit), f"add {unit.id}"))

    @precondition(lambda self: self.s.units)
    @rule(k=st.integers(0, 99))
    def delete_unit(self, k):
        u = self.s.units[k % len(self.s.units)]
        self._edit(lambda: self.doc.edit(self.s.without_unit(u.id), f"delete {u.id}"))

    @precondition(lambda self: self.s.units)
    @rule(k=st.integers(0, 99), flag=st.sampled_from(FLAGS))
    def toggle(self, k, flag):
        u = self.s.units[k % len(self.s.units)]
        after = self.s.with_unit(u.replace(**{flag: not getattr(u, flag)}))
        self._edit(lambda: self.doc.edit(after, f"edit {u.id}"))

    @rule(type_=st.sampled_from(MARKER_TYPES), hex_id=st.sampled_from(HEXES),
          radius=st.integers(0, 4))
    def add_marker(self, type_, hex_id, radius):
        mk = Marker(type_, self.s.map.canonical(hex_id),
                    radius=radius if type_ in ("blaze", "flame") else None,
                    extra=api.night.marker_defaults(type_))     # as the palette puts it down
        self._edit(lambda: self.doc.add_marker(mk))

    @precondition(lambda self: self.s.markers)
    @rule(k=st.integers(0, 99))
    def remove_marker(self, k):
        self._edit(lambda: self.doc.remove_marker(k % len(self.s.markers)))

    @rule(nvr=st.integers(0, 8), phase=st.sampled_from(["PFPh", "MPh", "DFPh"]))
    def scenario_settings(self, nvr, phase):
        self._edit(lambda: self.doc.edit(self.s.replace(nvr=nvr, phase=phase), "settings"))

    @precondition(lambda self: self.doc.undo_stack.canUndo())
    @rule()
    def undo(self):
        self.doc.undo_stack.undo()
        self.at -= 1

    @precondition(lambda self: self.doc.undo_stack.canRedo())
    @rule()
    def redo(self):
        self.doc.undo_stack.redo()
        self.at += 1

    @rule()
    def save(self):
        path = self.folder / "position.json"
        self.doc.save(path)
        self.saved = scenario_to_json(self.s)
        assert self.doc.undo_stack.isClean()

    @precondition(lambda self: self.saved is not None)
    @rule()
    def load(self):
        self.doc.load(self.folder / "position.json")
        assert scenario_to_json(self.s) == self.saved
        self.history = [self.saved]
        self.at = 0

    # ---------------------------------------------------------------- what must always hold
    @invariant()
    def matches_the_model_and_is_valid(self):
        now = scenario_to_json(self.s)
        assert now == self.history[self.at]
        assert self.doc.undo_stack.index() == self.at
        assert api.night.check(self.s) is self.s
        again = scenario_from_json(now, file="(memory)", folder=self.s.folder)
        assert scenario_to_json(again) == now

    def teardown(self):
        self.doc.deleteLater()
        shutil.rmtree(self.folder)                      # one folder per example: none is left


DocumentMachine.TestCase.settings = settings(
    max_examples=40, stateful_step_count=60, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
test_thousands_of_random_edits_undo_redo_save_load = DocumentMachine.TestCase
