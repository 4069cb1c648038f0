"""Scripted *imperfect* models: the perfect model of `perfect_server.py` with seeded, overlapping mistakes.

A family of models shares one set of mistakes (made by every model of the family) and each model adds its
own. Each model has a per-item error rate `rate`; a fraction of it comes from the family's shared mistakes:
`shared_rate = shared * mean(rates)`, at most the lowest rate (the same items for every model), the rest from
the model's own seed
(`own = (rate - shared_rate) / (1 - shared_rate)`, so a model errs on about `rate` of the items). Every
decision is a hash of (family seed, model seed or "shared", what, case, item): replies are deterministic,
so the n samples of one request agree, and a rerun gives the same run.

What a mistake is, per item:

| item | mistake |
|---|---|
| an essential note sentence (evidence) | left out |
| a non-essential note sentence (evidence) | named essential (rate x essential/non-essential: adds ~ drops) |
| a citation of an answer line (2025) | replaced by a wrong note sentence (a neighbour of the gold ones) |
| a link of an answer sentence (st4) | replaced by a link to a wrong note sentence |
| a word of a question or answer text (st1, st3, 2025) | replaced by a word of the note (a third of the rate) |
| a cited answer line (only with `invent_numbers` > 0) | states a number its citations do not hold (a sloppy model) |

`NoisyFamily(split, rates, shared, seed).models()` gives the models; `NoisyModel` plugs into `PerfectServer`
(`PerfectServer(split, model=m)`), so a real system config can be run against it. benchmarks/ensemble.py
runs the shipped `openai-server` config against five of them and combines the runs.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from archehr.data.model import Case, Split
from archehr.testing.perfect_server import PerfectModel

_WORD = re.compile(r"[A-Za-z]{4,}")


def unit(*parts: object) -> float:
    """A uniform number in [0, 1) from the parts (deterministic)."""
    return int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:13], 16) / 16 ** 13


@dataclass(frozen=True)
class Noise:
    family: int  # seed of the family's shared mistakes
    model: int  # seed of this model's own mistakes
    shared_rate: float
    own_rate: float
    invent_numbers: float = 0.0

    def wrong(self, what: str, case: str, item: object, scale: float = 1.0) -> bool:
        return (unit(self.family, "shared", what, case, item) < self.shared_rate * scale
                or unit(self.family, self.model, what, case, item) < self.own_rate * scale)

    def pick(self, what: str, case: str, item: object, options: Sequence[str], shared: bool) -> str:
        """A deterministic choice among options: the family's (same for all) for a shared mistake, else own."""
        u = unit(self.family, "shared" if shared else self.model, what, "pick", case, item)
        return options[int(u * len(options))]

    def is_shared(self, what: str, case: str, item: object, scale: float = 1.0) -> bool:
        return unit(self.family, "shared", what, case, item) < self.shared_rate * scale


class NoisyModel(PerfectModel):
    """The perfect model with the mistakes of `noise` (module docstring)."""

    def __init__(self, split: Split, noise: Noise, name: str = "noisy", style: str = "pipes"):
        super().__init__(split, style)
        self.noise = noise
        self.name = name

    def _wrong_id(self, case: Case, gold: Sequence[str], what: str, item: object) -> str | None:
        ids = list(case.sentence_ids)
        pos = {s: k for k, s in enumerate(ids)}
        near = [ids[pos[g] + d] for g in gold if g in pos for d in (-2, -1, 1, 2)
                if 0 <= pos[g] + d < len(ids) and ids[pos[g] + d] not in gold]
        options = list(dict.fromkeys(near)) or [s for s in ids if s not in gold]
        if not options:
            return None
        return self.noise.pick(what, case.case_id, item, options, self.noise.is_shared(what, case.case_id, item))

    def evidence(self, case: Case) -> tuple[list[str], list[str]]:
        ess, sup = super().evidence(case)
        cid = case.case_id
        others = [s for s in case.sentence_ids if s not in ess]
        scale = min(1.0, len(ess) / max(1, len(others)))
        kept = [s for s in ess if not self.noise.wrong("drop", cid, s)]
        added = [s for s in others if self.noise.wrong("add", cid, s, scale)]
        order = {s: k for k, s in enumerate(case.sentence_ids)}
        return sorted(kept + added, key=order.__getitem__), [s for s in sup if s not in added]

    def _text(self, case: Case, text: str, what: str) -> str:
        pool = sorted({w for s in case.sentences for w in _WORD.findall(s.text)}) or ["note"]
        out = []
        for k, w in enumerate(text.split(" ")):
            if _WORD.fullmatch(w.strip(".,;:")) and self.noise.wrong(what, case.case_id, k, 1 / 3):
                w = self.noise.pick(what, case.case_id, k, pool, self.noise.is_shared(what, case.case_id, k, 1 / 3))
            out.append(w)
        return " ".join(out)

    def question(self, case: Case) -> str:
        return self._text(case, super().question(case), "question")

    def answer_lines(self, case: Case) -> list[tuple[str, list[str]]]:
        out = []
        for n, (text, ids) in enumerate(super().answer_lines(case)):
            cites = []
            for i in ids:
                item = f"{n}:{i}"
                bad = self.noise.wrong("cite", case.case_id, item)
                cites.append((self._wrong_id(case, ids, "cite", item) or i) if bad else i)
            text = self._text(case, text, f"answer{n}")
            if ids and self.noise.invent_numbers and unit(self.noise.family, self.noise.model, "number",
                                                          case.case_id, n) < self.noise.invent_numbers:
                text = text.rstrip(".") + f", over {97 + n} days."
            out.append((text, list(dict.fromkeys(cites))))
        return out

    def _links(self, case: Case) -> list[tuple[str, list[str]]]:
        out = []
        for a_id, ids in super()._links(case):
            links = []
            for i in ids:
                item = f"{a_id}:{i}"
                bad = self.noise.wrong("link", case.case_id, item)
                links.append((self._wrong_id(case, ids, "link", item) or i) if bad else i)
            out.append((a_id, list(dict.fromkeys(links))))
        return out


@dataclass(frozen=True)
class NoisyFamily:
    """Models sharing `shared` of their mistakes (module docstring); `rates` gives one model per rate."""

    split: Split
    rates: tuple[float, ...]
    shared: float = 0.3
    seed: int = 0
    invent_numbers: float = 0.0

    @property
    def shared_rate(self) -> float:
        """The rate of the mistakes every model makes (the same items for all): `shared` x the mean rate, at
        most the lowest rate."""
        return min(self.shared * sum(self.rates) / len(self.rates), min(self.rates))

    def noise(self, k: int) -> Noise:
        s = self.shared_rate
        own = max(0.0, (self.rates[k] - s) / (1 - s)) if s < 1 else 0.0
        return Noise(self.seed, 1000 + k, s, own, self.invent_numbers)

    def models(self) -> list[NoisyModel]:
        return [NoisyModel(self.split, self.noise(k), f"noisy-{self.seed}-{k}") for k in range(len(self.rates))]
