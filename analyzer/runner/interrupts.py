"""Ctrl-C and SIGTERM during a run: finish the chunks in hand, keep them, then stop."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator


class StopRequest:
    """Set by a signal handler; the runner stops after the chunk in hand."""

    signum: int | None = None


@contextlib.contextmanager
def graceful_interrupts(stop: StopRequest) -> Iterator[None]:
    """Within the block, Ctrl-C (SIGINT) and SIGTERM ask the run to stop after the chunks in
    hand; a second signal stops at once.

    The handler only records the request: raising KeyboardInterrupt from a signal handler
    while jitted code runs corrupts the call (numba returns "a result with an exception set").
    The runner raises KeyboardInterrupt itself, between chunks, from plain Python.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):  # noqa: ARG001
        if stop.signum is not None:
            raise KeyboardInterrupt
        stop.signum = signum

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
