from __future__ import annotations

import json
import zlib

import numpy as np

from archehr.cli.main import main
from archehr.data.releases import demo_dir, load_split, write_split
from archehr.relevance.plot import png_bytes, simple_plot


def test_train_writes_model_and_sweep_plot(tmp_path, capsys):
    out = tmp_path / "m.json"
    png = tmp_path / "sweep.png"
    rc = main(["train", "--data-dir", str(demo_dir()), "--split", "dev", "--features", "lexical",
               "-o", str(out), "--sweep", "--plot", str(png)])
    assert rc == 0
    text = capsys.readouterr().out
    assert "<- chosen" in text and "leave-one-case-out" in text
    d = json.loads(out.read_text())
    assert d["feature_set"] == "lexical" and d["training_data"]["split"] == "dev"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    chosen = [line for line in text.splitlines() if "<- chosen" in line][0]
    assert float(chosen.split()[0]) == round(d["selector"]["threshold"], 2)


def test_train_logistic_is_the_older_one_command_form_without_its_note(tmp_path, capsys):
    # the README's `archehr train --data-dir ... --split dev -o ... --sweep` still works, with one note line
    new, old = tmp_path / "new.json", tmp_path / "old.json"
    assert main(["train", "logistic", "--data-dir", str(demo_dir()), "--split", "test", "-o", str(new)]) == 0
    assert capsys.readouterr().err == ""
    assert main(["train", "--data-dir", str(demo_dir()), "--split", "test", "-o", str(old)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("note: `archehr train --data-dir") and "train logistic" in err[0]
    a, b = json.loads(new.read_text()), json.loads(old.read_text())
    assert (a["selector"], a["heads"]) == (b["selector"], b["heads"])


def test_legacy_argv_rewrites_only_the_one_command_forms(capsys):
    from archehr.cli.train_cmd import legacy_argv

    for same in (["train"], ["train", "--help"], ["train", "logistic", "--split", "dev"], ["predict", "--split", "x"]):
        assert legacy_argv(same) == same
    assert legacy_argv(["train", "--split", "dev"]) == ["train", "logistic", "--split", "dev"]
    assert legacy_argv(["train", "--classifier=cross-encoder", "--epochs", "1"]) == ["train", "cross-encoder",
                                                                                      "--epochs", "1"]
    assert legacy_argv(["train", "--only", "align", "--rebuild-shipped"]) == ["train", "rebuild-shipped", "--only",
                                                                              "align"]
    assert len(capsys.readouterr().err.splitlines()) == 3  # one note each


def test_train_on_unlabelled_split_exits_2_naming_key(tmp_path, capsys):
    dev = load_split(demo_dir(), "dev")
    import dataclasses

    write_split(dataclasses.replace(dev, key=None), tmp_path / "rel" / "dev")
    rc = main(["train", "--data-dir", str(tmp_path / "rel"), "--split", "dev", "-o", str(tmp_path / "m.json")])
    assert rc == 2
    err = capsys.readouterr().err
    assert "archehr-qa_key.json" in err and "no labels" in err
    assert not (tmp_path / "m.json").exists()


def test_builtin_png_writer_decodes():
    img = np.zeros((3, 2, 3), dtype=np.uint8)
    img[1, 1] = (255, 0, 0)
    data = png_bytes(img)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (w, h) == (2, 3)
    idat_len = int.from_bytes(data[33:37], "big")
    raw = zlib.decompress(data[41:41 + idat_len])
    assert len(raw) == 3 * (1 + 2 * 3)
    assert raw[1 + 7:1 + 7 + 6] == bytes([0, 0, 0, 255, 0, 0])  # row 1: black, red


def test_simple_plot_draws_curve_colour():
    data = simple_plot([0.0, 0.5, 1.0], {"f1": [0.2, 0.8, 0.4]}, mark_x=0.5, size=(120, 80))
    idat_len = int.from_bytes(data[33:37], "big")
    raw = zlib.decompress(data[41:41 + idat_len])
    assert bytes([31, 119, 180]) in raw  # the first series' colour is on the canvas


def test_sweep_plot_falls_back_without_matplotlib(tmp_path, monkeypatch):
    import sys

    from archehr.relevance.plot import save_sweep_plot

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    how = save_sweep_plot(tmp_path / "p.png", [(0.1, 0.5, 0.4, 0.9), (0.5, 0.6, 0.7, 0.5)], 0.5)
    assert how == "built-in"
    assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_train_on_several_splits_records_parts(tmp_path, capsys):
    out = tmp_path / "m.json"
    # two small labelled splits (the 40-case dev split made this the slowest test for no more coverage)
    rc = main(["train", "--data-dir", str(demo_dir()), "--split", "test-2026", "--also", f"{demo_dir()}:test",
               "--features", "lexical", "-o", str(out)])
    assert rc == 0
    assert "(16 cases" in capsys.readouterr().out  # 6 test-2026 + 10 test
    d = json.loads(out.read_text())["training_data"]
    assert [(p["label"], p["cases"]) for p in d["parts"]] == [("test-2026", 6), (f"{demo_dir().name}-test", 10)]


def test_train_bad_also_exits_2_and_writes_nothing(tmp_path, capsys):
    rc = main(["train", "--data-dir", str(demo_dir()), "--also", "no-colon-here", "-o", str(tmp_path / "m.json")])
    assert rc == 2
    assert "RELEASE_DIR:SPLIT" in capsys.readouterr().err
    assert not (tmp_path / "m.json").exists()
