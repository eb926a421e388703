"""Opening a VASL saved game (``.vsav``): File > Open, a dropped file, ``python -m app
GAME.vsav`` (``app.night.open_window``, ``app.night.save_screenshot``).  The engine reads the game
(``api.vsav_scenario``) through the app's job runner, behind a progress dialog with Cancel (the
window keeps painting); the window shows it as a new, unsaved position, and tells what was
approximated or left out.

Boards come from the player's VASL boards folder (remembered in the settings), else Starshell's
bundled board of that id; for a board found in neither, the player chooses the folder of their
VASL boards or blank open boards in its place (the notes say which boards are blank).
"""
from __future__ import annotations

import os
import sys
from collections import Counter

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.jobs import run_in_dialog, runner
from engine import api

from .sides_dialog import choose_sides

BOARDS_KEY = "vasl/boards_folder"


def boards_folder(settings) -> str | None:
    folder = settings.value(BOARDS_KEY, "") or ""
    return folder if folder and os.path.isdir(folder) else None


def missing_text(boards: list[str], reasons: dict[str, str], folder: str | None) -> str:
    """What the boards dialog says: each board the folder lacks, and why."""
    lines = [f"The saved game is played on board(s) {', '.join(boards)}, which "
             + (f"the boards folder {folder} does not serve:" if folder
                else "Starshell does not have yet (no boards folder chosen):")]
    lines += [f"\u2022 board {b}: {reasons[b]}" for b in boards if b in reasons]
    lines.append("Choose the folder where VASL keeps your boards (the one holding bd01, bd02 "
                 "...), or open the game on blank open boards in their place (no terrain: "
                 "hills, woods and buildings are missing).")
    return "\n".join(lines)


def ask_missing(window, boards: list[str], reasons: dict[str, str] | None = None,
                folder: str | None = None) -> str | None:
    """The player's choice for boards found nowhere: "folder", "blank" or None (give up)."""
    box = QMessageBox(QMessageBox.Icon.Question, "Boards missing",
                      missing_text(boards, reasons or {}, folder), parent=window)
    chosen = box.addButton("Choose another boards folder..." if folder
                           else "Choose boards folder...", QMessageBox.ButtonRole.AcceptRole)
    blank = box.addButton("Use blank boards", QMessageBox.ButtonRole.DestructiveRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return {id(chosen): "folder", id(blank): "blank"}.get(id(box.clickedButton()))


def summary_text(path: str, summary: dict) -> str:
    lines = [f"{os.path.basename(path)}: boards {', '.join(summary['boards'])}, "
             f"{summary['units']} unit(s), {summary['markers']} marker(s)."]
    lines += [f"\u2022 {note}" for note in summary["notes"]]
    if summary["skipped"]:
        why = Counter(s["why"].split(" at (")[0] for s in summary["skipped"])
        lines.append(f"Left out ({len(summary['skipped'])} piece(s)):")
        lines += [f"\u2022 {n} x {w}" for w, n in why.most_common()]
    lines.append("This is a new position: Save As keeps it (and the boards it needs) as files.")
    return "\n".join(lines)


def open_vsav(window, path: str, boards: str | None = None, read=None) -> bool:
    """Open the saved game as a new, unsaved position in ``window``; False when refused (the
    engine's message is shown) or given up.  ``boards``: a folder of VASL boards for this game
    only (``--boards``), else the one of the settings; ``read``: the game already read from
    it (a scenario and its summary), when no board was missing.  A folder the player chooses
    is remembered only once the game has opened with it: one that does not serve is never
    kept, and the dialog says which boards it lacks and why.  A save of more than two
    nationalities first asks which two sides play (``choose_sides``)."""
    go, sides = choose_sides(window, path)
    if not go:
        return False
    if sides is not None:
        read = None                 # read again, on the sides chosen
    folder, blank, chosen = boards or boards_folder(window.settings), False, None
    while read is None:
        try:
            read = _read_showing(window, path, folder, blank, sides)
            if read is None:
                window.say("Opening the VASL saved game cancelled", 10000)
                return False
        except api.vasl.MissingBoards as e:
            choice = ask_missing(window, e.boards, e.reasons, folder)
            if choice == "blank":
                blank = True
            elif choice == "folder":
                picked = QFileDialog.getExistingDirectory(window, "The folder of your VASL boards",
                                                          folder or os.path.expanduser("~"))
                if not picked:
                    return False
                folder = chosen = picked
            else:
                return False
        except (api.ScenarioError, OSError) as e:
            window.show_error("Cannot open this VASL saved game", str(e))
            return False
    if chosen is not None:
        window.settings.setValue(BOARDS_KEY, chosen)       # it served: kept for next time
    scenario, summary = read
    window.document.take_unsaved(scenario, came_from=path)
    if summary.get("waiting"):
        window.dock("waiting").raise_()         # a set-up to place: its counters in view
    window.say(f"Opened the VASL saved game {path} as a new position", 10000)
    QMessageBox.information(window, "VASL saved game opened", summary_text(path, summary))
    return True


def _read_showing(window, path: str, folder: str | None, blank: bool, sides=None):
    """The game read through the job runner, a progress dialog with Cancel shown once it takes
    time (importing boards takes a second or two); None when cancelled (the reading goes on to
    its end in the background and is dropped: the engine's reading cannot be stopped midway).
    The engine's error is raised here."""
    name = os.path.basename(path)
    job = runner().submit(api.vasl.vsav_scenario, path, folder, blank, sides,
                          text=f"Reading the VASL saved game {name}")
    run_in_dialog(window, job, "Open a VASL saved game",
                  f"Reading the VASL saved game {name} and importing its boards...")
    return None if job.state == "cancelled" else job.result()


def read_headless(path: str, boards: str | None) -> tuple[api.night.Scenario, dict]:
    """``--screenshot`` of a saved game: boards from ``boards``, else the folder of the
    settings, else the bundled ones; a board found nowhere is a blank open board, said on
    stderr.  Raises api.ScenarioError or OSError for a damaged save."""
    scenario, summary = api.vasl.vsav_scenario(path, boards or boards_folder(QSettings()), True)
    for note in summary["notes"]:
        if "blank open board" in note:
            print(f"warning: {note}", file=sys.stderr)
    return scenario, summary
