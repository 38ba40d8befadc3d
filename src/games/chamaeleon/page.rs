//! Chamäleon Schach on the web page ([`crate::games::page::Page`]): its board with the
//! square colours and the playing area, the N-player searches by name, and why a game ends
//! in a draw, and a player put out on time ([`without_seat`]).
//!
//! Depends on `nsearch` (the algorithms' names), `games::page` and its own rules.

use std::any::Any;

use serde_json::{Value, json};

use super::{Chamaeleon, MAX_TURNS, rules};
use crate::games::page::{self, Choice};
use crate::nsearch::{Algorithm, NGame};

/// Chamäleon Schach as the page shows it.
pub struct OnPage;

impl page::Page for OnPage {
    fn id(&self) -> &'static str {
        Chamaeleon::GAME
    }
    fn title(&self) -> &'static str {
        "Chamäleon Schach"
    }
    fn short(&self) -> &'static str {
        "Chamäleon"
    }
    fn about(&self) -> &'static str {
        "Two to four players; a piece moves by the colour of its square."
    }
    fn rules(&self) -> &'static str {
        include_str!("rules.md")
    }
    fn searches(&self) -> Vec<&'static str> {
        Algorithm::ALL.iter().map(|a| a.name()).collect()
    }
    fn choice(&self, name: &str) -> Result<Choice, crate::Error> {
        Algorithm::parse(name).map(Choice::NPlayer)
    }
    fn board_of_position(&self, pos: &dyn Any, text: &str) -> Value {
        match pos.downcast_ref::<Chamaeleon>() {
            Some(p) => board(p),
            None => page::Page::board(self, text),
        }
    }
    fn without_seat(&self, pos: &dyn Any, seat: usize) -> Option<Box<dyn Any>> {
        let p = pos.downcast_ref::<Chamaeleon>()?;
        Some(Box::new(without_seat(p, seat)))
    }
    fn variant_title(&self, variant: &str) -> String {
        let players = variant.trim_start_matches(|c: char| !c.is_ascii_digit());
        format!("{players} players")
    }
    fn draw_reason(&self) -> String {
        format!("the turn limit of {MAX_TURNS} turns: the players still in the game share the draw")
    }
}

/// `pos` with `seat` out of the game (its flag fell): its pieces leave the board as if all
/// were captured, so that the rules' "a player without pieces is out" holds for it; the area
/// shrinks as after a move, and the turn passes on if it was that seat's.
fn without_seat(pos: &Chamaeleon, seat: usize) -> Chamaeleon {
    let mut next = pos.clone();
    let mut occ = next.occ.get(seat).copied().unwrap_or(0);
    while occ != 0 {
        next.remove(occ.trailing_zeros() as usize);
        occ &= occ - 1;
    }
    rules::shrink(&mut next);
    if next.to_move() == seat {
        let after = next.next_seat(seat);
        next.set_to_move(after);
    }
    next
}

/// A Chamäleon board for the page: rows top first (`sR` = South's red piece), the square
/// colours (0 red, 1 yellow, 2 green, 3 blue) and the playing area.
fn board(pos: &Chamaeleon) -> Value {
    let text = pos.text();
    // A Chamäleon rank names a piece by two letters (seat, piece).
    let rows: Vec<Vec<String>> = text
        .split_whitespace()
        .next()
        .unwrap_or("")
        .split('/')
        .map(|rank| {
            let mut row = Vec::new();
            let mut chars = rank.chars();
            while let Some(c) = chars.next() {
                match c.to_digit(10) {
                    Some(d) => row.extend((0..d).map(|_| String::new())),
                    None => row.push(format!("{c}{}", chars.next().unwrap_or('?'))),
                }
            }
            row
        })
        .collect();
    let colours: Vec<Vec<usize>> = (0..8)
        .rev()
        .map(|y| (0..8).map(|x| rules::colour(x, y)).collect())
        .collect();
    let a = pos.area();
    json!({ "kind": "chamaeleon", "width": 8, "height": 8, "rows": rows,
            "colours": colours, "area": [a.x0, a.y0, a.x1, a.y1] })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_out_on_time_leaves_the_board_and_the_turn_passes_on() {
        let start = Chamaeleon::startpos(4).unwrap();
        let west = 1;
        let after = without_seat(&start.with_to_move(west), west);
        assert!(!after.in_game(west) && after.plays(west));
        assert_eq!(after.to_move(), 2, "North moves next");
        assert_eq!(after.alive().count(), 3);
        assert!(after.outcome().is_none(), "the other three play on");
        assert_eq!(after.all() & start.occ[west], 0, "{}", after.text());
        let two = Chamaeleon::startpos(2).unwrap();
        let left = without_seat(&two, 0);
        assert_eq!(
            left.outcome().map(|r| r[2]),
            Some(crate::nsearch::SeatResult::Win),
            "North is the last one left"
        );
    }
}
