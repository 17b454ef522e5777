"""Ctrl-C and SIGTERM during a run: finish the chunks in hand, keep them, then stop."""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator


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


@contextlib.contextmanager
def checked_interrupts() -> Iterator[Callable[[], None]]:
    """Within the block a Ctrl-C (SIGINT) is recorded, not raised, and the ``check()`` the
    block is given raises KeyboardInterrupt for it: called between the chunks of a long
    kernel, so that Ctrl-C stops it within a chunk, from plain Python (module docstring of
    graceful_interrupts: never while jitted code runs). A Ctrl-C not yet checked is raised
    when the block ends; a second one raises at once. Off the main thread (where no handler
    can be set) ``check()`` does nothing."""
    stop = StopRequest()

    def check() -> None:
        if stop.signum is not None:
            raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield check
        return

    def handler(signum, frame):  # noqa: ARG001
        if stop.signum is not None:
            raise KeyboardInterrupt
        stop.signum = signum

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield check
    finally:
        signal.signal(signal.SIGINT, previous)
    check()


class Stopped(KeyboardInterrupt):
    """A signal (``signum``: SIGINT or SIGTERM) stopped the work; its children are gone."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


PARENT_ENV = "CARDLAB_PARENT_PID"  # a child of :class:`Children` exits when this parent dies
KILL_AFTER_S = 10.0  # a child that has not stopped this long after the signal is killed


class Children:
    """Child processes run one at a time (:meth:`run`), none outliving the block of
    :func:`stopping_children` that made this: SIGINT and SIGTERM end the child in hand (with
    SIGTERM; killed if it has not stopped :data:`KILL_AFTER_S` later) and then stop the work
    with :class:`Stopped`, after the child is gone; :meth:`check` raises it between steps.
    Each child is told this process's id (``CARDLAB_PARENT_PID``) and exits on its own when
    this process dies, even by SIGKILL (:func:`watch_parent_from_env`)."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self.child = None
        self.since = 0.0

    def signalled(self, signum: int) -> None:
        import time

        if self.signum is None:
            self.signum = signum
            self.since = time.monotonic()
        if self.child is not None and self.child.poll() is None:
            with contextlib.suppress(OSError):  # SIGTERM: quiet even while it starts up
                self.child.terminate()

    def check(self) -> None:
        if self.signum is not None:
            raise Stopped(self.signum)

    def run(self, argv: list[str], env: dict[str, str]) -> int:
        """Run ``argv`` to its end; its exit status (Stopped if a signal came meanwhile)."""
        import os
        import subprocess
        import time

        self.check()
        env = {**env, PARENT_ENV: str(os.getpid())}
        self.child = subprocess.Popen(argv, env=env)
        try:
            while True:
                try:
                    code = self.child.wait(timeout=0.5)
                    break
                except subprocess.TimeoutExpired:
                    if self.signum is not None and time.monotonic() - self.since > KILL_AFTER_S:
                        self.child.kill()
        finally:
            self.end_child()
        self.check()
        return code

    def end_child(self) -> None:
        """Stop the child in hand, if any is still running (ask, then kill), and reap it."""
        import subprocess

        child, self.child = self.child, None
        if child is None or child.poll() is not None:
            return
        with contextlib.suppress(OSError):
            child.terminate()
        try:
            child.wait(timeout=KILL_AFTER_S)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


@contextlib.contextmanager
def stopping_children() -> Iterator[Children]:
    """A :class:`Children` for the block; SIGINT and SIGTERM within it stop the work (off the
    main thread the signals keep their handlers, and a child in hand still ends with it)."""
    children = Children()
    main = threading.current_thread() is threading.main_thread()
    previous = {}
    if main:
        previous = {sig: signal.signal(sig, lambda signum, frame: children.signalled(signum))
                    for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield children
    finally:
        try:
            children.end_child()
        finally:
            for sig, old in previous.items():
                signal.signal(sig, old)


PR_SET_PDEATHSIG = 1  # Linux prctl: the signal this process gets when its parent dies


def watch_parent_from_env() -> None:
    """In a child of :class:`Children`: exit when the parent that started it dies. On Linux
    the kernel sends SIGTERM then (prctl PR_SET_PDEATHSIG: heard even while jitted code
    holds the interpreter); elsewhere a thread polls the parent (runner/tasks.py)."""
    import os

    parent = os.environ.get(PARENT_ENV, "")
    if not parent.isdigit():
        return
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM))
    if int(parent) != os.getppid():  # the parent died before it could be watched
        os._exit(1)
    from analyzer.runner.tasks import watch_parent

    watch_parent(int(parent))
