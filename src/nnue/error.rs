//! The typed error of the networks and their training records: a network file or a record
//! that is not what this build and game read, and a training run that diverged. Its `Display`
//! is the sentence the engines, `train` and `datagen` have always shown.

/// Why a network, a training record or a training run was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NetError {
    /// Bytes without the network format's magic.
    #[error("not a kiebitz network file (magic KBZNNUE1 or KBZNNUE2 missing)")]
    NotANetwork,
    /// A tagged file whose game name is not a name.
    #[error("the network's game name is damaged")]
    GameTag,
    /// A network trained for another game.
    #[error("the network was trained for {found}, this engine plays {game}")]
    OtherGame { found: String, game: &'static str },
    /// A network of the first format, which does not say its game, where only tagged ones
    /// are taken.
    #[error(
        "the network does not say its game (a file of the first format, KBZNNUE1, which only chess reads); train it anew for {game}"
    )]
    Untagged { game: &'static str },
    /// A network of `found` inputs where the game needs `needed`.
    #[error("the network has {found} inputs, this game needs {needed}")]
    Inputs { found: usize, needed: usize },
    /// A hidden layer of a size the format does not take.
    #[error("hidden layer of {0} (a multiple of 16 up to 2048)")]
    Hidden(usize),
    /// The file's quantisation constants (QA, QB, scale), not this build's.
    #[error(
        "quantisation {}/{}/{} (this build: {}/{}/{})",
        .found[0], .found[1], .found[2], .build[0], .build[1], .build[2]
    )]
    Quantisation { found: [u32; 3], build: [u32; 3] },
    /// A length that is not the one the file's shape needs.
    #[error("{found} bytes where this shape needs {expected}")]
    Size { found: usize, expected: usize },
    /// The checksum does not match the contents.
    #[error("checksum mismatch: the file is damaged")]
    Checksum,
    /// Weights that can carry neuron `neuron`'s accumulator to `worst` with `active` pieces.
    #[error(
        "weights that can overflow the accumulator: neuron {neuron} can reach {worst} with \
         {active} pieces (at most 32767)"
    )]
    Overflow {
        neuron: usize,
        worst: i32,
        active: usize,
    },
    /// The network file `path` refused: why, and the game's board (`layout`, in words).
    #[error("{path}: {error} (this game's board: {layout})")]
    File {
        path: String,
        error: Box<NetError>,
        layout: String,
    },
    /// The file cannot be read.
    #[error(transparent)]
    Unreadable(#[from] crate::FileError),
    /// A record of more pieces than a record holds.
    #[error("{0} pieces (at most 32)")]
    Pieces(u32),
    /// A record's result or side out of range.
    #[error("result {result} / side {side} out of range")]
    ResultSide { result: u8, side: u8 },
    /// A record's last two bytes, which must be zero.
    #[error("bytes 30 and 31 are not zero")]
    Padding,
    /// Piece codes past a record's `count` pieces.
    #[error("piece codes beyond its {0} pieces")]
    UnusedCodes(usize),
    /// A piece on `square`, beyond the game's `width`×`height` board.
    #[error("a piece on square {square}, beyond the {width}×{height} board")]
    OffBoard { square: u8, width: u8, height: u8 },
    /// A piece code the game does not have (its codes are 0 to `most`).
    #[error("piece code {code}: this game's codes are 0 to {most}")]
    PieceCode { code: u8, most: u8 },
    /// The losses stopped being numbers at `epoch`.
    #[error(
        "the training diverged at epoch {epoch} (train loss {train}, validation loss \
         {validation}, step size {lr:e}): try a smaller --lr"
    )]
    Diverged {
        epoch: u32,
        train: f64,
        validation: f64,
        lr: f32,
    },
}

crate::error::sentence_error!(NetError);
