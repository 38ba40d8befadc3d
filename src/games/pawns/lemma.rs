//! Static verdicts that a certificate's walk takes as leaves ([`crate::game::Game::lemma_value`]):
//! positions whose value follows from a short argument rather than from walking every reply to
//! the game's end. A pawn race of four moves against six enemy pawns with a step each is one
//! position here and thousands in a walk; on 7×7 they make most of a certificate
//! (docs/solved.md, "Lemmas").
//!
//! Written apart from the solver's static rules (src/games/pawns/analysis/board.rs), square by square
//! on this module's own reading of the rules, and tested against the exhaustive values of every
//! 4×4 and 5×5 position and the analyser's on random 6×6 and 7×7 ones (tests/pawns_wdl.rs):
//! - **wins at once**: a legal move ends the game in the mover's favour;
//! - **loses next**: every legal move lets the other side win at once;
//! - **race**: the side to move has a pawn no enemy pawn stands ahead of, fast enough, while
//!   no enemy pawn can ever take and the enemy surely keeps a move until it arrives;
//! - **settled**: no pawn can ever take another, so the game is a race of the pawns with a free
//!   file (or a draw where neither side has one), decided where the loser surely has a move
//!   at every turn (a side without a move draws).

use super::rules::Pawns;
use crate::board::{Color, MoveList, Square};
use crate::game::Game;

/// The value for the side to move where one of the lemmas decides it: 1 won, 0 drawn, −1 lost.
/// `None` for a game already over (the walk judges those by the rules) and where no lemma
/// applies.
pub fn value(pos: &Pawns) -> Option<i8> {
    if pos.decided().is_some() {
        return None;
    }
    let sides = Sides::of(pos);
    if sides.race_won() {
        return Some(1);
    }
    if let Some(v) = sides.settled() {
        return Some(v);
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        return None;
    }
    let mover = pos.side_to_move();
    let children: Vec<Pawns> = moves.iter().map(|&m| pos.play(m)).collect();
    if children.iter().any(|c| c.decided() == Some(mover)) {
        return Some(1);
    }
    children
        .iter()
        .all(|c| wins_at_once(c, mover.flip()))
        .then_some(-1)
}

/// Whether `who`, to move in `pos`, has a move that ends the game in its favour.
fn wins_at_once(pos: &Pawns, who: Color) -> bool {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves.iter().any(|&m| pos.play(m).decided() == Some(who))
}

/// A pawn seen by one side: its file and how far it has come from that side's first rank.
#[derive(Clone, Copy)]
struct Pawn {
    file: u8,
    up: u8,
}

/// The position seen by the side to move (`me`, moving up) against the other (`them`, moving
/// down in `me`'s ranks).
struct Sides {
    height: u8,
    /// `me`'s pawns, `up` counted from `me`'s first rank.
    me: Vec<Pawn>,
    /// The other side's pawns, `up` counted from `me`'s first rank as well.
    them: Vec<Pawn>,
    /// The rank (from each side's own first rank) a pawn steps twice from, if the rules allow.
    double_from: Option<u8>,
    en_passant: bool,
}

impl Sides {
    fn of(pos: &Pawns) -> Sides {
        let height = pos.geometry().height;
        let mover = pos.side_to_move();
        let turn = |sq: Square| {
            let up = match mover {
                Color::White => sq.rank(),
                Color::Black => height - 1 - sq.rank(),
            };
            Pawn {
                file: sq.file(),
                up,
            }
        };
        let rules = pos.rules();
        Sides {
            height,
            me: pos.pawns(mover).into_iter().map(turn).collect(),
            them: pos.pawns(mover.flip()).into_iter().map(turn).collect(),
            double_from: rules.double_step.then(|| rules.start_rank(true, height)),
            en_passant: pos.en_passant.is_some(),
        }
    }

    /// Whether a pawn on rank `from` (counted from its own side's first rank) that advances
    /// `advance` squares in all may step twice on the way: it stands on or behind the rank the
    /// double step is made from (a FEN may put a pawn behind it) and goes at least two squares
    /// beyond that rank. Each such pawn saves at most one move.
    fn saves_a_move(&self, from: u8, advance: u32) -> bool {
        self.double_from
            .is_some_and(|s| from <= s && u32::from(from) + advance >= u32::from(s) + 2)
    }

    /// Moves `me`'s pawn `p` needs to arrive on a free file: one fewer where it may step twice.
    fn my_distance(&self, p: Pawn) -> u8 {
        let d = self.height - 1 - p.up;
        d - u8::from(self.saves_a_move(p.up, u32::from(d)))
    }

    /// Moves the other side's pawn `p` needs at the least to arrive, were its file free.
    fn their_distance(&self, p: Pawn) -> u8 {
        let from_their_side = self.height - 1 - p.up;
        p.up - u8::from(self.saves_a_move(from_their_side, u32::from(p.up)))
    }

    /// Whether some pawn of `a` stands below (in `me`'s ranks, strictly) a pawn of `b` on a
    /// file beside it: a pair that can still meet, one taking the other.
    fn can_meet(a: &[Pawn], b: &[Pawn]) -> bool {
        a.iter().any(|x| {
            b.iter()
                .any(|y| x.file.abs_diff(y.file) == 1 && x.up < y.up)
        })
    }

    /// The fewest moves the pawns of `side` can make while the other pawns stand still: the
    /// empty squares ahead of each (up to the first pawn of the other side on its file; its own
    /// pawns ahead leave their squares as they go), less one for each pawn that may step twice
    /// on its way ([`Sides::saves_a_move`]: also one behind the double step's rank, which
    /// steps twice once it gets there). `mine` says the side moves up.
    fn fewest_moves(&self, side: &[Pawn], other: &[Pawn], mine: bool) -> u32 {
        let mut total = 0;
        for p in side {
            let on_file = other.iter().filter(|o| o.file == p.file).map(|o| o.up);
            // The squares it may still step through: `lo..hi` in `me`'s ranks.
            let (lo, hi) = if mine {
                let blocker = on_file.filter(|&u| u > p.up).min();
                (p.up + 1, blocker.unwrap_or(self.height))
            } else {
                let blocker = on_file.filter(|&u| u < p.up).max();
                (blocker.map_or(0, |b| b + 1), p.up)
            };
            let own = side
                .iter()
                .filter(|o| o.file == p.file && (lo..hi).contains(&o.up))
                .count() as u32;
            let empty = u32::from(hi - lo) - own;
            let start = if mine { p.up } else { self.height - 1 - p.up };
            total += empty - u32::from(self.saves_a_move(start, empty));
        }
        total
    }

    /// The race lemma: `me`'s most advanced pawn has no enemy pawn on a rank above it (so
    /// nothing can block or take it, all squares above it being empty), arrives in `d` moves,
    /// no enemy pawn arrives in fewer, no enemy pawn can ever take (none has a pawn of `me`
    /// below it on a file beside its own) and the enemy surely has `d − 1` moves: moving that
    /// pawn every move wins.
    fn race_won(&self) -> bool {
        let Some(runner) = self.me.iter().copied().max_by_key(|p| p.up) else {
            return false;
        };
        if self.them.iter().any(|t| t.up > runner.up) {
            return false;
        }
        let d = self.my_distance(runner);
        if d == 1 {
            return true;
        }
        if self.them.iter().any(|&t| self.their_distance(t) < d) {
            return false;
        }
        if Self::can_meet(&self.me, &self.them) {
            return false;
        }
        self.fewest_moves(&self.them, &self.me, false) + 1 >= u32::from(d)
    }

    /// A free runner's distance for the pawns of `side` (`mine`: moving up): the fastest pawn
    /// with no pawn at all ahead of it on its file.
    fn fastest_runner(&self, side: &[Pawn], mine: bool) -> Option<u8> {
        side.iter()
            .filter(|p| {
                let ahead = |up: u8| if mine { up > p.up } else { up < p.up };
                !self
                    .me
                    .iter()
                    .chain(&self.them)
                    .any(|o| o.file == p.file && ahead(o.up))
            })
            .map(|&p| {
                if mine {
                    self.my_distance(p)
                } else {
                    self.their_distance(p)
                }
            })
            .min()
    }

    /// The settled lemma: where no pawn can ever take another (and no en-passant capture is
    /// open), pawns only step; a side's runners (free files) race, every other pawn stays
    /// behind the enemy pawn ahead of it. Our runner no slower than theirs wins; theirs faster
    /// wins for them; with a runner on one side only, it wins where the other side surely has
    /// a move at each of its turns before it arrives; with none, a draw.
    fn settled(&self) -> Option<i8> {
        if self.en_passant || Self::can_meet(&self.me, &self.them) {
            return None;
        }
        let mine = self.fastest_runner(&self.me, true);
        let theirs = self.fastest_runner(&self.them, false);
        match (mine, theirs) {
            (None, None) => Some(0),
            (Some(d), Some(e)) => Some(if d <= e { 1 } else { -1 }),
            (Some(d), None) => {
                (self.fewest_moves(&self.them, &self.me, false) + 1 >= u32::from(d)).then_some(1)
            }
            (None, Some(e)) => {
                (self.fewest_moves(&self.me, &self.them, true) >= u32::from(e)).then_some(-1)
            }
        }
    }
}
