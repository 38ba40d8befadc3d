// The evaluation weights in use (see eval.rs). `scripts/texel-tune.sh` overwrites this file
// with tuned weights. So far the hand-made values stay: weights fitted to 176k positions from
// depth-3 self-play and to 112k positions from Stockfish self-play (1500 nodes a move) each lost
// about 60 Elo to them in 300-game fixed-depth matches (`chess-texel match 150 3 FILE`).
/// The evaluation weights the engine uses.
pub static PARAMS: Params = default_params();
