"""archehr_scoring: the official ArchEHR-QA metrics (2025 and 2026), reproducible and offline-honest.

Installed under the import name `archehr_scoring` (the folder is `scoring/`). It imports the data
model and loaders of `archehr.data` but never system code (classifiers, generators, LLM backends).
"""

__version__ = "0.1.0"
