"""How well `split_note` recovers a release's own sentence segmentation from its note_excerpt text.

Each case's `note_excerpt` is split again and compared with the release's sentences (paragraph id,
offset in the paragraph and text must all match). Caveat for the bundled demo release: its excerpts
join a paragraph's sentences with single spaces, so numbered lists there lose their line breaks; a
real note keeps them, which makes it easier, not harder, for the list rules.

    python benchmarks/note_split_agreement.py [--splitter rules|spacy] [--data-dir DIR] [--show N]
"""

from __future__ import annotations

import argparse

from archehr.data import find_release, load_split
from archehr.data.note_split import split_note


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--splitter", default="rules", choices=["rules", "spacy"])
    ap.add_argument("--data-dir", default=None)
    ap.add_argument("--show", type=int, default=0, help="print the first N sentences that differ")
    args = ap.parse_args()
    release = find_release(args.data_dir)
    total = matched = exact_cases = n_cases = 0
    differ: list[tuple[str, tuple[int, int, str]]] = []
    for name in release.split_names:
        for case in load_split(release.root, name):
            if not case.note_excerpt:
                continue
            gold = {(s.paragraph_id, s.start_char_index, s.text) for s in case.sentences}
            got = {(s.paragraph_id, s.paragraph_offset, s.text)
                   for s in split_note(case.note_excerpt, args.splitter).sentences}
            total += len(gold)
            matched += len(gold & got)
            n_cases += 1
            exact_cases += gold == got
            differ += [(case.case_id, x) for x in sorted(got - gold)]
    print(f"{args.splitter}: {matched}/{total} sentences recovered exactly ({100 * matched / max(total, 1):.1f}%), "
          f"{exact_cases}/{n_cases} cases split exactly as the release")
    for case_id, x in differ[:args.show]:
        print(f"  case {case_id}: {x}")


if __name__ == "__main__":
    main()
