"""archehr: grounded patient-question answering over clinical notes (ArchEHR-QA)."""

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    # `archehr.answer(note, question)` without making `import archehr` load the systems
    if name == "answer":
        from archehr.ask import answer

        return answer
    raise AttributeError(f"module 'archehr' has no attribute {name!r}")
