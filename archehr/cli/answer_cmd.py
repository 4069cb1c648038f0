"""`archehr answer --note NOTE.txt --question "..."`: a cited answer from one raw note, no release needed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from archehr.cli.common import err
from archehr.errors import InputError, Problem


def _read(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(Problem(f"{what} file not found", str(path), code="missing-file")) from None
    except UnicodeDecodeError as e:
        raise InputError(Problem(f"{what} file is not UTF-8 text ({e.reason} at byte {e.start})", str(path),
                                 code="encoding")) from None
    except OSError as e:
        raise InputError(Problem(f"cannot read the {what} file: {e.strerror}", str(path), code="io")) from None


def answer(
    note: Annotated[Path, typer.Option("--note", help="The clinical note, a UTF-8 text file.", show_default=False)],
    question: Annotated[str, typer.Option("--question", help="The patient's question.", show_default=False)],
    narrative: Annotated[Path | None, typer.Option("--narrative", help="The patient's whole message (a text file), "
                                                   "when there is more than the question.", show_default=False)] = None,
    system: Annotated[str | None, typer.Option("--system", help="Built-in system name or YAML path (default: "
                                               "trained-extractive).", show_default=False)] = None,
    splitter: Annotated[str, typer.Option("--splitter", help="auto (spaCy when installed, else rules) | spacy | "
                                          "rules")] = "auto",
    fmt: Annotated[str, typer.Option("--format", help="text | json")] = "text",
    answerability: Annotated[str, typer.Option("--answerability", help="lexical (default) | embedding (MiniLM "
                                               "cosines, the models extra) | reading (MiniLM token alignment, "
                                               "the models extra) | PATH to a model file | off (never say "
                                               "'the note does not say')")] = "lexical",
    ranker: Annotated[str, typer.Option("--ranker", help="auto (default: embedding when MiniLM is installed, else "
                                        "hand, with a note) | hand (the answer types alone) | embedding (MiniLM "
                                        "similarity with the question also ranks sentences; the models extra, an "
                                        "error without it)")] = "auto",
) -> None:
    """Answer a patient question from one raw note: split it into numbered sentences, run a system, print the
    cited answer, the cited sentences, the confidence and the review flag."""
    if fmt not in ("text", "json"):
        raise InputError(Problem(f"--format must be text or json, not {fmt!r}", field="--format", code="option"))
    from archehr.ask import answer as run_answer

    result = run_answer(_read(note, "note"), question,
                        narrative=_read(narrative, "narrative") if narrative is not None else None,
                        system=system, splitter=splitter,
                        answerability=None if answerability == "off" else answerability, ranker=ranker)
    from archehr.answerability.embed_rank import HAND_ONLY

    for n in (*result.note.notes, *(n for n in result.notes if n.startswith(HAND_ONLY))):
        err(f"note: {n}")
    if fmt == "json":
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
        return
    print(f"Question: {result.question}\n")
    print("Answer:")
    for line in result.lines:
        cites = f" [{', '.join(line.citations)}]" if line.citations else ""
        print(f"  {line.text}{cites}")
    if result.abstained:
        print("\nRelated note sentences (not an answer):")
        for s in result.related:
            print(f"  ({s.id}) {' '.join(s.text.split())}")
        if not result.related:
            print(f"  none: {result.related_note}")
    else:
        print("\nCited note sentences:")
        for s in result.cited:
            print(f"  [{s.id}] {' '.join(s.text.split())}")
    review = "yes: low confidence, have a clinician check it" if result.flagged else "no"
    print(f"\nConfidence that the note answers this: {result.confidence:.2f}   needs review: {review}")
    print(f"System: {result.system}; {len(result.note.sentences)} note sentences ({result.note.splitter})")
    if result.fallback:
        print(f"Fallback: {result.fallback}")


def register(app: typer.Typer) -> None:
    app.command("answer", short_help="Answer a patient question from one raw note, with citations.")(answer)
