//! Launch width of the multi-block all_to_all_v (collectives spec 8): the
//! one implementation the HOST lowering, the CHIP rail and the tests use.
//! (The rendered HOST entry computes the same function at run time with
//! `CalAllToAllVBlocks` of `pld/pld_runtime.h`; a simulator test checks
//! that the two agree.)

use std::fmt;

/// The largest `core_num` a HOST builtin entry takes: it reaches the
/// device as an `int16_t` launch width.
pub const MAX_CORE_NUM: i64 = i16::MAX as i64;

/// A non-positive rank count or requested block count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaunchError {
    /// `P` (the rank count) is not positive.
    Ranks(i64),
    /// `L` (the requested `core_num`) is not positive.
    Requested(i64),
}

impl fmt::Display for LaunchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LaunchError::Ranks(p) => write!(f, "the rank count must be positive, got {p}"),
            LaunchError::Requested(l) => write!(f, "core_num must be positive, got {l}"),
        }
    }
}

impl std::error::Error for LaunchError {}

/// `B = CalAllToAllVBlocks(P, L)` (spec 8.1): `L` below one full rank
/// cohort, otherwise the largest multiple of `P` not above `L`. No upper
/// cap; a pure function of `(P, L)`.
pub fn all_to_all_v_blocks(ranks: i64, requested: i64) -> Result<i64, LaunchError> {
    if ranks <= 0 {
        return Err(LaunchError::Ranks(ranks));
    }
    if requested <= 0 {
        return Err(LaunchError::Requested(requested));
    }
    Ok(if requested < ranks {
        requested
    } else {
        requested / ranks * ranks
    })
}

/// Lanes per peer (spec 8.3): `B / P` when `B >= P`, else 0 (several peers
/// per block).
pub fn lanes_per_peer(ranks: i64, blocks: i64) -> i64 {
    if ranks > 0 && blocks >= ranks {
        blocks / ranks
    } else {
        0
    }
}

/// The signal lanes a launch of `blocks` blocks uses on a signal of stride
/// `stride`: `min(B, S)` (spec 8.2, the entry's log line).
pub fn active_lanes(blocks: i64, stride: i64) -> i64 {
    blocks.min(stride)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worked_table_of_spec_8_1() {
        // (P, L, B), exactly as the spec's table lists them.
        let table: &[(i64, i64, i64)] = &[
            (8, 1, 1),
            (8, 2, 2),
            (8, 4, 4),
            (8, 7, 7),
            (8, 8, 8),
            (8, 10, 8),
            (8, 15, 8),
            (8, 16, 16),
            (16, 1, 1),
            (16, 4, 4),
            (16, 8, 8),
            (16, 15, 15),
            (16, 16, 16),
            (16, 7, 7),
            (4, 1, 1),
            (4, 2, 2),
            (4, 4, 4),
            (4, 8, 8),
            (4, 10, 8),
            (4, 16, 16),
            (2, 2, 2),
            (2, 5, 4),
            (2, 6, 6),
            (2, 51, 50),
        ];
        for &(p, l, b) in table {
            assert_eq!(all_to_all_v_blocks(p, l), Ok(b), "P={p} L={l}");
        }
    }

    #[test]
    fn non_positive_inputs_are_errors() {
        assert_eq!(all_to_all_v_blocks(0, 4), Err(LaunchError::Ranks(0)));
        assert_eq!(all_to_all_v_blocks(-2, 4), Err(LaunchError::Ranks(-2)));
        assert_eq!(all_to_all_v_blocks(4, 0), Err(LaunchError::Requested(0)));
        assert_eq!(all_to_all_v_blocks(4, -1), Err(LaunchError::Requested(-1)));
        assert_eq!(
            LaunchError::Requested(0).to_string(),
            "core_num must be positive, got 0"
        );
    }

    #[test]
    fn lanes_of_spec_8_3() {
        // (P, B) -> K, and block b -> (peer b / K, lane b % K).
        assert_eq!(lanes_per_peer(4, 8), 2);
        assert_eq!((5 / lanes_per_peer(4, 8), 5 % lanes_per_peer(4, 8)), (2, 1));
        assert_eq!(lanes_per_peer(8, 16), 2);
        assert_eq!(lanes_per_peer(8, 8), 1);
        assert_eq!(lanes_per_peer(4, 2), 0);
        assert_eq!(active_lanes(8, 10), 8);
        assert_eq!(active_lanes(8, 4), 4);
    }
}
