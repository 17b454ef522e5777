"""``cardlab board``: a local web page to set up positions by clicking, analyze them, study a
recorded game with an evaluation graph and practice it from one seat (docs/analyzing.md).

:mod:`analyzer.board.app` is the server (Starlette, run by uvicorn); ``board.html`` beside it
is the whole page (no build step, nothing fetched from elsewhere).
"""
