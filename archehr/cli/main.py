"""Entry point: builds the typer app from the command modules and maps library errors to exit codes."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from archehr import __version__
from archehr.cli import (
    answer_cmd,
    codabench_cmd,
    compare_cmd,
    data_cmd,
    ensemble_cmd,
    export_cmd,
    leaderboard_cmd,
    package_cmd,
    predict_cmd,
    report_cmd,
    score_cmd,
    serve_cmd,
    train_cmd,
    validate_cmd,
)
from archehr.cli.common import err, plain_argument_names, plain_help_wrapping, print_problems, set_verbose
from archehr.errors import ArchehrError, InputError, UnavailableError

app = typer.Typer(
    name="archehr",
    help="Grounded patient-question answering over clinical notes (ArchEHR-QA): data, systems, scoring.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: no `<bool>` on flags, no option names or defaults cut at 80 columns
)
plain_help_wrapping()
plain_argument_names()


def _version(value: bool) -> None:
    if value:
        print(f"archehr {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """archehr: loaders, systems and the official-parity scorer for ArchEHR-QA."""


export_cmd.register(data_cmd.app)
app.add_typer(data_cmd.app, name="data")
# Each command module exposes `register(app)` and imports its heavy dependencies inside the command, so that
# start-up stays fast. Listed explicitly: a deleted module is an ImportError here, never a silent stub.
for _cmd in (predict_cmd, score_cmd, validate_cmd, train_cmd, leaderboard_cmd, report_cmd, compare_cmd, package_cmd,
             answer_cmd, codabench_cmd, serve_cmd, ensemble_cmd):
    _cmd.register(app)

EXIT_BAD_INPUT = 2
EXIT_UNAVAILABLE = 3


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; library errors become one clear message and an exit code, never a traceback."""
    command = typer.main.get_command(app)
    set_verbose(False)
    try:
        argv = train_cmd.legacy_argv(list(sys.argv[1:] if argv is None else argv))
        rv = command.main(args=argv, prog_name="archehr", standalone_mode=False)
    except typer.Exit as e:
        return e.exit_code
    except typer.Abort:
        err("aborted")
        return 130
    except typer.TyperException as e:  # usage errors and the like (typer >= 0.29 vendors click)
        e.show()  # type: ignore[attr-defined]
        return int(getattr(e, "exit_code", 2))
    except InputError as e:
        print_problems(e.problems)
        return EXIT_BAD_INPUT
    except UnavailableError as e:
        err(f"error: {e}")
        return EXIT_UNAVAILABLE
    except ArchehrError as e:
        err(f"error: {e}")
        return EXIT_BAD_INPUT
    # the vendored click returns a typer.Exit's code instead of raising it when not standalone
    return rv if isinstance(rv, int) else 0


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
