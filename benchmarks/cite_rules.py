"""Citation policies applied to the candidates `cite_policy.py --record` wrote, and their figures under folds by writer.

A policy takes one question's candidates (best first; the first is the answer's first line) and returns the ids it
cites; the medication lines that go on from a cited one follow it (`follow_on`, as `archehr.ask._cited` does) and a
sentence the generator dropped from the recorded answer is dropped again. First line, recall and precision are then
`everyday.figures`' (a question declined cites nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from everyday import citation_figures  # the same definitions as every answer benchmark

Policy = Callable[[dict[str, Any]], list[str]]


def arrays(row: dict[str, Any]) -> tuple[list[int], np.ndarray, np.ndarray, np.ndarray]:
    """(order, rank, typed, topic) over the candidates' positions, as `archehr.ask._cited` reads them."""
    c = row["candidates"]
    return (list(range(len(c))), np.array([x["rank"] for x in c]), np.array([x["typed"] for x in c]),
            np.array([x["topic"] for x in c]))


def shares(share: float | None = None, strong: float | None = None) -> Policy:
    """The shipped citation policy (`archehr.ask.CITES`, before the medication lines that go on) with other rank
    shares the lines after the first must reach: `share` after a first holding the asked kind weakly, `strong` after
    one holding it firmly (None: the shipped ones); the close ones of a weak first reach `share` too
    (`CitePolicy.with_shares`)."""
    import archehr.ask as A

    policy = A.CITES.with_shares(share, strong)

    def cite(row: dict[str, Any]) -> list[str]:
        order, rank, typed, topic = arrays(row)
        return [row["candidates"][k]["id"] for k in policy.choose(order, rank, typed, topic)]
    return cite


shipped = shares()  # the shipped policy


def first_n(n: int) -> Policy:
    """The shipped policy's first `n` in the answer's (rank) order."""
    def cite(row: dict[str, Any]) -> list[str]:
        ids = shipped(row)
        pos = {c["id"]: c["pos"] for c in row["candidates"]}
        return sorted(ids, key=lambda i: pos[i])[:n]
    return cite


def cited(row: dict[str, Any], policy: Policy) -> list[str]:
    """What the answer cites under `policy`: its choice, then the medication lines going on from it, less those the
    generator dropped in the recorded answer."""
    if row["abstained"] or not row["candidates"]:
        return [] if row["abstained"] else list(row["cited"])
    partners = {c["id"]: c["partners"] for c in row["candidates"]}
    chosen = policy(row)
    out = list(chosen)
    for i in chosen:
        out += [j for j in partners.get(i, []) if j not in out]
    full = set(row["chosen"])
    for i in row["chosen"]:
        full.update(partners.get(i, []))
    dropped = full - set(row["cited"])
    return [i for i in out if i not in dropped]


def figures(rows: Sequence[dict[str, Any]], policy: Policy | None) -> dict[str, float]:
    """First line, recall and precision (per cent) as `everyday.citation_figures` counts them, the mean number cited
    by an answer citing any, and the answerable questions; `policy` None: as recorded."""
    ans = [r if policy is None else {**r, "cited": cited(r, policy)} for r in rows if r["answerable"]]
    n = [len(r["cited"]) for r in ans if r["cited"]]
    got = citation_figures(ans)
    return {**{k: 100 * v for k, v in got.items()}, "cited": float(np.mean(n)) if n else float("nan"),
            "n": len(ans)}


def pools(rows: Sequence[dict[str, Any]], starts: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    """All rows, and those of the writers from each of `starts` on (in the record's writer order)."""
    writers = list(dict.fromkeys(r["writer"] for r in rows))
    out = {"all": list(rows)}
    for s in starts:
        if s in writers:
            later = set(writers[writers.index(s):])
            out[f"{s}-{writers[-1]}"] = [r for r in rows if r["writer"] in later]
    return out


def line(name: str, f: dict[str, float]) -> str:
    return (f"| {name} | {f['first']:.1f} | {f['recall']:.1f} | {f['precision']:.1f} | {f['cited']:.2f} |")


WEAK_GRID = tuple(round(0.25 + 0.05 * k, 2) for k in range(11))  # 0.25 .. 0.75
STRONG_GRID = tuple(round(0.35 + 0.05 * k, 2) for k in range(13))  # 0.35 .. 0.95


def per_question(rows: Sequence[dict[str, Any]], policy: Policy) -> np.ndarray:
    """(recall, precision, cites any) of each answerable question under `policy`, one row each."""
    out = []
    for r in (r for r in rows if r["answerable"]):
        c, gold = cited(r, policy), set(r["gold"])
        out.append((len(set(c) & gold) / len(gold), len(set(c) & gold) / len(c) if c else 0.0, float(bool(c))))
    return np.array(out)


def _rp(q: np.ndarray) -> tuple[float, float]:
    return 100 * float(q[:, 0].mean()), 100 * float((q[:, 1] * q[:, 2]).sum() / max(q[:, 2].sum(), 1.0))


def choose_shares(rows: Sequence[dict[str, Any]], recall: float,
                  starts: Sequence[str]) -> tuple[tuple[float, float], dict[str, tuple[float, float]]]:
    """The shares (`shares`: weak, strong) of the best precision with recall at least `recall` on all writers, and
    with one writer held out: each writer's questions cited with the shares chosen so on the other writers, their
    (recall, precision) pooled over all writers and over those from each of `starts` on."""
    grid = [(a, b) for a in WEAK_GRID for b in STRONG_GRID]
    qs = np.stack([per_question(rows, shares(a, b)) for a, b in grid])  # grid x questions x 3
    w = np.array([r["writer"] for r in rows if r["answerable"]])

    def best(m: np.ndarray) -> int:
        rp = np.array([_rp(q[m]) for q in qs])
        return int(np.argmax(np.where(rp[:, 0] >= recall, rp[:, 1], -1.0)))

    held = np.zeros(qs.shape[1:])
    for g in dict.fromkeys(w.tolist()):
        held[w == g] = qs[best(w != g)][w == g]
    names = {name: np.isin(w, list({r["writer"] for r in rs})) for name, rs in pools(rows, starts).items()}
    return grid[best(np.ones(len(w), bool))], {name: _rp(held[m]) for name, m in names.items()}


def report(rows: Sequence[dict[str, Any]], starts: Sequence[str], recall: float | None = None) -> str:
    """The recorded answers, the shipped policy simulated (they should agree), the first 2 and 3 it cites, the shares
    before (0.25, 0.35); with `recall`, the shares chosen with one writer held out (`choose_shares`)."""
    out = ["| pool / policy | first line | recall | precision | cited |", "|---|---|---|---|---|"]
    for name, rs in pools(rows, starts).items():
        for label, pol in (("recorded", None), ("shipped", shipped), ("shares 0.25/0.35", shares(0.25, 0.35)),
                           ("first 2", first_n(2)), ("first 3", first_n(3))):
            out.append(line(f"{name} {label}", figures(rs, pol)))
    if recall is not None:
        chosen, held = choose_shares(rows, recall, starts)
        out.append(f"\nshares chosen on all writers (best precision with recall >= {recall:g}): {chosen}")
        out += [f"- {name}, each writer held out: recall {r:.1f}, precision {p:.1f}" for name, (r, p) in held.items()]
    return "\n".join(out)
