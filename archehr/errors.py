"""Typed errors raised by the library; only the CLI turns them into messages and exit codes."""

from __future__ import annotations

from dataclasses import dataclass


class ArchehrError(Exception):
    """Base class of every error the library raises on purpose."""


@dataclass(frozen=True)
class Problem:
    """One located problem in an input file: the unit every bad-input report is made of."""

    message: str
    file: str | None = None
    case_id: str | None = None
    field: str | None = None
    line: int | None = None
    code: str = "error"

    def __str__(self) -> str:
        where = []
        if self.file:
            where.append(self.file + (f":{self.line}" if self.line else ""))
        if self.case_id is not None:
            where.append(f"case {self.case_id}")
        if self.field:
            where.append(f"field {self.field}")
        prefix = ", ".join(where)
        return f"{prefix}: {self.message}" if prefix else self.message

    def to_dict(self) -> dict[str, object]:
        return {
            "file": self.file,
            "case_id": self.case_id,
            "field": self.field,
            "line": self.line,
            "code": self.code,
            "message": self.message,
        }


class InputError(ArchehrError):
    """Bad user input (data file, submission, config): carries every problem found."""

    def __init__(self, problems: Problem | list[Problem] | str):
        if isinstance(problems, str):
            problems = [Problem(problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class DataError(InputError):
    """A release file (XML, key or mapping JSON) is malformed or inconsistent."""


class SubmissionError(InputError):
    """A submission file is malformed or does not match its key."""


class ConfigError(InputError):
    """A system config, model file or option is invalid."""


class ReleaseNotFoundError(InputError):
    """A split or file of a release is missing; the message lists what was found."""


class UnknownNameError(ArchehrError, KeyError):
    """A registry lookup of a name nobody registered; the message suggests near names."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0])


class DuplicateNameError(ArchehrError):
    """Two registrations under one name in one registry."""


class UnavailableError(ArchehrError):
    """A model, checkpoint or index needed by a component is not present on this machine."""

    def __init__(self, what: str, reason: str, how_to_fix: str = ""):
        self.what = what
        self.reason = reason
        self.how_to_fix = how_to_fix
        super().__init__(f"{what} unavailable: {reason}" + (f" ({how_to_fix})" if how_to_fix else ""))


def bad_model(message: str, source: str, field: str | None = None) -> ConfigError:
    """A model file that cannot be used (format, version, shapes): a ConfigError naming the file and field."""
    return ConfigError(Problem(message, source, field=field, code="bad-model"))
