"""The bound on a drawn map's pixel classes in the window (docs/formats.md, *Loading*): the
window's Document builds a drawn map's frame under the command line's bound
(``api.MAX_PIXEL_CLASSES``) until the player chooses to build that map anyway.

``bounded_warm_up`` and ``bounded_answers`` run on the job runner's thread (its one thread: they
never run at once).  A map refused once is refused again at once (the Document's refusals,
by the map's content key), without building the frame a second time; nothing of a refused build is kept;
``refusing`` refuses the Document's other jobs (the planner, the LOS thread) on such a map.
``ask_build_anyway`` is the window's question; ``refusal_text`` what it and the status bar say.
"""
from __future__ import annotations

from contextlib import contextmanager

from PySide6.QtWidgets import QMessageBox

from engine import api

from .answers import Answers

BUILD_ANYWAY = "Build anyway (may need more than 2 GB of memory)"
NOT_NOW = "Not now"


@contextmanager
def _bounded(refusals: dict, most: int | None, position):
    """``refusals``: a Document's refused maps, content key -> the engine's refusal."""
    key = position.map.content_key
    if most is not None and key in refusals:
        raise refusals[key]                 # refused once: not built again to be refused
    try:
        yield
    except api.PixelClassesPastBound as e:
        refusals[key] = e
        raise


def bounded_warm_up(refusals: dict, most: int | None, position, progress=None) -> None:
    """``api.warm_up`` of ``position`` under the bound ``most`` (None: none)."""
    with _bounded(refusals, most, position):
        api.warm_up(position, progress, max_classes=most)


def bounded_answers(refusals: dict, most: int | None, ask, *question, progress=None) -> Answers:
    """``ask(*question)`` (``answers.ask_engine``; the question's first: the position) under
    the bound ``most``, a drawn map's frame built meanwhile reporting its steps to the job's
    ``progress`` (and stopped there on Cancel: ``app.jobs``)."""
    with _bounded(refusals, most, question[0]), \
            api.building(progress=progress, max_classes=most):
        return ask(*question)


def refusing(refusals: dict, most: int | None, key: str, job):
    """``job`` run unless the map of content ``key`` was refused under a bound (``most``)."""
    def work(*args, **kwargs):
        if most is not None and key in refusals:
            raise refusals[key]
        return job(*args, **kwargs)
    return work


def refusal_text(where: str, error: api.PixelClassesPastBound) -> str:
    """The refusal said to the player: the position's file, the count and the bound."""
    return (f"{where}: its LOS table was not built: the terrain drawn on boards "
            f"{', '.join(error.boards)} makes {error.classes:,} pixel classes, past the bound of "
            f"{error.bound:,} (docs/formats.md, Loading); building it may need more than 2 GB "
            "of memory and minutes. Until it is built the fields stay empty.")


def where_of(document) -> str:
    """The position's file as the refusal names it (its title when never saved)."""
    return document.path or document.came_from or document.scenario.title or "This position"


def past_bound(window, text: str) -> None:
    """A drawn map refused past the bound: said in the status bar (until another message) and,
    the first time for this document, the question: built anyway, or not now (the choice is
    remembered: the document's fields stay empty, the status bar says why)."""
    window.say(text, 0)
    document = window.document
    if document.build_choice is not None:
        return
    document.build_choice = "asking"
    if ask_build_anyway(window, text):
        document.build_anyway()
        window.say("Building the map's LOS table past the bound", 10000)
    else:
        document.build_choice = "not now"


def ask_build_anyway(window, text: str) -> bool:
    """Build anyway (True) or not now (False)."""
    box = QMessageBox(QMessageBox.Icon.Warning, "A drawn map past the bound", text,
                      parent=window)
    anyway = box.addButton(BUILD_ANYWAY, QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(box.addButton(NOT_NOW, QMessageBox.ButtonRole.RejectRole))
    box.exec()
    return box.clickedButton() is anyway
