//! A compact pawn-chess position for the analyser: two bitboards, the side to move and the
//! en-passant square, with successor generation and the memo key.
//!
//! This is a specialised copy of the rules in `games::pawns` (which stay the reference; a test
//! checks that both agree move for move). Squares use the crate's 8×8 embedding
//! (`rank * 8 + file`). Depends on `board` and `games::pawns` only.

use arrayvec::ArrayVec;

use crate::board::{Color, Move, MoveKind, Square};
use crate::game::Game;
use crate::games::pawns::{Pawns, Rules};

/// Most successors a position can have: 8 pawns × (2 captures + single + double step) + 2
/// en-passant captures.
pub const MAX_CHILDREN: usize = 34;

/// Successor positions on the stack.
pub type Children = ArrayVec<Pos, MAX_CHILDREN>;

/// A position: White's and Black's pawns, the side to move, the en-passant square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Pos {
    pub white: u64,
    pub black: u64,
    /// Black to move.
    pub black_to_move: bool,
    /// The square skipped by the last double step (only with en passant), as a bitboard.
    pub ep: u64,
}

/// How a decided (or blocked) position ended, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Leaf {
    WhiteWon,
    BlackWon,
    Drawn,
}

/// The board's shape and the rules: everything move generation needs besides the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub width: u8,
    pub height: u8,
    pub rules: Rules,
    board: u64,
    not_file_a: u64,
    not_last_file: u64,
    /// White's base line (rank 1) and Black's (the top rank).
    rank_first: u64,
    rank_last: u64,
    /// The ranks White's and Black's pawns step twice from.
    start_white: u64,
    start_black: u64,
    /// Bits per rank in the key, and whether the key fits in 64 bits.
    key_rank_bits: u32,
}

/// Ternary code of one rank: `TERNARY[w][b]` with each square 0 (empty), 1 (White), 2 (Black).
pub(super) static TERNARY: [[u16; 256]; 256] = ternary_table();

const fn ternary_table() -> [[u16; 256]; 256] {
    let mut t = [[0u16; 256]; 256];
    let mut w = 0;
    while w < 256 {
        let mut b = 0;
        while b < 256 {
            if w & b == 0 {
                let mut code = 0u16;
                let mut f = 8;
                while f > 0 {
                    f -= 1;
                    let digit = if w >> f & 1 != 0 {
                        1
                    } else if b >> f & 1 != 0 {
                        2
                    } else {
                        0
                    };
                    code = code * 3 + digit;
                }
                t[w][b] = code;
            }
            b += 1;
        }
        w += 1;
    }
    t
}

/// The rank bitmasks (White | Black << 8) of every ternary code of a rank up to 6 wide.
static DECODE: [u16; 729] = decode_table();

const fn decode_rank(mut code: usize) -> (u16, u16) {
    // The most significant digit is file 7: the lowest one is file a.
    let (mut w, mut b) = (0u16, 0u16);
    let mut f = 0;
    while f < 8 {
        match code % 3 {
            1 => w |= 1 << f,
            2 => b |= 1 << f,
            _ => {}
        }
        code /= 3;
        f += 1;
    }
    (w, b)
}

const fn decode_table() -> [u16; 729] {
    let mut t = [0u16; 729];
    let mut i = 0;
    while i < 729 {
        let (w, b) = decode_rank(i);
        t[i] = w | b << 8;
        i += 1;
    }
    t
}

/// Every square at or above a square of `x` on its file.
#[inline]
fn up_fill(x: u64) -> u64 {
    let x = x | x << 8;
    let x = x | x << 16;
    x | x << 32
}

/// Every square at or below a square of `x` on its file.
#[inline]
fn down_fill(x: u64) -> u64 {
    let x = x | x >> 8;
    let x = x | x >> 16;
    x | x >> 32
}

impl Shape {
    /// The shape of a `width`×`height` board (3..=8 each) under `rules`.
    pub fn new(width: u8, height: u8, rules: Rules) -> Shape {
        let g = crate::board::Geometry::new(width, height).expect("board size checked");
        let rules = Rules {
            double_step: rules.double_step || rules.en_passant || rules.pawn_game,
            ..rules
        };
        // 3^width codes per rank.
        let key_rank_bits = 64 - (3u64.pow(width as u32) - 1).leading_zeros();
        Shape {
            width,
            height,
            rules,
            board: g.board.0,
            not_file_a: g.not_file_a.0,
            not_last_file: g.not_last_file.0,
            rank_first: g.rank(0).0,
            rank_last: g.rank(height - 1).0,
            start_white: g.rank(rules.start_rank(true, height)).0,
            start_black: g.rank(rules.start_rank(false, height)).0,
            key_rank_bits,
        }
    }

    /// The shape of a reference position's board and rules.
    pub fn of(pos: &Pawns) -> Shape {
        let (w, h) = pos.size();
        Shape::new(w, h, pos.rules)
    }

    pub fn nl(&self) -> u64 {
        self.not_last_file
    }
    pub fn na(&self) -> u64 {
        self.not_file_a
    }
    /// Number of squares.
    pub fn squares(&self) -> u32 {
        self.width as u32 * self.height as u32
    }

    /// Whether [`Shape::key`] fits in 64 bits (so a compact table can be used).
    pub fn key_fits_u64(&self) -> bool {
        self.key_rank_bits * self.height as u32 + self.state_bits() <= 64
    }

    /// Bits of the key below the board: side to move + 2 × (en-passant file + 1, or 0), which
    /// needs 4 bits up to 7 files and 5 on 8 files.
    #[inline]
    fn state_bits(&self) -> u32 {
        if self.width == 8 { 5 } else { 4 }
    }

    /// The winner, if a pawn stands on its goal line.
    #[inline]
    pub fn decided(&self, p: &Pos) -> Option<Leaf> {
        if p.white & self.rank_last != 0 {
            Some(Leaf::WhiteWon)
        } else if p.black & self.rank_first != 0 {
            Some(Leaf::BlackWon)
        } else if self.rules.pawn_game && p.black == 0 {
            Some(Leaf::WhiteWon)
        } else if self.rules.pawn_game && p.white == 0 {
            Some(Leaf::BlackWon)
        } else {
            None
        }
    }

    /// Whether the side to move wins a pawn race: its most advanced pawn stands at or above
    /// every enemy pawn's rank (measured towards its goal), so no enemy pawn can ever block or
    /// take it (enemy pawns only move and take away from it), and it reaches its goal in `d`
    /// moves (a double step from the start rank counts once) while
    /// - no enemy pawn can reach its own goal in fewer than `d` moves (it moves second), and
    /// - the enemy has at least `d − 1` moves at hand that need nothing of ours (steps into
    ///   empty squares in front of its pawns), so it is never stalemated before the end (a
    ///   side without a move draws), and
    /// - no enemy pawn has one of ours below it on a file beside its own: a capture could land
    ///   where it has no step, and the enemy could stalemate itself sooner than its steps say.
    ///
    /// Moving that pawn every move then wins: the whole race is one line the search would
    /// otherwise walk against every enemy reply.
    pub fn race_won(&self, p: &Pos) -> bool {
        let h = self.height as u32;
        let (mine, theirs) = self.oriented(p);
        if mine == 0 {
            return false;
        }
        // Seen from the side to move, moving up; the start ranks mirror each other.
        let start = self.rules.start_rank(true, self.height) as u32;
        let double = self.rules.double_step;
        let runner = 63 - mine.leading_zeros();
        let rank = runner / 8;
        if theirs != 0 && (63 - theirs.leading_zeros()) / 8 > rank {
            return false;
        }
        // A pawn on or behind the start rank steps twice on its way where the board leaves
        // two squares beyond that rank.
        let twice = double && h > start + 2;
        let d = h - 1 - rank - u32::from(twice && rank <= start);
        if d <= 1 {
            return d == 1;
        }
        if theirs != 0 {
            let low = theirs.trailing_zeros() / 8;
            let their_start = h - 1 - start;
            if d > low - u32::from(twice && low >= their_start) {
                return false;
            }
        }
        // The enemy must not be able to take: a capture can end on a square with no step in
        // front of it, leaving the enemy fewer moves than its steps counted (and a stalemate).
        let below = down_fill(theirs >> 8) & self.board;
        self.beside(below) & mine == 0 && self.free_steps(theirs, mine | theirs, d - 1) >= d - 1
    }

    /// The squares `pawns` of White (`white`) or Black attack: diagonally ahead of each.
    #[inline]
    pub fn attacks(&self, pawns: u64, white: bool) -> u64 {
        if white {
            ((pawns << 7) & self.not_last_file) | ((pawns << 9) & self.not_file_a)
        } else {
            ((pawns >> 9) & self.not_last_file) | ((pawns >> 7) & self.not_file_a)
        }
    }

    /// The side to move's pawns and the other side's, turned so that the side to move moves
    /// up the board (a black side to move sees the board upside down).
    #[inline]
    fn oriented(&self, p: &Pos) -> (u64, u64) {
        if p.black_to_move {
            (self.flip_ranks(p.black), self.flip_ranks(p.white))
        } else {
            (p.white, p.black)
        }
    }

    /// The en-passant square turned as [`Shape::oriented`] turns the pawns.
    #[inline]
    fn oriented_ep(&self, p: &Pos) -> u64 {
        if p.black_to_move {
            self.flip_ranks(p.ep)
        } else {
            p.ep
        }
    }

    /// Whether the side to move has a move that wins at once: a step, double step or capture
    /// onto its goal line, or in the pawn game the capture of the enemy's last pawn (en
    /// passant included). Exactly when a successor is decided for it.
    #[inline]
    pub fn wins_at_once(&self, p: &Pos) -> bool {
        let (mine, theirs) = self.oriented(p);
        let ep = self.oriented_ep(p);
        let empty = self.board & !(mine | theirs);
        let goal = self.rank_last;
        let steps = (mine << 8) & empty;
        let caps = self.attacks(mine, true) & (theirs | ep);
        if (steps | caps) & goal != 0 {
            return true;
        }
        if self.rules.double_step && ((steps & (self.start_white << 8)) << 8) & empty & goal != 0 {
            return true;
        }
        self.rules.pawn_game
            && theirs.count_ones() == 1
            && (caps & theirs != 0 || (caps & ep != 0 && ep >> 8 == theirs))
    }

    /// Whether the side to move, which has no move that wins at once ([`Shape::wins_at_once`])
    /// but has a move, loses at the enemy's next one: an enemy pawn stands one step from its
    /// goal with that square empty, and no pawn of ours stands where it could take it (on our
    /// first rank, beside it). Nothing else stops it: no pawn of ours can ever enter that
    /// square. (With an en-passant capture open the rule is not tried.)
    #[inline]
    pub fn loses_next(&self, p: &Pos) -> bool {
        if p.ep != 0 {
            return false;
        }
        let (mine, theirs) = self.oriented(p);
        let empty = self.board & !(mine | theirs);
        let threats = theirs & (self.rank_first << 8) & (empty << 8);
        if threats == 0 {
            return false;
        }
        let back = mine & self.rank_first;
        let guarded = self.attacks(back, true);
        if threats & !guarded == 0 {
            return false;
        }
        (mine << 8) & empty != 0 || self.attacks(mine, true) & theirs != 0
    }

    /// The value for the side to move of a position where no pawn can ever take another: no
    /// pawn has an enemy pawn ahead of it on a file beside its own (and no en-passant capture
    /// is open). Then nothing changes but by steps: a pawn with nothing ahead on its file (a
    /// runner) reaches its goal in `d` moves, every other pawn stays behind the enemy pawn
    /// ahead of it, and the game is a race, or a draw where neither side has a runner.
    /// - A runner of the side to move no slower than every enemy runner wins, when the enemy
    ///   has a runner too (it always has a move then) or surely has `d − 1` moves at hand.
    /// - An enemy runner faster than every runner of ours wins for it, when we have no runner
    ///   and surely have a move for each of its `d` moves (else we might stalemate ourselves:
    ///   a side without a move draws).
    ///
    /// "Surely" counts the steps into the empty squares up to the enemy pawn ahead, less one
    /// for each pawn that could still step twice. `None` where pawns can meet, or the count is
    /// not enough to decide.
    pub fn settled(&self, p: &Pos) -> Option<i8> {
        if p.ep != 0 {
            return None;
        }
        let (mine, theirs) = self.oriented(p);
        let ahead = up_fill(mine << 8) & self.board;
        if self.beside(ahead) & theirs != 0 {
            return None;
        }
        let occupied = mine | theirs;
        let my_runners = mine & !down_fill(occupied >> 8);
        let their_runners = theirs & !up_fill(occupied << 8);
        let h = self.height as u32;
        let start = self.rules.start_rank(true, self.height) as u32;
        // A runner on or behind its start rank steps twice on the way (a FEN may put a pawn
        // behind it) where the board leaves two squares beyond that rank.
        let twice = self.rules.double_step && h > start + 2;
        let mine_d = (my_runners != 0).then(|| {
            let rank = (63 - my_runners.leading_zeros()) / 8;
            h - 1 - rank - u32::from(twice && rank <= start)
        });
        let theirs_d = (their_runners != 0).then(|| {
            let rank = their_runners.trailing_zeros() / 8;
            rank - u32::from(twice && rank >= h - 1 - start)
        });
        match (mine_d, theirs_d) {
            (None, None) => Some(0),
            (Some(d), Some(e)) => Some(if d <= e { 1 } else { -1 }),
            (Some(d), None) => {
                let theirs_up = self.flip_ranks(theirs);
                let mine_up = self.flip_ranks(mine);
                (self.moves_at_least(theirs_up, mine_up, start) >= d - 1).then_some(1)
            }
            (None, Some(e)) => (self.moves_at_least(mine, theirs, start) >= e).then_some(-1),
        }
    }

    /// The squares on the files beside those of `x`, on the same ranks.
    #[inline]
    fn beside(&self, x: u64) -> u64 {
        ((x << 1) & self.not_file_a) | ((x >> 1) & self.not_last_file)
    }

    /// The board upside down.
    #[inline]
    fn flip_ranks(&self, x: u64) -> u64 {
        x.swap_bytes() >> (8 * (8 - self.height as u32))
    }

    /// The fewest moves `own` (moving up, none of them a runner) can make while `enemy` stands
    /// still: every empty square between a pawn and the enemy pawn ahead of it is a step, and
    /// a pawn on or behind `start` whose steps take it two squares beyond `start` may take two
    /// of them in one move (once it gets there).
    fn moves_at_least(&self, own: u64, enemy: u64, start: u32) -> u32 {
        let mut steps = 0;
        let mut pawns = own;
        while pawns != 0 {
            let from = pawns.trailing_zeros();
            pawns &= pawns - 1;
            let mut sq = from + 8;
            let mut mine = 0;
            while sq < 64 && self.board & 1 << sq != 0 && enemy & 1 << sq == 0 {
                if own & 1 << sq == 0 {
                    mine += 1;
                }
                sq += 8;
            }
            let twice = self.rules.double_step && from / 8 <= start && from / 8 + mine >= start + 2;
            steps += mine - u32::from(twice);
        }
        steps
    }

    /// Empty squares straight in front of the pawns of `theirs` (moving down), up to the next
    /// occupied square of `occupied` or the board's edge; counted up to `enough`.
    fn free_steps(&self, theirs: u64, occupied: u64, enough: u32) -> u32 {
        let mut count = 0;
        let mut pawns = theirs;
        while pawns != 0 && count < enough {
            let mut sq = pawns.trailing_zeros();
            pawns &= pawns - 1;
            while sq >= 8 && occupied & (1 << (sq - 8)) == 0 {
                sq -= 8;
                count += 1;
            }
        }
        count
    }

    /// A unique key of the position (docs/rules.md §6): the board in ternary rank by rank, the side to
    /// move, and the en-passant file unless the position is decided.
    #[inline]
    pub fn key(&self, p: &Pos) -> u128 {
        let mut k: u128 = 0;
        let bits = self.key_rank_bits;
        for r in 0..self.height as u32 {
            let w = (p.white >> (8 * r)) as u8 as usize;
            let b = (p.black >> (8 * r)) as u8 as usize;
            k = (k << bits) | TERNARY[w][b] as u128;
        }
        let ep = if p.ep != 0 && self.decided(p).is_none() {
            (p.ep.trailing_zeros() & 7) as u128 + 1
        } else {
            0
        };
        (k << self.state_bits()) | ep << 1 | p.black_to_move as u128
    }

    /// The position mirrored left to right (file a ↔ the last file): it has the same value.
    #[inline]
    pub fn mirror(&self, p: &Pos) -> Pos {
        let shift = 8 - self.width as u32;
        let flip = |bb: u64| -> u64 {
            let mut out = 0u64;
            for r in 0..self.height as u32 {
                let row = (bb >> (8 * r)) as u8;
                out |= ((row.reverse_bits() >> shift) as u64) << (8 * r);
            }
            out
        };
        Pos {
            white: flip(p.white),
            black: flip(p.black),
            black_to_move: p.black_to_move,
            ep: flip(p.ep),
        }
    }

    /// The smaller key of the position and its mirror image: one key for both, where only the
    /// value matters (the solver), not the count of distinct positions.
    #[inline]
    pub fn symmetric_key(&self, p: &Pos) -> u128 {
        self.key(p).min(self.key(&self.mirror(p)))
    }

    /// The position from a key made by [`Shape::key`].
    pub fn unkey(&self, mut k: u128) -> Pos {
        let black_to_move = k & 1 != 0;
        let state_bits = self.state_bits();
        let ep_file = ((k & ((1 << state_bits) - 1)) >> 1) as u32;
        k >>= state_bits;
        let bits = self.key_rank_bits;
        let mask = (1u128 << bits) - 1;
        let (mut white, mut black) = (0u64, 0u64);
        for r in (0..self.height as u32).rev() {
            let code = (k & mask) as usize;
            k >>= bits;
            let (w, b) = if code < DECODE.len() {
                let d = DECODE[code];
                (d & 0xff, d >> 8)
            } else {
                decode_rank(code)
            };
            white |= (w as u64) << (8 * r);
            black |= (b as u64) << (8 * r);
        }
        let ep = if ep_file == 0 {
            0
        } else {
            // The skipped square is one rank beyond the start rank of the side that moved.
            let rank = if black_to_move {
                self.rules.start_rank(true, self.height) as u32 + 1
            } else {
                self.rules.start_rank(false, self.height) as u32 - 1
            };
            1u64 << (8 * rank + ep_file - 1)
        };
        Pos {
            white,
            black,
            black_to_move,
            ep,
        }
    }

    /// Every successor of `p`, in the reference order: captures towards file a, captures away
    /// from it (each by target square), single steps, double steps. Empty when decided.
    #[inline]
    pub fn children(&self, p: &Pos, out: &mut Children) {
        out.clear();
        if self.decided(p).is_some() {
            return;
        }
        self.for_each_move(p, |_, _, child| out.push(child));
    }

    /// Calls `f(from, to, child)` for every legal move in the reference order.
    #[inline]
    pub fn for_each_move(&self, p: &Pos, mut f: impl FnMut(u32, u32, Pos)) {
        let occupied = p.white | p.black;
        let empty = self.board & !occupied;
        let ep_on = self.rules.en_passant;
        if !p.black_to_move {
            let own = p.white;
            let targets = p.black | p.ep;
            let left = (own << 7) & self.not_last_file & targets;
            let right = (own << 9) & self.not_file_a & targets;
            for (mut caps, back) in [(left, 7u32), (right, 9u32)] {
                while caps != 0 {
                    let to = caps.trailing_zeros();
                    caps &= caps - 1;
                    let from = to - back;
                    let tb = 1u64 << to;
                    let victim = if tb == p.ep { tb >> 8 } else { tb };
                    f(
                        from,
                        to,
                        Pos {
                            white: own ^ (1 << from) ^ tb,
                            black: p.black & !victim,
                            black_to_move: true,
                            ep: 0,
                        },
                    );
                }
            }
            let singles = (own << 8) & empty;
            let mut s = singles;
            while s != 0 {
                let to = s.trailing_zeros();
                s &= s - 1;
                f(
                    to - 8,
                    to,
                    Pos {
                        white: own ^ (1 << (to - 8)) ^ (1 << to),
                        black: p.black,
                        black_to_move: true,
                        ep: 0,
                    },
                );
            }
            if self.rules.double_step {
                let mut d = ((singles & (self.start_white << 8)) << 8) & empty;
                while d != 0 {
                    let to = d.trailing_zeros();
                    d &= d - 1;
                    f(
                        to - 16,
                        to,
                        Pos {
                            white: own ^ (1 << (to - 16)) ^ (1 << to),
                            black: p.black,
                            black_to_move: true,
                            ep: if ep_on { 1 << (to - 8) } else { 0 },
                        },
                    );
                }
            }
        } else {
            let own = p.black;
            let targets = p.white | p.ep;
            let left = (own >> 9) & self.not_last_file & targets;
            let right = (own >> 7) & self.not_file_a & targets;
            for (mut caps, up) in [(left, 9u32), (right, 7u32)] {
                while caps != 0 {
                    let to = caps.trailing_zeros();
                    caps &= caps - 1;
                    let from = to + up;
                    let tb = 1u64 << to;
                    let victim = if tb == p.ep { tb << 8 } else { tb };
                    f(
                        from,
                        to,
                        Pos {
                            white: p.white & !victim,
                            black: own ^ (1 << from) ^ tb,
                            black_to_move: false,
                            ep: 0,
                        },
                    );
                }
            }
            let singles = (own >> 8) & empty;
            let mut s = singles;
            while s != 0 {
                let to = s.trailing_zeros();
                s &= s - 1;
                f(
                    to + 8,
                    to,
                    Pos {
                        white: p.white,
                        black: own ^ (1 << (to + 8)) ^ (1 << to),
                        black_to_move: false,
                        ep: 0,
                    },
                );
            }
            if self.rules.double_step {
                let mut d = ((singles & (self.start_black >> 8)) >> 8) & empty;
                while d != 0 {
                    let to = d.trailing_zeros();
                    d &= d - 1;
                    f(
                        to + 16,
                        to,
                        Pos {
                            white: p.white,
                            black: own ^ (1 << (to + 16)) ^ (1 << to),
                            black_to_move: false,
                            ep: if ep_on { 1 << (to + 8) } else { 0 },
                        },
                    );
                }
            }
        }
    }

    /// The legal moves of `p` as crate moves with their successors, in the reference order.
    pub fn moves(&self, p: &Pos) -> Vec<(Move, Pos)> {
        let mut v = Vec::new();
        if self.decided(p).is_some() {
            return v;
        }
        self.for_each_move(p, |from, to, child| {
            let kind = if from.abs_diff(to) == 16 {
                MoveKind::DoubleStep
            } else if p.ep != 0 && 1u64 << to == p.ep {
                MoveKind::EnPassant
            } else {
                MoveKind::Normal
            };
            v.push((Move::new(Square(from as u8), Square(to as u8), kind), child));
        });
        v
    }

    /// The leaf outcome of a position without successors.
    #[inline]
    pub fn leaf(&self, p: &Pos) -> Leaf {
        self.decided(p).unwrap_or(Leaf::Drawn)
    }
}

impl Pos {
    /// The compact form of a reference position.
    pub fn of(pos: &Pawns) -> Pos {
        Pos {
            white: pos.pawns(Color::White).0,
            black: pos.pawns(Color::Black).0,
            black_to_move: pos.side_to_move() == Color::Black,
            ep: pos.en_passant.map_or(0, |s| s.bb().0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The race rule: a free runner wins when it is fast enough and the enemy always has a
    /// move; not when an enemy pawn stands ahead of it, is faster, or would be stalemated.
    #[test]
    fn a_pawn_race_is_won_only_when_nothing_can_stop_or_outrun_it() {
        let shape = Shape::new(6, 6, Rules::pawn_game(false));
        let race =
            |fen: &str| shape.race_won(&Pos::of(&Pawns::from_fen("pawngame6", fen).unwrap()));
        assert!(race("6/6/2P2p/6/6/6 w - - 0 1"), "c4 runs, f4 needs 3");
        assert!(race("6/6/6/2p2P/6/6 b - - 0 1"), "the same for Black");
        assert!(
            !race("6/6/2P2p/5P/6/6 w - - 0 1"),
            "after c5 Black has no move: a draw"
        );
        assert!(!race("6/4p1/2P3/6/6/6 w - - 0 1"), "e5 stands ahead of it");
        assert!(!race("6/6/2P3/6/5p/6 w - - 0 1"), "f2 queens first");
        assert!(race("6/5P/6/p5/6/6 w - - 0 1"), "f5 queens at once");
        let shape7 = Shape::new(7, 7, Rules::pawn_game(false));
        let p =
            Pos::of(&Pawns::from_fen("pawngame7", "7/7/7/P1p2p1/2P1P2/4P2/7 w - - 0 1").unwrap());
        assert!(
            !shape7.race_won(&p),
            "1. a5 fxe3 2. a6 and Black is stalemated: a draw"
        );
    }

    #[test]
    fn key_round_trip() {
        let ep = Rules::seed(true, true);
        let plain = Rules::seed(false, false);
        let shape = Shape::new(5, 5, ep);
        let p = Pos::of(&Pawns::from_fen("pawns5ep", "5/5/Pp3/5/5 b - a2 0 1").unwrap());
        assert_eq!(shape.unkey(shape.key(&p)), p);
        assert!(shape.key_fits_u64());
        assert!(Shape::new(6, 6, ep).key_fits_u64());
        assert!(!Shape::new(7, 7, plain).key_fits_u64());
        // En passant on file h of an 8-wide board needs the fifth state bit.
        let fen = "pp1pp3/4Ppp1/2P2PPp/P1PP3P w - h3 0 5";
        let p = Pos::of(&Pawns::from_fen("pawns8ep", fen).unwrap());
        let shape = Shape::new(8, 4, ep);
        assert_eq!(shape.unkey(shape.key(&p)), p);
        // The pawn game's en-passant squares are one rank further in.
        let p = Pos::of(
            &Pawns::from_fen("pawngame6ep", "6/p1pppp/1pP3/6/PP1PPP/6 b - c3 0 1").unwrap(),
        );
        let shape = Shape::new(6, 6, Rules::pawn_game(true));
        assert_eq!(shape.unkey(shape.key(&p)), p);
        let p = Pos::of(
            &Pawns::from_fen("pawngame6ep", "6/p1pppp/1pP3/6/PP1PPP/6 b - c3 0 1").unwrap(),
        );
        let q = shape.moves(&p);
        assert!(q.iter().any(|(m, _)| m.to_string() == "b4c3"));
    }

    #[test]
    fn mirror_keys() {
        let shape = Shape::new(4, 4, Rules::seed(true, true));
        let a = Pos::of(&Pawns::from_fen("pawns4ep", "pp2/p2P/4/PPP1 b - d2 0 1").unwrap());
        let b = Pos::of(&Pawns::from_fen("pawns4ep", "2pp/P2p/4/1PPP b - a2 0 1").unwrap());
        assert_eq!(shape.mirror(&a), b);
        assert_eq!(shape.symmetric_key(&a), shape.symmetric_key(&b));
        assert_ne!(shape.key(&a), shape.key(&b));
    }
}
