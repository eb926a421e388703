"""The README's commands work from a fresh clone: every one runs the interpreter the install made
(a bare ``python`` has none of the libraries: "No module named 'shapely'")."""
import re

from support import ROOT


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```(?:sh|bash|console)?\n(.*?)```", text, flags=re.S)
    return [line.strip() for block in blocks for line in block.splitlines()
            if re.search(r"-m (app|engine|pytest)\b", line)]


def test_every_readme_command_runs_the_installed_interpreter():
    commands = _commands()
    assert len(commands) > 20
    for line in commands:
        for run in re.finditer(r"(\S*)python3?\s+-m\s+(app|engine|pytest)\b", line):
            assert run.group(1) == ".venv/bin/", line


def test_the_readme_says_how_long_the_tests_take():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(r"about \d,\d00 tests and takes a few minutes", text)
