#!/usr/bin/env python3
"""python-chess as an independent reader of kiebitz-match's chess PGN.

Usage: check_pgn_python.py FILE.pgn

Reads every game with chess.pgn.read_game (a `Variant "chess960"` tag gives a chess960 board),
plays it move by move, and checks that every move was read without error and that the SAN
kiebitz wrote is exactly the SAN python-chess writes for that move in that position (but for
python-chess's `#` on a move that ends a variant game, which lichess does not write). Prints one
line per game, `GAME n plies P result R`, and exits non-zero on the first disagreement.
"""
import re
import sys

import chess
import chess.pgn


def written_moves(movetext: str):
    """The move tokens of a movetext as written: comments, numbers and the result removed."""
    text = re.sub(r"\{[^}]*\}", " ", movetext)
    tokens = []
    for tok in text.split():
        tok = re.sub(r"^\d+\.+", "", tok)
        if tok and tok not in ("1-0", "0-1", "1/2-1/2", "*"):
            tokens.append(tok)
    return tokens


def main() -> None:
    path = sys.argv[1]
    raw = open(path, encoding="utf-8").read()
    # The movetext of each game: what follows its blank line after the tags.
    movetexts = [m for m in re.split(r"\n\n", raw.strip()) if not m.lstrip().startswith("[")]
    with open(path, encoding="utf-8") as f:
        n = 0
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            if game.errors:
                raise SystemExit(f"game {n + 1}: python-chess read errors: {game.errors}")
            board = game.board()
            written = written_moves(movetexts[n])
            moves = list(game.mainline_moves())
            if len(written) != len(moves):
                raise SystemExit(f"game {n + 1}: {len(written)} moves written, {len(moves)} read")
            for text, move in zip(written, moves):
                if move not in board.legal_moves:
                    raise SystemExit(f"game {n + 1}: {text} is illegal in {board.fen()}")
                san = board.san(move)
                fen = board.fen()
                board.push(move)
                # python-chess marks a move that ends a variant game (antichess: the opponent
                # has no move left) with `#`; lichess writes a suffix only for check, which
                # antichess does not have, and so does kiebitz.
                variant_end = board.is_variant_win() or board.is_variant_loss()
                if san != text and not (variant_end and san == text + "#"):
                    raise SystemExit(f"game {n + 1}: kiebitz wrote {text}, python-chess {san} in {fen}")
            n += 1
            print(f"GAME {n} plies {len(moves)} result {game.headers.get('Result')}")
    if n == 0:
        raise SystemExit("no games")


if __name__ == "__main__":
    main()
