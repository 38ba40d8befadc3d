//! The learned evaluation's mechanisms, each checked where it can break: the engine's
//! quantised output against the trainer's float forward pass, the incrementally kept
//! accumulators against a full refresh along random lines (castling both ways, en passant,
//! every promotion, captures, null moves, lines abandoned and resumed as a search does), and
//! damaged network files refused with the old network kept. The network is process-wide, so
//! these tests run one at a time in this binary of their own.

mod common;

use common::nnue::{lock, pick};
use kiebitz::game::Game;
use kiebitz::games::chess::{Chess, nnue};
use kiebitz::nnue::Layout;
use kiebitz::nnue::data::Record;
use kiebitz::nnue::train::FloatNet;
use kiebitz::rng::Rng;

/// Positions rich in special moves: castling both ways, en passant, promotions.
const FENS: [&str; 6] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
];

/// Random positions reached from the start and from [`FENS`].
fn positions(count: usize, seed: u64) -> Vec<Chess> {
    let others: Vec<Chess> = FENS.iter().map(|f| Chess::parse_fen(f).unwrap()).collect();
    common::nnue::positions(
        &Chess::parse_fen(Chess::START_FEN).unwrap(),
        &others,
        count,
        seed,
    )
}

/// A small float network trained a few epochs on hand-made evaluations.
fn trained_net() -> FloatNet {
    let records: Vec<Record> = positions(3000, 11)
        .iter()
        .map(|p| common::nnue::labelled(p, Chess::evaluate_hce(p)))
        .collect();
    common::nnue::trained_net(&records, &Layout::CHESS)
}

#[test]
fn the_engines_quantised_output_equals_the_trainers_forward_pass() {
    let _guard = lock();
    let float = trained_net();
    nnue::install(float.quantise());
    nnue::set_enabled(true);
    let mut worst = 0.0f64;
    for pos in positions(300, 5) {
        let got = nnue::evaluate_fresh(&pos).unwrap();
        worst = worst.max(common::nnue::assert_matches_trainer(&float, &pos, got));
    }
    eprintln!("largest difference engine vs trainer: {worst:.2} cp");
}

/// The random trees' null moves: none in check.
fn null_ok(pos: &Chess) -> bool {
    !pos.in_check()
}

#[test]
fn incremental_accumulators_equal_a_full_refresh_along_random_lines() {
    let _guard = lock();
    nnue::install(FloatNet::new(768, 64, 17).quantise());
    nnue::set_enabled(true);
    let mut rng = Rng::new(23);
    let mut checked = 0;
    for fen in FENS.iter().chain([&Chess::START_FEN]) {
        // Long lines: a game of random moves, each position at the next ply…
        let mut pos = Chess::parse_fen(fen).unwrap();
        for ply in 0..120 {
            assert_eq!(
                nnue::evaluate(&pos, ply).unwrap(),
                nnue::evaluate_fresh(&pos).unwrap()
            );
            match pick(&pos, &mut rng) {
                Some(mv) => pos = pos.play(mv),
                None => break,
            }
        }
        // … and trees, where slots are left over from other lines.
        let root = Chess::parse_fen(fen).unwrap();
        common::nnue::walk(&root, (0, 5), &mut rng, &mut checked, null_ok);
    }
    assert!(checked > 1000, "{checked} positions checked");
}

#[test]
fn a_damaged_network_file_is_refused_and_the_old_network_stays() {
    let _guard = lock();
    let dir = std::env::temp_dir().join(format!("kiebitz-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.nnue");
    std::fs::write(&good, FloatNet::new(768, 32, 99).quantise().to_bytes()).unwrap();
    nnue::set_enabled(true);
    let line = nnue::load(good.to_str().unwrap()).unwrap();
    assert!(line.contains("768→32"), "{line}");
    let pos = Chess::parse_fen(FENS[0]).unwrap();
    let before = Game::evaluate(&pos);
    let bytes = std::fs::read(&good).unwrap();
    let mut stranger = FloatNet::new(768, 32, 2).quantise();
    stranger.game = "antichess".into();
    let cases: [(&str, Vec<u8>); 5] = [
        ("truncated", bytes[..bytes.len() / 2].to_vec()),
        ("flipped", {
            let mut b = bytes.clone();
            b[5000] ^= 0x10;
            b
        }),
        ("empty", Vec::new()),
        ("other", FloatNet::new(640, 32, 1).quantise().to_bytes()),
        // Antichess's board is chess's: only the file's game tag tells them apart.
        ("stranger", stranger.to_bytes()),
    ];
    for (name, damaged) in cases {
        let path = dir.join(format!("{name}.nnue"));
        std::fs::write(&path, damaged).unwrap();
        let err = nnue::load(path.to_str().unwrap()).unwrap_err().to_string();
        assert!(err.contains(name) || !err.is_empty(), "{err}");
        if name == "stranger" {
            let says = "the network was trained for antichess, this engine plays chess";
            assert!(err.contains(says), "{err}");
        }
        assert_eq!(
            Game::evaluate(&pos),
            before,
            "{name}: the old network stays in use"
        );
    }
    assert!(nnue::load(dir.join("missing.nnue").to_str().unwrap()).is_err());
    nnue::set_enabled(false);
    assert_eq!(
        Game::evaluate(&pos),
        Chess::evaluate_hce(&pos),
        "Use NNUE false: the hand-made evaluation"
    );
    nnue::set_enabled(true);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The network built into the engine is the file in nets/ that its manifest describes (the
/// checksum the trainer wrote), and `EvalFile` empty goes back to it.
#[test]
fn the_built_in_network_is_the_one_its_manifest_describes() {
    let _guard = lock();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = root.join("nets/chess-3.nnue");
    let bytes = std::fs::read(&file).unwrap();
    let manifest = std::fs::read_to_string(root.join("nets/chess-3.nnue.txt")).unwrap();
    let sum = format!("fnv1a {:016x}", kiebitz::nnue::net::fnv1a(&bytes));
    assert!(manifest.contains(&sum), "the manifest names {sum}");
    nnue::set_enabled(true);
    let pos = Chess::parse_fen(FENS[1]).unwrap();
    nnue::load(file.to_str().unwrap()).unwrap();
    let from_file = Game::evaluate(&pos);
    let line = nnue::load("").unwrap();
    assert!(
        line.contains("embedded") && line.contains("768→128"),
        "{line}"
    );
    assert_eq!(Game::evaluate(&pos), from_file);
    assert_ne!(from_file, Chess::evaluate_hce(&pos), "the network answers");
}
