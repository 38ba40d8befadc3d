//! Tunes the Räuberschach evaluation (kiebitz::games::raeuber::tune) on match PGNs.
//!
//! `raeuber-tune [--epochs N] [--lr X] [--lambda X] [--skip PLIES] [--quiet] [--freeze a,b] PGN…`:
//! every position after the first PLIES (default 4) of each finished game (with `--quiet` only
//! those where the side to move need not capture), labelled with the
//! game's result; a position met twice is kept once; every tenth game held out. Fits K to the
//! engine's weights, then every weight not frozen by Adam; prints the training and held-out
//! errors before and after, and the weights as a `KIEBITZ_RAEUBER_EVAL=…` line on stdout.

use kiebitz::game::Game;
use kiebitz::games::raeuber::Raeuber;
use kiebitz::games::raeuber::eval::WEIGHTS;
use kiebitz::games::raeuber::tune::{self, TUNABLE};
use kiebitz::texel::{self, Fit, Linear};
use std::collections::HashSet;

struct Args {
    fit: Fit,
    skip: usize,
    quiet: bool,
    pgns: Vec<String>,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
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
            "usage: raeuber-tune [--epochs N] [--lr X] [--lambda X] [--skip PLIES] \
                    [--quiet] [--freeze a,b] PGN…"
                .into(),
        );
    }
    Ok(a)
}

/// Training and held-out samples of the games in `pgns`.
fn samples(
    pgns: &[String],
    skip: usize,
    quiet: bool,
) -> Result<(Vec<Linear>, Vec<Linear>), String> {
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let (mut games, mut seen) = (0, HashSet::new());
    for path in pgns {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let positions =
            texel::labelled_positions::<Raeuber>(&text, "raeuberschach", games, skip, |p| {
                !quiet || !p.forcing()
            })
            .map_err(|e| format!("{path}: {e}"))?;
        games += kiebitz::pgn::parse(&text)?.len();
        for p in positions {
            let key: String = p.fen.split(' ').take(2).collect::<Vec<_>>().join(" ");
            if seen.insert(key) {
                let s = tune::sample(&p.fen, p.result, &WEIGHTS)?;
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
    let (train, held) = samples(&a.pgns, a.skip, a.quiet)?;
    let w0 = tune::flatten(&WEIGHTS);
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
    println!("KIEBITZ_RAEUBER_EVAL={}", tune::overrides(&w));
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(&args) {
        eprintln!("raeuber-tune: {e}");
        std::process::exit(1);
    }
}
