//! Tunes the Räuberschach evaluation (kiebitz::games::raeuber::tune) on match PGNs, or with
//! `--game antichess` antichess's weights of the same terms on antichess PGNs.
//!
//! `raeuber-tune [--game G] [--epochs N] [--lr X] [--lambda X] [--skip PLIES] [--quiet]
//! [--freeze a,b] PGN…`:
//! every position after the first PLIES (default 4) of each finished game (with `--quiet` only
//! those where the side to move need not capture), labelled with the
//! game's result; a position met twice is kept once; every tenth game held out. Fits K to the
//! engine's weights, then every weight not frozen by Adam; prints the training and held-out
//! errors before and after, and the weights as a `KIEBITZ_RAEUBER_EVAL=…` line on stdout
//! (for antichess an `antichess weights: …` line of the same `name=value` pairs).

use kiebitz::game::Game;
use kiebitz::games::antichess::{Antichess, eval as anti_eval};
use kiebitz::games::raeuber::Raeuber;
use kiebitz::games::raeuber::eval::{self as raeuber_eval, Weights};
use kiebitz::games::raeuber::tune::{self, TUNABLE};
use kiebitz::texel::{self, Fit, Linear};
use std::collections::HashSet;

struct Args {
    game: String,
    fit: Fit,
    skip: usize,
    quiet: bool,
    pgns: Vec<String>,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        game: "raeuberschach".into(),
        fit: Fit {
            epochs: 2000,
            lr: 2.0,
            lambda: 0.0,
            report: 200,
            frozen: vec![false; TUNABLE.len()],
        },
        skip: 4,
        quiet: false,
        pgns: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        let num = |v: &String| v.parse::<f64>().map_err(|e| format!("{arg} {v}: {e}"));
        match arg.as_str() {
            "--game" => a.game = value()?.clone(),
            "--epochs" => a.fit.epochs = num(value()?)? as usize,
            "--lr" => a.fit.lr = num(value()?)?,
            "--lambda" => a.fit.lambda = num(value()?)?,
            "--skip" => a.skip = num(value()?)? as usize,
            "--quiet" => a.quiet = true,
            "--freeze" => {
                for name in value()?.split(',') {
                    let i = TUNABLE
                        .iter()
                        .position(|(n, _)| *n == name)
                        .ok_or(format!("--freeze: unknown weight '{name}'"))?;
                    a.fit.frozen[i] = true;
                }
            }
            _ => a.pgns.push(arg.clone()),
        }
    }
    if a.pgns.is_empty() {
        return Err(
            "usage: raeuber-tune [--game raeuberschach|antichess] [--epochs N] [--lr X] [--lambda X] [--skip PLIES] \
                    [--quiet] [--freeze a,b] PGN…"
                .into(),
        );
    }
    Ok(a)
}

/// Training and held-out samples of the games of `variant` in `pgns`, traced with `eval` at
/// weights `base`.
fn samples<G: Game>(
    a: &Args,
    base: &Weights,
    eval: fn(&G, &Weights) -> i32,
) -> Result<(Vec<Linear>, Vec<Linear>), String> {
    let (pgns, skip, quiet, variant) = (&a.pgns, a.skip, a.quiet, a.game.as_str());
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let (mut games, mut seen) = (0, HashSet::new());
    for path in pgns {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let positions =
            texel::labelled_positions::<G>(&text, variant, games, skip, |p| !quiet || !p.forcing())
                .map_err(|e| format!("{path}: {e}"))?;
        games += kiebitz::pgn::parse(&text)?.len();
        for p in positions {
            let key: String = p.fen.split(' ').take(2).collect::<Vec<_>>().join(" ");
            if seen.insert(key) {
                let s = tune::sample_of(variant, &p.fen, p.result, base, eval)?;
                if p.game % 10 == 0 {
                    &mut held
                } else {
                    &mut train
                }
                .push(s);
            }
        }
    }
    eprintln!(
        "{games} games: {} training and {} held-out positions",
        train.len(),
        held.len()
    );
    Ok((train, held))
}

fn run(args: &[String]) -> Result<(), String> {
    let a = parse(args)?;
    let (base, (train, held)) = match a.game.as_str() {
        "raeuberschach" => (
            raeuber_eval::WEIGHTS,
            samples::<Raeuber>(&a, &raeuber_eval::WEIGHTS, raeuber_eval::evaluate_with)?,
        ),
        "antichess" => (
            anti_eval::WEIGHTS,
            samples::<Antichess>(&a, &anti_eval::WEIGHTS, raeuber_eval::evaluate_with)?,
        ),
        other => return Err(format!("--game {other}: raeuberschach or antichess")),
    };
    let w0 = tune::flatten(&base);
    let k = texel::fit_k(|k| texel::error(&w0, k, &train));
    eprintln!(
        "K {k:.3}: error before, training {:.6}, held out {:.6}",
        texel::error(&w0, k, &train),
        texel::error(&w0, k, &held)
    );
    let w = texel::fit(&w0, k, &train, &held, &a.fit, |e, t, h| {
        eprintln!("epoch {e}: training {t:.6}, held out {h:.6}");
    });
    for ((name, _), (before, after)) in TUNABLE.iter().zip(w0.iter().zip(&w)) {
        eprintln!("{name:>22} {before:>7.0} -> {after:>7.0}");
    }
    match a.game.as_str() {
        "antichess" => println!("antichess weights: {}", tune::overrides(&w)),
        _ => println!("KIEBITZ_RAEUBER_EVAL={}", tune::overrides(&w)),
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(&args) {
        eprintln!("raeuber-tune: {e}");
        std::process::exit(1);
    }
}
