//! CRASH! on the web page ([`crate::games::page::Page`]): a row of towers as its board, the
//! 1-based cells as a move's squares, the heuristic and the optimal player, and the solved
//! value of a position from its database: one loaded from a file at start-up
//! ([`crate::games::page::LoadedDb`], `--crash-db`), else the board's database solved on
//! demand and kept.
//!
//! Depends on `board`, `game`, `search` (scores), `games::crash::analysis::db` and `games::page`.

use std::any::Any;
use std::sync::Arc;

use serde_json::{Value, json};

use super::Crash;
use crate::board::{Color, Move};
use crate::game::Game;
use crate::games::crash::analysis::db::{Db, Layout};
use crate::games::page::{
    self, Choice, EngineAnswer, OptimalJob, SolveJob, Solvers, score_json, solved_json, white_view,
};
use crate::search::Score;

/// The largest CRASH! database the optimal player solves on demand (about two seconds on a
/// loaded 2-core machine); it is kept for later moves ([`MAX_OPTIMAL_DBS`] of them).
/// Databases loaded from files at start-up ([`Solvers::crash_dbs`]) have no such cap.
pub const MAX_OPTIMAL_POSITIONS: u64 = 300_000;
/// CRASH! databases kept in memory at once (the oldest goes first).
pub const MAX_OPTIMAL_DBS: usize = 4;

/// CRASH! as the page shows it.
pub struct OnPage;

impl page::Page for OnPage {
    fn id(&self) -> &'static str {
        Crash::GAME
    }
    fn title(&self) -> &'static str {
        "CRASH!"
    }
    fn about(&self) -> &'static str {
        "Towers of stones on a row: move a tower, crush what it lands on."
    }
    fn rules(&self) -> &'static str {
        include_str!("rules.md")
    }
    fn searches(&self) -> Vec<&'static str> {
        vec!["heuristic", "optimal"]
    }
    fn choice(&self, name: &str) -> Result<Choice, crate::Error> {
        match name {
            "alphabeta" | "heuristic" => Ok(Choice::Default),
            "optimal" => Ok(Choice::Optimal),
            _ => Err(crate::Error::Setting(page::unknown_search(self, name))),
        }
    }
    fn board(&self, fen: &str) -> Value {
        row_board(fen)
    }
    fn squares(&self, mv: Move, _text: &str) -> (String, String, Option<String>) {
        (
            (mv.from().index() + 1).to_string(),
            (mv.to().index() + 1).to_string(),
            None,
        )
    }
    fn solve_job(
        &self,
        pos: &dyn Any,
        _fen: &str,
        _history: &[u64],
        solvers: &Solvers,
    ) -> Option<(String, SolveJob)> {
        let p = pos.downcast_ref::<Crash>()?.clone();
        let solvers = solvers.clone();
        Some((String::new(), Box::new(move |_| crash_solved(&p, &solvers))))
    }
    fn optimal_job(&self, pos: &dyn Any, solvers: &Solvers) -> Option<OptimalJob> {
        let p = pos.downcast_ref::<Crash>()?.clone();
        let solvers = solvers.clone();
        Some(Box::new(move || crash_optimal(&p, &solvers)))
    }
}

/// CRASH!'s row of towers for the page: heights, White positive.
fn row_board(fen: &str) -> Value {
    let placement = fen.split_whitespace().next().unwrap_or("");
    let mut cells: Vec<i64> = Vec::new();
    let mut chars = placement.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            'W' | 'B' => {
                let mut n = 0i64;
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    n = n.saturating_mul(10).saturating_add(d as i64);
                    chars.next();
                }
                cells.push(if c == 'W' { n } else { -n });
            }
            _ => cells.push(0),
        }
    }
    json!({ "kind": "row", "cells": cells })
}

/// The solved database for (n stones a side, m cells), from the cache or solved now.
fn crash_db(n: usize, m: usize) -> Result<Arc<Db>, String> {
    type Cache = Vec<((usize, usize), Arc<Db>)>;
    static CACHE: std::sync::Mutex<Cache> = std::sync::Mutex::new(Vec::new());
    let layout = Layout::new(n, m)?;
    if layout.total > MAX_OPTIMAL_POSITIONS {
        return Err(format!(
            "the database for {n} stones a side on {m} cells has {} positions, more than the \
             {MAX_OPTIMAL_POSITIONS} solved on demand",
            layout.total
        ));
    }
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, db)) = cache.iter().find(|(k, _)| *k == (n, m)) {
        return Ok(Arc::clone(db));
    }
    let db = Arc::new(Db::solve(n, m, &mut |_, _| {})?);
    if cache.len() >= MAX_OPTIMAL_DBS {
        cache.remove(0);
    }
    cache.push(((n, m), Arc::clone(&db)));
    Ok(db)
}

/// The database for `pos` and where it comes from: the first database loaded from a file
/// that covers it, else the board's database solved on demand ([`crash_db`]).
fn crash_db_for(pos: &Crash, solvers: &Solvers) -> Result<(Arc<Db>, String), String> {
    if let Some(l) = solvers.crash_dbs.iter().find(|l| l.db.layout.covers(pos)) {
        let (n, m) = (l.db.layout.n, l.db.layout.m);
        let source = format!("database {} ({n} stones a side on {m} cells)", l.path);
        return Ok((Arc::clone(&l.db), source));
    }
    let n = pos.stones(Color::White).max(pos.stones(Color::Black)) as usize;
    let m = pos.cells();
    let source = format!("database of {n} stones a side on {m} cells, solved here");
    crash_db(n, m).map(|db| (db, source))
}

/// CRASH!'s optimal move in `pos` from its database, with the distance to the end.
pub fn crash_optimal(pos: &Crash, solvers: &Solvers) -> Result<EngineAnswer, String> {
    let (db, source) = crash_db_for(pos, solvers)?;
    let (moves, d) = db
        .best_moves(pos)
        .ok_or("the position lies outside its database")?;
    let mv = *moves.first().ok_or("no optimal move")?;
    let line = db.line(pos).unwrap_or_default();
    let line = &line[..line.len().min(24)];
    let pv: Vec<String> = line.iter().map(|(p, m)| p.move_text(*m)).collect();
    let pv_san: Vec<String> = line.iter().map(|(p, m)| p.san(*m)).collect();
    let score = Score::from_value(crate::games::crash::analysis::db::score(d));
    Ok(EngineAnswer {
        mv: pos.move_text(mv),
        info: json!({
            "depth": d,
            "score": score_json(score),
            "white": score_json(white_view(score, pos.side_to_move())),
            "exact": true,
            "nodes": 0,
            "nps": 0,
            "pv": pv,
            "pv_san": pv_san,
            "search": "optimal",
            "optimal": true,
            "solved": { "value": if d % 2 == 1 { "win" } else { "loss" }, "plies": d },
            "source": source,
        }),
    })
}

/// CRASH! solved from its database: one loaded from a file, else solved on demand and kept,
/// as for the optimal player.
pub fn crash_solved(pos: &Crash, solvers: &Solvers) -> Value {
    let (db, source) = match crash_db_for(pos, solvers) {
        Ok(found) => found,
        Err(why) => return json!({ "unknown": why }),
    };
    match db.distance(pos) {
        Some(d) => {
            let value = if d % 2 == 1 { 1 } else { -1 };
            solved_json(value, Some(i32::from(d)), pos.side_to_move(), &source)
        }
        None => json!({ "unknown": "the position lies outside its database" }),
    }
}
