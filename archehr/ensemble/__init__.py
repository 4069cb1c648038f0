"""Ensembles of finished runs: `archehr ensemble RUN_DIR... -o OUT_DIR` (docs/ensemble.md).

    members.py   reading and checking the member runs (same task, same input), fallbacks per case
    vote.py      the weighted vote per item with a threshold, and minimum-Bayes-risk text choice
    combine.py   one case's ensemble prediction per task (2025 answer, st1-st4), with what was chosen
    fit.py       scoring candidates with the official scorer; weights and threshold fitted on dev runs,
                 kept when they beat the default vote and the best member in cross-validation
    items.py     what a vote decides item by item: members' class error rates on dev, the best rule with a key
    select.py    greedy forward selection with replacement (Caruana et al., 2004) inside cross-validation
    output.py    OUT_DIR: submission.json and run.json
    build.py     what the command does: combine (optionally fitted on dev), or select then combine
"""
