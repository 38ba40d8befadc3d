// The evaluation weights in use (see eval.rs): the hand-made values until tuned ones replace
// them (scripts/texel-tune.sh writes this file).
/// The evaluation weights the engine uses.
pub static PARAMS: Params = default_params();
