//! FNV-1a (64 bits), the checksum of the project's own files (networks, databases,
//! checkpoints, endgame tables): over a whole buffer, or continued chunk by chunk for a file
//! written or read as a stream.

/// The hash of no bytes.
pub const START: u64 = 0xcbf2_9ce4_8422_2325;

/// The hash `h` continued over `bytes`.
pub fn extend(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The hash of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    extend(START, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_and_chunks_agree() {
        // The published FNV-1a 64 test vectors.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(extend(fnv1a(b"foo"), b"bar"), fnv1a(b"foobar"));
    }
}
