//! What both members' table files share: the FNV-1a checksum ([`crate::checksum`]) of the
//! bytes before it that ends each file, eight bytes little-endian (Räuberschach's over the
//! whole file before it, antichess's over the values after the first line). It shows a file
//! whole, not its values true: those are checked against their moves ([`super::check`]).

use std::io::{self, Write};

use crate::checksum;

/// The bytes of the checksum that ends a file.
pub const SUM: usize = 8;

/// Writes `parts` to `out`, then the checksum of them all.
pub fn write_summed<'a>(
    out: &mut impl Write,
    parts: impl IntoIterator<Item = &'a [u8]>,
) -> io::Result<()> {
    let mut sum = checksum::START;
    for part in parts {
        out.write_all(part)?;
        sum = checksum::extend(sum, part);
    }
    out.write_all(&sum.to_le_bytes())
}

/// `bytes` without the checksum that ends them, if it is theirs (`None`: too short, or
/// another checksum).
pub fn unsummed(bytes: &[u8]) -> Option<&[u8]> {
    let (body, sum) = bytes.split_at_checked(bytes.len().checked_sub(SUM)?)?;
    (checksum::fnv1a(body).to_le_bytes() == sum).then_some(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summed_file_reads_back_and_a_changed_byte_is_refused() {
        let mut out = Vec::new();
        write_summed(&mut out, [&b"kiebitz"[..], b" tables"]).unwrap();
        assert_eq!(out.len(), 14 + SUM);
        assert_eq!(unsummed(&out), Some(&b"kiebitz tables"[..]));
        out[3] ^= 1;
        assert_eq!(unsummed(&out), None);
        assert_eq!(unsummed(&out[..SUM - 1]), None, "shorter than a checksum");
        assert_eq!(
            unsummed(&checksum::fnv1a(b"").to_le_bytes()),
            Some(&b""[..])
        );
    }
}
