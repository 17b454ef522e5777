"""Studies: the questions users come with, answered with intervals, as tidy result folders.

One module per study (``seats``, ``jokers``, ``trump``, ``compare``), each with a
``run_<study>(backend, ...) -> StudyResult``; :mod:`analyzer.studies.results` saves and loads
result folders; :mod:`analyzer.runner.play` is the backend interface to the game kernels.
Importing this package imports no numba (the kernels load only when a study plays).
"""
