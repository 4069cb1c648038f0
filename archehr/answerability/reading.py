"""Token-level reading features: how well each of the question's words is matched inside one note sentence.

Coverage counts (`features.py`) say whether the note uses the question's words anywhere; a question
whose words are all in the note but spread over sentences about other things ("Can I eat more salt to
make the sodium go up?" on a note about her low sodium and a fluid restriction) looks answerable to
them. Here every content token of the question is aligned to its most similar token of a sentence,
with MiniLM's contextual token states (BERTScore-style recall): a sentence that answers the question
tends to match the whole question, the predicate ("eat more salt") as well as the topic ("sodium"),
and the weakest-matched word of the question shows what no sentence speaks to.
Features (`READING_FEATURES` order):

- `tok_rec_max`: the best sentence's recall (mean over question tokens of their best match in it);
- `tok_rec_top3`: the mean recall of the best three sentences;
- `tok_note_rec`: the mean over question tokens of their best match anywhere in the note;
- `tok_note_min`, `tok_note_min2`: the weakest question token's best match anywhere (and the mean of
  the weakest two): a word nothing in the note speaks to;
- `tok_best_min`: the weakest question token's match inside the best sentence;
- `tok_best_prec`: the best sentence's precision (mean over its tokens of their best match in the question);
- `tok_max_min`: the largest, over sentences, of the weakest question token's match in that sentence.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Sequence

import numpy as np

READING_FEATURES: tuple[str, ...] = ("tok_rec_max", "tok_rec_top3", "tok_note_rec", "tok_note_min",
                                     "tok_note_min2", "tok_best_min", "tok_best_prec", "tok_max_min")

# Function words (and punctuation) carry no content to align; the question's verbs ("eat", "stop", "use")
# stay, since the predicate is what a same-topic unanswerable question differs by.
STOP = frozenset("""a an the i me my we our you your he him his she her they them their it its this that these
those is am are was were be been being do does did have has had can could should would will shall may might must
to of in on at for from by with about as into if or and but so not no yes what why when how which who whom where
there here than then too very just any some all more most other such only own same s t""".split())
_SPECIAL = frozenset({"[CLS]", "[SEP]", "[PAD]"})
_HAS_ALNUM = re.compile(r"[a-z0-9]", re.I)

TokenStates = tuple[tuple[str, ...], np.ndarray]  # content tokens, their unit-norm states (n x dim)


def content_states(tokens: Sequence[str], states: np.ndarray) -> TokenStates:
    """Keep the content word pieces (no special token, function word or punctuation), states unit-normed."""
    keep = [k for k, t in enumerate(tokens) if t not in _SPECIAL and t.lower() not in STOP and _HAS_ALNUM.search(t)]
    h = np.asarray(states, dtype=float)[keep] if keep else np.zeros((0, np.asarray(states).shape[-1]))
    h = h / np.maximum(np.linalg.norm(h, axis=1, keepdims=True), 1e-12) if len(keep) else h
    return tuple(tokens[k] for k in keep), h


def alignment_features(question: TokenStates, sentences: Sequence[TokenStates]) -> np.ndarray:
    """The `READING_FEATURES` row from the question's and each candidate sentence's content token states
    (headers already left out). No question token, or no sentence with a content token: all zeros."""
    _, qh = question
    sents = [h for _, h in sentences if len(h)]
    if not len(qh) or not sents:
        return np.zeros(len(READING_FEATURES))
    rec, prec, mins = [], [], []
    best_tok = np.full(len(qh), -1.0)
    for sh in sents:
        sim = qh @ sh.T  # question tokens x sentence tokens, cosines
        r = sim.max(axis=1)
        best_tok = np.maximum(best_tok, r)
        rec.append(float(r.mean()))
        prec.append(float(sim.max(axis=0).mean()))
        mins.append(float(r.min()))
    order = np.argsort(-np.array(rec), kind="stable")
    b = int(order[0])
    weakest = np.sort(best_tok)
    return np.array([rec[b], float(np.mean([rec[k] for k in order[:3]])), float(best_tok.mean()),
                     float(weakest[0]), float(weakest[:2].mean()), mins[b], prec[b], max(mins)])


class TokenEncoder:
    """Contextual token states of MiniLM (the relevance encoder's tokenizer and model), cached per text."""

    def __init__(self, encoder: object | None = None, max_length: int = 128, batch_size: int = 32):
        if encoder is None:
            from archehr.relevance.embedding import get_encoder

            encoder = get_encoder()
        import torch

        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        self._torch = torch
        self.encoder = encoder
        self.max_length = max_length
        self.batch_size = batch_size
        self._cache: dict[str, TokenStates] = {}
        self._lock = threading.Lock()

    def states(self, texts: Sequence[str]) -> list[TokenStates]:
        """Content token states of each text (see `content_states`)."""
        tok, model = self.encoder.tokenizer, self.encoder.model  # type: ignore[attr-defined]
        with self._lock:
            todo = sorted({t for t in texts if t not in self._cache}, key=len)
            for i in range(0, len(todo), self.batch_size):
                batch = todo[i:i + self.batch_size]
                with self._torch.inference_mode():
                    enc = tok(batch, padding=True, truncation=True, max_length=self.max_length, return_tensors="pt")
                    out = model(**enc).last_hidden_state.numpy()
                for k, t in enumerate(batch):
                    m = enc["attention_mask"][k].numpy().astype(bool)
                    ids = enc["input_ids"][k].numpy()[m].tolist()
                    self._cache[t] = content_states(tok.convert_ids_to_tokens(ids), out[k][m])
            return [self._cache[t] for t in texts]


_TOKEN_ENCODER: TokenEncoder | None = None
_TOKEN_LOCK = threading.Lock()


def get_token_encoder() -> TokenEncoder:
    """The process-wide token encoder (MiniLM loaded on first use; UnavailableError when missing)."""
    global _TOKEN_ENCODER
    with _TOKEN_LOCK:
        if _TOKEN_ENCODER is None:
            _TOKEN_ENCODER = TokenEncoder()
        return _TOKEN_ENCODER
