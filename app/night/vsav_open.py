"""Opening a VASL saved game (``.vsav``): File > Open, a dropped file, ``python -m app
GAME.vsav``.  The engine reads the game (``api.vsav_scenario``); the window shows it as a new,
unsaved position, and tells what was approximated or left out.

Boards come from the player's VASL boards folder (remembered in the settings), else Starshell's
bundled board of that id; for a board found in neither, the player chooses the folder of their
VASL boards or blank open boards in its place (the notes say which boards are blank).
"""
from __future__ import annotations

import os
import sys
from collections import Counter

from PySide6.QtWidgets import QFileDialog, QMessageBox

from engine import api

VSAV_FILTER = "VASL saved games (*.vsav)"
BOARDS_KEY = "vasl/boards_folder"


def is_vsav(path: str) -> bool:
    return str(path).lower().endswith(".vsav")


def boards_folder(settings) -> str | None:
    folder = settings.value(BOARDS_KEY, "") or ""
    return folder if folder and os.path.isdir(folder) else None


def ask_missing(window, boards: list[str]) -> str | None:
    """The player's choice for boards found nowhere: "folder", "blank" or None (give up)."""
    box = QMessageBox(QMessageBox.Icon.Question, "Boards missing",
                      f"The saved game is played on board(s) {', '.join(boards)}, which "
                      "Starshell does not have. Choose the folder of your VASL boards (bd01, "
                      "bd02... as VASL keeps them), or open the game on blank open boards in "
                      "their place (no terrain: hills, woods and buildings are missing).",
                      parent=window)
    folder = box.addButton("Choose boards folder...", QMessageBox.ButtonRole.AcceptRole)
    blank = box.addButton("Use blank boards", QMessageBox.ButtonRole.DestructiveRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return {id(folder): "folder", id(blank): "blank"}.get(id(box.clickedButton()))


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
    it (a scenario and its summary), when no board was missing."""
    folder, blank = boards or boards_folder(window.settings), False
    while read is None:
        try:
            read = api.vsav_scenario(path, folder, blank)
        except api.MissingBoards as e:
            choice = ask_missing(window, e.boards)
            if choice == "blank":
                blank = True
            elif choice == "folder":
                chosen = QFileDialog.getExistingDirectory(window, "The folder of your VASL boards",
                                                          folder or os.path.expanduser("~"))
                if not chosen:
                    return False
                folder = chosen
                window.settings.setValue(BOARDS_KEY, chosen)
            else:
                return False
        except (api.ScenarioError, OSError) as e:
            window.show_error("Cannot open this VASL saved game", str(e))
            return False
    scenario, summary = read
    window.document.take_unsaved(scenario)
    window.say(f"Opened the VASL saved game {path} as a new position", 10000)
    QMessageBox.information(window, "VASL saved game opened", summary_text(path, summary))
    return True


def run(app, path: str, args, settings=None) -> int:
    """``python -m app GAME.vsav [--boards DIR] [--screenshot ...]``: boards from ``--boards``,
    else the folder of the settings, else the bundled ones.  In the window, a board found
    nowhere is asked for as File > Open asks (a boards folder, or blank boards; given up: the
    window stays on the bundled position); headless (``--screenshot``) it is a blank open
    board, said on stderr.  A damaged save: ``error:`` on stderr, status 2."""
    from PySide6.QtCore import QSettings

    from .document import Document, default_scenario_path
    boards = getattr(args, "boards", None)
    folder = boards or boards_folder(settings if settings is not None else QSettings())
    try:
        read = api.vsav_scenario(path, folder, bool(args.screenshot))
    except api.MissingBoards:
        read = None                         # the window asks, as File > Open does
    except (api.ScenarioError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.screenshot:
        scenario, summary = read
        for note in summary["notes"]:
            if "blank open board" in note:
                print(f"warning: {note}", file=sys.stderr)
        document = Document(scenario, None)
        from .screenshot import render_map
        try:
            if args.select:
                document.select(args.select)
        except api.ScenarioError as e:
            print(f"error: {path}: {e}", file=sys.stderr)
            return 2
        if not render_map(document, *args.size).save(args.screenshot, "PNG"):
            print(f"error: {args.screenshot}: cannot write the PNG", file=sys.stderr)
            return 2
        return 0
    from .main_window import MainWindow
    scenario = read[0] if read is not None else api.load_scenario(default_scenario_path())
    window = MainWindow(Document(scenario, None), settings)
    window.show()
    if not open_vsav(window, path, boards, read):
        window.say(f"The VASL saved game {path} was not opened", 15000)
    return app.exec()


def open_filter(base: str) -> str:
    """The Open dialog's filter: positions and saved games together first, then ``base``."""
    return f"Positions and VASL saved games (*.json *.vsav);;{VSAV_FILTER};;{base}"
