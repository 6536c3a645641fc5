"""Book making: the algorithms that write zermelo books, one module per concern.

=========================  ==========================================================
:mod:`.build`              a book by search: :class:`~.build.BuildSettings`, the
                           ply-by-ply expansion and its search processes
:mod:`.importer`           a book from played games (plain move lists and results)
                           or from a Polyglot chess book
:mod:`.learn`              played games' results added to a book, and the re-weighting
:mod:`.merge`              books of one game merged into one
:mod:`.export`             a chess book walked into Polyglot entries
:mod:`.writer`             the Polyglot ``.bin`` file writer
=========================  ==========================================================

Reading books (the ``.zbook`` format, Polyglot reading, the book oracle) is
:mod:`engine.book`. Nothing here loads a game by name or reads record files:
the caller passes the game object and the games as :class:`~.importer.PlayedGame`.
"""
