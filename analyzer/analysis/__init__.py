"""Analysis of positions and games for a player: ``cardlab analyze`` and ``replay --analyze``.

It sits above the engines and the search strategies (whose pieces it reuses) and below the
command line; it imports neither reports nor the command line. Every analysis sees only what
the player to move may know (A-11, J-11) and depends on its seed alone.
"""
