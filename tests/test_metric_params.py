"""Metrics declare their parameters; each gets only its own; metric spec strings parse back and map onto options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from archehr.cli.main import main
from archehr.data.releases import demo_dir
from archehr.errors import ConfigError
from archehr_scoring.metrics.registry import METRICS, build_metric, metric_class
from archehr_scoring.metrics.spec import apply_metric_specs, parse_metric_spec, parse_metric_specs

ROOT = Path(__file__).resolve().parents[1]
SUB = ROOT / "submissions" / "cite-all" / "submission.json"
DECLARING = ("bleu", "rouge", "sari", "bertscore", "alignscore", "medcon")


def test_every_declared_default_passes_its_own_check() -> None:
    for name in METRICS:
        names = [p.name for p in metric_class(name).parameters]
        assert len(names) == len(set(names)), name
        for p in metric_class(name).parameters:
            assert p.check(name, p.default) == p.default, f"{name}.{p.name}"


@pytest.mark.parametrize("name", DECLARING)
def test_a_metric_gets_only_its_own_parameters(name: str) -> None:
    params = {"bertscore": {"model": "/x/model", "layers": 3}, "alignscore": {"model": "my-roberta"},
              "medcon": {"quickumls": "/idx"}}
    metric = build_metric(name, **params.get(name, {}))
    declared = metric_class(name).parameters
    assert set(metric.params) == {p.name for p in declared}
    assert metric.params == {p.name: params.get(name, {}).get(p.name, p.default) for p in declared}
    if name == "bleu":
        assert metric.params == {}
        with pytest.raises(ConfigError, match="metric bleu takes no parameters"):
            build_metric("bleu", model="/x/model")  # another metric's parameter is refused, never ignored


@pytest.mark.parametrize("text", ["rouge", "bertscore(model=minilm,layers=4)", "bertscore(layers=none)",
                                  'bertscore(baseline="/a b/c,d.tsv",rescale=false)', 'bertscore(model="x\\"y")',
                                  "bertscore(impl=bert-score,batch_size=8,device=cpu)"])
def test_spec_strings_parse_back(text: str) -> None:
    spec = parse_metric_spec(text)
    assert str(spec) == text
    assert parse_metric_spec(str(spec)) == spec


def test_spec_values_are_typed_and_lists_split_outside_parentheses() -> None:
    specs = parse_metric_specs(" rouge , bertscore( model = minilm , layers = 4 ),bleu,")
    assert [s.name for s in specs] == ["rouge", "bertscore", "bleu"]
    names, params = apply_metric_specs("rouge,bertscore(model=minilm,layers=4,rescale=no)", None)
    assert names == ["rouge", "bertscore"]
    assert params == {"bertscore": {"model": "minilm", "rescale": False}}  # layers=4 is the declared default
    assert apply_metric_specs("bleu,rouge", None) == (["bleu", "rouge"], {})
    assert apply_metric_specs(["factuality", "bertscore(layers=2)"], None)[0] == ["factuality", "bertscore"]


@pytest.mark.parametrize("text,message", [
    ("bertscor(layers=3)", "did you mean 'bertscore'"),
    ("bertscore(layer=3)", "did you mean 'layers'"),
    ("bertscore(layers=four)", "parameter layers must be an integer or none, got 'four'"),
    ("bertscore(layers=-1)", "parameter layers must be at least 0"),
    ("bertscore(impl=faster)", "parameter impl must be one of auto, fast, bert-score"),
    ("bertscore(rescale=maybe)", "parameter rescale must be true or false"),
    ("bleu(order=2)", "metric bleu takes no parameters"),
    ("bertscore(model=minilm", "expected ',' or ')'"),
    ("bertscore(model)", "expected '=' after model"),
    ("bertscore(layers=3,layers=4)", "parameter layers is given twice"),
    ("rouge bleu", "expected ',' between metrics"),
])
def test_bad_specs_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as e:
        apply_metric_specs(text, None)
    assert message in str(e.value)


def test_a_spec_agrees_with_or_contradicts_the_options() -> None:
    opts = {"bertscore": {"model": "minilm"}}
    assert apply_metric_specs("bertscore(model=minilm,layers=3)", opts)[1] == {
        "bertscore": {"model": "minilm", "layers": 3}}
    with pytest.raises(ConfigError, match="contradicts model='minilm'"):
        apply_metric_specs("bertscore(model=other)", opts)
    # a value for one metric never contradicts (nor reaches) the same parameter name of another
    assert apply_metric_specs("alignscore(model=other)", opts)[1] == {"alignscore": {"model": "other"},
                                                                      "bertscore": {"model": "minilm"}}
    with pytest.raises(ConfigError, match="two values"):
        apply_metric_specs("bertscore(layers=3),bertscore(layers=5)", None)


def test_python_values_are_checked_naming_the_parameter() -> None:
    with pytest.raises(ConfigError, match=r"bertscore: parameter layers must be an integer or none, got 3.5"):
        build_metric("bertscore", layers=3.5)
    with pytest.raises(ConfigError, match=r"parameter rescale must be true or false, got 1"):
        build_metric("bertscore", rescale=1)
    assert build_metric("bertscore", layers="3").params["layers"] == 3  # text, as in a spec string
    with pytest.raises(ConfigError, match="did you mean 'layers'"):
        build_metric("bertscore", layer=3)
    assert build_metric("bertscore", baseline=Path("/b.tsv")).params["baseline"] == "/b.tsv"


def test_the_signature_is_the_same_for_the_same_settings() -> None:
    _, given = apply_metric_specs(None, {"bertscore": {"model": "/nonexistent/m", "layers": "3"}})
    via_options = build_metric("bertscore", **given["bertscore"])
    _, params = apply_metric_specs("bertscore(model=/nonexistent/m,layers=3)", None)
    via_spec = build_metric("bertscore", **params["bertscore"])
    via_python = build_metric("bertscore", model="/nonexistent/m", layers=3)
    assert via_options.signature() == via_spec.signature() == via_python.signature()
    assert "|model:m|found:no-usable-folder|weights_sha256:none|layers:3|" in via_spec.signature()
    bleu = build_metric("bleu", reference_kind="clinician").signature()
    assert bleu.startswith("BLEU|nrefs:1|tok:13a|order:4|smooth:none|impl:nmt-compute_bleu|ref:clinician|version:")


def _score(args: list[str], capsys) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(["score", str(SUB), str(demo_dir() / "test" / "archehr-qa_key.json"), "--format", "json", "-q"] + args)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_cli_spec_and_options_score_the_same(capsys) -> None:
    rc1, spec_out, _ = _score(["--metrics", "rouge,bertscore(model=/nonexistent/m,layers=3)"], capsys)
    rc2, opt_out, _ = _score(["--metrics", "rouge,bertscore", "--bertscore-model", "/nonexistent/m",
                              "--bertscore-layers", "3"], capsys)
    assert rc1 == rc2 == 0
    a, b = json.loads(spec_out), json.loads(opt_out)
    assert a["_meta"]["signatures"] == b["_meta"]["signatures"] and a["rougeLsum"] == b["rougeLsum"]
    assert "layers:3" in a["_meta"]["signatures"]["bertscore"]
    assert a["_meta"]["metric_params"]["bertscore"]["layers"] == 3 == b["_meta"]["metric_params"]["bertscore"]["layers"]
    assert a["_meta"]["metric_params"] == b["_meta"]["metric_params"]
    assert set(a["_meta"]["metric_params"]) == {"rouge", "bertscore"}  # only the metrics that ran


@pytest.mark.parametrize("command", ["score", "leaderboard"])
def test_cli_bad_spec_is_exit_2_with_one_clear_line(command: str, tmp_path: Path, capsys) -> None:
    key = str(demo_dir() / "test" / "archehr-qa_key.json")
    args = (["score", str(SUB), key] if command == "score"
            else ["leaderboard", str(ROOT / "submissions"), "--key", key, "--out", str(tmp_path), "--no-cache"])
    assert main(args + ["--metrics", "bertscore(layer=3)"]) == 2
    err = capsys.readouterr().err
    assert "did you mean 'layers'" in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())  # nothing written


def test_model_metrics_take_their_options_as_parameters() -> None:
    names, params = apply_metric_specs("alignscore(ckpt=/a.ckpt,model=/r,batch_size=8),medcon(quickumls=/idx)",
                                       None)
    assert names == ["alignscore", "medcon"]
    assert params == {"alignscore": {"ckpt": "/a.ckpt", "model": "/r", "batch_size": 8},
                      "medcon": {"quickumls": "/idx"}}
    assert build_metric("medcon", **params["medcon"]).params == {"quickumls": "/idx"}
    assert build_metric("alignscore", **params["alignscore"]).params == {"ckpt": "/a.ckpt", "model": "/r",
                                                                         "batch_size": 8, "device": "cpu"}


def test_the_api_takes_spec_strings() -> None:
    from archehr_scoring import api

    key = demo_dir() / "test" / "archehr-qa_key.json"
    rep = api.score("2025", SUB, key, metrics="factuality,rouge,bertscore(model=/nonexistent/m,layers=3)")
    assert "layers:3" in rep.signatures["bertscore"] and "bertscore" in rep.unavailable
    assert rep.meta["metric_params"]["bertscore"]["layers"] == 3 and rep.scores["rougeLsum"] is not None
    with pytest.raises(ConfigError, match="did you mean 'layers'"):
        api.score("2025", SUB, key, metrics="bertscore(layer=3)")
    # the same parameters as a plain mapping: the same signature
    by_dict = api.score("2025", SUB, key, metrics="factuality,rouge,bertscore",
                        metric_params={"bertscore": {"model": "/nonexistent/m", "layers": 3}})
    assert by_dict.signatures == rep.signatures and by_dict.meta["metric_params"] == rep.meta["metric_params"]
    with pytest.raises(ConfigError, match="did you mean 'bertscore'"):
        api.score("2025", SUB, key, metric_params={"bertscor": {"layers": 3}})
    with pytest.raises(ConfigError, match="metric alignscore has no parameter 'layers'"):
        api.score("2025", SUB, key, metric_params={"alignscore": {"layers": 3}})


def test_the_model_options_are_declared_in_one_place() -> None:
    cli = ROOT / "archehr" / "cli"
    for option in ("--bertscore-model", "--bertscore-layers", "--bertscore-baseline", "--bertscore-impl",
                   "--alignscore-ckpt", "--alignscore-model", "--quickumls", '"--key"', '"--metrics"'):
        where = [f.name for f in sorted(cli.glob("*.py")) if f'"{option.strip(chr(34))}"' in f.read_text()]
        home = {'"--key"': ["leaderboard_cmd.py", "package_cmd.py", "validate_cmd.py"],
                '"--metrics"': ["leaderboard_cmd.py", "score_cmd.py"]}.get(option, ["model_options.py"])
        assert where == home, option


def test_the_leaderboard_scorer_takes_specs_and_keys_its_cache_on_them() -> None:
    from archehr.leaderboard.scorer import OfficialScorer

    by_spec = OfficialScorer("2025", ["rouge", "bertscore(layers=3)"])
    by_options = OfficialScorer("2025", ["rouge", "bertscore"], {"bertscore": {"layers": 3}})
    assert by_spec.metrics == ["rouge", "bertscore"] and by_spec.params == by_options.params
    assert by_spec.fingerprint() == by_options.fingerprint()
    assert by_spec.fingerprint() != OfficialScorer("2025", ["rouge", "bertscore"]).fingerprint()


def test_a_parameter_set_on_one_metric_never_reaches_another() -> None:
    """`bertscore(device=cuda)` moves BERTScore only: AlignScore (same parameter name) stays on its default."""
    names, params = apply_metric_specs("bertscore(device=cuda),alignscore", None)
    assert names == ["bertscore", "alignscore"] and params == {"bertscore": {"device": "cuda"}}
    assert build_metric("bertscore", **params.get("bertscore", {})).params["device"] == "cuda"
    assert build_metric("alignscore", **params.get("alignscore", {})).params["device"] == "cpu"
    names, params = apply_metric_specs("alignscore(device=cuda:1),bertscore", None)
    assert build_metric("alignscore", **params.get("alignscore", {})).params["device"] == "cuda:1"
    assert build_metric("bertscore", **params.get("bertscore", {})).params["device"] == "cpu"
    # ...and the same through what the scorer runs and records
    from archehr_scoring import api

    rep = api.score("2025", SUB, demo_dir() / "test" / "archehr-qa_key.json",
                    metrics="factuality,bertscore(model=/nonexistent/m,device=cuda),alignscore")
    assert rep.meta["metric_params"]["bertscore"]["device"] == "cuda"
    assert rep.meta["metric_params"]["alignscore"]["device"] == "cpu"


def test_every_cli_model_option_is_one_declared_metric_parameter() -> None:
    """The CLI options are checked against the declarations: each sets one declared parameter of one metric (no
    two options the same one), with a matching type, and no default of its own (not given = the declared one)."""
    import typing
    from pathlib import Path as _Path

    from archehr.cli.model_options import MODEL_OPTIONS, model_params

    seen = set()
    for o in MODEL_OPTIONS:
        declared = {p.name: p for p in metric_class(o.metric).parameters}
        assert o.param in declared, f"{o.flag} sets no declared parameter of {o.metric}"
        assert (o.metric, o.param) not in seen, o.flag
        seen.add((o.metric, o.param))
        p = declared[o.param]
        option_type = next(t for t in typing.get_args(typing.get_args(o.annotation)[0]) if t is not type(None))
        assert option_type is (_Path if p.path in ("file", "index") else p.type), (o.flag, option_type, p)
        assert o.flag.startswith(f"--{o.metric}-") or o.flag == f"--{o.param}", o.flag
        help_text = o.annotation.__metadata__[0].help or ""
        if "default" in help_text and p.default is not None:  # a default the help names is the declared one
            assert p.text(p.default) in help_text, (o.flag, help_text, p.default)
        sample = p.choices[-1] if p.choices else {str: "x", int: 3}[p.type]
        assert model_params(**{o.keyword: sample}) == {o.metric: {o.param: sample}}
    assert model_params() is None  # no option given: every metric on its declared defaults
