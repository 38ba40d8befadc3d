//! The learned evaluation of the losing family, on both boards (antichess 8×8, Räuberschach
//! 6×6), each mechanism checked where it can break: the engine's quantised output against the
//! trainer's float forward pass (and `Game::evaluate` answering with it), the incrementally
//! kept accumulators against a full refresh along random lines (en passant, promotions to
//! every piece the board allows, captures, null moves, lines abandoned and resumed as a
//! search does), and a damaged or wrong-layout network file refused with the old network kept
//! (as the process's `EvalFile` and as a session's option). Each member's network is
//! process-wide, so these tests run one at a time in this binary of their own.

mod common;

use std::sync::Arc;

use common::nnue::{lock, pick};

use kiebitz::engine_option::{GameSettings, OptionValue};
use kiebitz::game::{Dialect, Game};
use kiebitz::games::antichess::Antichess;
use kiebitz::games::losing::{Position, Variant};
use kiebitz::games::raeuber::Raeuber;
use kiebitz::nnue::data::{Pack, Record};
use kiebitz::nnue::engine::{self, NetSettings};
use kiebitz::nnue::train::FloatNet;
use kiebitz::rng::Rng;

/// Positions rich in promotions (and en passant on 8×8), by board.
const EIGHT_FENS: [&str; 3] = [
    "8/PPP5/8/3k4/8/8/5ppp/8 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w - f6 0 3",
    "1n2k3/P1P1p1P1/8/8/8/8/p1p1P1p1/1N2K3 b - - 0 1",
];
const SIX_FENS: [&str; 2] = [
    "6/PPP3/6/2k3/3ppp/6 w - - 0 1",
    "1n1k2/P1P1p1/6/6/p1p1P1/1N1K2 b - - 0 1",
];

/// A member of the family as these tests drive it.
trait Member: Variant
where
    Position<Self>: Game + Pack + engine::Evaluated + Dialect,
{
    const FENS: &'static [&'static str];
}

impl Member for kiebitz::games::losing::Eight {
    const FENS: &'static [&'static str] = &EIGHT_FENS;
}

impl Member for kiebitz::games::losing::Six {
    const FENS: &'static [&'static str] = &SIX_FENS;
}

fn fen<V: Member>(text: &str) -> Position<V>
where
    Position<V>: Game + Pack + engine::Evaluated + Dialect,
{
    Position::<V>::from_fen(V::PROFILE.variants[0], text).unwrap()
}

/// Random positions reached from the start and from the member's FENs.
fn positions<V: Member>(count: usize, seed: u64) -> Vec<Position<V>>
where
    Position<V>: Game + Pack + engine::Evaluated + Dialect,
{
    let others: Vec<Position<V>> = V::FENS.iter().map(|f| fen::<V>(f)).collect();
    common::nnue::positions(&fen::<V>(V::PROFILE.start_fen), &others, count, seed)
}

/// A small float network trained a few epochs on hand-made evaluations.
fn trained_net<V: Member>() -> FloatNet
where
    Position<V>: Game + Pack + engine::Evaluated + Dialect,
{
    let records: Vec<Record> = positions::<V>(3000, 11)
        .iter()
        .map(|p| common::nnue::labelled(p, kiebitz::games::losing::game::evaluate(p)))
        .collect();
    common::nnue::trained_net(&records, &<Position<V> as Pack>::LAYOUT)
}

fn quantised_output_equals_forward_pass<V: Member>()
where
    Position<V>: Game + Pack + engine::Evaluated + Dialect,
{
    let float = trained_net::<V>();
    engine::install::<Position<V>>(float.quantise());
    engine::set_enabled::<Position<V>>(true);
    let mut worst = 0.0f64;
    let mut differs_from_hce = 0;
    for pos in positions::<V>(300, 5) {
        let got = engine::evaluate_fresh(&pos).unwrap();
        worst = worst.max(common::nnue::assert_matches_trainer(&float, &pos, got));
        differs_from_hce += (got != kiebitz::games::losing::game::evaluate(&pos)) as u32;
    }
    assert!(
        differs_from_hce > 100,
        "the network answers, not the hand-made evaluation"
    );
    eprintln!(
        "{}: largest difference engine vs trainer: {worst:.2} cp",
        V::PROFILE.game
    );
    engine::set_enabled::<Position<V>>(false);
    let pos = fen::<V>(V::PROFILE.start_fen);
    assert_eq!(
        Game::evaluate(&pos),
        kiebitz::games::losing::game::evaluate(&pos),
        "Use NNUE false: the hand-made evaluation"
    );
    engine::set_enabled::<Position<V>>(true);
}

#[test]
fn the_engines_quantised_output_equals_the_trainers_forward_pass_on_both_boards() {
    let _guard = lock();
    quantised_output_equals_forward_pass::<kiebitz::games::losing::Eight>();
    quantised_output_equals_forward_pass::<kiebitz::games::losing::Six>();
}

fn incremental_equals_refresh<V: Member>()
where
    Position<V>: Game + Pack + engine::Evaluated + Dialect,
{
    let inputs = <Position<V> as Pack>::LAYOUT.inputs();
    engine::install::<Position<V>>(FloatNet::new(inputs, 64, 17).quantise());
    engine::set_enabled::<Position<V>>(true);
    let mut rng = Rng::new(23);
    let mut checked = 0;
    for start in V::FENS.iter().chain([&V::PROFILE.start_fen]) {
        for _ in 0..4 {
            // Long lines: a game of random moves, each position at the next ply…
            let mut pos = fen::<V>(start);
            for ply in 0..120 {
                assert_eq!(
                    engine::evaluate(&pos, ply).unwrap(),
                    engine::evaluate_fresh(&pos).unwrap(),
                    "{}",
                    pos.fen()
                );
                checked += 1;
                match pick(&pos, &mut rng) {
                    Some(mv) => pos = pos.play(mv),
                    None => break,
                }
            }
        }
        // … and trees, where slots are left over from other lines.
        common::nnue::walk(&fen::<V>(start), (0, 5), &mut rng, &mut checked, |_| true);
    }
    assert!(
        checked > 1000,
        "{}: {checked} positions checked",
        V::PROFILE.game
    );
}

#[test]
fn incremental_accumulators_equal_a_full_refresh_along_random_lines_on_both_boards() {
    let _guard = lock();
    incremental_equals_refresh::<kiebitz::games::losing::Eight>();
    incremental_equals_refresh::<kiebitz::games::losing::Six>();
}

/// Bad files for a member whose networks have `inputs` inputs: damaged ones and one of
/// `other` inputs (another board's).
/// A network of `inputs` inputs tagged with `game` (empty: the first format, untagged).
fn net_bytes(inputs: usize, seed: u64, game: &str) -> Vec<u8> {
    let mut net = FloatNet::new(inputs, 32, seed).quantise();
    net.game = game.to_string();
    net.to_bytes()
}

/// Files `game`'s engine must refuse: damaged ones, another board's shape, the right shape
/// but untagged (the first format) or tagged with another game.
fn bad_files(good: &[u8], other: usize, inputs: usize, game: &str) -> [(&'static str, Vec<u8>); 6] {
    let stranger = if game == "chess" {
        "antichess"
    } else {
        "chess"
    };
    [
        ("truncated", good[..good.len() / 2].to_vec()),
        ("flipped", {
            let mut b = good.to_vec();
            b[5000] ^= 0x10;
            b
        }),
        ("empty", Vec::new()),
        ("other", net_bytes(other, 1, game)),
        ("untagged", net_bytes(inputs, 2, "")),
        ("stranger", net_bytes(inputs, 3, stranger)),
    ]
}

fn refuses_bad_files<V: Member>(other: usize)
where
    Position<V>: Game + Pack + engine::Evaluated + Dialect,
{
    let dir = std::env::temp_dir().join(format!(
        "kiebitz-nnue-{}-{}",
        V::PROFILE.game,
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let inputs = <Position<V> as Pack>::LAYOUT.inputs();
    let good = dir.join("good.nnue");
    std::fs::write(&good, net_bytes(inputs, 99, V::PROFILE.game)).unwrap();
    engine::set_enabled::<Position<V>>(true);
    let line = engine::load::<Position<V>>(good.to_str().unwrap()).unwrap();
    assert!(line.contains(&format!("{inputs}→32")), "{line}");
    let pos = fen::<V>(V::FENS[0]);
    let before = Game::evaluate(&pos);
    assert_ne!(
        before,
        kiebitz::games::losing::game::evaluate(&pos),
        "the network answers"
    );
    let bytes = std::fs::read(&good).unwrap();
    for (name, damaged) in bad_files(&bytes, other, inputs, V::PROFILE.game) {
        let path = dir.join(format!("{name}.nnue"));
        std::fs::write(&path, damaged).unwrap();
        let err = engine::load::<Position<V>>(path.to_str().unwrap())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(path.to_str().unwrap()) || name == "empty",
            "{name}: {err}"
        );
        let says = match name {
            "other" => format!("the network has {other} inputs, this game needs {inputs}"),
            "untagged" => "the network does not say its game".to_string(),
            "stranger" => format!(
                "the network was trained for chess, this engine plays {}",
                V::PROFILE.game
            ),
            _ => String::new(),
        };
        assert!(err.contains(&says), "{name}: {err}");
        assert_eq!(
            Game::evaluate(&pos),
            before,
            "{name}: the old network stays in use"
        );
        refused_as_an_option::<V>(&path, name);
    }
    assert!(engine::load::<Position<V>>(dir.join("missing.nnue").to_str().unwrap()).is_err());
    assert_eq!(Game::evaluate(&pos), before);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A session's `EvalFile` with a bad file: an error, and the session's network unchanged.
fn refused_as_an_option<V: Member>(path: &std::path::Path, name: &str)
where
    Position<V>: Game + Pack + engine::Evaluated + Dialect,
{
    let options = <Position<V> as Dialect>::options();
    let eval_file = options
        .iter()
        .find(|o| o.name == "EvalFile")
        .expect("EvalFile");
    let mut settings: GameSettings = <Position<V> as Dialect>::settings();
    let held = settings
        .get::<NetSettings>()
        .and_then(|s| s.net.clone())
        .expect("a network");
    let value = OptionValue::Text(path.to_str().unwrap().to_string());
    let err = (eval_file.set)(&mut settings, &value).unwrap_err();
    assert!(!err.is_empty(), "{name}");
    let now = settings
        .get::<NetSettings>()
        .and_then(|s| s.net.clone())
        .expect("a network");
    assert!(
        Arc::ptr_eq(&held, &now),
        "{name}: the session keeps its network"
    );
}

#[test]
fn a_damaged_or_wrong_layout_network_file_is_refused_and_the_old_network_stays() {
    let _guard = lock();
    // Antichess (768 inputs) is given a Räuberschach network (432), and Räuberschach a chess
    // or antichess one (768); each also a network of its own shape that names no game or
    // names chess.
    refuses_bad_files::<kiebitz::games::losing::Eight>(432);
    refuses_bad_files::<kiebitz::games::losing::Six>(768);
}

/// Without a network (none is built in), `EvalFile` empty and `Use NNUE` leave the hand-made
/// evaluation, and the session's options say so.
#[test]
fn without_a_network_the_hand_made_evaluation_answers() {
    let _guard = lock();
    let options = <Raeuber as Dialect>::options();
    let mut settings = <Raeuber as Dialect>::settings();
    let eval_file = options.iter().find(|o| o.name == "EvalFile").unwrap();
    let line = (eval_file.set)(&mut settings, &OptionValue::Text(String::new())).unwrap();
    assert!(line.unwrap().contains("no network"));
    assert!(settings.get::<NetSettings>().unwrap().net.is_none());
    assert!(
        options.iter().any(|o| o.name == "ProofFiles"),
        "Räuberschach keeps its own"
    );
    assert!(
        <Antichess as Dialect>::options()
            .iter()
            .any(|o| o.name == "Use NNUE")
    );
    engine::load::<Antichess>("").unwrap();
    let pos = Antichess::startpos("antichess").unwrap();
    assert_eq!(
        Game::evaluate(&pos),
        kiebitz::games::losing::game::evaluate(&pos)
    );
}
