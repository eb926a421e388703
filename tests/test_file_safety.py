"""Files as an attacker would make them: saves that lose nothing, files that cannot hang or exhaust
the program, and one message (the file, the place, the problem) for every bad input."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from engine import cli
from engine.boards import assets_dir
from engine.errors import ScenarioError
from engine.jsonio import MAX_FILE_BYTES, STALE_TEMP_SECONDS, atomic_write_json, read_json
from engine.night.bounds import MAX_MAP_HEXES, MAX_MAP_SPAN
from engine.night.files import load_scenario, scenario_from_json

ROOT = Path(__file__).resolve().parent.parent
W12 = assets_dir() / "scenarios" / "W-12.json"
BOARD2 = assets_dir() / "boards" / "2.json"
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs, devices, modes: POSIX")


def position(**changes) -> dict:
    data = json.loads(W12.read_text())
    data.update(changes)
    return data


def refusal(data: dict, folder: Path) -> ScenarioError:
    with pytest.raises(ScenarioError) as e:
        scenario_from_json(data, file="pos.json", folder=str(folder))
    return e.value


def run_cli(*args: str, capsys) -> tuple[int, str]:
    code = cli.main(list(args))
    return code, capsys.readouterr().err


# ---------------------------------------------------------------------------- data loss
def test_a_backup_that_cannot_be_made_fails_the_save_and_leaves_the_file(tmp_path):
    target = tmp_path / "pos.json"
    atomic_write_json(target, {"v": 1})
    (tmp_path / "pos.json.bak").mkdir()                  # the backup cannot be written
    with pytest.raises(ScenarioError) as e:
        atomic_write_json(target, {"v": 2})
    assert e.value.file == str(target) and "pos.json.bak" in e.value.problem
    assert json.loads(target.read_text()) == {"v": 1}  # untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pos.json", "pos.json.bak"]


def test_the_backup_holds_the_previous_version(tmp_path):
    target = tmp_path / "pos.json"
    for v in (1, 2, 3):
        atomic_write_json(target, {"v": v})
    assert json.loads((tmp_path / "pos.json.bak").read_text()) == {"v": 2}


@posix_only
def test_saving_to_a_symlink_is_refused_and_leaves_both_as_they_were(tmp_path):
    real = tmp_path / "games" / "real.json"
    real.parent.mkdir()
    atomic_write_json(real, {"v": 1})
    link = tmp_path / "link.json"
    link.symlink_to(real)
    with pytest.raises(ScenarioError) as e:
        atomic_write_json(link, {"v": 2})            # no write through a link (file_writes)
    assert e.value.file == str(link) and str(real) in e.value.problem
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert json.loads(real.read_text()) == {"v": 1}
    assert not (real.parent / "real.json.bak").exists()


@posix_only
def test_saving_keeps_the_mode_and_a_new_file_gets_the_umask_one(tmp_path):
    target = tmp_path / "pos.json"
    target.write_text("{}")
    os.chmod(target, 0o640)
    atomic_write_json(target, {"v": 1})
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    old = os.umask(0o027)
    try:
        atomic_write_json(tmp_path / "new.json", {"v": 1})
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "new.json").st_mode) == 0o640   # 666 & ~027


@posix_only
def test_temp_files_of_killed_saves_are_removed_by_the_next_save(tmp_path):
    """A save SIGKILLed half-way (here: at its fsync) leaves its temporary file; the next save of
    the same file removes it once it is older than a save takes, and leaves a fresh one (a save
    under way in another program) alone."""
    target = tmp_path / "pos.json"
    killed = subprocess.run([sys.executable, "-c", (
        "import os, signal, sys; from pathlib import Path\n"
        "from engine import jsonio\n"
        "os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)\n"
        f"jsonio.atomic_write_json(Path({str(target)!r}), {{'v': 1}})\n")], cwd=ROOT)
    assert killed.returncode == -9
    left = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(left) == 1 and not target.exists()
    old = os.path.getmtime(left[0]) - STALE_TEMP_SECONDS - 5
    os.utime(left[0], (old, old))
    fd, fresh = tempfile.mkstemp(prefix=".pos.json.", suffix=".tmp", dir=tmp_path)
    os.close(fd)
    atomic_write_json(target, {"v": 2})
    assert not left[0].exists() and Path(fresh).exists()
    assert json.loads(target.read_text()) == {"v": 2}


# ------------------------------------------------------------------ no hang, bounded memory
@posix_only
def test_a_fifo_as_the_position_is_refused_at_once(tmp_path, capsys):
    fifo = tmp_path / "pos.json"
    os.mkfifo(fifo)
    with pytest.raises(ScenarioError) as e:
        load_scenario(fifo)
    assert e.value.file == str(fifo) and "FIFO" in e.value.problem
    code, err = run_cli("check", str(fifo), capsys=capsys)
    assert code == 2 and str(fifo) in err and "FIFO" in err


@posix_only
def test_a_json_link_to_a_device_is_refused_without_reading_it(tmp_path):
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    with pytest.raises(ScenarioError) as e:
        read_json(link)
    assert "device" in e.value.problem


@posix_only
def test_saving_onto_a_fifo_is_refused_and_leaves_it(tmp_path):
    fifo = tmp_path / "pos.json"
    os.mkfifo(fifo)
    with pytest.raises(ScenarioError) as e:
        atomic_write_json(fifo, {"v": 1})
    assert "FIFO" in e.value.problem and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_file_larger_than_the_limit_is_refused(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_FILE_BYTES + 1))
    with pytest.raises(ScenarioError) as e:
        read_json(big)
    assert "too large" in e.value.problem


def _boards(folder: Path, count: int) -> list[str]:
    board = json.loads(BOARD2.read_text())
    names = []
    for k in range(count):
        board["id"] = f"b{k}"
        (folder / f"b{k}.json").write_text(json.dumps(board))
        names.append(f"b{k}.json")
    return names


def test_a_map_larger_than_the_limit_is_refused_before_it_is_built(tmp_path):
    """21 x 21 slots of boards never answered a field; the limit (README) is 32 boards' hexes
    and 4 boards wide."""
    names = _boards(tmp_path, 33)
    data = position(map=[{"board": n, "at": [k % 4, k // 4]} for k, n in enumerate(names)],
                    units=[], markers=[])
    e = refusal(data, tmp_path)
    assert e.place == "map" and str(MAX_MAP_HEXES) in e.problem
    wide = position(map=[{"board": names[0], "at": [0, 0]}, {"board": names[1], "at": [4, 0]}],
                    units=[], markers=[])
    e = refusal(wide, tmp_path)
    assert e.place == "map" and str(MAX_MAP_SPAN) in e.problem
    four_by_four = position(map=[{"board": n, "at": [k % 4, k // 4]}
                                 for k, n in enumerate(names[:16])], units=[], markers=[])
    assert scenario_from_json(four_by_four, folder=str(tmp_path)).map.size > 5000


# ---------------------------------------------------------------------- crashes, messages
def test_a_board_path_component_over_255_characters_is_a_message(tmp_path, capsys):
    data = position(map=[{"board": "x" * 300 + ".json", "at": [0, 0]}])
    e = refusal(data, tmp_path)
    assert e.place == "map[0].board" and "too long" in e.problem
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(data))
    code, err = run_cli("check", str(pos), capsys=capsys)
    assert code == 2 and err.startswith(f"error: {pos}: map[0].board") and "Traceback" not in err


def test_an_over_long_file_name_on_the_command_line_is_a_message(tmp_path, capsys):
    code, err = run_cli("check", str(tmp_path / ("y" * 300 + ".json")), capsys=capsys)
    assert code == 2 and "too long" in err and "internal error" not in err


def test_a_folder_as_a_board_file_is_called_a_folder(tmp_path):
    (tmp_path / "dir.json").mkdir()
    e = refusal(position(map=[{"board": "dir.json", "at": [0, 0]}]), tmp_path)
    assert e.place == "map[0].board" and "folder" in e.problem and "not found" not in e.problem


def test_a_utf16_file_is_named_utf16_not_binary(tmp_path):
    path = tmp_path / "pos.json"
    path.write_bytes(W12.read_text().encode("utf-16"))
    with pytest.raises(ScenarioError) as e:
        read_json(path)
    assert "UTF-16" in e.value.problem and "UTF-8" in e.value.problem
    assert "binary" not in e.value.problem


def test_a_5000_digit_number_names_its_place(tmp_path):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(position()).replace('"nvr": 3', '"nvr": ' + "9" * 5000))
    with pytest.raises(ScenarioError) as e:
        load_scenario(path)
    assert e.value.place == "nvr" and "5000 digits" in e.value.problem
    assert "set_int_max_str_digits" not in str(e.value)


def test_values_in_messages_are_json_and_cut(tmp_path):
    data = position()
    data["units"][0]["broken"] = ["T"]
    assert 'not ["T"]' in refusal(data, tmp_path).problem
    data = position(nvr=True)
    assert "not true" in refusal(data, tmp_path).problem
    data = position(phase="P" * 5000)
    e = refusal(data, tmp_path)
    assert e.place == "phase" and len(str(e)) < 300 and "5002 characters" in e.problem
    data = position()
    data["units"][0]["hex"] = "2" * 5000
    e = refusal(data, tmp_path)
    assert e.place == "units[0].hex" and len(str(e)) < 300


def test_a_unit_aboard_itself_is_refused(tmp_path):
    """A vehicle riding itself was accepted (it is a vehicle, in its own hex)."""
    data = position()
    data["units"][1].update(type="vehicle", aboard=data["units"][1]["id"])
    e = refusal(data, tmp_path)
    assert e.place == "units[1].aboard" and "itself" in e.problem


def test_hostile_vasl_files_are_messages_naming_them_on_the_command_line(tmp_path, capsys):
    """An encrypted entry and NaN hex geometry were an "internal error" without the file."""
    import vasl_synth as synth
    encrypted = synth.mark_encrypted(synth.hostile_archive(tmp_path / "bd06"), "LOSData")
    nan = synth.hostile_archive(tmp_path / "bd03", metadata=synth.metadata_xml("03",
                                                                               hexHeight="nan"))
    for source, words in ((encrypted, ("LOSData", "encrypted")), (nan, ("hexHeight", "finite"))):
        code, err = run_cli("import-vasl", str(source), "-o", str(tmp_path / "out.json"),
                            capsys=capsys)
        assert code == 2 and err.startswith(f"error: {source}: ")
        assert all(w in err for w in words) and "internal error" not in err
    assert not (tmp_path / "out.json").exists()


# ------------------------------------------------------------------ VASL saved games, hostile
@posix_only
@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_saved_game_that_is_a_fifo_or_dev_zero_is_refused_at_once(tmp_path, capsys, kind):
    """A FIFO hung import-vsav; a link to /dev/zero took 1.65 GB."""
    game = tmp_path / "game.vsav"
    if kind == "fifo":
        os.mkfifo(game)
    else:
        game.symlink_to("/dev/zero")
    code, err = run_cli("import-vsav", str(game), "-o", str(tmp_path / "out.json"), capsys=capsys)
    assert code == 2 and err.startswith(f"error: {game}: ")
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("name", ["0\u00002", "9" * 4301, "../x", "QQ/../../outside/stolen",
                                  "02\nerror: fake"])
def test_a_saved_games_hostile_board_name_is_refused_naming_the_save(tmp_path, capsys, name):
    """A NUL was an internal ValueError, 4301 digits Python's int limit; ../x named a temporary
    file; QQ/../../outside/stolen loaded a board outside the boards folder; a line break forged
    a line on stderr."""
    import vsav_synth

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "stolen.json").write_text(BOARD2.read_text())
    boards = tmp_path / "boards" / "QQ"
    boards.mkdir(parents=True)
    game = vsav_synth.write_vsav(tmp_path / "game.vsav", [(0, 0, name)], [])
    code, err = run_cli("import-vsav", str(game), "-o", str(tmp_path / "out.json"),
                        "--boards", str(tmp_path / "boards"), capsys=capsys)
    assert code == 2 and err.startswith(f"error: {game}: ") and "board name" in err
    assert err.count("\n") == 1 and len(err) < 400         # one line, the name shown escaped
    assert not (tmp_path / "out.json").exists()
