"""`archehr serve`: the local web app and JSON API (FastAPI + uvicorn, imported only when this command runs)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Annotated

import typer

from archehr.cli.common import DataDirOpt, err
from archehr.errors import InputError, Problem, UnavailableError

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def serve(
    system: Annotated[str | None, typer.Option("--system", help="Built-in system name or YAML path that answers on "
                                               "the ask page (default: trained-extractive).",
                                               show_default=False)] = None,
    data_dir: DataDirOpt = None,
    runs: Annotated[list[Path] | None, typer.Option("--runs", metavar="DIR", help="Runs to compare on the runs page: "
                                                    "a folder of run folders (e.g. submissions), a run folder or "
                                                    "a submission file; repeat for more.",
                                                    show_default=False)] = None,
    host: Annotated[str, typer.Option("--host", help="Address to listen on. Anything but this computer "
                                      "(127.0.0.1) lets other machines send notes to it.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0: any free one).")] = 8000,
) -> None:
    """Start the local web app: ask about a note (/), compare runs side by side (/runs), JSON API (/api)."""
    try:
        import uvicorn

        from archehr.serve.app import ServerState, create_app
        from archehr.serve.logs import log_config
    except ImportError as e:
        raise UnavailableError(f"archehr serve needs FastAPI and uvicorn ({e.name} is missing): "
                               "pip install 'archehr[serve]'") from None
    if host not in LOCAL_HOSTS:
        err(f"warning: listening on {host}: other machines can reach this server and send it notes; "
            "it has no login and no TLS")
    _check_port(host, port)
    state = ServerState(system, data_dir, list(runs or []))
    threading.Thread(target=state.warm_up, name="warm-up", daemon=True).start()
    shown = f"[{host}]" if ":" in host else host
    err(f"archehr serve: system {state.system.config.name}; {len(state.runs.runs)} run(s); "
        f"http://{shown}:{port}/ (ask), /runs, /api; Ctrl-C stops it")
    uvicorn.run(create_app(state), host=host, port=port, log_config=log_config(), server_header=False,
                access_log=True, timeout_graceful_shutdown=5)


def _check_port(host: str, port: int) -> None:
    """One clear line for a port in use (or an address not on this machine) before anything loads."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        with socket.socket(infos[0][0], socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(infos[0][4])
    except OSError as e:
        raise InputError(Problem(f"cannot listen on {host} port {port}: {e.strerror or e}", field="--port",
                                 code="port")) from None


def register(app: typer.Typer) -> None:
    app.command("serve", short_help="Local web app and JSON API: ask about a note, compare runs.")(serve)
