"""``zermelo match``: engine-vs-engine matches.

``runner`` plays the games and reports, ``process`` drives one engine process
over UCI/UGI, ``gtp`` one over GTP (Go), ``openings`` reads opening files,
``stats`` turns results into Elo, LOS and SPRT decisions. Game records are
``protocol.records``; ``sgf`` writes Go games as SGF.
"""
