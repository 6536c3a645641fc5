"""The final scores of a Go match's records side by side: the referee's (Tromp–Taylor
area, every stone alive), each GTP engine's ``final_score`` (the records'
``GtpScores``) and the score by ownership (:mod:`games.go.ownership`: the stones that
heavy playouts from the final board give to the opponent taken off).

    python scripts/go_final_scores.py RECORDS [--opponent gnugo]

For each game: the players, the result, the three kinds of score and how it ended;
then, over the games ended by two passes, how often the referee's, zermelo's GTP
score and the ownership score name the winner the opponent's ``final_score`` names.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.go import GoGame  # noqa: E402
from games.go.ownership import final_score_by_ownership, ownership, score_text  # noqa: E402

_RESULTS = ("0-1", "1-0", "1/2-1/2", "*")


def winner(score: str | None) -> str:
    return "0" if score in (None, "0") else score[0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records")
    ap.add_argument("--opponent", default="gnugo", help="the engine whose final_score is the reference (a name prefix)")
    args = ap.parse_args()
    agree = {"referee": 0, "zermelo": 0, "ownership": 0}
    finished = 0
    for text in Path(args.records).read_text().split('[Game "go"]')[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', text))
        body = re.sub(r"\{[^}]*\}", "", text.split("\n\n", 1)[1])
        pos = GoGame().new_position()
        for word in body.split():
            if word not in _RESULTS:
                pos.push(pos.parse_move(word))
        own = score_text(final_score_by_ownership(pos, ownership(pos)))
        gtp = dict(re.findall(r"(\S+) ([BW]\+[\d.]+|0)", tags.get("GtpScores", "")))
        reference = next((v for k, v in gtp.items() if k.startswith(args.opponent)), None)
        ended = pos.passes >= 2
        print(f"{tags['Black']} - {tags['White']} {tags['Result']}: referee {tags.get('FinalScore', '-')}, "
              f"gtp {gtp or '-'}, ownership {own}; {'two passes' if ended else tags.get('Termination')}")
        if ended and reference is not None:
            finished += 1
            for name, score in (("referee", tags.get("FinalScore")), ("zermelo", gtp.get("zermelo")),
                                ("ownership", own)):
                agree[name] += winner(score) == winner(reference)
    print(f"the winner of {args.opponent}'s final_score, in {finished} games ended by two passes: "
          + ", ".join(f"{name} {n}" for name, n in agree.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
