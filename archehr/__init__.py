"""archehr: grounded patient-question answering over clinical notes (ArchEHR-QA)."""

__version__ = "0.1.0"
