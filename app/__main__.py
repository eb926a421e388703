"""``python -m app [SCENARIO] [--screenshot OUT.png [--select UNIT] [--size WxH]]``, and
``python -m app GAME.vsav [--boards DIR]`` for a VASL saved game.

Without ``--screenshot``: the window, on SCENARIO or on the bundled default scenario.  With it:
the same map view rendered headless to OUT.png and exit.  Bad input: a line on stderr starting
with ``error:``, exit status 2.
"""
from __future__ import annotations

import argparse
import os
import re
import sys

MAX_SIDE = 16384


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"error: {message}", file=sys.stderr)
        sys.exit(2)


def _size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not m or not (0 < int(m.group(1)) <= MAX_SIDE and 0 < int(m.group(2)) <= MAX_SIDE):
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 1600x900 "
                                         f"(1..{MAX_SIDE} pixels a side)")
    return int(m.group(1)), int(m.group(2))


def parse_args(argv=None) -> argparse.Namespace:
    p = _Parser(prog="starshell", description="Starshell: night visibility for ASL")
    p.add_argument("scenario", nargs="?", help="a scenario file (default: the bundled one)")
    p.add_argument("--screenshot", metavar="OUT.png", help="render the map to a PNG and exit")
    p.add_argument("--select", metavar="UNIT", help="the unit whose night field is shown")
    p.add_argument("--size", metavar="WxH", type=_size, default=(1600, 900),
                   help="screenshot size in pixels (default 1600x900)")
    p.add_argument("--boards", metavar="DIR",
                   help="a VASL saved game's boards: the folder of your VASL boards "
                        "(default: the one Starshell remembers)")
    return p.parse_args(argv)


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")    # headless: no window shown
    from PySide6.QtWidgets import QApplication

    from engine import api

    from .night.document import default_scenario_path

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName("Starshell")
    app.setApplicationName("Starshell")
    from . import style
    style.apply_theme(app)
    path = args.scenario or str(default_scenario_path())
    from .night.vsav_open import is_vsav, run
    if args.boards is not None and not is_vsav(path):
        return _fail("--boards is for a VASL saved game (GAME.vsav)")
    if args.boards is not None and not os.path.isdir(args.boards):
        return _fail(f"{args.boards}: not a folder (--boards)")
    if is_vsav(path):                         # a VASL saved game: a new, unsaved position
        return run(app, path, args)
    from .rooms import room_for
    try:
        room = room_for(path)
    except api.ScenarioError as e:
        return _fail(str(e) if e.file else f"{path}: {e}")
    if room is not None:                      # another game's file: its own room
        try:
            if args.screenshot:
                width, height = args.size
                room.save_screenshot(path, args.screenshot, width, height, args.select)
                return 0
            window = room.open_window(path)
        except api.ScenarioError as e:
            return _fail(str(e) if e.file else f"{path}: {e}")
        except OSError as e:
            return _fail(str(e))
        window.show()
        return app.exec()
    if args.screenshot:
        from .night.screenshot import save_screenshot
        width, height = args.size
        try:
            save_screenshot(path, args.screenshot, args.select, width, height)
        except api.ScenarioError as e:
            return _fail(str(e) if e.file else f"{path}: {e}")
        except OSError as e:
            return _fail(str(e))
        return 0
    from .night.document import Document
    from .night.main_window import MainWindow
    from .night.recovery import offer_recovery
    try:
        # unsaved work a crash left behind comes first, if the player wants it back
        document = offer_recovery()
        if document is None:
            # the bundled default has no file name: Save asks for one instead of writing the assets
            document = Document(api.load_scenario(path), args.scenario)
            if args.select:
                document.select(args.select)
    except api.ScenarioError as e:
        return _fail(str(e) if e.file else f"{path}: {e}")
    window = MainWindow(document)
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
