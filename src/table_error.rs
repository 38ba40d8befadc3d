//! The typed errors of the games' endgame tables and tablebases: what the table capabilities
//! of [`crate::game`] (`use_tables`, `tables_dir`, `session_tables*`, `tb_load`) refuse, and
//! why a table file (antichess's, Räuberschach's, a Syzygy file) is not used. Each kind holds
//! its data; its `Display` is the sentence the protocols and the command line always showed.
//!
//! Depends on nothing in the crate but [`crate::FileError`].

/// Why a game's endgame tables or tablebases were not set up, loaded or trusted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The game builds no endgame tables (`Endgame Tables`, `solve --tables`).
    #[error("this game has no endgame tables")]
    NoTables,
    /// The game reads no tablebases (`SyzygyPath`).
    #[error("this game has no tablebases")]
    NoTablebases,
    /// Räuberschach's process tables: more than the five pieces they hold.
    #[error(
        "endgame tables hold 1 to 5 pieces, not {asked} (3: about 23 M positions, 15 s; 4 and 5 \
         built signature by signature as met, a five-piece one in a minute)"
    )]
    OverFive { asked: u32 },
    /// A session's tables: more pieces than they hold under its access (`most`).
    #[error("endgame tables hold 1 to {most} pieces here, not {asked}")]
    OverHere { asked: u32, most: u32 },
    /// Antichess's tables: more pieces than they hold (`most`).
    #[error("antichess endgame tables hold 1 to {most} pieces, not {asked}")]
    OverAntichess { asked: u32, most: u32 },
    /// The process's tables were built for `held` pieces; more need a new process.
    #[error("the endgame tables of this process hold {held} pieces: more need a new process")]
    ProcessHolds { held: u32 },
    /// The tables' folder `dir` cannot be made or is not there (`reason`: why).
    #[error("endgame tables path '{dir}': {reason}")]
    Folder { dir: String, reason: String },
    /// The tables' folder `dir` is not a folder (a server that writes no files).
    #[error("endgame tables path '{dir}' is not a folder")]
    NotAFolder { dir: String },
    /// The server's memory pool has less than the `mb` MiB the tables need.
    #[error("endgame tables need {mb} MiB, more than the server's memory (--max-hash) has left")]
    Memory { mb: usize },
    /// No thread could be started to build the tables (`reason`: the system's).
    #[error("no thread to build the endgame tables in: {reason}")]
    NoThread { reason: String },
    /// A file of a set of tables (antichess's up to three pieces) refused: why.
    #[error("endgame tables {path}: {why}")]
    SetFile { path: String, why: Box<TableError> },
    /// A file of one signature's table refused: why.
    #[error("endgame table {path}: {why}")]
    SignatureFile { path: String, why: Box<TableError> },
    /// The file cannot be read (missing, not a file, too big).
    #[error(transparent)]
    Unreadable(#[from] crate::FileError),
    /// A file of another format, or cut short (`signature`: one signature's file).
    #[error(
        "not a table file of this {}format, or cut short",
        if *.signature { "signature and " } else { "" }
    )]
    Format { signature: bool },
    /// A file whose checksum does not match its contents.
    #[error("damaged (its checksum does not match)")]
    Checksum,
    /// A value its moves one ply down contradict: the position (or `no position`), the value
    /// stored and the one its moves give.
    #[error("a value that its moves contradict ({at}: stored {stored}, its moves say {want})")]
    Contradicted { at: String, stored: i16, want: i16 },
    /// A table built but not written to the folder `dir` (`reason`: the system's).
    #[error("{name}: not written to {dir}: {reason}")]
    NotWritten {
        name: String,
        dir: String,
        reason: String,
    },
    /// A check that did not finish (its thread panicked).
    #[error("a check failed")]
    CheckFailed,
    /// A signature that is not four pieces of both colours.
    #[error("{name}: four pieces, both colours present")]
    NotFour { name: String },
    /// A four-piece signature while the tables of up to three pieces are not all there.
    #[error("{name}: the tables of up to three pieces are not all here")]
    NoBase { name: String },
    /// A signature whose promotions lead to `first`, not here yet.
    #[error("{name} needs the table of {first} first")]
    NeedsFirst { name: String, first: String },
    /// A distance to the end too long for the format's byte.
    #[error("{name}: a distance of {plies} plies, beyond a byte")]
    Distance { name: String, plies: i16 },
    /// Another session holds the Syzygy tables of `held` (one set per process): `path` was
    /// not loaded.
    #[error(
        "the Syzygy tables of '{held}' are in use by another session (one set of tables per \
         process): '{path}' was not loaded, and this session probes none"
    )]
    SyzygyInUse { held: String, path: String },
    /// No sound Syzygy table in `path`; `left_out` names the files refused, with why.
    #[error("{}", no_syzygy(.path, .left_out))]
    NoSyzygy { path: String, left_out: Vec<String> },
    /// The probing code refused the checked tables of `path` (`reason`: its words).
    #[error("cannot load Syzygy tables from '{path}': {reason}")]
    SyzygyLoad { path: String, reason: String },
    /// The private folder of checked tables cannot be made (`reason`: the system's), or its
    /// name is not UTF-8 (`reason` empty).
    #[error("{}", temp_folder(.reason))]
    TempFolder { reason: String },
}

/// [`TableError::NoSyzygy`]'s sentence.
fn no_syzygy(path: &str, left_out: &[String]) -> String {
    if left_out.is_empty() {
        format!("no Syzygy tables (.rtbw) in '{path}'")
    } else {
        format!(
            "no sound Syzygy tables (.rtbw) in '{path}': left out {}",
            left_out.join(", ")
        )
    }
}

/// [`TableError::TempFolder`]'s sentence.
fn temp_folder(reason: &str) -> String {
    if reason.is_empty() {
        "the temporary folder's name is not UTF-8".to_string()
    } else {
        format!("cannot make a folder for the checked tables: {reason}")
    }
}

impl TableError {
    /// [`TableError::Folder`] of `dir` with the system's `reason`.
    pub fn folder(dir: &str, reason: impl std::fmt::Display) -> TableError {
        TableError::Folder {
            dir: dir.to_string(),
            reason: reason.to_string(),
        }
    }

    /// [`TableError::NoThread`] with the system's `reason`.
    pub fn no_thread(reason: impl std::fmt::Display) -> TableError {
        TableError::NoThread {
            reason: reason.to_string(),
        }
    }
}

/// Why a Syzygy table file failed its check and is left out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyzygyFileError {
    /// Neither a `.rtbw` nor a `.rtbz` file.
    #[error("not a .rtbw or .rtbz file")]
    NotATable,
    /// Opening or reading it failed (`reason`: the system's words).
    #[error("{reason}")]
    Io { reason: String },
    /// A size that is not 16 more than a multiple of 64 (or under 80 bytes).
    #[error(
        "{size} bytes: cut short or lengthened (a table file has 16 more than a multiple of 64)"
    )]
    Size { size: u64 },
    /// The first four bytes are not the magic number of its kind.
    #[error("wrong magic number (not a Syzygy table of its kind)")]
    Magic,
    /// The checksum at its end does not match the rest.
    #[error("checksum mismatch (the file is damaged)")]
    Checksum,
    /// It cannot be linked into the folder the probing code reads.
    #[error("cannot link it for the probing code: {reason}")]
    Link { reason: String },
}

impl SyzygyFileError {
    /// [`SyzygyFileError::Io`] of an I/O failure.
    pub fn io(e: impl std::fmt::Display) -> SyzygyFileError {
        SyzygyFileError::Io {
            reason: e.to_string(),
        }
    }
}

crate::error::sentence_error!(TableError);

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kind reads as the sentence users have always read.
    #[test]
    fn each_kind_reads_as_before() {
        let over = TableError::OverFive { asked: 6 };
        assert!(over.to_string().starts_with(
            "endgame tables hold 1 to 5 pieces, not 6 (3: about 23 M positions, 15 s; 4 and 5 built"
        ));
        let file = TableError::SignatureFile {
            path: "d/x.table".into(),
            why: Box::new(TableError::Format { signature: true }),
        };
        assert_eq!(
            file.to_string(),
            "endgame table d/x.table: not a table file of this signature and format, or cut short"
        );
        let none = TableError::NoSyzygy {
            path: "p".into(),
            left_out: vec!["a (b)".into()],
        };
        assert_eq!(
            none.to_string(),
            "no sound Syzygy tables (.rtbw) in 'p': left out a (b)"
        );
        let temp = TableError::TempFolder {
            reason: String::new(),
        };
        assert_eq!(temp.to_string(), "the temporary folder's name is not UTF-8");
    }
}
