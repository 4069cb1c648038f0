"""`archehr serve`: the local web app and JSON API (FastAPI + uvicorn, imported only when this command runs)."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Annotated
from urllib.parse import quote

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
                                      "(127.0.0.1) lets other machines reach it, and needs a token.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0: any free one).")] = 8000,
    token: Annotated[str | None, typer.Option("--token", help="The secret every request must carry (default: "
                                              "$ARCHEHR_SERVE_TOKEN). Required off this computer.",
                                              show_default=False)] = None,
    generate_token: Annotated[bool, typer.Option("--generate-token", help="Make a random token and print the "
                                                 "address that carries it.")] = False,
) -> None:
    """Start the local web app: ask about a note (/), compare runs side by side (/runs), JSON API (/api).

    Off this computer (--host other than 127.0.0.1, localhost, ::1) it refuses to start without a token
    (--token, $ARCHEHR_SERVE_TOKEN or --generate-token); a request without it then gets 401."""
    try:
        import uvicorn

        from archehr.serve.app import ServerState, create_app
        from archehr.serve.logs import log_config
    except ImportError as e:
        raise UnavailableError(f"archehr serve needs FastAPI and uvicorn ({e.name} is missing): "
                               "pip install 'archehr[serve]'") from None
    secret = _token(host, token, generate_token)
    if host not in LOCAL_HOSTS:
        err(f"warning: listening on {host}: other machines can reach this server; every request needs the token, "
            "and there is no TLS (the token and the notes cross the network in clear text)")
    _check_port(host, port)
    state = ServerState(system, data_dir, list(runs or []))
    threading.Thread(target=state.warm_up, name="warm-up", daemon=True).start()
    shown = f"[{host}]" if ":" in host else host
    err(f"archehr serve: system {state.system.config.name}; {len(state.runs.runs)} run(s); "
        f"http://{shown}:{port}/ (ask), /runs, /api; Ctrl-C stops it")
    if secret is not None:
        err(f"token required: open http://{shown}:{port}/?token={quote(secret, safe='')} once in a browser (it "
            "sets a cookie), or send 'Authorization: Bearer <token>'")
    uvicorn.run(create_app(state, secret), host=host, port=port, log_config=log_config(), server_header=False,
                access_log=True, timeout_graceful_shutdown=5)


def _token(host: str, token: str | None, generate: bool) -> str | None:
    """The secret requests must carry: --token, else $ARCHEHR_SERVE_TOKEN, else a new one with --generate-token;
    none at all is refused off this computer (exit 2), allowed on it."""
    from archehr.serve.auth import ENV, new_token, token_problem

    if generate and token:
        raise InputError(Problem("give --token or --generate-token, not both", field="--token", code="option"))
    secret = new_token() if generate else token or os.environ.get(ENV) or None
    if secret is None:
        if host in LOCAL_HOSTS:
            return None
        raise InputError(Problem(f"listening on {host} lets other machines send notes and read runs: give a token "
                                 f"(--token, ${ENV}, or --generate-token), or listen on 127.0.0.1",
                                 field="--host", code="option"))
    why = token_problem(secret)
    if why:
        raise InputError(Problem(why, field="--token" if token else ENV, code="option"))
    return secret


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
