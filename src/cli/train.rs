//! The `train` subcommand: fits a network to `datagen`'s records ([`crate::nnue::train`]) and
//! writes the quantised file, with a manifest beside it (`NET.txt`: the command, the data,
//! the losses by epoch, the trainer's throughput) saying how it was made.

use std::io::Write;
use std::path::Path;

use clap::Parser;

use crate::game::Game;
use crate::nnue::data::{Pack, decode};
use crate::nnue::net::Network;
use crate::nnue::train::{Config, EpochReport, FloatNet, train};

#[derive(Parser, Debug)]
#[command(about = "Train a network on datagen's records and write it quantised")]
struct Args {
    /// Record files (datagen's output).
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    data: Vec<String>,
    /// The network file to write (a manifest goes to FILE.txt).
    #[arg(long, value_name = "FILE")]
    out: String,
    /// Neurons of the hidden layer (a multiple of 16).
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u32).range(16..=2048))]
    hidden: u32,
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    epochs: u32,
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u32).range(1..))]
    batch: u32,
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// The step size is multiplied by this every --lr-step epochs.
    #[arg(long, default_value_t = 0.3)]
    lr_drop: f32,
    #[arg(long, default_value_t = 8)]
    lr_step: u32,
    /// λ, the weight of the game's result in the target (0: the search's score alone).
    #[arg(long, default_value_t = 0.3)]
    wdl: f32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// The share of the records held out for the validation loss.
    #[arg(long, default_value_t = 0.02)]
    validation: f64,
    /// Show each record mirrored left to right half of the time (doubles the positions seen).
    #[arg(long)]
    mirror: bool,
    /// Use at most this many records (the first of the files, in order).
    #[arg(long)]
    limit: Option<usize>,
    /// Start from this network file (fine-tuning: e.g. the built-in net on new games, at a
    /// smaller --lr) instead of random weights; --hidden must be its size.
    #[arg(long, value_name = "NET")]
    init: Option<String>,
}

/// `kiebitz-GAME train …` with the arguments after `train`; the exit code.
pub fn main<G: Game + Pack>(args: &[String]) -> i32 {
    let name = format!("kiebitz-{} train", G::GAME);
    super::run_subcommand(&name, args, |parsed: &Args| run::<G>(parsed, args))
}

/// The largest record file `train` reads (16 GiB: 500 million records, more than this
/// machine's memory holds as floats).
const MAX_DATA_BYTES: u64 = 16 << 30;

/// Checks the numeric flags: each finite and in its range, with the flag named.
fn check_numbers(args: &Args) -> Result<(), String> {
    if !(args.hidden as usize).is_multiple_of(crate::nnue::net::HIDDEN_STEP) {
        return Err(format!("--hidden {} is not a multiple of 16", args.hidden));
    }
    let above_zero = |what: &str, v: f32| {
        (v.is_finite() && v > 0.0 && v <= 1.0)
            .then_some(())
            .ok_or_else(|| format!("{what} must be a number above 0 and at most 1, not {v}"))
    };
    above_zero("--lr", args.lr)?;
    above_zero("--lr-drop", args.lr_drop)?;
    crate::limits::number("--wdl", args.wdl, 0.0..=1.0)?;
    crate::limits::number("--validation", args.validation, 0.0..=0.49)?;
    Ok(())
}

/// The records of `--data`, each file checked against the game's layout; the files' names
/// with their counts.
fn read_records<G: Pack>(
    paths: &[String],
) -> Result<(Vec<crate::nnue::data::Record>, Vec<String>), String> {
    let mut records = Vec::new();
    let mut sources = Vec::new();
    for path in paths {
        let bytes = crate::files::read(Path::new(path), MAX_DATA_BYTES)?;
        let read = decode(&bytes, &G::LAYOUT).map_err(|e| format!("{path}: {e}"))?;
        sources.push(format!("{path} ({} records)", read.len()));
        records.extend(read);
    }
    Ok((records, sources))
}

fn run<G: Game + Pack>(args: &Args, argv: &[String]) -> Result<(), crate::CliError> {
    check_numbers(args)?;
    let (mut records, sources) = read_records::<G>(&args.data)?;
    if let Some(limit) = args.limit {
        records.truncate(limit);
    }
    if records.len() < 100 {
        return Err(format!("{} records: too few to train on", records.len()).into());
    }
    let init = match &args.init {
        Some(path) => Some(initial_network::<G>(path, args.hidden as usize)?),
        None => None,
    };
    let cfg = Config {
        hidden: args.hidden as usize,
        epochs: args.epochs,
        batch: args.batch as usize,
        lr: args.lr,
        lr_drop: args.lr_drop,
        lr_step: args.lr_step,
        wdl: args.wdl,
        seed: args.seed,
        threads: args.threads as usize,
        validation: args.validation,
        mirror: args.mirror,
        init,
    };
    eprintln!(
        "train: {} records from {}",
        records.len(),
        sources.join(", ")
    );
    let mut lines = vec![
        format!("kiebitz-{} train {}", G::GAME, argv.join(" ")),
        format!("data: {}", sources.join(", ")),
        format!("records used: {}", records.len()),
    ];
    let out = &args.out;
    let write = |bytes: &[u8]| {
        crate::files::write_whole(Path::new(out), |f| f.write_all(bytes))
            .map_err(|e| format!("{out}: {e}"))
    };
    let net = train(&records, &G::LAYOUT, &cfg, |r: &EpochReport, net| {
        let line = format!(
            "epoch {:>3}: train loss {:.6}, validation loss {:.6}, {:.0} positions/s, lr {:.2e}",
            r.epoch, r.train_loss, r.validation_loss, r.positions_per_second, r.lr
        );
        eprintln!("{line}");
        lines.push(line);
        // Each epoch's network is written, so that a long run stopped early leaves one.
        if let Err(e) = write(&tagged::<G>(net.quantise()).to_bytes()) {
            eprintln!("warning: {e}");
        }
    })?;
    let bytes = tagged::<G>(net.quantise()).to_bytes();
    write(&bytes)?;
    lines.push(format!(
        "network: {out}, {} bytes, fnv1a {:016x}",
        bytes.len(),
        crate::nnue::net::fnv1a(&bytes)
    ));
    let manifest = format!("{out}.txt");
    crate::files::write_whole(Path::new(&manifest), |f| {
        writeln!(f, "{}", lines.join("\n"))
    })
    .map_err(|e| format!("{manifest}: {e}"))?;
    crate::limits::out(format_args!(
        "{out}: {} bytes ({} hidden), manifest {manifest}",
        bytes.len(),
        args.hidden
    ))
}

/// The network file `path` as the trainer's start, if it fits the game and `hidden`.
/// The network tagged with the game it was trained for, which its file then records.
fn tagged<G: Game>(mut net: Network) -> Network {
    net.game = G::GAME.to_string();
    net
}

fn initial_network<G: Game + Pack>(path: &str, hidden: usize) -> Result<FloatNet, String> {
    let bytes = crate::files::read(Path::new(path), crate::nnue::net::MAX_FILE_BYTES)
        .map_err(|e| format!("--init {e}"))?;
    let net = Network::from_bytes(&bytes, G::LAYOUT.inputs())
        .map_err(|e| format!("--init {path}: {e}"))?;
    if !net.game.is_empty() && net.game != G::GAME {
        return Err(format!(
            "--init {path} was trained for {}, not {}",
            net.game,
            G::GAME
        ));
    }
    if net.hidden != hidden {
        return Err(format!(
            "--init {path} has {} hidden neurons, --hidden says {hidden}",
            net.hidden
        ));
    }
    Ok(FloatNet::from_network(&net))
}
