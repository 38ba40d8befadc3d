//! Antichess on the web page: the family's page ([`crate::games::losing::page`]) on the 8×8
//! board.

use crate::games::losing::Eight;
use crate::games::losing::page;

/// Antichess as the page shows it.
#[allow(non_upper_case_globals)]
pub const OnPage: page::OnPage<Eight> = page::OnPage::new(include_str!("rules.md"));
