"""tools/vasl_survey.py: every archive of a folder imported in a bounded process, one table."""
from __future__ import annotations

import vasl_synth as synth

from tools import vasl_survey


def test_survey_imports_refuses_and_counts_a_folder(tmp_path, capsys):
    folder = tmp_path / "boards"
    folder.mkdir()
    good = synth.SynthBoard("5", synth.HALF_A)
    good.area("C3 D4", synth.WOODS, "woods")
    good.write(folder / "bd5")
    damaged = (folder / "bd5").read_bytes()
    (folder / "bd6").write_bytes(damaged[: len(damaged) // 2])           # cut short
    synth.write_archive(folder / "bd7", {"readme": b"not a board"})     # a ZIP, no board
    (folder / "notes.txt").write_text("left out")
    assert vasl_survey.main([str(folder)]) == 0
    out = capsys.readouterr().out
    lines = {ln.split()[0]: ln for ln in out.splitlines() if ln.startswith("bd")}
    assert set(lines) == {"bd5", "bd6", "bd7"}
    assert "imported 17 x 20" in lines["bd5"]
    assert "refused:" in lines["bd6"] and "refused:" in lines["bd7"]
    assert "archives: 3" in out and "imported: 1" in out and "refused: 2" in out
    assert "over the time limit: 0" in out and "over the memory limit: 0" in out


def test_causes_group_refusals_of_one_kind():
    assert vasl_survey.cause("a 36 x 45 hex board cannot be imported") == \
        vasl_survey.cause("a 12 x 8 hex board cannot be imported")
    assert vasl_survey.cause("the board picture bd1.gif is a JPEG") != \
        vasl_survey.cause("the archive has no LOSData")


def test_an_archive_over_its_time_is_stopped(tmp_path):
    synth.SynthBoard("5").write(tmp_path / "bd5")
    # ten times 2 ms of wall time: less than the interpreter takes to load numpy
    got = vasl_survey.survey_one(tmp_path / "bd5", seconds=0.002, megabytes=1024)
    assert got["status"] == "time"
