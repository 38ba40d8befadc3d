//! Räuberschach on the web page: the family's page ([`crate::games::losing::page`]) on the
//! 6×6 board, with the solved value of a position (`--raeuber-tables`).

use crate::games::losing::Six;
use crate::games::losing::page;

/// Räuberschach as the page shows it.
#[allow(non_upper_case_globals)]
pub const OnPage: page::OnPage<Six> = page::OnPage::new(include_str!("rules.md"));
