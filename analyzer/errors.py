"""The one exception type the command line turns into a one-line error and exit code 2."""


class CardlabError(Exception):
    """Bad input or an impossible request: the message says what is wrong and what is allowed."""
