"""Learning from the search: decision data from ``pimc`` and the training of the ``learned``
families (strategies/<game>/learned.py).

* :mod:`analyzer.learn.ass_decisions` plays games with search seats and writes, for every
  search decision, each candidate move's features and ``pimc``'s value of it to a run folder
  (Parquet parts, verified and resumable like every run: analyzer/runner/folder.py);
* :mod:`analyzer.learn.train` fits the model's weights to those values (deterministic for a
  seed), checkpointing each step so an interrupted training resumes, and writes the weights
  file with its provenance.
"""
