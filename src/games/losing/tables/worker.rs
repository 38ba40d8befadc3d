//! The threads beside the search that build and check a member's tables, once for the family:
//! one started with a name a debugger shows ([`spawn`]: a set built in the background), and
//! one that works through what probes ask for, in turn ([`serve`], [`drain`]: Räuberschach's
//! signatures built as met, antichess's four-piece tables checked as met).

use std::sync::mpsc::Receiver;

use crate::table_error::TableError;

/// The name of the threads that build tables.
pub const BUILDS: &str = "endgame tables";

/// Starts a thread named `name` that does `work`; a refusal where the system gives none.
pub fn spawn(name: &str, work: impl FnOnce() + Send + 'static) -> Result<(), TableError> {
    std::thread::Builder::new()
        .name(name.into())
        .spawn(work)
        .map(|_| ())
        .map_err(TableError::no_thread)
}

/// Hands each request `receive` brings to `each`, in turn, until `each` says to stop (false:
/// the tables are gone) or every sender is.
pub fn drain<K>(receive: Receiver<K>, mut each: impl FnMut(K) -> bool) {
    for request in receive {
        if !each(request) {
            break;
        }
    }
}

/// [`drain`] on a thread of its own named `name`.
pub fn serve<K: Send + 'static>(
    name: &str,
    receive: Receiver<K>,
    each: impl FnMut(K) -> bool + Send + 'static,
) -> Result<(), TableError> {
    spawn(name, move || drain(receive, each))
}
