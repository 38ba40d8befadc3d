//! The rules of Chamäleon Schach (docs/rules.md §10): square colours, the role a piece plays on each
//! colour, move generation inside the playing area, playing a move (capture, elimination,
//! turn order, passes) and the shrinking of the area. Depends on the position in `super`.

use super::{Area, Chamaeleon, MAX_TURNS, PIECE_LETTERS, SEATS, decode};
use crate::board::{Move, MoveKind, MoveList, Square};
use crate::error::move_error;
use crate::nsearch::NGame;

/// The colour of a square: 0 red, 1 yellow, 2 green, 3 blue.
#[inline]
pub const fn colour(x: usize, y: usize) -> usize {
    ((x + y) & 1) + 2 * (((x / 2) + (y / 2)) & 1)
}

/// What a piece moves as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Knight,
    Bishop,
    Rook,
    Queen,
}

/// The role of piece `piece` on a square of colour `colour`: a piece is a knight on its own
/// colour, and `piece XOR colour` = 1 bishop, 2 rook, 3 queen (docs/rules.md §10's table).
#[inline]
pub const fn role(piece: usize, colour: usize) -> Role {
    match piece ^ colour {
        0 => Role::Knight,
        1 => Role::Bishop,
        2 => Role::Rook,
        _ => Role::Queen,
    }
}

/// The role of the piece on `sq` of the board.
#[inline]
pub fn role_on(piece: usize, sq: usize) -> Role {
    role(piece, colour(sq & 7, sq >> 3))
}

const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The squares a piece of role `role` on `sq` reaches inside `area`, sliding through empty
/// squares of `all` (the first occupied square is included, whoever owns it).
pub fn reach(role: Role, sq: usize, area: Area, all: u64) -> u64 {
    let (x, y) = ((sq & 7) as i32, (sq >> 3) as i32);
    let mut out = 0u64;
    let mut slide = |dirs: &[(i32, i32)]| {
        for &(dx, dy) in dirs {
            let (mut cx, mut cy) = (x + dx, y + dy);
            while area.contains(cx, cy) {
                let t = (cy * 8 + cx) as usize;
                out |= 1 << t;
                if all >> t & 1 != 0 {
                    break;
                }
                cx += dx;
                cy += dy;
            }
        }
    };
    match role {
        Role::Knight => {
            for (dx, dy) in KNIGHT {
                if area.contains(x + dx, y + dy) {
                    out |= 1 << ((y + dy) * 8 + x + dx);
                }
            }
        }
        Role::Bishop => slide(&DIAG),
        Role::Rook => slide(&ORTHO),
        Role::Queen => {
            slide(&DIAG);
            slide(&ORTHO);
        }
    }
    out
}

/// The targets of `seat`'s piece on `sq`: its reach without its own pieces.
#[inline]
pub fn targets(pos: &Chamaeleon, seat: usize, sq: usize) -> u64 {
    let (_, piece) = decode(pos.board[sq]).expect("a piece");
    reach(role_on(piece, sq), sq, pos.area, pos.all()) & !pos.occ[seat]
}

/// Every move of `seat` (whose turn it need not be), without the pass.
pub fn moves_of(pos: &Chamaeleon, seat: usize, moves: &mut MoveList) {
    let mut own = pos.occ[seat];
    while own != 0 {
        let from = own.trailing_zeros() as usize;
        own &= own - 1;
        let mut t = targets(pos, seat, from);
        while t != 0 {
            let to = t.trailing_zeros() as usize;
            t &= t - 1;
            moves.push(Move::new(
                Square(from as u8),
                Square(to as u8),
                MoveKind::Normal,
            ));
        }
    }
}

/// The legal moves: the seat to move's moves, a pass when it has none, nothing when the game
/// is over.
pub fn legal_moves(pos: &Chamaeleon, moves: &mut MoveList) {
    moves.clear();
    if pos.is_over() {
        return;
    }
    moves_of(pos, pos.to_move as usize, moves);
    if moves.is_empty() {
        moves.push(Move::NULL);
    }
}

/// The position after `mv` (legal here): the piece moves (capturing what stands on the
/// target), the area shrinks, the turn count rises and the next seat still in play moves.
pub fn play(pos: &Chamaeleon, mv: Move) -> Chamaeleon {
    let mut next = pos.clone();
    let mover = pos.to_move as usize;
    if !mv.is_null() {
        let (from, to) = (mv.from().index(), mv.to().index());
        let (seat, piece) = decode(pos.board[from]).expect("a piece to move");
        next.remove(to);
        next.remove(from);
        next.put(seat, piece, to);
        shrink(&mut next);
    }
    next.turn += 1;
    let seat = next.next_seat(mover);
    next.set_to_move(seat);
    next
}

/// Shrinks the area (docs/rules.md §10): while it is wider than 3 and its westmost file is empty, that
/// file leaves; then the eastmost file likewise; then the southmost and the northmost rank
/// while it is taller than 3; all of this repeated until nothing changes.
pub fn shrink(pos: &mut Chamaeleon) {
    let all = pos.all();
    let file = |x: u8| 0x0101_0101_0101_0101u64 << x;
    let rank = |y: u8| 0xFFu64 << (8 * y);
    let mut a = pos.area;
    loop {
        let before = a;
        while a.x1 - a.x0 + 1 > 3 && all & file(a.x0) == 0 {
            a.x0 += 1;
        }
        while a.x1 - a.x0 + 1 > 3 && all & file(a.x1) == 0 {
            a.x1 -= 1;
        }
        while a.y1 - a.y0 + 1 > 3 && all & rank(a.y0) == 0 {
            a.y0 += 1;
        }
        while a.y1 - a.y0 + 1 > 3 && all & rank(a.y1) == 0 {
            a.y1 -= 1;
        }
        if a == before {
            break;
        }
    }
    if a != pos.area {
        pos.set_area(a);
    }
}

/// Base values of the roles, for ordering and evaluation.
pub const ROLE_VALUE: [i32; 4] = [30, 33, 50, 90];

/// Ordering score: captures first, the most valuable victim (by its current role) first.
pub fn order(pos: &Chamaeleon, mv: Move) -> i32 {
    if mv.is_null() {
        return 0;
    }
    let to = mv.to().index();
    match decode(pos.board[to]) {
        Some((_, piece)) => 1000 + ROLE_VALUE[role_on(piece, to) as usize],
        None => 0,
    }
}

/// A legal move from its text, or why not ([`crate::Error::Move`]).
pub fn parse_move(pos: &Chamaeleon, text: &str) -> Result<Move, crate::Error> {
    read_move(pos, text.trim())
}

fn read_move(pos: &Chamaeleon, text: &str) -> Result<Move, crate::Error> {
    if pos.is_over() {
        return Err(move_error!("the game is over"));
    }
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    let seat = pos.to_move as usize;
    let name = Chamaeleon::seat_name(seat);
    if text == "0000" {
        return if list[0].is_null() {
            Ok(Move::NULL)
        } else {
            Err(move_error!("{name} has moves and may not pass"))
        };
    }
    let (from, to) = match (text.get(..2), text.get(2..)) {
        (Some(a), Some(b)) if text.len() == 4 => (Square::parse(a), Square::parse(b)),
        _ => (None, None),
    };
    let (Some(from), Some(to)) = (from, to) else {
        return Err(move_error!(
            "'{text}' is not a move (like a1b3, or 0000 to pass)"
        ));
    };
    match decode(pos.board[from.index()]) {
        None => return Err(move_error!("no piece on {from}")),
        Some((s, _)) if s != seat => {
            return Err(move_error!(
                "the piece on {from} belongs to {}, and {name} is to move",
                Chamaeleon::seat_name(s)
            ));
        }
        _ => {}
    }
    let area = pos.area;
    if !area.contains(to.file() as i32, to.rank() as i32) {
        return Err(move_error!(
            "{to} is outside the playing area {}",
            area_text(area)
        ));
    }
    list.iter()
        .copied()
        .find(|m| !m.is_null() && m.from() == from && m.to() == to)
        .ok_or_else(|| {
            let (_, piece) = decode(pos.board[from.index()]).unwrap();
            move_error!(
                "the {} piece on {from} moves as a {:?} there and cannot reach {to}",
                PIECE_LETTERS[piece],
                role_on(piece, from.index())
            )
        })
}

fn area_text(a: Area) -> String {
    a.text()
}

/// The board for a person: rank 8 on top, each square three characters wide. With `ansi`,
/// squares have their colour as background and pieces their seat's letter; squares outside
/// the area are dark grey. Plain: an empty square shows its colour in lower case (`r y g b`),
/// `.` outside the area, and a piece its seat letter in upper case and its piece letter.
pub fn pretty(pos: &Chamaeleon, ansi: bool) -> String {
    let mut out = String::new();
    for y in (0..8).rev() {
        out.push_str(&format!("{} ", y + 1));
        for x in 0..8 {
            let sq = y * 8 + x;
            let c = colour(x, y);
            let inside = pos.area.contains(x as i32, y as i32);
            let cell = match decode(pos.board[sq]) {
                Some((s, p)) => format!(
                    "{}{} ",
                    Chamaeleon::seat_letter(s).to_ascii_uppercase(),
                    PIECE_LETTERS[p]
                ),
                None if ansi => "   ".to_string(),
                None if inside => format!(" {} ", PIECE_LETTERS[c].to_ascii_lowercase()),
                None => " . ".to_string(),
            };
            if ansi {
                // Backgrounds red, yellow, green, blue; grey outside the area.
                let bg = if inside { [41, 43, 42, 44][c] } else { 100 };
                out.push_str(&format!("\x1b[{bg};97;1m{cell}\x1b[0m"));
            } else {
                out.push_str(&cell);
            }
        }
        out.push('\n');
    }
    out.push_str("   a  b  c  d  e  f  g  h\n");
    let seat = pos.to_move as usize;
    out.push_str(&format!(
        "Area {}, turn {}/{MAX_TURNS}, {} to move",
        pos.area.text(),
        pos.turn,
        Chamaeleon::seat_name(seat)
    ));
    let out_of: Vec<&str> = (0..SEATS)
        .filter(|&s| pos.plays(s) && !pos.in_game(s))
        .map(Chamaeleon::seat_name)
        .collect();
    if !out_of.is_empty() {
        out.push_str(&format!(" (out: {})", out_of.join(", ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft;

    #[test]
    fn colours_and_roles_follow_the_spec() {
        let rank1: Vec<usize> = (0..8).map(|x| colour(x, 0)).collect();
        assert_eq!(rank1, [0, 1, 2, 3, 0, 1, 2, 3]);
        assert_eq!(role(0, 3), Role::Queen);
        assert_eq!(role(1, 2), Role::Queen);
        assert_eq!(role(2, 3), Role::Bishop);
        assert_eq!(role(3, 1), Role::Rook);
        for p in 0..4 {
            assert_eq!(role(p, p), Role::Knight);
        }
    }

    #[test]
    fn south_has_13_moves_and_perft_2_is_169() {
        let pos = Chamaeleon::startpos(4).unwrap();
        let mut m = MoveList::new();
        legal_moves(&pos, &mut m);
        assert_eq!(m.len(), 13);
        assert_eq!(perft::nperft(&pos, 2), 169);
    }

    #[test]
    fn the_area_shrinks_west_first() {
        // Pieces only on file e: west files leave first, then the empty east file h.
        let mut pos = Chamaeleon::from_text("4nB3/8/8/8/8/8/8/4sR3 a1-h8 sn s 0");
        assert!(pos.is_err());
        pos = Chamaeleon::from_text("4nB3/8/8/8/8/8/8/4sR3 e1-g8 sn s 0");
        assert!(pos.is_ok(), "{pos:?}");
    }

    #[test]
    fn a_seat_without_moves_passes() {
        // North's only piece (R on a green square c8? no: the Y on a corner) boxed in.
        let pos = Chamaeleon::startpos(2).unwrap();
        let mut m = MoveList::new();
        legal_moves(&pos, &mut m);
        assert!(m.iter().all(|m| !m.is_null()));
    }

    #[test]
    fn hash_is_incremental() {
        let mut pos = Chamaeleon::startpos(4).unwrap();
        let mut m = MoveList::new();
        for i in 0..40 {
            legal_moves(&pos, &mut m);
            if m.is_empty() {
                break;
            }
            pos = play(&pos, m[(i * 7) % m.len()]);
            let fresh = Chamaeleon::from_text(&pos.text()).unwrap();
            assert_eq!(fresh.key, pos.key, "{}", pos.text());
            assert_eq!(fresh, pos);
        }
    }
}
