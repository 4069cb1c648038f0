"""Metrics declare their parameters; each gets only its own; metric spec strings parse back and map onto options."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from archehr.cli.main import main
from archehr.data.releases import demo_dir
from archehr.errors import ConfigError
from archehr_scoring.metrics.base import MetricSettings
from archehr_scoring.metrics.registry import METRICS, build_metric, metric_class
from archehr_scoring.metrics.spec import apply_metric_specs, parse_metric_spec, parse_metric_specs

ROOT = Path(__file__).resolve().parents[1]
SUB = ROOT / "submissions" / "cite-all" / "submission.json"
DECLARING = ("bleu", "rouge", "sari", "bertscore", "alignscore", "medcon")


def test_every_setting_field_belongs_to_one_declared_parameter_with_the_same_default() -> None:
    owners: dict[str, list[str]] = {}
    for name in METRICS:
        for p in metric_class(name).parameters:
            assert p.setting is not None, f"{name}.{p.name} has no settings field"
            assert p.default == getattr(MetricSettings(), p.setting), f"{name}.{p.name}: default differs"
            assert p.check(name, p.default) == p.default
            owners.setdefault(p.setting, []).append(name)
    assert all(len(v) == 1 for v in owners.values()), owners  # a field shared by two metrics would leak


@pytest.mark.parametrize("name", DECLARING)
def test_a_metric_gets_only_its_own_parameters(name: str) -> None:
    settings = MetricSettings(bertscore_model="/x/model", bertscore_layers=3, alignscore_model="my-roberta",
                              quickumls_path="/idx")
    for metric in (build_metric(name, settings), build_metric(name, **dataclasses.asdict(settings))):
        declared = {p.name for p in metric_class(name).parameters}
        assert set(metric.params) == declared
    if name == "bleu":
        assert build_metric("bleu", settings).params == {}
    if name == "bertscore":
        assert build_metric("bertscore", settings).params["model"] == "/x/model"
        assert build_metric("bertscore").params == {p.name: p.default for p in metric_class("bertscore").parameters}


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
    names, settings = apply_metric_specs("rouge,bertscore(model=minilm,layers=4,rescale=no)", None)
    assert names == ["rouge", "bertscore"]
    assert settings == MetricSettings(bertscore_model="minilm", bertscore_layers=4, bertscore_rescale=False)
    assert apply_metric_specs("bleu,rouge", None) == (["bleu", "rouge"], None)
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
    opts = MetricSettings(bertscore_model="minilm")
    assert apply_metric_specs("bertscore(model=minilm,layers=3)", opts)[1] == MetricSettings(
        bertscore_model="minilm", bertscore_layers=3)
    with pytest.raises(ConfigError, match="contradicts bertscore_model='minilm'"):
        apply_metric_specs("bertscore(model=other)", opts)
    with pytest.raises(ConfigError, match="two values"):
        apply_metric_specs("bertscore(layers=3),bertscore(layers=5)", None)


def test_python_values_are_checked_naming_the_parameter() -> None:
    with pytest.raises(ConfigError, match=r"bertscore: parameter layers must be an integer or none, got 3.5"):
        build_metric("bertscore", MetricSettings(bertscore_layers=3.5))  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"parameter rescale must be true or false, got 1"):
        build_metric("bertscore", rescale=1)
    assert build_metric("bertscore", layers="3").params["layers"] == 3  # text, as in a spec string
    with pytest.raises(ConfigError, match="did you mean 'layers'"):
        build_metric("bertscore", layer=3)
    assert build_metric("bertscore", baseline=Path("/b.tsv")).params["baseline"] == "/b.tsv"


def test_the_signature_is_the_same_for_the_same_settings() -> None:
    via_options = build_metric("bertscore", MetricSettings(bertscore_model="/nonexistent/m", bertscore_layers=3))
    _, settings = apply_metric_specs("bertscore(model=/nonexistent/m,layers=3)", None)
    via_spec = build_metric("bertscore", settings)
    via_python = build_metric("bertscore", model="/nonexistent/m", layers=3)
    assert via_options.signature() == via_spec.signature() == via_python.signature()
    assert "|model:m|found:folder|weights_sha256:none|layers:3|" in via_spec.signature()
    bleu = build_metric("bleu", MetricSettings(bertscore_layers=3), reference_kind="clinician").signature()
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
    assert a["_meta"]["settings"]["bertscore_layers"] == 3


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
    names, settings = apply_metric_specs("alignscore(ckpt=/a.ckpt,model=/r,batch_size=8),medcon(quickumls=/idx)",
                                         None)
    assert names == ["alignscore", "medcon"]
    assert settings == MetricSettings(alignscore_ckpt="/a.ckpt", alignscore_model="/r", alignscore_batch_size=8,
                                      quickumls_path="/idx")
    assert build_metric("medcon", settings).params == {"quickumls": "/idx"}
    assert build_metric("alignscore", settings).params == {"ckpt": "/a.ckpt", "model": "/r", "batch_size": 8,
                                                           "device": "cpu"}


def test_the_api_takes_spec_strings() -> None:
    from archehr_scoring import api

    key = demo_dir() / "test" / "archehr-qa_key.json"
    rep = api.score("2025", SUB, key, metrics="factuality,rouge,bertscore(model=/nonexistent/m,layers=3)")
    assert "layers:3" in rep.signatures["bertscore"] and "bertscore" in rep.unavailable
    assert rep.meta["settings"]["bertscore_layers"] == 3 and rep.scores["rougeLsum"] is not None
    with pytest.raises(ConfigError, match="did you mean 'layers'"):
        api.score("2025", SUB, key, metrics="bertscore(layer=3)")


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
    by_options = OfficialScorer("2025", ["rouge", "bertscore"], MetricSettings(bertscore_layers=3))
    assert by_spec.metrics == ["rouge", "bertscore"] and by_spec.settings == by_options.settings
    assert by_spec.fingerprint() == by_options.fingerprint()
    assert by_spec.fingerprint() != OfficialScorer("2025", ["rouge", "bertscore"]).fingerprint()


def test_a_parameter_set_on_one_metric_never_reaches_another() -> None:
    """`bertscore(device=cuda)` moves BERTScore only: AlignScore (same parameter name) stays on its default."""
    names, settings = apply_metric_specs("bertscore(device=cuda),alignscore", None)
    assert names == ["bertscore", "alignscore"]
    assert build_metric("bertscore", settings).params["device"] == "cuda"
    assert build_metric("alignscore", settings).params["device"] == "cpu"
    names, settings = apply_metric_specs("alignscore(device=cuda:1),bertscore", None)
    assert build_metric("alignscore", settings).params["device"] == "cuda:1"
    assert build_metric("bertscore", settings).params["device"] == "cpu"


def test_every_cli_model_option_is_one_declared_metric_parameter() -> None:
    """The CLI options are checked against the declarations: each sets the settings field of exactly one
    declared parameter, with that parameter's default when not given."""
    from archehr.cli.model_options import MODEL_OPTIONS, model_settings

    fields = {p.setting: (name, p) for name in METRICS for p in metric_class(name).parameters}
    for option, _, default in MODEL_OPTIONS:
        field = "quickumls_path" if option == "quickumls" else option
        assert field in fields, f"--{option.replace('_', '-')} sets no declared metric parameter"
        name, param = fields[field]
        assert default in (None, param.default), option
    assert model_settings() is None  # no option given: every metric on its declared defaults
