"""The typer application and its command groups; game modules add their commands to these."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from typing import NoReturn

import typer

from analyzer.errors import CardlabError

_SETTINGS = {"add_completion": False, "no_args_is_help": True, "pretty_exceptions_enable": False}

app = typer.Typer(
    help="cardlab: Monte Carlo strategy analyzer for Who's the Ass? and Plus-Minus Jass.\n\n"
    "Simulate millions of games between strategies, replay any single game, and turn the "
    "results into tables, figures and HTML reports.",
    **_SETTINGS,
)
simulate_app = typer.Typer(help="Play many games and print a per-seat table.", **_SETTINGS)
replay_app = typer.Typer(help="Replay one game, identified by (seed, index), as a record.",
                         **_SETTINGS)
export_app = typer.Typer(help="Write games as JSON Lines records (game-records format).",
                         **_SETTINGS)
app.add_typer(simulate_app, name="simulate")
app.add_typer(replay_app, name="replay")
app.add_typer(export_app, name="export")


def fail(message: str | CardlabError) -> NoReturn:
    """Print a one-line error to stderr and exit with status 2 (an error about damaged files
    first prints one ``damaged:`` line per file)."""
    _details(message)
    _error(str(message))
    raise typer.Exit(getattr(message, "exit_code", 2))


def _details(exc: object) -> None:
    for line in getattr(exc, "details", None) or []:
        typer.echo(f"damaged: {' '.join(str(line).split())}", err=True)


def run_app(args: list[str] | None = None) -> None:
    """Run the app; every error is one line ``error: ...`` (a usage error adds a ``hint:``
    line) and exit status 2 - never click's framed box, never a traceback for bad input.

    Ctrl-C exits with status 130. An OSError no command handled (a disk that filled up or
    went read-only under it) is still one line. A closed standard output is refused before
    any work (status 1: the output would be lost), and a stream whose encoding lacks a symbol
    gets an ASCII stand-in (``+/-`` for ``±``).
    """
    from typer._click import exceptions as click

    from analyzer.cli.console import ascii_fallback, stdout_closed

    if stdout_closed():
        _error("standard output is closed, so cardlab's output would be lost; redirect it "
               "(> FILE, or > /dev/null to discard it)")
        sys.exit(1)
    ascii_fallback()
    try:
        code = app(args=args, prog_name="cardlab", standalone_mode=False)
    except CardlabError as exc:
        _details(exc)
        _error(str(exc))
        code = exc.exit_code
    except click.NoArgsIsHelpError as exc:
        typer.echo(exc.ctx.get_help())
        code = 2
    except click.UsageError as exc:
        other = _other_count(exc)
        _error(other or exc.format_message(),
               f"see {exc.ctx.command_path} --help" if other else _usage_hint(exc))
        code = 2
    except click.ClickException as exc:
        _error(exc.format_message())
        code = exc.exit_code or 2
    except typer.Abort:
        _error("interrupted")
        code = 130
    except OSError as exc:
        if exc.errno == errno.EPIPE:  # the reader went away (| head): quiet, like click
            with contextlib.suppress(OSError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
        where = f": {exc.filename}" if getattr(exc, "filename", None) else ""
        _error(f"{exc.strerror or exc}{where}")
        code = 1  # an I/O error (README: exit 1)
    finally:
        from analyzer.outputs import release_all

        release_all()  # the output folders the command locked, whatever its outcome
    sys.exit(code if isinstance(code, int) else 0)


def _error(message: str, hint: str | None = None) -> None:
    typer.echo(f"error: {' '.join(str(message).split())}", err=True)
    if hint:
        typer.echo(f"hint: {hint}", err=True)


def _other_count(exc) -> str | None:
    """For ``--games``/``-n`` on a command that counts something else (Jass: matches or
    deals), the sentence that says which unit it counts."""
    from typer._click import exceptions as click

    ctx = exc.ctx
    if not isinstance(exc, click.NoSuchOption) or exc.option_name not in ("--games", "-n") \
            or ctx is None:
        return None
    counts = [o for p in ctx.command.params if not getattr(p, "is_flag", False)
              for o in p.opts if o in ("--matches", "--deals")]
    if not counts:
        return None
    words = {"--matches": "--matches N (whole matches)", "--deals": "--deals N (single deals)"}
    return (f"{ctx.command_path} counts {' or '.join(c[2:] for c in counts)}, not games: use "
            f"{' or '.join(words[c] for c in counts)} instead of {exc.option_name}")


def _usage_hint(exc) -> str:
    from typer._click import exceptions as click

    ctx = exc.ctx
    path = ctx.command_path if ctx is not None else "cardlab"
    if isinstance(exc, click.NoSuchOption) and exc.possibilities:
        return f"did you mean {' or '.join(sorted(exc.possibilities))}? (see {path} --help)"
    return f"see {path} --help"
