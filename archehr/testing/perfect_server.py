"""A scripted *perfect model* behind an OpenAI-compatible `/v1/chat/completions` on 127.0.0.1.

It reads each prompt, finds the case (the labelled case whose patient question or narrative
appears last in the prompt, so demonstrations of other cases do not confuse it), recognises what
is asked from the prompt's wording, and answers exactly as the clinicians did, from the key:

| prompt (recognised by)                       | reply                                                      |
|---|---|
| evidence (`ESSENTIAL`)                       | the key's essential and supplementary sentence ids         |
| question (`Patient message` / `clinician would ask`) | the clinician question of the case                 |
| alignment (`Answer sentences`)               | each clinician answer sentence's citations                 |
| anything else: an answer                     | the clinician answer sentences with their citations        |

`style` makes it drift the way real models do: `pipes` (the asked format), `brackets` (`[3, 4]`),
`front` (`|3,4| text`), `bullets`, `bold`, `numbered`, `json` (JSON in a code fence, unasked) and
`chatty` (a preface and a sign-off around the asked format). A request carrying a JSON-schema
`response_format` gets bare JSON, as a server honouring the schema would send. What the model would
submit directly for each task is `direct_submission(task)`: the benchmark compares it with what a
system makes of the same replies (benchmarks/llm_fidelity.py, tests/test_llm_fidelity.py).

    with PerfectServer(split, style="bold") as server:   # split: a Split with its key
        ...  # point a system's backend base_url at server.url
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from typing import Any

from archehr.data.model import Case, Split
from archehr.testing.scripted import QuietHandler, ScriptedHTTP, count_tokens, send_json

STYLES = ("pipes", "brackets", "front", "bullets", "bold", "numbered", "json", "chatty")
KINDS = ("evidence", "question", "alignment", "answer")
_SPACE = re.compile(r"\s+")


def _flat(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def prompt_kind(prompt: str) -> str:
    """What a prompt asks for, from the wording of the shipped templates (configs/prompts/)."""
    if "ESSENTIAL" in prompt:
        return "evidence"
    if "Answer sentences" in prompt:
        return "alignment"
    if "Patient message" in prompt or "clinician would ask" in prompt:
        return "question"
    return "answer"


class PerfectModel:
    """Replies from the key of `split`; `reply(prompt, response_format)` is the whole model."""

    def __init__(self, split: Split, style: str = "pipes"):
        if style not in STYLES:
            raise ValueError(f"style must be one of {', '.join(STYLES)}, not {style!r}")
        if split.key is None:
            raise ValueError("the perfect model needs a split with its key")
        self.split = split
        self.style = style
        keyed = {k.case_id for k in split.key}
        self.cases = [c for c in split.cases if c.case_id in keyed]
        self._anchors = [(c, [a for a in (_flat(c.question_text)[:200], _flat(c.patient_narrative or "")[:200])
                              if len(a) >= 10]) for c in self.cases]

    def find_case(self, prompt: str) -> Case | None:
        flat = _flat(prompt)
        best: tuple[int, Case | None] = (-1, None)
        for case, anchors in self._anchors:
            for a in anchors:
                pos = flat.rfind(a)
                if pos > best[0]:
                    best = (pos, case)
        return best[1]

    # -- what the clinicians wrote, per kind ---------------------------------------------------
    def evidence(self, case: Case) -> tuple[list[str], list[str]]:
        key = self.split.key_for(case.case_id)
        return list(key.essential_ids), list(key.supplementary_ids)

    def answer_lines(self, case: Case) -> list[tuple[str, list[str]]]:
        return [(a.text.strip(), list(a.citations))
                for a in self.split.key_for(case.case_id).clinician_answer_sentences or ()]

    def question(self, case: Case) -> str:
        return (case.clinician_question or "").strip()

    # -- replies -----------------------------------------------------------------------------------
    def reply(self, prompt: str, response_format: dict[str, Any] | None = None) -> str:
        case = self.find_case(prompt)
        if case is None:
            return "I cannot find that patient."
        kind = prompt_kind(prompt)
        if response_format is not None and response_format.get("type") in ("json_schema", "json_object"):
            return json.dumps(self._json(case, kind))
        if self.style == "json":
            return "```json\n" + json.dumps(self._json(case, kind), indent=2) + "\n```"
        text = {"evidence": self._evidence_text, "alignment": self._alignment_text, "question": self._question_text,
                "answer": self._answer_text}[kind](case)
        if self.style == "chatty":
            return f"Sure! Here is what you asked for, based on the note.\n\n{text}\n\nI hope this helps."
        return text

    def _json(self, case: Case, kind: str) -> Any:
        if kind == "evidence":
            ess, sup = self.evidence(case)
            return {"essential": [int(i) for i in ess], "supplementary": [int(i) for i in sup]}
        if kind == "alignment":
            return {"alignments": [{"answer": int(a_id), "evidence": [int(i) for i in ids]}
                                   for a_id, ids in self._links(case)]}
        if kind == "question":
            return {"question": self.question(case)}
        return [{"text": t, "citations": [int(i) for i in ids]} for t, ids in self.answer_lines(case)]

    def _links(self, case: Case) -> list[tuple[str, list[str]]]:
        return [(a.id, list(a.citations)) for a in self.split.key_for(case.case_id).clinician_answer_sentences or ()]

    def _ids(self, ids: list[str]) -> str:
        if not ids:
            return "none"
        return f"[{', '.join(ids)}]" if self.style == "brackets" else ", ".join(ids)

    def _evidence_text(self, case: Case) -> str:
        ess, sup = self.evidence(case)
        e, s = self._ids(ess), self._ids(sup)
        return {"bullets": f"- Essential: {e}\n- Supplementary: {s}",
                "bold": f"**Essential:** {e}\n**Supplementary:** {s}",
                "numbered": f"1. ESSENTIAL: {e}\n2. SUPPLEMENTARY: {s}"}.get(
                    self.style, f"ESSENTIAL: {e}\nSUPPLEMENTARY: {s}")

    def _alignment_text(self, case: Case) -> str:
        out = []
        for a_id, ids in self._links(case):
            line = {"bullets": f"- {a_id}: {self._ids(ids)}", "bold": f"**{a_id}**: {self._ids(ids)}",
                    "numbered": f"{a_id}. {self._ids(ids)}",
                    "front": f"Sentence {a_id}: {self._ids(ids)}"}.get(self.style, f"{a_id}: {self._ids(ids)}")
            out.append(line)
        return "\n".join(out)

    def _question_text(self, case: Case) -> str:
        q = self.question(case)
        return {"brackets": f'Clinician question: "{q}"', "bullets": f"- {q}", "bold": f"**{q}**",
                "numbered": f"1. {q}", "front": f"Question: {q}"}.get(self.style, q)

    def _answer_text(self, case: Case) -> str:
        out = []
        for k, (t, ids) in enumerate(self.answer_lines(case), 1):
            pipes, brackets = f"|{','.join(ids)}|", f"[{', '.join(ids)}]"
            if not ids:  # an uncited framing sentence: no citation marks at all
                out.append({"bullets": f"- {t}", "bold": f"**{t}**", "numbered": f"{k}. {t}"}.get(self.style, t))
                continue
            out.append({"brackets": f"{t} {brackets}", "front": f"{pipes} {t}", "bullets": f"- {t} {brackets}",
                        "bold": f"**{t}** **{brackets}**", "numbered": f"{k}. {t} {pipes}"}.get(
                            self.style, f"{t} {pipes}"))
        return "\n".join(out)

    # -- what the model's output is, submitted directly ------------------------------------------
    def direct_submission(self, task: str) -> list[dict[str, Any]]:
        """The official submission made of the model's own replies, with no system in between.

        What each case's prediction is comes from the task registry: its prediction kind, and for a text
        prediction the reference it is scored against (the perfect text is that reference).
        """
        from archehr_scoring.tasks import get_task

        spec = get_task(task)
        texts = {"clinician_question": self.question,
                 "clinician_answer_without_citations": lambda c: " ".join(t for t, _ in self.answer_lines(c))}
        out: list[dict[str, Any]] = []
        for c in self.cases:
            if spec.prediction == "answer":  # the 2025 format: one cited sentence per line, as runs.py writes it
                pred: Any = "\n".join(f"{t} |{','.join(ids)}|" if ids else t for t, ids in self.answer_lines(c))
                out.append({"case_id": c.case_id, "answer": pred})
                continue
            if spec.prediction == "ids":
                pred = self.evidence(c)[0]
            elif spec.prediction == "links":
                pred = [{"answer_id": a, "evidence_id": ids} for a, ids in self._links(c)]
            elif spec.prediction == "text" and spec.references and spec.references[0] in texts:
                pred = texts[spec.references[0]](c)
            else:
                raise ValueError(f"task {task!r}: no perfect {spec.prediction or 'prediction'} for its reference")
            out.append({"case_id": c.case_id, "prediction": pred})
        return out


class PerfectServer(ScriptedHTTP):
    """`PerfectModel` served on 127.0.0.1 (a free port); `url` is the base URL for the openai backend."""

    def __init__(self, split: Split, style: str = "pipes", model: PerfectModel | None = None):
        self.model = model or PerfectModel(split, style)
        self.requests: Counter[str] = Counter()  # per prompt kind
        self.schema_requests = 0
        lock = threading.Lock()
        outer = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server API
                if self.routed("/v1/models"):
                    send_json(self, 200, {"object": "list", "data": [{"id": "perfect", "object": "model"}]})

            def do_POST(self) -> None:  # noqa: N802 - http.server API
                if not self.routed("/chat/completions"):
                    return
                try:
                    n = int(self.headers.get("Content-Length", 0))
                    payload = json.loads(self.rfile.read(n))
                    prompt = "\n".join(m.get("content") or "" for m in payload.get("messages", [])
                                       if m.get("role") == "user")
                except (ValueError, AttributeError):
                    send_json(self, 400, {"error": {"message": "bad request"}})
                    return
                fmt = payload.get("response_format")
                with lock:
                    outer.requests[prompt_kind(prompt)] += 1
                    outer.schema_requests += fmt is not None
                content = outer.model.reply(prompt, fmt)
                used = count_tokens(prompt), count_tokens(content)
                send_json(self, 200, {"id": "perfect", "object": "chat.completion", "model": "perfect",
                                      "choices": [{"index": 0, "finish_reason": "stop",
                                                   "message": {"role": "assistant", "content": content}}],
                                      "usage": {"prompt_tokens": used[0], "completion_tokens": used[1],
                                                "total_tokens": sum(used)}})

        self.serve(Handler)
