//! Pawn chess as a [`Game`]: FEN in and out, legal moves, copy-make play with the incremental
//! hash, the verdict and the evaluation hook. This file ties the position ([`super::rules`])
//! and the evaluation ([`super::eval`]) together, so that neither needs the other's caller.

use super::rules::Pawns;
use super::{parse_variant, start_fen_of};
use crate::board::fen::{Fen, placement};
use crate::board::zobrist;
use crate::board::{Bitboard, Color, Move, MoveKind, MoveList, Square};
use crate::error::{Error, move_error, position_error};
use crate::game::{Dialect, EndgameTables, Game, OpeningBook, Tablebases, Terminal, Tuning};

/// Pushes one move per target square, the origin found by stepping back `back` squares.
#[inline]
fn push_moves(moves: &mut MoveList, targets: Bitboard, back: i8, kind: MoveKind) {
    for to in targets {
        let from = Square((to.0 as i8 - back) as u8);
        moves.push(Move::new(from, to, kind));
    }
}

impl Game for Pawns {
    const GAME: &'static str = "pawns";

    const DRAW_PLIES: Option<u32> = None;

    const REPETITION: bool = false;

    const NULL_MOVE: bool = false;

    const ACYCLIC: bool = true;

    fn variants() -> &'static [&'static str] {
        &super::VARIANTS
    }

    fn startpos(variant: &str) -> Result<Self, Error> {
        let (_, size, rules) = parse_variant(variant)?;
        Self::from_fen(variant, &start_fen_of(size, size, rules))
    }

    fn from_fen(variant: &str, text: &str) -> Result<Self, Error> {
        let (variant, _, rules) = parse_variant(variant)?;
        let read = || -> Result<Self, Error> {
            let fen = Fen::parse(text)?;
            let g = fen.geometry;
            if g.width < 3 || g.height < 3 {
                return Err(position_error!(
                    "pawn chess needs a board from 3×3 to 8×8, the FEN has {}×{}",
                    g.width,
                    g.height
                ));
            }
            if rules.pawn_game && g.height < 4 {
                return Err(position_error!(
                    "the pawn game needs a board at least 4 ranks high, the FEN has {}",
                    g.height
                ));
            }
            if fen.castling != "-" {
                return Err(position_error!(
                    "pawn chess has no castling: the castling field must be '-'"
                ));
            }
            let mut pawns = [Bitboard::EMPTY; 2];
            for &(sq, c) in &fen.pieces {
                match c {
                    'P' => pawns[0] |= sq.bb(),
                    'p' => pawns[1] |= sq.bb(),
                    other => {
                        return Err(position_error!(
                            "pawn chess has only pawns, the FEN has '{other}'"
                        ));
                    }
                }
            }
            if rules.pawn_game && pawns[0].is_empty() && pawns[1].is_empty() {
                return Err(position_error!(
                    "in the pawn game a side without pawns has lost: not both"
                ));
            }
            let mut pos = Pawns {
                geometry: g,
                rules,
                variant,
                pawns,
                side: fen.side,
                en_passant: None,
                fullmove: fen.fullmove.max(1),
                hash: 0,
            };
            if let Some(ep) = fen.en_passant.filter(|_| rules.en_passant) {
                // The pawn that just double-stepped stands one square beyond the skipped square,
                // which must be empty, as must its origin on the base line.
                let mover = fen.side.flip();
                let beyond = g.forward(ep.bb(), mover);
                let behind = g.forward(ep.bb(), fen.side);
                let occupied = pawns[0] | pawns[1];
                let start = g.rank(rules.start_rank(mover == Color::White, g.height));
                let ok = (behind & start).any()
                    && (beyond & pawns[mover.index()]).any()
                    && !(occupied & (ep.bb() | behind)).any();
                if !ok {
                    return Err(position_error!(
                        "en-passant square {ep} does not follow a double step"
                    ));
                }
                pos.en_passant = Some(ep);
            }
            pos.hash = pos.compute_hash();
            Ok(pos)
        };
        read()
    }

    fn fen(&self) -> String {
        let board = placement(&self.geometry, |sq| {
            if self.pawns[0].contains(sq) {
                Some('P')
            } else if self.pawns[1].contains(sq) {
                Some('p')
            } else {
                None
            }
        });
        let ep = self.en_passant.map_or("-".to_string(), |s| s.to_string());
        format!(
            "{board} {} - {ep} 0 {}",
            self.side.fen_char(),
            self.fullmove
        )
    }

    fn variant(&self) -> &'static str {
        self.variant
    }

    fn size(&self) -> (u8, u8) {
        (self.geometry.width, self.geometry.height)
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn legal_moves(&self, moves: &mut MoveList) {
        moves.clear();
        if self.decided().is_some() {
            return;
        }
        let g = &self.geometry;
        let us = self.side;
        let own = self.pawns[us.index()];
        let theirs = self.pawns[us.flip().index()];
        let empty = g.board & !(own | theirs);
        // Step sizes in square indices, seen from White; Black steps backwards.
        let up: i8 = if us == Color::White { 8 } else { -8 };
        let left = up - 1; // towards file a
        let right = up + 1;
        let mut targets = theirs;
        if let Some(ep) = self.en_passant {
            targets |= ep.bb();
        }
        let caps_left = g.forward_left(own, us) & targets;
        let caps_right = g.forward_right(own, us) & targets;
        for (caps, back) in [(caps_left, left), (caps_right, right)] {
            for to in caps {
                let kind = if Some(to) == self.en_passant {
                    MoveKind::EnPassant
                } else {
                    MoveKind::Normal
                };
                moves.push(Move::new(Square((to.0 as i8 - back) as u8), to, kind));
            }
        }
        let singles = g.forward(own, us) & empty;
        push_moves(moves, singles, up, MoveKind::Normal);
        if self.rules.double_step {
            let from_home = g.forward(own & self.start_rank(us), us) & empty;
            let doubles = g.forward(from_home, us) & empty;
            push_moves(moves, doubles, 2 * up, MoveKind::DoubleStep);
        }
    }

    fn play(&self, mv: Move) -> Self {
        let mut next = self.clone();
        let us = self.side.index();
        let them = 1 - us;
        let (from, to) = (mv.from(), mv.to());
        next.pawns[us] ^= from.bb() | to.bb();
        next.hash ^= zobrist::piece(us, from.index()) ^ zobrist::piece(us, to.index());
        match mv.kind() {
            MoveKind::EnPassant => {
                let victim = self.geometry.forward(to.bb(), self.side.flip());
                next.pawns[them] ^= victim;
                next.hash ^= zobrist::piece(them, victim.lsb().index());
            }
            _ => {
                if self.pawns[them].contains(to) {
                    next.pawns[them] ^= to.bb();
                    next.hash ^= zobrist::piece(them, to.index());
                }
            }
        }
        if let Some(ep) = self.en_passant {
            next.hash ^= zobrist::en_passant(ep.index());
        }
        next.en_passant = None;
        if mv.kind() == MoveKind::DoubleStep && self.rules.en_passant {
            let skipped = Square((from.0 + to.0) / 2);
            next.en_passant = Some(skipped);
            next.hash ^= zobrist::en_passant(skipped.index());
        }
        next.side = self.side.flip();
        next.hash ^= zobrist::side();
        if self.side == Color::Black {
            next.fullmove += 1;
        }
        next
    }

    fn terminal(&self) -> Terminal {
        match self.decided() {
            Some(winner) if winner == self.side => Terminal::Win,
            Some(_) => Terminal::Loss,
            None => Terminal::Draw,
        }
    }

    fn end_reason(&self, terminal: Terminal) -> String {
        let them = self.side.flip().name();
        let g = &self.geometry;
        let arrived = (self.pawns[0] & g.last_rank(Color::White)).any()
            || (self.pawns[1] & g.last_rank(Color::Black)).any();
        if terminal != Terminal::Draw && !arrived {
            let loser = if terminal == Terminal::Loss {
                self.side
            } else {
                self.side.flip()
            };
            return format!(
                "{} wins: {} has no pawns left",
                loser.flip().name(),
                loser.name()
            );
        }
        match terminal {
            Terminal::Loss => format!("{them} wins: a pawn has reached the last rank"),
            Terminal::Win => format!(
                "{} wins: a pawn has reached the last rank",
                self.side.name()
            ),
            Terminal::Draw => format!("Draw: {} has no legal move", self.side.name()),
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn reversible_plies(&self) -> u32 {
        0
    }

    /// The occupied squares (64 bits), the colour of each occupied square in square order (a
    /// bit each, up to 48 pawns), the en-passant square (0 or 1 + square, 7 bits) and the side
    /// to move (bit 119): below 2^120, as the proof walks want.
    fn exact_key(&self) -> Option<u128> {
        let occupied = (self.pawns[0] | self.pawns[1]).0;
        if occupied.count_ones() > 48 {
            return None;
        }
        let black = self.pawns[1].0;
        let (mut colours, mut rest, mut bit) = (0u128, occupied, 0);
        while rest != 0 {
            let sq = rest & rest.wrapping_neg();
            colours |= u128::from(black & sq != 0) << bit;
            rest ^= sq;
            bit += 1;
        }
        let ep = self.en_passant.map_or(0, |sq| sq.index() as u128 + 1);
        let side = u128::from(self.side == Color::Black);
        Some(occupied as u128 | colours << 64 | ep << 112 | side << 119)
    }

    fn lemma_value(&self) -> Option<i8> {
        super::lemma::value(self)
    }

    fn is_noisy(&self, mv: Move) -> bool {
        // Captures and arrivals on the goal line.
        let them = self.pawns[self.side.flip().index()];
        them.contains(mv.to())
            || mv.kind() == MoveKind::EnPassant
            || self.geometry.last_rank(self.side).contains(mv.to())
    }

    fn noisy_order(&self, mv: Move) -> i32 {
        if self.geometry.last_rank(self.side).contains(mv.to()) {
            1000
        } else {
            // Captures nearer the goal first.
            let progress = match self.side {
                Color::White => mv.to().rank() as i32,
                Color::Black => (self.geometry.height - 1 - mv.to().rank()) as i32,
            };
            100 + progress
        }
    }

    fn evaluate(&self) -> i32 {
        super::eval::evaluate(self)
    }

    /// Coordinate notation; a promotion letter (`q`, or XBoard's `.`) on a move to the last
    /// rank is accepted and ignored, since arriving there wins at once.
    /// SAN as Fairy-Stockfish writes pawn moves (`a3`, `bxc4`); a pawn that arrives ends the
    /// game here instead of promoting, so there is no `=Q`, and no check.
    fn san(&self, mv: Move) -> String {
        let them = self.pawns[self.side.flip().index()];
        crate::san::write(
            self,
            mv,
            |m| crate::san::SanParts {
                piece: None,
                capture: them.contains(m.to()) || m.kind() == MoveKind::EnPassant,
                castling: None,
            },
            |_| false,
        )
    }

    fn parse_move(&self, text: &str) -> Result<Move, Error> {
        let read = || -> Result<Move, Error> {
            let mut moves = MoveList::new();
            self.legal_moves(&mut moves);
            let plain = match text.len() {
                5 if text.ends_with(['q', '.']) => &text[..4],
                _ => text,
            };
            moves
                .iter()
                .copied()
                .find(|&mv| {
                    let arrival = self.geometry.last_rank(self.side).contains(mv.to());
                    let wanted = if arrival { plain } else { text };
                    mv.to_string() == wanted
                })
                .ok_or_else(|| move_error!("{text} is not a legal move here"))
        };
        read()
    }

    fn pretty(&self) -> String {
        crate::board::diagram(&self.geometry, |sq| {
            if self.pawns[0].contains(sq) {
                Some('♙')
            } else if self.pawns[1].contains(sq) {
                Some('♟')
            } else {
                None
            }
        })
    }
}

impl Tuning for Pawns {}

impl Dialect for Pawns {
    fn xboard_setup(&self) -> Vec<String> {
        // XBoard's parent `fairy` knows a board of any size and pawns on any rank; the
        // `piece` line tells it how our pawns move (Betza: step forward, capture diagonally
        // forward, the double step from the start square, en-passant capture), so that its
        // legality test accepts exactly our moves. The table has no king (with one XBoard
        // thinks every move leaves it in check) and a queen only so that XBoard can show the
        // arrival on the last rank, which it treats as a promotion (it sends `a3a4q`, which
        // `parse_move` accepts); the game end is the engine's claim. See docs/xboard.md.
        let (w, h) = self.size();
        let mut betza = String::from("fmWfc");
        if self.rules.en_passant {
            betza.push('e');
        }
        betza.push('F');
        if self.rules.double_step {
            betza.push_str("ifmnD");
        }
        vec![
            format!(
                "setup (P...Q.p...q.) {w}x{h}+0_fairy {}",
                start_fen_of(w, h, self.rules)
            ),
            format!("piece P& {betza}"),
        ]
    }
}

impl OpeningBook for Pawns {
    /// Books in the Polyglot file format with this game's own Zobrist hash, kept apart by
    /// variant ([`crate::board::zobrist::variant_key`]).
    fn book_key(&self) -> Option<u64> {
        Some(crate::board::zobrist::variant_key(
            self.hash(),
            self.variant(),
        ))
    }
}

impl Tablebases for Pawns {}

impl EndgameTables for Pawns {}
