//! Texel tuning of the chess evaluation, with its own small self-play.
//!
//! - `selfplay GAMES DEPTH OUT`: plays games between two copies of a small alpha-beta search
//!   (fixed depth plus quiescence) from random openings and writes `FEN;RESULT` lines (RESULT
//!   1, 0.5 or 0 for White) for the quiet positions of each game.
//! - `tune IN EPOCHS OUT [LR] [MAX_DEV]`: fits the evaluation weights to those results (mean squared error of
//!   a logistic of the evaluation, full-batch Adam, file-symmetric piece-square tables) and
//!   writes them as `params.rs`.
//! - `match PAIRS DEPTH [PARAMS]`: the compiled weights (or those in file PARAMS) against the
//!   hand-made ones, each opening played with both colours; prints the challenger's score.
//!
//! scripts/texel-tune.sh runs the three in a row.

use kiebitz::board::{Color, Move, MoveList};
use kiebitz::game::Game;
use kiebitz::games::chess::Chess;
use kiebitz::games::chess::eval::{PARAMS, Params, S, default_params, idx};
use std::collections::HashSet;
use std::io::Write;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const MATE: i32 = 30_000;

/// A deliberately plain fixed-depth alpha-beta with quiescence, for data and matches only.
struct Mini<'a> {
    params: &'a Params,
    nodes: u64,
}

impl Mini<'_> {
    fn ordered(&self, pos: &Chess, noisy_only: bool) -> MoveList {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if noisy_only {
            moves.retain(|m| pos.is_noisy(*m) && pos.see_ge(*m, 0));
        }
        moves.sort_by_key(|&m| {
            if pos.is_noisy(m) {
                -pos.noisy_order(m) - 100_000
            } else {
                0
            }
        });
        moves
    }

    fn qsearch(&mut self, pos: &Chess, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let stand = pos.evaluate_with(self.params);
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        for m in self.ordered(pos, true) {
            let v = -self.qsearch(&pos.play(m), -beta, -alpha);
            if v >= beta {
                return v;
            }
            alpha = alpha.max(v);
        }
        alpha
    }

    fn search(&mut self, pos: &Chess, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        if depth == 0 {
            return self.qsearch(pos, alpha, beta);
        }
        self.nodes += 1;
        let moves = self.ordered(pos, false);
        if moves.is_empty() {
            return if pos.in_check() { -MATE + ply } else { 0 };
        }
        let mut best = -MATE;
        for m in moves {
            let v = -self.search(&pos.play(m), depth - 1, -beta, -alpha, ply + 1);
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The best move (ties broken at random) and its score.
    fn best(&mut self, pos: &Chess, depth: u32, rng: &mut Rng) -> (Move, i32) {
        let mut moves = self.ordered(pos, false);
        // Shuffle first so equal moves are chosen at random; the sort below is stable.
        for i in (1..moves.len()).rev() {
            moves.swap(i, rng.below(i + 1));
        }
        let mut best = (moves[0], -MATE - 1);
        for m in moves {
            let v = -self.search(&pos.play(m), depth - 1, -MATE, -best.1, 1);
            if v > best.1 {
                best = (m, v);
            }
        }
        best
    }
}

/// Plays one game; returns White's result and the quiet positions met.
fn play_game(
    white: &Params,
    black: &Params,
    depth: u32,
    opening: &[Move],
    rng: &mut Rng,
) -> (f64, Vec<String>) {
    let mut pos = Chess::startpos("chess").expect("start position");
    let mut seen = HashSet::new();
    for &m in opening {
        pos = pos.play(m);
    }
    let mut quiet = Vec::new();
    let mut moves = MoveList::new();
    for _ in 0..300 {
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            let result = match (pos.in_check(), pos.side_to_move()) {
                (false, _) => 0.5,
                (true, Color::White) => 0.0,
                (true, Color::Black) => 1.0,
            };
            return (result, quiet);
        }
        if pos.reversible_plies() >= 100 || pos.insufficient_material() || !seen.insert(pos.hash())
        {
            return (0.5, quiet);
        }
        let params = if pos.side_to_move() == Color::White {
            white
        } else {
            black
        };
        let mut mini = Mini { params, nodes: 0 };
        let (m, score) = mini.best(&pos, depth, rng);
        if score.abs() > 2000 {
            // A mate found or a decisive material lead: adjudicate.
            let white_wins = (score > 0) == (pos.side_to_move() == Color::White);
            return (if white_wins { 1.0 } else { 0.0 }, quiet);
        }
        if !pos.in_check() && !pos.is_noisy(m) {
            quiet.push(pos.fen());
        }
        pos = pos.play(m);
    }
    (0.5, quiet)
}

/// A random opening of `plies` legal moves.
fn random_opening(plies: usize, rng: &mut Rng) -> Vec<Move> {
    let mut pos = Chess::startpos("chess").expect("start position");
    let mut line = Vec::new();
    let mut moves = MoveList::new();
    for _ in 0..plies {
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        line.push(m);
        pos = pos.play(m);
    }
    line
}

fn selfplay(games: usize, depth: u32, out: &str) {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let file = std::sync::Mutex::new(std::fs::File::create(out).expect("output file"));
    let done = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for t in 0..threads {
            let (file, done) = (&file, &done);
            s.spawn(move || {
                let mut rng = Rng(0x5EED_0000_0000_0001 + t as u64 * 0x9E37_79B9);
                let defaults = default_params();
                loop {
                    let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if n >= games {
                        break;
                    }
                    let opening = random_opening(8 + rng.below(4), &mut rng);
                    let (result, fens) = play_game(&defaults, &defaults, depth, &opening, &mut rng);
                    let mut f = file.lock().expect("file lock");
                    for fen in fens {
                        writeln!(f, "{fen};{result}").expect("write");
                    }
                    if n % 100 == 0 {
                        eprintln!("game {n}");
                    }
                }
            });
        }
    });
}

struct Sample {
    terms: Vec<(u16, i16)>,
    phase: f64,
    scale: f64,
    result: f64,
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

fn eval_sample(w: &[f64], s: &Sample) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, n) in &s.terms {
        mg += w[2 * i as usize] * n as f64;
        eg += w[2 * i as usize + 1] * n as f64;
    }
    (mg * s.phase + eg * (24.0 - s.phase)) / 24.0 * s.scale
}

fn error(w: &[f64], k: f64, samples: &[Sample]) -> f64 {
    samples
        .iter()
        .map(|s| (s.result - sigmoid(k, eval_sample(w, s))).powi(2))
        .sum::<f64>()
        / samples.len() as f64
}

/// Reads weights written by `tune` (a `params.rs` file).
fn read_params(path: &str) -> Params {
    let text = std::fs::read_to_string(path).expect("params file");
    let body = &text[text.find('[').expect("a table") + 1..];
    let mut params = [S(0, 0); idx::COUNT];
    let mut n = 0;
    for chunk in body.split("S(").skip(1) {
        let inner = &chunk[..chunk.find(')').expect("S(mg, eg)")];
        let (mg, eg) = inner.split_once(',').expect("S(mg, eg)");
        params[n] = S(
            mg.trim().parse().expect("mg"),
            eg.trim().parse().expect("eg"),
        );
        n += 1;
    }
    assert_eq!(n, idx::COUNT, "{path} has {n} weights");
    params
}

/// Fits the weights: full-batch Adam with step `lr`, each weight kept within `max_dev`
/// centipawns of its hand-made value (the data is too thin to move rare squares further).
fn tune(input: &str, epochs: usize, out: &str, lr: f64, max_dev: f64) {
    let text = std::fs::read_to_string(input).expect("tuning data");
    let samples: Vec<Sample> = text
        .lines()
        .filter_map(|l| {
            let (fen, r) = l.rsplit_once(';')?;
            let pos = Chess::from_fen("chess", fen).ok()?;
            let white = pos.evaluate()
                * if pos.side_to_move() == Color::White {
                    1
                } else {
                    -1
                };
            let f = pos.features(white > 0);
            Some(Sample {
                terms: f.terms,
                phase: f.phase as f64,
                scale: f.scale as f64 / 8.0,
                result: r.parse().ok()?,
            })
        })
        .collect();
    eprintln!("{} positions", samples.len());
    let mut w: Vec<f64> = PARAMS
        .iter()
        .flat_map(|s| [s.0 as f64, s.1 as f64])
        .collect();
    // The scaling constant K that fits the current weights best.
    let mut k = 1.0;
    let mut best = error(&w, k, &samples);
    for step in [0.5, 0.1, 0.02] {
        loop {
            let up = error(&w, k + step, &samples);
            let down = error(&w, k - step, &samples);
            if up < best {
                (k, best) = (k + step, up);
            } else if down < best {
                (k, best) = (k - step, down);
            } else {
                break;
            }
        }
    }
    eprintln!("K = {k:.2}, error {best:.6}");
    let n = w.len();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2) = (0.9f64, 0.999f64);
    let w0 = w.clone();
    let c = k * std::f64::consts::LN_10 / 400.0;
    for epoch in 1..=epochs {
        let mut grad = vec![0.0; n];
        for s in &samples {
            let p = sigmoid(k, eval_sample(&w, s));
            let d = (p - s.result) * p * (1.0 - p) * c * s.scale;
            let gm = d * s.phase / 24.0;
            let ge = d * (24.0 - s.phase) / 24.0;
            for &(i, cnt) in &s.terms {
                grad[2 * i as usize] += gm * cnt as f64;
                grad[2 * i as usize + 1] += ge * cnt as f64;
            }
        }
        // Tie each piece-square entry to its mirror across the d/e line.
        for kind in 0..6 {
            for sq in 0..64 {
                if sq & 7 < 4 {
                    for part in 0..2 {
                        let a = 2 * (idx::PST + kind * 64 + sq) + part;
                        let b = 2 * (idx::PST + kind * 64 + (sq ^ 7)) + part;
                        let g = (grad[a] + grad[b]) / 2.0;
                        grad[a] = g;
                        grad[b] = g;
                    }
                }
            }
        }
        for i in 0..n {
            let g = grad[i] * 2.0 / samples.len() as f64;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            w[i] -= lr * mh / (vh.sqrt() + 1e-8);
            w[i] = w[i].clamp(w0[i] - max_dev, w0[i] + max_dev);
        }
        if epoch % 50 == 0 || epoch == epochs {
            eprintln!("epoch {epoch}: error {:.6}", error(&w, k, &samples));
        }
    }
    let mut text = String::from(
        "// The evaluation weights in use (see eval.rs), Texel-tuned from self-play by\n\
         // examples/chess-texel.rs (scripts/texel-tune.sh writes this file).\n\
         /// The evaluation weights the engine uses.\n\
         #[rustfmt::skip]\n\
         pub static PARAMS: Params = [\n",
    );
    for i in 0..idx::COUNT {
        let (mg, eg) = (w[2 * i].round() as i32, w[2 * i + 1].round() as i32);
        text.push_str(&format!("    S({mg}, {eg}),"));
        text.push(if i % 8 == 7 || i >= idx::BISHOP_PAIR {
            '\n'
        } else {
            ' '
        });
    }
    text.push_str("];\n");
    std::fs::write(out, text).expect("write params");
}

fn play_match(pairs: usize, depth: u32, challenger: Option<&str>) {
    let defaults = default_params();
    let tuned = challenger.map_or(PARAMS, read_params);
    let mut rng = Rng(0xA11C_E5EE_D000_0003);
    let mut score = 0.0;
    let mut games = 0;
    let mut results = Vec::new();
    for pair in 0..pairs {
        let opening = random_opening(8, &mut rng);
        let (r1, _) = play_game(&tuned, &defaults, depth, &opening, &mut rng);
        let (r2, _) = play_game(&defaults, &tuned, depth, &opening, &mut rng);
        score += r1 + (1.0 - r2);
        results.extend([r1, 1.0 - r2]);
        games += 2;
        if pair % 10 == 9 {
            eprintln!("{games} games: {score}");
        }
    }
    let p = score / games as f64;
    let elo = |p: f64| -400.0 * (1.0 / p.clamp(0.001, 0.999) - 1.0).log10();
    let var = results.iter().map(|r| (r - p).powi(2)).sum::<f64>() / games as f64;
    let margin = 1.96 * (var / games as f64).sqrt();
    println!(
        "challenger vs hand-made weights: {score}/{games} ({:.1}%, {:+.0} Elo, 95% {:+.0} .. {:+.0})",
        100.0 * p,
        elo(p),
        elo(p - margin),
        elo(p + margin)
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.into());
    match args.first().map(String::as_str) {
        Some("selfplay") => selfplay(
            arg(1, "2000").parse().expect("games"),
            arg(2, "2").parse().expect("depth"),
            &arg(3, "texel.txt"),
        ),
        Some("tune") => tune(
            &arg(1, "texel.txt"),
            arg(2, "500").parse().expect("epochs"),
            &arg(3, "params.rs"),
            arg(4, "0.5").parse().expect("learning rate"),
            arg(5, "50").parse().expect("max deviation"),
        ),
        Some("match") => play_match(
            arg(1, "50").parse().expect("pairs"),
            arg(2, "3").parse().expect("depth"),
            args.get(3).map(String::as_str),
        ),
        _ => {
            eprintln!(
                "usage: chess-texel selfplay GAMES DEPTH OUT | tune IN EPOCHS OUT [LR] [MAX_DEV] | match PAIRS DEPTH [PARAMS]"
            );
            std::process::exit(2);
        }
    }
}
