"""Where to set `min_support`, the least support an uncited LLM line needs to be kept (llm generator).

    python benchmarks/repair_threshold.py [--data-dir DIR] [--split dev] [--similarity lexical|embedding]

Supported pairs: each clinician answer sentence of the split's key and the best of the note
sentences it cites. Unrelated pairs: the same answer sentence and the best sentence of the *next*
case's note (text about another patient, which a repair must not pass off as grounded). Prints
quantiles of both and, per candidate threshold, the share of supported lines kept and of unrelated
lines rejected. Run it on a training split (dev or the demo), never on a test split.
"""

from __future__ import annotations

import argparse

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data-dir", default=None, help="release folder (default: the bundled demo)")
    ap.add_argument("--split", default="dev")
    ap.add_argument("--similarity", default="lexical", choices=["lexical", "embedding"])
    a = ap.parse_args()
    from archehr.data.releases import load_split
    from archehr.generate.clean import clean_sentence, is_header
    from archehr.generate.similarity import Similarity

    split = load_split(a.data_dir, a.split)
    sim = Similarity(a.similarity)
    cases = [c for c in split.cases if split.key is not None]
    pos: list[float] = []
    neg: list[float] = []
    for n, case in enumerate(cases):
        key = split.key_for(case.case_id)
        answers = key.clinician_answer_sentences or ()
        other = cases[(n + 1) % len(cases)]
        other_texts = [clean_sentence(s.text) for s in other.sentences if not is_header(s.text)]
        for ans in answers:
            cited = [clean_sentence(case.sentence(i).text) for i in ans.citations if i in set(case.sentence_ids)]
            if not cited:
                continue
            pos.append(float(sim.support([ans.text], cited).max()))
            neg.append(float(sim.support([ans.text], other_texts).max()))
    p, q = np.array(pos), np.array(neg)
    print(f"{split.name}: {len(p)} answer sentences, similarity {sim.kind}")
    for name, v in (("supported", p), ("unrelated", q)):
        print(f"  {name:9s} quantiles 10/25/50/75/90%: " + " ".join(f"{x:.2f}" for x in np.quantile(v, [.1, .25, .5,
                                                                                                      .75, .9])))
    for t in np.arange(0.2, 0.8, 0.05):
        print(f"  threshold {t:.2f}: supported kept {100 * (p >= t).mean():5.1f}%  unrelated rejected "
              f"{100 * (q < t).mean():5.1f}%")


if __name__ == "__main__":
    main()
