"""The exception types the command line turns into a one-line error: exit code 2 for bad
input, 1 for an I/O error (a full or read-only disk)."""


class CardlabError(Exception):
    """Bad input or an impossible request: the message says what is wrong and what is allowed."""

    exit_code = 2


class CardlabIOError(CardlabError):
    """Reading or writing a path failed (a full or read-only disk): the message names the path."""

    exit_code = 1
