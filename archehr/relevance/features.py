"""Hand-made per-sentence features for the `trained` classifier.

Feature sets (`FEATURE_SETS`): "lexical" (always available), plus optional groups: "embedding" (MiniLM cosines),
"everyday" (archehr.relevance.everyday) and "interactions" (products of six lexical features). Every
similarity is normalised within its case (share of the case maximum, rank percentile, neighbours),
because absolute BM25 or cosine values shift from note to note while the ordering generalises.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from archehr.data.model import Case
from archehr.glossary import Glossary, load_glossary
from archehr.relevance.everyday import EVERYDAY_FEATURES, everyday_features
from archehr.relevance.lexical import (
    FIELDS,
    block_title_similarity,
    bm25_matrix,
    field_similarities,
    max_norm,
    percentile_rank,
    query_tokens,
    require_sentences,
    sentence_tokens,
)
from archehr.relevance.text import SECTIONS, contexts, lab_pattern, numeric_fraction, sentence_texts

FEATURE_SETS = ("lexical", "lexical+embedding", "lexical+everyday", "lexical+interactions",
                "lexical+everyday+interactions")

_SECTION_FEATURES = tuple(f"section_{s}" for s in SECTIONS if s != "other")  # "other" is the baseline
LEXICAL_FEATURES: tuple[str, ...] = (
    *(f"bm25_{f}" for f in FIELDS),
    "lex_rank",
    "lex_prev",
    "lex_next",
    "lex_block_mean",
    "lex_block_max",
    "lex_best_block",
    "lex_top_distance",
    "feedback",
    "block_title",
    "glossary_hits",
    "is_header",
    "paragraph_first",
    *_SECTION_FEATURES,
    "position",
    "log_length",
    "numeric_fraction",
    "lab_pattern",
    "log_note_sentences",
)
EMBEDDING_FEATURES: tuple[str, ...] = (
    *(f"cos_{f}" for f in FIELDS),
    "cos_rank",
    "cos_prev",
    "cos_next",
    "cos_block_mean",
    "cos_block_max",
    "cos_best_block",
    "cos_top_distance",
)


# The `interactions` group: every product of two of these (squares included). A linear model cannot say "a close
# question match counts more in a long sentence" or "a high rank counts less far down the note"; these products
# let it, and they carry over to writers the model has not read (docs/voices.md).
INTERACTION_KEYS: tuple[str, ...] = ("bm25_clinician", "lex_rank", "lex_block_max", "feedback", "position",
                                     "log_length")
_PAIRS = tuple((a, b) for i, a in enumerate(INTERACTION_KEYS) for b in INTERACTION_KEYS[i:])
INTERACTION_FEATURES: tuple[str, ...] = tuple(f"{a}*{b}" for a, b in _PAIRS)


def feature_names(feature_set: str) -> tuple[str, ...]:
    if feature_set not in FEATURE_SETS:
        raise ValueError(f"unknown feature set {feature_set!r} (known: {', '.join(FEATURE_SETS)})")
    groups = feature_set.split("+")
    names = LEXICAL_FEATURES
    if "embedding" in groups:
        names += EMBEDDING_FEATURES
    if "everyday" in groups:
        names += EVERYDAY_FEATURES
    if "interactions" in groups:
        names += INTERACTION_FEATURES
    return names


def interaction_columns(x: np.ndarray) -> list[np.ndarray]:
    """The `INTERACTION_FEATURES` columns from a lexical feature matrix (columns in `LEXICAL_FEATURES` order)."""
    at = {n: j for j, n in enumerate(LEXICAL_FEATURES)}
    return [x[:, at[a]] * x[:, at[b]] for a, b in _PAIRS]


def _neighbours(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    prev = np.concatenate([[0.0], x[:-1]]) if len(x) else x
    nxt = np.concatenate([x[1:], [0.0]]) if len(x) else x
    return prev, nxt


def _block_reduce(x: np.ndarray, blocks: np.ndarray, reduce: Callable[[np.ndarray], float]) -> np.ndarray:
    """Each sentence gets `reduce` of the values of its block."""
    out = np.zeros_like(x)
    for b in np.unique(blocks):
        m = blocks == b
        out[m] = reduce(x[m])
    return out


def _block_mean(x: np.ndarray, blocks: np.ndarray) -> np.ndarray:
    return _block_reduce(x, blocks, np.mean)


def _block_max(x: np.ndarray, blocks: np.ndarray) -> np.ndarray:
    return _block_reduce(x, blocks, np.max)


FEEDBACK_TOP = 3


def feedback_similarity(docs: list[list[str]], combined: np.ndarray, headers: np.ndarray,
                        top: int = FEEDBACK_TOP) -> np.ndarray:
    """Pseudo-relevance feedback: how much a sentence shares with the `top` best question matches.

    Sum of the BM25 of the sentence with each of the `top` sentences of highest `combined` score other
    than itself as the query (IDF from the note), max-normalised; section titles score 0 both ways.
    It credits sentences that share the note's own terms (drug names, procedures, findings) with the
    sentences the question points at, even when they share no word with the question itself.
    """
    n = len(docs)
    b = bm25_matrix(docs)
    np.fill_diagonal(b, 0.0)
    b[:, headers] = 0.0
    b[headers, :] = 0.0
    order = np.argsort(-combined, kind="stable")[: top + 1]
    out = np.zeros(n)
    for i in range(n):
        out[i] = b[[j for j in order if j != i][:top], i].sum()
    return max_norm(out)


def _context_group(combined: np.ndarray, blocks: np.ndarray, title: np.ndarray) -> list[np.ndarray]:
    """Rank, neighbours, and where the sentence's block stands: clinicians cite the workup of one problem."""
    prev, nxt = _neighbours(combined)
    block_mean = _block_mean(combined, blocks)
    block_score = block_mean + title
    best = (block_score >= block_score.max() - 1e-12).astype(float) if len(combined) else combined
    top = int(np.argmax(combined)) if len(combined) else 0
    dist = np.abs(np.arange(len(combined)) - top) / max(1, len(combined) - 1)
    return [percentile_rank(combined), prev, nxt, block_mean, _block_max(combined, blocks), best, dist]


def case_features(case: Case, feature_set: str, glossary: Glossary | None = None,
                  encoder: object | None = None) -> np.ndarray:
    """Feature matrix (n_sentences x n_features) of one case, columns in `feature_names(feature_set)` order."""
    require_sentences(case)
    names = feature_names(feature_set)
    g = glossary if glossary is not None else load_glossary()
    ctx = contexts(case)
    n = len(case.sentences)
    blocks = np.array([c.block for c in ctx])
    headers = np.array([c.header for c in ctx], dtype=float)
    sims = {f: max_norm(v) for f, v in field_similarities(case, g).items()}
    combined = max_norm(sims["patient"] + sims["clinician"] + 0.5 * sims["narrative"])
    texts = sentence_texts(case.sentences)
    q_terms = set(t for f in ("patient", "clinician") for t in query_tokens(case, g)[f])
    s_tokens = sentence_tokens(case, g)
    hits = np.array([len(q_terms & set(toks)) for toks in s_tokens], dtype=float)
    cols: list[np.ndarray] = [sims[f] for f in FIELDS]
    title = block_title_similarity(case, g)
    cols += _context_group(combined, blocks, title)
    cols.append(feedback_similarity(s_tokens, combined, headers.astype(bool)))
    paras = [s.paragraph_id for s in case.sentences]
    # a sentence that opens a paragraph states the problem; the rest of the paragraph elaborates it
    para_first = np.array([1.0] + [float(paras[i] != paras[i - 1]) for i in range(1, n)])
    cols += [title, np.log1p(hits), headers, para_first]
    cols += [np.array([c.section == s[len("section_"):] for c in ctx], dtype=float) for s in _SECTION_FEATURES]
    cols += [
        np.arange(n) / max(1, n - 1),
        np.log1p([len(t.split()) for t in texts]),
        np.array([numeric_fraction(t) for t in texts]),
        np.array([lab_pattern(t) for t in texts]),
        # clinicians cite about as many sentences in a long note as in a short one, so the prior of
        # each sentence falls with the note's length (CV: +1 F1 over the 40 labelled cases)
        np.full(n, np.log(n)),
    ]
    groups = feature_set.split("+")
    lexical = np.column_stack(cols).astype(float) if "interactions" in groups else None
    if "everyday" in groups:
        cols += everyday_features(case, combined)
    if lexical is not None:
        cols += interaction_columns(lexical)
    if feature_set == "lexical+embedding":
        from archehr.relevance.embedding import field_cosines, get_encoder

        cos = field_cosines(case, encoder or get_encoder())  # type: ignore[arg-type]
        rel = {}
        for f in FIELDS:  # cosine relative to the case's best sentence: comparable across notes
            v = cos[f]
            rel[f] = v - v.max() if n else v
        cols += [rel[f] for f in FIELDS]
        comb = (cos["patient"] + cos["clinician"] + 0.5 * cos["narrative"]) / 2.5
        comb = comb - comb.max()
        cols += _context_group(comb, blocks, title)
    x = np.column_stack(cols).astype(float)
    if x.shape[1] != len(names):  # a programming error, not user input
        raise RuntimeError(f"feature builder produced {x.shape[1]} columns for {len(names)} names")
    return x
