#!/usr/bin/env python3
"""Polyglot book checks against python-chess (used by tests/book_python.rs).

  polyglot_check.py keys SEED N
      N positions from seeded random games (castling, en passant and promotions made likely),
      one line each: FEN;KEY (KEY = chess.polyglot.zobrist_hash, 16 hex digits).

  polyglot_check.py book PGN BOOK MAX_PLY MIN_GAMES
      Counts the moves of the PGN's games independently (2 points a win, 1 a draw for the
      side that moved, each (position, move) once a game, '*' games left out, a game cut at
      an illegal move) and checks that python-chess's reader finds exactly those moves with
      those weights in BOOK, sorted by key. Prints 'ok ENTRIES POSITIONS'; exits 1 with the
      differences otherwise.
"""

import random
import sys

import chess
import chess.pgn
import chess.polyglot


def keys(seed, n):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        board = chess.Board()
        for _ in range(rng.randrange(1, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            special = [
                m
                for m in moves
                if board.is_castling(m)
                or board.is_en_passant(m)
                or m.promotion
                or (
                    board.piece_type_at(m.from_square) == chess.PAWN
                    and abs(m.to_square - m.from_square) == 16
                )
            ]
            move = rng.choice(special) if special and rng.random() < 0.5 else rng.choice(moves)
            board.push(move)
            # Every en-passant square is written, usable or not: the key must judge it.
            fen = board.fen(en_passant="fen")
            out.append("%s;%016x" % (fen, chess.polyglot.zobrist_hash(board)))
            if len(out) >= n:
                break
    print("\n".join(out))


def book(pgn_path, book_path, max_ply, min_games):
    counts = {}  # (key, uci) -> [games, points]
    boards = {}  # key -> board, to look the position up in the book
    with open(pgn_path) as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            result = game.headers.get("Result", "*")
            points = {"1-0": (2, 0), "0-1": (0, 2), "1/2-1/2": (1, 1)}.get(result)
            if points is None:
                continue
            board = game.board()
            seen = set()
            for ply, move in enumerate(game.mainline_moves()):
                if ply >= max_ply:
                    break
                key = chess.polyglot.zobrist_hash(board)
                pair = (key, move.uci())
                if pair not in seen:
                    seen.add(pair)
                    c = counts.setdefault(pair, [0, 0])
                    c[0] += 1
                    c[1] += points[0] if board.turn == chess.WHITE else points[1]
                    boards.setdefault(key, board.copy())
                board.push(move)
    kept = {p: c[1] for p, c in counts.items() if c[0] >= min_games and c[1] > 0}
    top = max(kept.values())
    if top > 65535:
        kept = {p: max(1, min(65535, (w * 65535 + top // 2) // top)) for p, w in kept.items()}
    errors = []
    with chess.polyglot.open_reader(book_path) as reader:
        raw = [reader[i] for i in range(len(reader))]
        if any(a.key > b.key for a, b in zip(raw, raw[1:])):
            errors.append("entries not sorted by key")
        if len(raw) != len(kept):
            errors.append("%d entries in the book, %d expected" % (len(raw), len(kept)))
        positions = 0
        for key, board in boards.items():
            found = {(e.move.uci(), e.weight) for e in reader.find_all(board, minimum_weight=0)}
            wanted = {(uci, w) for (k, uci), w in kept.items() if k == key}
            positions += bool(wanted)
            if found != wanted:
                errors.append("%s: book %s, expected %s" % (board.fen(), sorted(found), sorted(wanted)))
    if errors:
        print("\n".join(errors[:20]), file=sys.stderr)
        sys.exit(1)
    print("ok %d %d" % (len(kept), positions))


if __name__ == "__main__":
    if sys.argv[1:2] == ["keys"]:
        keys(int(sys.argv[2]), int(sys.argv[3]))
    elif sys.argv[1:2] == ["book"]:
        book(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    else:
        sys.exit(__doc__)
