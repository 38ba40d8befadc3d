//! Certificates in the compact format (version 2 of [`super::proof`]'s text: the winner's moves
//! only, in the order of a fixed walk), collected and checked by that one walk, with positions
//! told apart by [`Game::exact_key`] where the game has one and by their FEN only where it has
//! not. A certificate of a hundred million positions is then walked in minutes and a few GB,
//! where a FEN string per position costs hours and tens of GB (docs/solved.md, "Compact
//! certificates").
//!
//! The walk ([`walk`]) is the compact format's: depth first from the root, each position once,
//! the winner's move where the winner is to move (asked of a chooser: the next move of the file
//! when checking, the solver's choice when collecting), every move of the other side in the
//! order of its text. It checks as it goes, trusting nothing but the game's move generator: a
//! position without a move must not be won by the other side (in a win: must be won by the
//! winner); a win's line may neither meet a position on itself (a cycle) nor one drawn by
//! insufficient material; the checker reads each chosen move as text, so an illegal one is
//! refused. A hold's lines may meet themselves: the holder's strategy keeps every game inside
//! the walked graph, where no game end is the other side's win. Games with a move-count rule
//! ([`Game::DRAW_PLIES`]) need each line's clock, which this walk does not keep: their wins are
//! unfolded and checked by [`super::proof::check`].
//!
//! Depends on [`crate::game`], [`super::proof`] (the text format's header and checker) and
//! [`crate::rng`] (the key table's hash).

use std::collections::HashMap;
use std::io::Write;

use super::proof::{self, Checked, Proof, ProofError, identity};
use crate::board::{Color, Move, MoveList};
use crate::game::{Game, Terminal};

/// A certificate in the compact format: the header of [`Proof`] and the winner's moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compact {
    pub variant: String,
    pub root: String,
    /// The winner, or the holder where `hold`.
    pub winner: Color,
    pub hold: bool,
    /// The winner's moves in the walk's order, separated by single spaces.
    pub moves: String,
    /// How many moves `moves` holds: the winner's choices.
    pub count: usize,
    /// Lines end where the game's lemma settles them ([`Game::lemma_value`]); the file says so
    /// in a `lemmas yes` line after the header. Such a certificate has no text-format form.
    pub lemmas: bool,
}

impl Compact {
    /// The header without moves, as [`Proof`] writes it.
    fn header(&self, version: u8) -> String {
        Proof {
            variant: self.variant.clone(),
            root: self.root.clone(),
            winner: self.winner,
            hold: self.hold,
            nodes: Vec::new(),
        }
        .header(version)
    }

    /// Writes the text (`kiebitz-proof 2`, sixteen moves a line) to `out`.
    pub fn write_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        out.write_all(self.header(2).as_bytes())?;
        if self.lemmas {
            out.write_all(b"lemmas yes\n")?;
        }
        let mut words = self.moves.split(' ').filter(|w| !w.is_empty()).peekable();
        while words.peek().is_some() {
            out.write_all(b"moves")?;
            for word in words.by_ref().take(16) {
                write!(out, " {word}")?;
            }
            out.write_all(b"\n")?;
        }
        Ok(())
    }

    /// The text in the compact format.
    pub fn to_text(&self) -> String {
        let mut out = Vec::new();
        self.write_to(&mut out).expect("writing to memory");
        String::from_utf8(out).expect("the text is UTF-8")
    }

    /// Reads the compact format's text (version 2); errors name the line.
    pub fn parse(text: &str) -> Result<Compact, ProofError> {
        let (head, body) = Proof::read_header(text, "2")?;
        let mut moves = String::new();
        let mut count = 0;
        let mut lemmas = false;
        for (n, line) in body {
            if line == "lemmas yes" && count == 0 && !lemmas {
                lemmas = true;
                continue;
            }
            let list = line
                .strip_prefix("moves")
                .filter(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
                .ok_or_else(|| format!("line {n}: expected 'moves …', found '{line}'"))?;
            for word in list.split_whitespace() {
                if count > 0 {
                    moves.push(' ');
                }
                moves.push_str(word);
                count += 1;
            }
        }
        Ok(Compact {
            variant: head.variant,
            root: head.root,
            winner: head.winner,
            hold: head.hold,
            moves,
            count,
            lemmas,
        })
    }

    /// The proof unfolded into the text format's nodes (a FEN per position of the winner's),
    /// under the rules of `G`; errors where the walk fails.
    pub fn unfold<G: Game>(&self) -> Result<Proof, ProofError> {
        if self.lemmas {
            return Err("a certificate whose lines end at the game's lemmas has no \
                        text-format (version 1) form: keep it compact"
                .into());
        }
        let root = G::from_fen(&self.variant, &self.root).map_err(ProofError::Root)?;
        let mut nodes = Vec::new();
        let mut words = self.moves.split_whitespace();
        walk(&root, (self.winner, self.hold, false), |pos, _| {
            let mv = next_move(pos, &mut words)?;
            nodes.push((pos.fen(), pos.move_text(mv)));
            Ok(mv)
        })?;
        no_moves_left(words)?;
        Ok(Proof {
            variant: self.variant.clone(),
            root: self.root.clone(),
            winner: self.winner,
            hold: self.hold,
            nodes,
        })
    }
}

/// The compact format of [`Proof`]: written from the text format's nodes, and either format
/// read (here rather than in [`super::proof`], which this module builds on).
impl Proof {
    /// The compact format (version 2, see the module's documentation): the winner's moves
    /// only. Errors when the proof has no move for a position of the winner's that the walk
    /// reaches, or the walk's own checks fail ([`walk`]): a proof that would
    /// not check either.
    pub fn to_compact<G: Game>(&self) -> Result<String, ProofError> {
        let chosen = proof::chosen_moves::<G>(self)?;
        let root = G::from_fen(&self.variant, &self.root).map_err(ProofError::Root)?;
        let compact = collect(&root, (self.winner, self.hold, false), |pos, _| {
            let fen = pos.fen();
            let text = chosen.get(&identity(&fen)).ok_or_else(|| {
                ProofError::at(
                    fen.clone(),
                    "the winner is to move but the proof has no move",
                )
            })?;
            pos.parse_move(text)
                .map_err(|e| ProofError::at(fen.clone(), e))
        })?;
        Ok(compact.to_text())
    }

    /// Reads either format: version 1 as [`Proof::parse`], version 2 unfolded under the
    /// rules of `G` (an illegal move, too few or too many moves are errors).
    pub fn parse_any<G: Game>(text: &str) -> Result<Proof, crate::Error> {
        Self::read_any::<G>(text).map_err(crate::Error::from)
    }

    fn read_any<G: Game>(text: &str) -> Result<Proof, ProofError> {
        let version = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .and_then(|l| l.strip_prefix("kiebitz-proof "))
            .map(str::trim);
        if version != Some("2") {
            return Self::read(text);
        }
        Compact::parse(text)?.unfold::<G>()
    }
}

/// The next move of a certificate's list, read as a legal move of `pos`.
fn next_move<'w, G: Game>(
    pos: &G,
    words: &mut impl Iterator<Item = &'w str>,
) -> Result<Move, ProofError> {
    let text = words
        .next()
        .ok_or_else(|| format!("the moves end before the winner's move at {}", pos.fen()))?;
    Ok(pos
        .parse_move(text)
        .map_err(|e| format!("{}: move {text}: {e}", pos.fen()))?)
}

/// An error where moves are left after the walk.
fn no_moves_left<'w>(words: impl Iterator<Item = &'w str>) -> Result<(), ProofError> {
    match words.count() {
        0 => Ok(()),
        left => Err(format!("{left} moves are left over after the walk of the proof").into()),
    }
}

/// Checks a compact certificate under the rules of `G` ([`walk`] over its moves; a win of a
/// game with a move-count rule unfolded and checked by [`proof::check`]).
pub fn check<G: Game>(c: &Compact) -> Result<Checked, ProofError> {
    if G::DRAW_PLIES.is_some() && !c.hold {
        let unfolded = c.unfold::<G>()?;
        return Ok(proof::check::<G>(&unfolded).map_err(|e| e.to_string())?);
    }
    let root = G::from_fen(&c.variant, &c.root).map_err(ProofError::Root)?;
    let mut words = c.moves.split_whitespace();
    let how = (c.winner, c.hold, c.lemmas);
    let checked = walk(&root, how, |pos, _| next_move(pos, &mut words))?;
    no_moves_left(words)?;
    Ok(checked)
}

/// Collects a certificate by the walk from `root` for `(winner, hold, lemmas)` ([`walk`]),
/// `choose` giving the winner's (holder's) move in each of its positions (it may ask which
/// positions the walk has finished: a move into one adds nothing to the certificate); the
/// walk's checks apply as it goes.
pub fn collect<G: Game>(
    root: &G,
    (winner, hold, lemmas): (Color, bool, bool),
    mut choose: impl FnMut(&G, &Met) -> Result<Move, ProofError>,
) -> Result<Compact, ProofError> {
    let (mut moves, mut count) = (String::new(), 0);
    walk(root, (winner, hold, lemmas), |pos, met| {
        let mv = choose(pos, met)?;
        if count > 0 {
            moves.push(' ');
        }
        moves.push_str(&pos.move_text(mv));
        count += 1;
        Ok(mv)
    })?;
    Ok(Compact {
        variant: root.variant().to_string(),
        root: root.fen(),
        winner,
        hold,
        moves,
        count,
        lemmas,
    })
}

/// A position's identity within one walk: its exact key where the game has one, else its FEN
/// without clocks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Id {
    Key(u128),
    Fen(String),
}

impl Id {
    fn of<G: Game>(pos: &G) -> Id {
        match pos.exact_key() {
            Some(k) if k >> KeyTable::KEY_BITS == 0 => Id::Key(k),
            _ => Id::Fen(identity(&pos.fen())),
        }
    }
}

/// The positions a walk has met, each with the longest line below it ([`ON_LINE`] while the
/// walk is below it): exact keys in a [`KeyTable`] of 16 bytes a position, FENs apart.
#[derive(Default)]
struct Seen {
    keys: KeyTable,
    fens: HashMap<String, u32>,
}

/// A position the walk is still below (on the current line).
const ON_LINE: u32 = u32::MAX;

impl Seen {
    fn get(&self, id: &Id) -> Option<u32> {
        match id {
            Id::Key(k) => self.keys.get(*k).map(|v| match v {
                KeyTable::ON_LINE => ON_LINE,
                v => u32::from(v),
            }),
            Id::Fen(f) => self.fens.get(f).copied(),
        }
    }

    fn insert(&mut self, id: Id, v: u32) {
        match id {
            Id::Key(k) => {
                let byte = if v == ON_LINE {
                    KeyTable::ON_LINE
                } else {
                    v.min(u32::from(KeyTable::MOST)) as u8
                };
                self.keys.set(k, byte);
            }
            Id::Fen(f) => {
                self.fens.insert(f, v);
            }
        }
    }

    fn len(&self) -> usize {
        self.keys.len + self.fens.len()
    }
}

/// What a chooser may ask of the walk: whether it has finished a position (walked everything
/// below it).
pub struct Met<'a>(&'a Seen);

impl Met<'_> {
    pub fn finished<G: Game>(&self, pos: &G) -> bool {
        self.0.get(&Id::of(pos)).is_some_and(|v| v != ON_LINE)
    }
}

/// A set of exact keys (below 2^120) with a byte each, open-addressed in one array of 16-byte
/// slots (`(byte + 1) << 120 | key`; 0 is an empty slot), grown by half when four fifths are
/// full: 20 to 30 bytes a key, where a hash map of 128-bit keys with a value takes 40 to 70.
#[derive(Default)]
struct KeyTable {
    slots: Vec<u128>,
    len: usize,
}

impl KeyTable {
    /// The byte of a position on the walk's line (a byte is kept as byte + 1, so at most 254).
    const ON_LINE: u8 = 254;
    /// The largest length a byte keeps (longer lines are counted as this long).
    const MOST: u8 = 253;
    const KEY_BITS: u32 = 120;

    /// The slot where `key` is, or the empty one where it would go.
    #[inline]
    fn find(&self, key: u128) -> usize {
        let n = self.slots.len();
        let x = crate::rng::mix64(
            (key as u64) ^ ((key >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        );
        let mut i = ((u128::from(x) * n as u128) >> 64) as usize;
        loop {
            let s = self.slots[i];
            if s == 0 || s & ((1 << Self::KEY_BITS) - 1) == key {
                return i;
            }
            i = if i + 1 == n { 0 } else { i + 1 };
        }
    }

    fn get(&self, key: u128) -> Option<u8> {
        if self.slots.is_empty() {
            return None;
        }
        let s = self.slots[self.find(key)];
        (s != 0).then(|| ((s >> Self::KEY_BITS) - 1) as u8)
    }

    fn set(&mut self, key: u128, byte: u8) {
        debug_assert!(key >> Self::KEY_BITS == 0, "exact keys are below 2^120");
        debug_assert!(byte <= Self::ON_LINE);
        if (self.len + 1) * 5 > self.slots.len() * 4 {
            self.grow();
        }
        let i = self.find(key);
        self.len += usize::from(self.slots[i] == 0);
        self.slots[i] = (u128::from(byte) + 1) << Self::KEY_BITS | key;
    }

    fn grow(&mut self) {
        let size = (self.slots.len() + self.slots.len() / 2).max(1024);
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        for s in old.into_iter().filter(|&s| s != 0) {
            let i = self.find(s & ((1 << Self::KEY_BITS) - 1));
            self.slots[i] = s;
        }
    }
}

/// A position on the walk's current line: the moves still to follow from it and the longest
/// line below it so far.
struct Frame<G> {
    pos: G,
    id: Id,
    follow: Vec<Move>,
    longest: u32,
}

/// The compact format's walk of the certificate graph from `root` (see the module's
/// documentation) for `winner` (the holder where `hold`), checking as it goes; with `lemmas`,
/// a line also ends where the game's lemma says the winner wins (a hold: the holder does not
/// lose), and fails where it says otherwise. Returns the distinct positions met (game ends included)
/// and the longest line in plies (for a hold whose lines meet themselves: the longest that
/// stops where it meets a position on itself; counted up to 253 where the game has exact keys).
pub fn walk<G: Game>(
    root: &G,
    (winner, hold, lemmas): (Color, bool, bool),
    choose: impl FnMut(&G, &Met) -> Result<Move, ProofError>,
) -> Result<Checked, ProofError> {
    let mut w = Walker {
        winner,
        hold,
        lemmas,
        choose,
        seen: Seen::default(),
        line: Vec::new(),
        moves: MoveList::new(),
    };
    let mut longest = w.enter(root.clone())?;
    loop {
        let step = match w.line.last_mut() {
            None => break,
            Some(f) => f.follow.pop().map(|mv| f.pos.play(mv)),
        };
        match step {
            Some(next) => {
                if let Some(n) = w.enter(next)? {
                    let parent = w
                        .line
                        .last_mut()
                        .expect("the position the move was played in");
                    parent.longest = parent.longest.max(n + 1);
                }
            }
            None => {
                let done = w.line.pop().expect("a position on the line");
                w.seen.insert(done.id, done.longest);
                match w.line.last_mut() {
                    Some(parent) => parent.longest = parent.longest.max(done.longest + 1),
                    None => longest = Some(done.longest),
                }
            }
        }
    }
    Ok(Checked {
        positions: w.seen.len(),
        plies: longest.unwrap_or(0),
    })
}

struct Walker<G, C> {
    winner: Color,
    hold: bool,
    lemmas: bool,
    choose: C,
    seen: Seen,
    line: Vec<Frame<G>>,
    moves: MoveList,
}

impl<G: Game, C: FnMut(&G, &Met) -> Result<Move, ProofError>> Walker<G, C> {
    /// Enters `pos`: the longest line below it where that is known already or the position
    /// ends a line; `None` where it went onto the line, to be walked.
    fn enter(&mut self, pos: G) -> Result<Option<u32>, ProofError> {
        let id = Id::of(&pos);
        if let Some(v) = self.seen.get(&id) {
            if v != ON_LINE {
                return Ok(Some(v));
            }
            if !self.hold {
                return Err(
                    format!("{}: a line of the proof repeats this position", pos.fen()).into(),
                );
            }
            return Ok(Some(0));
        }
        pos.legal_moves(&mut self.moves);
        if self.moves.is_empty() || pos.insufficient_material() {
            self.ended(&pos)?;
            self.seen.insert(id, 0);
            return Ok(Some(0));
        }
        if self.lemmas && self.settled_by_lemma(&pos)? {
            self.seen.insert(id, 0);
            return Ok(Some(0));
        }
        let follow = if pos.side_to_move() == self.winner {
            vec![(self.choose)(&pos, &Met(&self.seen))?]
        } else {
            let mut replies: Vec<(String, Move)> =
                self.moves.iter().map(|&m| (pos.move_text(m), m)).collect();
            replies.sort_by(|a, b| a.0.cmp(&b.0));
            // Popped from the end: the last in text order at the front.
            replies.into_iter().rev().map(|(_, m)| m).collect()
        };
        self.seen.insert(id.clone(), ON_LINE);
        self.line.push(Frame {
            pos,
            id,
            follow,
            longest: 0,
        });
        Ok(None)
    }

    /// Whether the game's lemma ([`Game::lemma_value`]) ends the line here: the winner wins (a
    /// hold: the holder does not lose). An error where it says the other side wins (a win's
    /// proof: where it says anything else).
    fn settled_by_lemma(&self, pos: &G) -> Result<bool, ProofError> {
        let Some(v) = pos.lemma_value() else {
            return Ok(false);
        };
        let for_winner = if pos.side_to_move() == self.winner {
            v
        } else {
            -v
        };
        match for_winner {
            1 => Ok(true),
            0 if self.hold => Ok(true),
            0 => Err(ProofError::at(pos.fen(), "drawn by the game's lemma")),
            _ => Err(ProofError::at(
                pos.fen(),
                "won by the other side by the game's lemma",
            )),
        }
    }

    /// Checks a position where a line ends: no legal move, or drawn by insufficient material.
    fn ended(&self, pos: &G) -> Result<(), ProofError> {
        if !self.moves.is_empty() && !self.hold {
            return Err(ProofError::at(pos.fen(), "drawn by insufficient material"));
        }
        let winner_to_move = pos.side_to_move() == self.winner;
        let outcome = if self.moves.is_empty() {
            pos.terminal()
        } else {
            Terminal::Draw
        };
        let won = matches!(
            (outcome, winner_to_move),
            (Terminal::Win, true) | (Terminal::Loss, false)
        );
        let lost = matches!(
            (outcome, winner_to_move),
            (Terminal::Loss, true) | (Terminal::Win, false)
        );
        if lost {
            Err(ProofError::at(
                pos.fen(),
                "the game is over here, won by the other side",
            ))
        } else if !self.hold && !won {
            Err(ProofError::at(
                pos.fen(),
                "the game is over here but not won by the winner",
            ))
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key table keeps every key with its latest byte through its growths, and finds no key
    /// it was not given: 200,000 keys spread over the 120 bits (zero among them).
    #[test]
    fn the_key_table_keeps_every_key_with_its_byte() {
        let mut t = KeyTable::default();
        let key = |i: u128| (i * 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835) >> 8;
        for i in 0..200_000u128 {
            t.set(key(i), (i % 200) as u8);
        }
        for i in (0..200_000u128).step_by(3) {
            t.set(key(i), KeyTable::ON_LINE);
        }
        assert_eq!(t.len, 200_000);
        for i in 0..200_000u128 {
            let want = if i % 3 == 0 { 254 } else { (i % 200) as u8 };
            assert_eq!(t.get(key(i)), Some(want), "{i}");
        }
        assert_eq!(t.get(key(200_000)), None);
        assert_eq!(t.get(1), None);
    }
}
