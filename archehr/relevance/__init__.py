"""Evidence selection: sentence-relevance classifiers (registry in `registry.py`) and the selector.

Import cost is kept low: classifiers that need torch or the MiniLM model import them lazily.
"""

from archehr.relevance.base import RelevanceClassifier, Selection, SentenceScores

__all__ = ["RelevanceClassifier", "Selection", "SentenceScores"]
