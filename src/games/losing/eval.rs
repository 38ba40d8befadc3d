//! The family's evaluation, in centipawns for the side to move, on any board: what the pieces
//! do ([`Activity`]) and where they stand ([`SideView`]) are read off the board, and [`score`]
//! weighs the terms below with the member's [`Weights`] (Räuberschach's fitted ones, which
//! antichess uses too until its own are fitted, docs/antichess.md). Ordering hints for the
//! search ([`noisy_order`], [`quiet_order`]) live here as well.
//!
//! Everything is upside down compared with chess: a piece is a burden to its owner, who must
//! get rid of it, and the side that runs out of moves first wins. The terms:
//!
//! - **Burden**: each piece counts against its owner. The weights are kept per kind (a queen
//!   should be easier to give away than a lone rook or bishop), but self-play at depth 3 with
//!   `examples/raeuber_selfplay.rs` found equal weights stronger than every uneven set tried
//!   (queen 60 / rook and bishop 170 lost 37.5 % against them; pawn 70 or 130, queen 70,
//!   rook and bishop 130 each scored 38–43 %), so for now every piece weighs the same.
//! - **Offers**: squares where one of my pieces could step and be taken at once, and my pieces
//!   the opponent attacks already (after my move the opponent may be forced to take them).
//!   Counted with diminishing returns: a few ways to give material away matter, many do not.
//! - **Deep pieces**: my pieces (not pawns) in the last two ranks of the enemy camp, among the
//!   enemy pieces, will soon be forced to capture.
//! - **Tempo**: when few pieces are left, the side with fewer moves is closer to being the one
//!   who cannot move, which wins. (Self-play could not tell this term from noise.)
//! - **Must capture**: the side to move that can capture must, and so takes material it
//!   wanted to be rid of; it pays `must_capture`, less the larger the share of its targets the
//!   opponent defends (a capture that is taken back hands the burden straight back). This
//!   prices the obligation where the search stands pat in a forcing position.
//! - **Opposite bishops**: bishops on different colour complexes never meet: a dead draw.
//! - **Threats to be forced to capture** (both sides): a side whose pieces attack enemy
//!   pieces will have to take one when it moves; it pays `forced_to_move` (the side to move)
//!   or `forced_waiting` (the other), divided by one plus the number of those targets the
//!   opponent defends and the capturer does not attack twice (a capture that is taken back
//!   hands the burden straight back).
//! - **Offer squares**: each empty square where one of my pieces (not the king) can step into
//!   the opponent's attacks, more when I do not attack it twice myself (no recapture forced
//!   on me); and **mobility** over the whole board at every phase.
//!
//! - **Phase and pawns**: each kind's burden changes in proportion to the pieces that have
//!   left the board (`burden_end`), and a pawn counts by how far it has advanced
//!   (`pawn_advance`): a pawn near its last rank is nearly a queen. (Mobility by phase was
//!   tried and fitted to zero, session 9: removed.)
//!
//! The threat, offer-square and mobility terms came from screening at fixed nodes
//! (docs/search-log.md, 2026-11-25, "Räuberschach evaluation: threats to be forced to
//! capture"): with them, and a lighter
//! burden, the suites' scores rose by a quarter to a half and a self-play SPRT passed. Every
//! weight can be overridden at start-up with `KIEBITZ_RAEUBER_EVAL=name=value,…`
//! ([`ENV_OVERRIDES`]), which is how the screens ran one build with many weight sets.
//!
//! Without the offer, hanging, deep and tempo terms the evaluation scored 39 % against
//! itself with them (80 games at depth 3).
//!
//! The search evaluates forcing positions only in quiescence, where it stands pat in them at
//! once (`qsearch_forcing_plies` 0, `qsearch_forced_captures` off): the threat terms price
//! the obligation to capture there.

use arrayvec::ArrayVec;

use super::board::Board;
use super::movegen::{BISHOP_K, KING_K, KNIGHT_K, PAWN_K, QUEEN_K, ROOK_K, piece_attacks};
use super::position::{EMPTY, Position};
use crate::board::{Color, Move};
use crate::error::setting_error;

/// The evaluation's weights, in centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// What owning one piece of each kind costs (pawn, knight, bishop, rook, queen, king).
    pub burden: [i32; 6],
    /// Offers (ways to give a piece away) by count: 0, 1, 2, 3, 4 and more.
    pub offer: [i32; 5],
    /// Each of my pieces the opponent attacks now.
    pub hanging: i32,
    /// Each of my pieces (not pawns) deep in the enemy camp.
    pub deep: i32,
    /// Per move of difference in mobility, when at most `tempo_pieces` pieces are left.
    pub tempo: i32,
    pub tempo_pieces: u32,
    /// The side to move's tempo.
    pub to_move: i32,
    /// What the side to move pays when it must capture…
    pub must_capture: i32,
    /// …less this share of it when every target is defended (in proportion).
    pub must_capture_defended: i32,
    /// A side that attacks enemy pieces will have to take one when it moves: it pays this,
    /// divided by one plus the number of those targets the opponent defends (a capture that is
    /// taken back hands the burden straight back). For the side to move…
    pub forced_to_move: i32,
    /// …and for the side that moved last (the threat may still be parried).
    pub forced_waiting: i32,
    /// Each empty square one of my pieces can step to that the opponent attacks (an offer)…
    pub offer_square: i32,
    /// …and more when I do not attack that square twice myself (no forced recapture).
    pub offer_square_free: i32,
    /// Per move of difference in mobility, at any number of pieces.
    pub mobility: i32,
    /// What owning a piece of each kind costs beyond `burden` on an empty board: added in
    /// proportion to how many of the start position's pieces
    /// ([`Profile::full_board`](super::members::Profile::full_board)) have left the board
    /// (nothing at the start), so each kind's burden moves with the phase.
    pub burden_end: [i32; 6],
    /// Per rank a pawn stands beyond its start rank (nearer its promotion to a queen).
    pub pawn_advance: i32,
}

/// Sets one weight (or one group of weights) to a value.
pub(crate) type SetWeight = fn(&mut Weights, i32);

/// The names of the weights for [`Weights::with_overrides`], with their setters.
pub(crate) const WEIGHT_NAMES: &[(&str, SetWeight)] = &[
    ("burden", |w, v| w.burden = [v; 6]),
    ("burden_pawn", |w, v| w.burden[PAWN_K] = v),
    ("burden_knight", |w, v| w.burden[KNIGHT_K] = v),
    ("burden_bishop", |w, v| w.burden[BISHOP_K] = v),
    ("burden_rook", |w, v| w.burden[ROOK_K] = v),
    ("burden_queen", |w, v| w.burden[QUEEN_K] = v),
    ("burden_king", |w, v| w.burden[KING_K] = v),
    ("offer1", |w, v| w.offer[1] = v),
    ("offer2", |w, v| w.offer[2] = v),
    ("offer3", |w, v| w.offer[3] = v),
    ("offer4", |w, v| w.offer[4] = v),
    ("hanging", |w, v| w.hanging = v),
    ("deep", |w, v| w.deep = v),
    ("tempo", |w, v| w.tempo = v),
    ("tempo_pieces", |w, v| w.tempo_pieces = v.max(0) as u32),
    ("to_move", |w, v| w.to_move = v),
    ("must_capture", |w, v| w.must_capture = v),
    ("must_capture_defended", |w, v| w.must_capture_defended = v),
    ("forced_to_move", |w, v| w.forced_to_move = v),
    ("forced_waiting", |w, v| w.forced_waiting = v),
    ("offer_square", |w, v| w.offer_square = v),
    ("offer_square_free", |w, v| w.offer_square_free = v),
    ("mobility", |w, v| w.mobility = v),
    ("burden_end_pawn", |w, v| w.burden_end[PAWN_K] = v),
    ("burden_end_knight", |w, v| w.burden_end[KNIGHT_K] = v),
    ("burden_end_bishop", |w, v| w.burden_end[BISHOP_K] = v),
    ("burden_end_rook", |w, v| w.burden_end[ROOK_K] = v),
    ("burden_end_queen", |w, v| w.burden_end[QUEEN_K] = v),
    ("burden_end_king", |w, v| w.burden_end[KING_K] = v),
    ("pawn_advance", |w, v| w.pawn_advance = v),
];

impl Weights {
    /// These weights with `overrides` applied: comma-separated `name=value` pairs (values
    /// from −100000 to 100000; `burden` sets every kind). An unknown name or a bad value is an
    /// error ([`crate::Error::Setting`]) naming the weights, and nothing is changed.
    pub fn with_overrides(self, overrides: &str) -> Result<Weights, crate::Error> {
        self.overridden(overrides)
    }

    fn overridden(self, overrides: &str) -> Result<Weights, crate::Error> {
        let mut w = self;
        for (name, value) in crate::text::assignments(overrides)? {
            let Some((_, set)) = WEIGHT_NAMES.iter().find(|(n, _)| *n == name) else {
                let names: Vec<&str> = WEIGHT_NAMES.iter().map(|(n, _)| *n).collect();
                return Err(setting_error!(
                    "unknown evaluation weight '{name}' (the weights: {})",
                    names.join(", ")
                ));
            };
            match value.parse::<i32>() {
                Ok(v) if (-100_000..=100_000).contains(&v) => set(&mut w, v),
                _ => {
                    return Err(setting_error!(
                        "'{name}': expected a number from -100000 to 100000, got '{value}'"
                    ));
                }
            }
        }
        Ok(w)
    }
}

/// The enemy camp's last two ranks on board `B`, by colour (White's targets: the two ranks
/// farthest from it).
fn deep_ranks<B: Board>() -> [u64; 2] {
    let rank = |r: u8| 0xffu64 << (8 * r) & B::SQUARES;
    [rank(B::HEIGHT - 1) | rank(B::HEIGHT - 2), rank(0) | rank(1)]
}

/// What a side's pieces do: their move count, the squares they attack (once and at least
/// twice), and where they can step without capturing.
pub struct Activity {
    /// Quiet and capturing moves.
    pub moves: u32,
    /// Squares attacked by at least one piece, and by at least two.
    pub attacks: u64,
    pub twice: u64,
    /// Empty squares the pieces other than the king can step to (pawns: their pushes).
    pub steps: u64,
    /// Empty targets of each piece's quiet moves (pawn pushes as one entry).
    pub quiet: ArrayVec<u64, 40>,
}

impl Activity {
    /// Quiet moves to squares in `attacked` (offers: the mover can be taken there).
    fn offers(&self, attacked: u64) -> u32 {
        self.quiet.iter().map(|t| (t & attacked).count_ones()).sum()
    }
}

/// What the pieces of `color` do on board `B`.
fn activity<B: Board>(pos: &Position<B>, color: Color) -> Activity {
    let own = pos.occupied_by(color);
    let occ = pos.occupied();
    let empty = B::SQUARES & !occ;
    let theirs = pos.occupied_by(color.flip());
    let pawns = pos.bits.kinds[PAWN_K] & own;
    let (west, east) = (pawns & B::NOT_FIRST_FILE, pawns & B::NOT_LAST_FILE);
    let (push, west, east) = match color {
        Color::White => (pawns << 8 & empty, west << 7, east << 9),
        Color::Black => (pawns >> 8 & empty, west >> 9, east >> 7),
    };
    let mut a = Activity {
        moves: push.count_ones() + ((west | east) & theirs).count_ones(),
        attacks: west | east,
        twice: west & east,
        steps: push,
        quiet: ArrayVec::new(),
    };
    a.quiet.push(push);
    for (kind, sq) in pos.bits.pieces_of(color.index()) {
        let targets = piece_attacks::<B>(kind, sq, occ);
        a.twice |= a.attacks & targets;
        a.attacks |= targets;
        a.moves += (targets & (empty | theirs)).count_ones();
        if kind != KING_K {
            a.steps |= targets & empty;
        }
        // 36 squares on 6×6 and 16 pieces a side on 8×8: the list never overflows.
        let _ = a.quiet.try_push(targets & empty);
    }
    a
}

/// The pieces of a side by kind, counted.
fn counts<B: Board>(pos: &Position<B>, color: Color) -> [i32; 6] {
    std::array::from_fn(|k| pos.pieces(color, k).count_ones() as i32)
}

/// The ranks a side's pawns stand beyond their start rank, summed (ranks are 8 bits apart;
/// White's pawns start on the second rank, Black's on the next-to-last).
fn pawn_advance<B: Board>(pos: &Position<B>, color: Color) -> i32 {
    let mut pawns = pos.pieces(color, PAWN_K);
    let mut ranks = 0;
    while pawns != 0 {
        let rank = (pawns.trailing_zeros() / 8) as i32;
        pawns &= pawns - 1;
        ranks += match color {
            Color::White => rank - 1,
            Color::Black => i32::from(B::HEIGHT) - 2 - rank,
        };
    }
    ranks
}

/// Static evaluation for the side to move on board `B` with weights `w`, the phase counted
/// over `full_board` pieces at the start (a member's: [`super::game::evaluate_with`]).
pub fn evaluate_board<B: Board>(pos: &Position<B>, w: &Weights, full_board: i32) -> i32 {
    if pos.opposite_bishops_alone() {
        return 0;
    }
    let non_pawns = pos.occupied() & !pos.bits.kinds[PAWN_K];
    let view = |color: Color| SideView {
        activity: activity(pos, color),
        pieces: pos.occupied_by(color),
        counts: counts(pos, color),
        pawn_advance: pawn_advance(pos, color),
        deep: (non_pawns & pos.occupied_by(color) & deep_ranks::<B>()[color.index()]).count_ones()
            as i32,
    };
    let us = pos.side;
    let gone = (full_board - pos.occupied().count_ones() as i32).max(0);
    score(w, &view(us), &view(us.flip()), (gone, full_board))
}

/// One side as the family's evaluation sees it, on any board: what its pieces do, where they
/// stand, how many of each kind it has, its pawns' advance (in ranks) and its pieces (not
/// pawns) deep in the enemy camp.
pub struct SideView {
    pub activity: Activity,
    pub pieces: u64,
    pub counts: [i32; 6],
    pub pawn_advance: i32,
    pub deep: i32,
}

impl SideView {
    /// The burden of the side's pieces, by `weights` per kind.
    fn burden(&self, weights: &[i32; 6]) -> i32 {
        (0..6).map(|k| self.counts[k] * weights[k]).sum()
    }
}

/// The evaluation of the Räuberschach family (this game and antichess) for the side to move
/// `us` against `them`, with `phase` = (pieces gone from the start, pieces at the start): the
/// terms of the module's comment, weighted by `w`.
pub fn score(w: &Weights, us: &SideView, them: &SideView, phase: (i32, i32)) -> i32 {
    let (gone, full) = phase;
    let mut score = them.burden(&w.burden) - us.burden(&w.burden) + w.to_move;
    // The phase terms grow as the start position's pieces leave the board.
    score += (them.burden(&w.burden_end) - us.burden(&w.burden_end)) * gone / full;
    score += w.pawn_advance * (us.pawn_advance - them.pawn_advance);

    let (mine, theirs) = (&us.activity, &them.activity);
    let (att_us, att_them) = (mine.attacks, theirs.attacks);
    let (my_offers, their_offers) = (mine.offers(att_them), theirs.offers(att_us));
    score += w.offer[my_offers.min(4) as usize] - w.offer[their_offers.min(4) as usize];
    score += w.hanging
        * ((att_them & us.pieces).count_ones() as i32 - (att_us & them.pieces).count_ones() as i32);
    score -= w.deep * (us.deep - them.deep);

    let targets = att_us & them.pieces;
    if targets != 0 {
        let defended = (targets & att_them).count_ones() as i32;
        score -= w.must_capture - w.must_capture_defended * defended / targets.count_ones() as i32;
    }
    score -= forced(mine, theirs, them.pieces, w.forced_to_move);
    score += forced(theirs, mine, us.pieces, w.forced_waiting);

    // Offers by square: where my pieces can step into the opponent's attacks, more where I
    // would not have to take back.
    let offers = |a: &Activity, b: &Activity| -> i32 {
        let squares = a.steps & b.attacks;
        w.offer_square * squares.count_ones() as i32
            + w.offer_square_free * (squares & !a.twice).count_ones() as i32
    };
    score += offers(mine, theirs) - offers(theirs, mine);
    score += w.mobility * (mine.moves as i32 - theirs.moves as i32);

    let on_board = us.counts.iter().chain(&them.counts).sum::<i32>();
    if on_board <= w.tempo_pieces as i32 {
        score += w.tempo * (theirs.moves as i32 - mine.moves as i32);
    }
    score
}

/// Threats to be forced to capture: side `a`, whose pieces attack `victims`, will have to
/// take one when it moves; the fewer of the targets the other side `b` defends (and `a` does
/// not attack twice), the dearer: `weight` divided by one plus those.
fn forced(a: &Activity, b: &Activity, victims: u64, weight: i32) -> i32 {
    let targets = a.attacks & victims;
    if weight == 0 || targets == 0 {
        0
    } else {
        weight / (1 + (targets & b.attacks & !a.twice).count_ones() as i32)
    }
}

/// Ordering of captures and promotions: promotions first (a new piece is one more to give
/// away; a king or a queen first),
/// then captures after which the capturer stands where the opponent can (and so must) take
/// it back, then the others; among equals, the capturer that is more awkward to keep first.
pub fn noisy_order<B: Board>(pos: &Position<B>, mv: Move) -> i32 {
    let (from, to) = (mv.from().index(), mv.to().index());
    let attacker = pos.board[from] as usize % 6;
    let mut score = PROMOTION_ORDER[mv.kind() as usize];
    if pos.is_capture(mv) {
        let them = pos.side.flip().index();
        let occ = pos.occupied() & !(1u64 << from);
        score += 100 + ORDER_KIND[attacker];
        if pos.board[to] != EMPTY && pos.bits.attacked::<B>(to, them, occ) {
            score += 200;
        }
    }
    score
}

/// Ordering bonus of a quiet move that offers the moved piece (its new square is attacked, so
/// the opponent will be forced to take): giving material away is what wins.
pub fn quiet_order<B: Board>(pos: &Position<B>, mv: Move) -> i32 {
    let (from, to) = (mv.from().index(), mv.to().index());
    let them = pos.side.flip().index();
    let occ = pos.occupied() & !(1u64 << from);
    if pos.bits.attacked::<B>(to, them, occ) {
        OFFER_BONUS
    } else {
        0
    }
}

/// Half the history range: an offer goes before most quiet moves, not before a proven one.
const OFFER_BONUS: i32 = 8192;

/// Captures with these first, other things equal (pawn, knight, bishop, rook, queen, king):
/// long-range pieces are the hardest to trap for a give-away.
const ORDER_KIND: [i32; 6] = [0, 10, 30, 30, 20, 10];

/// The ordering of a move by its kind: nothing but for promotions (by `MoveKind`: knight,
/// bishop, rook, queen, king).
const PROMOTION_ORDER: [i32; 16] = [0, 0, 0, 0, 600, 700, 800, 1000, 900, 0, 0, 0, 0, 0, 0, 0];

#[cfg(test)]
mod tests {
    use super::super::game::{evaluate, evaluate_with};
    use super::*;
    use crate::game::Game;
    use crate::games::antichess::Antichess;
    use crate::games::raeuber::Raeuber;
    use crate::games::raeuber::eval::WEIGHTS;

    fn pos(fen: &str) -> Raeuber {
        Raeuber::from_fen("raeuberschach", fen).unwrap()
    }

    fn anti(fen: &str) -> Antichess {
        Antichess::from_fen("antichess", fen).unwrap()
    }

    #[test]
    fn the_starts_are_level_but_for_the_move() {
        let p = Raeuber::startpos("raeuberschach").unwrap();
        assert_eq!(evaluate(&p), WEIGHTS.to_move);
        let a = Antichess::startpos("antichess").unwrap();
        assert_eq!(evaluate(&a), WEIGHTS.to_move);
        // Mirrored positions score the same for the side to move.
        let w = anti("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2");
        let b = anti("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 2");
        assert_eq!(evaluate(&w), evaluate(&b));
    }

    #[test]
    fn a_heavier_burden_favours_the_side_with_fewer_pieces() {
        // White has one rook less than Black; same placement otherwise. The tuned weights
        // value a rook (its burden is negative); a heavier rook burden moves the score
        // towards White, whichever side is to move.
        let heavier = Weights {
            burden: {
                let mut b = WEIGHTS.burden;
                b[ROOK_K] += 100;
                b
            },
            ..WEIGHTS
        };
        let w = pos("r1k3/pp4/6/6/PP4/2K3 w - - 0 1");
        assert_eq!(
            evaluate_with(&w, &heavier) - evaluate_with(&w, &WEIGHTS),
            100
        );
        let b = pos("r1k3/pp4/6/6/PP4/2K3 b - - 0 1");
        assert_eq!(
            evaluate_with(&b, &heavier) - evaluate_with(&b, &WEIGHTS),
            -100
        );
        // The same on 8×8: Black has one rook more.
        let w = anti("r3k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1");
        assert_eq!(
            evaluate_with(&w, &heavier) - evaluate_with(&w, &WEIGHTS),
            100
        );
        let b = anti("r3k3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1");
        assert_eq!(
            evaluate_with(&b, &heavier) - evaluate_with(&b, &WEIGHTS),
            -100
        );
    }

    #[test]
    fn the_phase_burden_grows_as_the_board_empties() {
        // Black has one rook more than White. An endgame rook burden of 240 adds
        // 240 · (pieces gone) / 24 for White: 9 of the start's 24 pieces are left here, 3 in
        // the second position. (From no phase burden at all, so that the integer division
        // rounds nothing.)
        let flat = Weights {
            burden_end: [0; 6],
            ..WEIGHTS
        };
        let heavier = Weights {
            burden_end: {
                let mut b = [0; 6];
                b[ROOK_K] = 240;
                b
            },
            ..WEIGHTS
        };
        let crowded = pos("r1k1r1/pp4/6/6/PP4/2K1R1 w - - 0 1");
        assert_eq!(crowded.occupied().count_ones(), 9);
        let shift = |p: &Raeuber| evaluate_with(p, &heavier) - evaluate_with(p, &flat);
        assert_eq!(shift(&crowded), 240 * 15 / 24);
        let bare = pos("r1k3/6/6/6/6/2K3 w - - 0 1");
        assert_eq!(shift(&bare), 240 * 21 / 24);
    }

    #[test]
    fn pawns_count_by_how_far_they_have_advanced() {
        // White's pawns stand 0 and 2 ranks beyond their start, Black's 1 in all: with pawn_advance
        // 70 the score moves by 70 · (2 − 1) for White and the opposite for Black.
        let advancing = Weights {
            pawn_advance: WEIGHTS.pawn_advance + 70,
            ..WEIGHTS
        };
        let shift = |fen: &str| {
            let p = pos(fen);
            evaluate_with(&p, &advancing) - evaluate_with(&p, &WEIGHTS)
        };
        assert_eq!(shift("2k3/6/p2P2/6/P5/2K3 w - - 0 1"), 70);
        assert_eq!(shift("2k3/6/p2P2/6/P5/2K3 b - - 0 1"), -70);
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        // A position and its colour-mirrored twin score the same for the side to move.
        let a = pos("1qkbn1/2pp1r/1p3p/6/RP1PPP/1QKB1R b - - 2 7");
        let b = pos("1qkb1r/rp1ppp/6/1P3P/2PP1R/1QKBN1 w - - 2 7");
        assert_eq!(evaluate(&a), evaluate(&b));
    }

    #[test]
    fn having_to_capture_costs_less_when_the_targets_are_defended() {
        // White's rook must take the black pawn on a3: undefended here, defended by the pawn
        // on b4 in the second position.
        let free = pos("6/6/P5/p5/6/R5 w - - 0 1");
        let with = |w: Weights| evaluate_with(&free, &w);
        let none = Weights {
            must_capture: 0,
            must_capture_defended: 0,
            ..WEIGHTS
        };
        let some = Weights {
            must_capture: 60,
            must_capture_defended: 40,
            ..none
        };
        assert_eq!(with(some), with(none) - 60);
        let guarded = pos("6/6/1p4/p5/6/R5 w - - 0 1");
        let g = |w: Weights| evaluate_with(&guarded, &w);
        assert_eq!(g(some), g(none) - (60 - 40));
        // Black to move has no capture: nothing to pay.
        let quiet = pos("6/6/1p4/p5/6/R5 b - - 0 1");
        assert_eq!(evaluate_with(&quiet, &some), evaluate_with(&quiet, &none));
    }

    /// The weights with every term of the forced-capture threats and square offers off.
    fn without_threats() -> Weights {
        Weights {
            forced_to_move: 0,
            forced_waiting: 0,
            offer_square: 0,
            offer_square_free: 0,
            ..WEIGHTS
        }
    }

    #[test]
    fn a_threat_to_be_forced_to_capture_costs_less_when_the_target_is_defended() {
        // White's rook attacks the black pawn on a3: undefended here, defended by b4 below.
        let w = Weights {
            forced_to_move: 600,
            ..without_threats()
        };
        let free = pos("6/6/P5/p5/6/R5 w - - 0 1");
        assert_eq!(
            evaluate_with(&free, &w),
            evaluate_with(&free, &without_threats()) - 600
        );
        let guarded = pos("6/6/1p4/p5/6/R5 w - - 0 1");
        assert_eq!(
            evaluate_with(&guarded, &w),
            evaluate_with(&guarded, &without_threats()) - 300
        );
        // The side that waits pays its own weight: Black to move, White's threat stands.
        let waiting = Weights {
            forced_waiting: 500,
            ..without_threats()
        };
        let black = pos("6/6/P5/p5/6/R5 b - - 0 1");
        assert_eq!(
            evaluate_with(&black, &waiting),
            evaluate_with(&black, &without_threats()) + 500
        );
    }

    #[test]
    fn squares_where_a_piece_can_be_offered_count() {
        // The rook on a1 can step to a4, where the pawn on b5 would have to take it; Black's
        // pawn cannot step into White's attacks.
        let p = pos("6/1p4/6/6/6/R5 w - - 0 1");
        let w = Weights {
            offer_square: 70,
            offer_square_free: 30,
            ..without_threats()
        };
        assert_eq!(
            evaluate_with(&p, &w),
            evaluate_with(&p, &without_threats()) + 100
        );
    }

    #[test]
    fn weights_are_overridden_by_name_and_bad_names_change_nothing() {
        let w = WEIGHTS
            .with_overrides("burden=40, offer_square=90")
            .unwrap();
        assert_eq!(w.burden, [40; 6]);
        assert_eq!(w.offer_square, 90);
        assert!(WEIGHTS.with_overrides("nonsense=1").is_err());
        assert!(WEIGHTS.with_overrides("burden=x").is_err());
        assert!(WEIGHTS.with_overrides("burden=1000000").is_err());
    }

    #[test]
    fn captures_that_are_taken_back_first() {
        // The rook may take the pawn on a4, which b5 defends; the pawn may take the queen on
        // d3, which nothing defends.
        let p = pos("6/1p4/p5/3q2/2P3/R5 w - - 0 1");
        let rook_takes = p.parse_move("a1a4").unwrap();
        let pawn_takes = p.parse_move("c2d3").unwrap();
        assert_eq!(noisy_order(&p, rook_takes), 100 + 30 + 200);
        assert_eq!(noisy_order(&p, pawn_takes), 100);
        // Promotions come before everything.
        let q = pos("6/P5/6/6/6/6 w - - 0 1");
        assert_eq!(noisy_order(&q, q.parse_move("a5a6").unwrap()), 1000);
        // On 8×8 a promotion to a queen is tried before a plain capture.
        let q = anti("1n6/P7/8/8/8/8/3p4/4B3 w - - 0 1");
        let promote = q.parse_move("a7b8q").unwrap();
        let take = q.parse_move("e1d2").unwrap();
        assert!(noisy_order(&q, promote) > noisy_order(&q, take));
        // Opposite bishops alone are a draw.
        assert_eq!(evaluate(&anti("8/8/2b5/8/8/8/8/2B5 w - - 0 1")), 0);
    }

    #[test]
    fn offers_are_ordered_first_among_quiet_moves() {
        // The rook on a1 may step to a4, where the pawn on b5 must then take it, or to a2,
        // where nothing can.
        let p = pos("6/1p4/6/6/6/R5 w - - 0 1");
        assert_eq!(quiet_order(&p, p.parse_move("a1a4").unwrap()), OFFER_BONUS);
        assert_eq!(quiet_order(&p, p.parse_move("a1a2").unwrap()), 0);
        // On 8×8: the knight's step to c3 offers it to the pawn on b4 (the h-pawn's does not).
        let p = anti("8/8/8/8/1p6/8/7P/1N6 w - - 0 1");
        assert_eq!(quiet_order(&p, p.parse_move("b1c3").unwrap()), OFFER_BONUS);
        assert_eq!(quiet_order(&p, p.parse_move("h2h3").unwrap()), 0);
    }
}
