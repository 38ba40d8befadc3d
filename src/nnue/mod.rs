//! A learned evaluation (NNUE): a perspective network over piece-square inputs.
//!
//! - [`data`]: the 32-byte training records that `datagen` writes and the trainer reads.
//! - [`net`]: the quantised network, its file format and its inference (AVX2 where present).
//! - [`engine`]: the network at play for any game ([`engine::Evaluated`]): the process's and
//!   each session's network, the `EvalFile` and `Use NNUE` options, the accumulators kept
//!   per ply by diffs.
//! - [`train`]: the trainer (float network, WDL-blended targets, Adam, a validation split) and
//!   the quantisation that turns its result into a [`net::Network`].
//!
//! Nothing here knows a game: a game maps its pieces to records ([`data::Pack`]) and says its
//! board's [`Layout`], which numbers the inputs the same way for the trainer and the engine.

pub mod data;
pub mod engine;
pub mod error;
pub mod net;
pub mod train;

pub use error::NetError;

/// How a game's pieces become network inputs: one input per (own or other colour, kind,
/// square) as seen from a perspective; Black's perspective mirrors the board's ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub width: u8,
    pub height: u8,
    /// Piece kinds per colour; a piece code is `colour · kinds + kind`.
    pub kinds: u8,
}

impl Layout {
    /// Chess: 8×8, six kinds, 768 inputs.
    pub const CHESS: Layout = Layout {
        width: 8,
        height: 8,
        kinds: 6,
    };

    /// The number of inputs.
    pub const fn inputs(&self) -> usize {
        2 * self.kinds as usize * self.width as usize * self.height as usize
    }

    /// Whether `record` fits this layout: every piece on the board's squares and of a code
    /// the layout has (`colour · kinds + kind` below `2 · kinds`); the error names what does
    /// not.
    pub fn check(&self, record: &data::Record) -> Result<(), NetError> {
        let squares = u32::from(self.width) * u32::from(self.height);
        for (sq, code) in record.squares() {
            if u32::from(sq) >= squares {
                return Err(NetError::OffBoard {
                    square: sq,
                    width: self.width,
                    height: self.height,
                });
            }
            if code >= 2 * self.kinds {
                return Err(NetError::PieceCode {
                    code,
                    most: 2 * self.kinds - 1,
                });
            }
        }
        Ok(())
    }

    /// The square `sq` mirrored left to right (file a ↔ h on a chess board).
    #[inline]
    pub fn mirror_file(&self, sq: usize) -> usize {
        let w = self.width as usize;
        sq - sq % w + (w - 1 - sq % w)
    }

    /// The input of piece `code` on `sq` (rank · width + file) from `perspective`'s side
    /// (0 White, 1 Black).
    #[inline]
    pub fn index(&self, perspective: usize, sq: usize, code: usize) -> usize {
        let kinds = self.kinds as usize;
        let (color, kind) = (code / kinds, code % kinds);
        let squares = self.width as usize * self.height as usize;
        if perspective == 0 {
            (color * kinds + kind) * squares + sq
        } else {
            let w = self.width as usize;
            let flipped = (self.height as usize - 1 - sq / w) * w + sq % w;
            ((1 - color) * kinds + kind) * squares + flipped
        }
    }
}
