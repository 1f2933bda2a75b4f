//! Chunk geometry of the composite allreduce (docs/passes/pld-lower-composite-ops.md-7.1.3).
//!
//! The lowering moves data in chunks of at most 16 KiB so that a handful
//! of chunk tiles fit the smallest vector buffer; tiles are 32-byte
//! aligned. These functions give the static numbers for a given length,
//! dtype and rank count; the pass emits the same arithmetic for symbolic
//! lengths.

/// Bytes of one chunk: about nine live chunk tiles fit the smallest
/// (184 KiB) vector buffer.
pub const CHUNK_BYTES: i64 = 16 * 1024;
/// Alignment of a tile row, in bytes.
pub const TILE_ALIGN_BYTES: i64 = 32;
pub use pld_dialect::ops::remote::{FP16_BLOCK, FP16_TAIL_PADDING};

/// Elements of one chunk for an element size of `element_bytes`.
pub fn chunk_elems(element_bytes: i64) -> i64 {
    CHUNK_BYTES / element_bytes
}

/// Elements of one 32-byte alignment unit.
pub fn align_elems(element_bytes: i64) -> i64 {
    TILE_ALIGN_BYTES / element_bytes
}

fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

fn round_up(a: i64, multiple: i64) -> i64 {
    ceil_div(a, multiple) * multiple
}

/// `SelectStaticChunkCols`: a short static extent gets a tile just wide
/// enough (rounded up to the alignment); a long or symbolic one a whole
/// chunk.
pub fn select_static_chunk_cols(extent: Option<i64>, element_bytes: i64) -> i64 {
    let chunk = chunk_elems(element_bytes);
    match extent {
        Some(n) if 0 < n && n < chunk => round_up(n, align_elems(element_bytes)),
        _ => chunk,
    }
}

/// Static numbers of a mesh allreduce over `n` elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mesh {
    /// Chunk width `C`.
    pub chunk_cols: i64,
    /// Number of chunks.
    pub chunks: i64,
    /// Valid columns of the last chunk.
    pub tail_cols: i64,
    /// Columns the last chunk reads remotely (FP16 rounds up to 16).
    pub tail_remote_cols: i64,
    /// Credits each cell receives: one ready barrier plus one per chunk.
    pub credits: i64,
}

/// The mesh geometry of a static length `n > 0`.
pub fn mesh(n: i64, element_bytes: i64, fp16: bool) -> Mesh {
    let chunk_cols = select_static_chunk_cols(Some(n), element_bytes);
    let chunks = ceil_div(n, chunk_cols);
    let tail_cols = n - (chunks - 1) * chunk_cols;
    Mesh {
        chunk_cols,
        chunks,
        tail_cols,
        tail_remote_cols: remote_cols(tail_cols, fp16),
        credits: 1 + chunks,
    }
}

/// Columns a remote load of `cols` valid columns moves: FP16 rounds up to
/// whole 32-byte blocks (the padded window tail makes that safe).
pub fn remote_cols(cols: i64, fp16: bool) -> i64 {
    if fp16 {
        round_up(cols, FP16_BLOCK)
    } else {
        cols
    }
}

/// Static numbers of a ring allreduce over `size` elements and `nr` ranks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ring {
    /// Segment boundaries `b(0) = 0 .. b(nr) = size`.
    pub boundaries: Vec<i64>,
    /// Longest segment: the shared loop bound of every rank.
    pub max_segment: i64,
    /// Subchunk width `C`.
    pub chunk_cols: i64,
    /// Credits each cell of a signal row receives.
    pub credits_per_row: i64,
}

/// Boundary `b(i)` of the ring segments: balanced for FP32; for FP16 every
/// interior boundary rounded up to a 16-element block (segments may be
/// empty).
pub fn ring_boundary(i: i64, size: i64, nr: i64, fp16: bool) -> i64 {
    if fp16 {
        (ceil_div(i * size, nr * FP16_BLOCK) * FP16_BLOCK).min(size)
    } else {
        i * size / nr
    }
}

/// The ring geometry of a static `size >= 0` over `nr > 0` ranks.
pub fn ring(size: i64, nr: i64, element_bytes: i64, fp16: bool) -> Ring {
    let boundaries = (0..=nr).map(|i| ring_boundary(i, size, nr, fp16)).collect();
    let mut max_segment = ceil_div(size, nr);
    if fp16 {
        max_segment = size.min(max_segment + FP16_BLOCK - 1);
    }
    let chunk_cols = select_static_chunk_cols(Some(max_segment), element_bytes);
    Ring {
        boundaries,
        max_segment,
        chunk_cols,
        credits_per_row: 2 * ceil_div(max_segment, chunk_cols),
    }
}

/// `MakeCollectiveStageShape`: the staging tile of a put or get of
/// `rows x cols` elements (`None` = symbolic). It never exceeds the
/// transfer: the columns are capped at one chunk and rounded down to the
/// alignment, the rows fill the rest of one chunk; the put or get moves the
/// transfer through it in slides.
pub fn stage_shape(rows: Option<i64>, cols: Option<i64>, element_bytes: i64) -> (i64, i64) {
    let chunk = chunk_elems(element_bytes);
    let align = align_elems(element_bytes);
    let cols = match cols {
        Some(c) if c > 0 => {
            let c = c.min(chunk);
            if align <= c && c < chunk {
                c / align * align
            } else {
                c
            }
        }
        _ => chunk,
    };
    let rows = match rows {
        Some(r) if r > 0 => r.min((chunk / cols).max(1)),
        _ => 1,
    };
    (rows, cols)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/passes/pld-lower-composite-ops.md worked geometry: (N, fp16, C, chunks, tail, tail span, credits).
    #[test]
    fn mesh_table() {
        let rows = [
            (1, false, 8, 1, 1, 1, 2),
            (3, false, 8, 1, 3, 3, 2),
            (17, false, 24, 1, 17, 17, 2),
            (4096, false, 4096, 1, 4096, 4096, 2),
            (4097, false, 4096, 2, 1, 1, 3),
            (65537, false, 4096, 17, 1, 1, 18),
            (17, true, 32, 1, 17, 32, 2),
            (8193, true, 8192, 2, 1, 16, 3),
        ];
        for (n, fp16, c, chunks, tail, span, credits) in rows {
            let eb = if fp16 { 2 } else { 4 };
            assert_eq!(
                mesh(n, eb, fp16),
                Mesh {
                    chunk_cols: c,
                    chunks,
                    tail_cols: tail,
                    tail_remote_cols: span,
                    credits
                },
                "N = {n}, fp16 = {fp16}"
            );
        }
        // A symbolic length takes whole chunks.
        assert_eq!(select_static_chunk_cols(None, 4), 4096);
        assert_eq!(select_static_chunk_cols(None, 2), 8192);
    }

    /// (fp16, SIZE, NR, boundaries, max_seg, C, credits per row).
    type RingRow = (bool, i64, i64, &'static [i64], i64, i64, i64);

    /// docs/passes/pld-lower-composite-ops.md worked geometry, all twelve rows.
    #[test]
    fn ring_table() {
        let rows: [RingRow; 12] = [
            (false, 16, 2, &[0, 8, 16], 8, 8, 2),
            (false, 17, 2, &[0, 8, 17], 9, 16, 2),
            (false, 17, 4, &[0, 4, 8, 12, 17], 5, 8, 2),
            (false, 1, 4, &[0, 0, 0, 0, 1], 1, 8, 2),
            (false, 3, 4, &[0, 0, 1, 2, 3], 1, 8, 2),
            (false, 8193, 4, &[0, 2048, 4096, 6144, 8193], 2049, 2056, 2),
            (false, 65537, 2, &[0, 32768, 65537], 32769, 4096, 18),
            (true, 17, 2, &[0, 16, 17], 17, 32, 2),
            (true, 33, 2, &[0, 32, 33], 32, 32, 2),
            (true, 17, 4, &[0, 16, 16, 16, 17], 17, 32, 2),
            (true, 8193, 2, &[0, 4112, 8193], 4112, 4112, 2),
            (
                true,
                65537,
                4,
                &[0, 16400, 32784, 49168, 65537],
                16400,
                8192,
                6,
            ),
        ];
        for (fp16, size, nr, boundaries, max_segment, c, credits) in rows {
            let eb = if fp16 { 2 } else { 4 };
            assert_eq!(
                ring(size, nr, eb, fp16),
                Ring {
                    boundaries: boundaries.to_vec(),
                    max_segment,
                    chunk_cols: c,
                    credits_per_row: credits
                },
                "SIZE = {size}, NR = {nr}, fp16 = {fp16}"
            );
        }
    }

    #[test]
    fn stage_shapes() {
        // A narrow row: whole rows up to one chunk.
        assert_eq!(stage_shape(Some(4), Some(16), 4), (4, 16));
        // Not a multiple of the alignment: rounded down (never past the transfer).
        assert_eq!(stage_shape(Some(1), Some(17), 4), (1, 16));
        // Tiny rows keep their width.
        assert_eq!(stage_shape(Some(8), Some(3), 4), (8, 3));
        // Wide rows: one chunk of columns, one row.
        assert_eq!(stage_shape(Some(4), Some(10_000), 4), (1, 4096));
        // Many rows: as many as fit one chunk.
        assert_eq!(stage_shape(Some(1000), Some(64), 4), (64, 64));
        // Symbolic extents.
        assert_eq!(stage_shape(None, None, 2), (1, 8192));
    }

    /// The reference's own oracle for C agrees with the formula.
    #[test]
    fn ring_chunk_oracle() {
        for size in [1, 2, 15, 16, 17, 100, 4095, 4096, 4097, 65537, 100_000] {
            for nr in 1..=8 {
                let fp16 = ring(size, nr, 2, true).chunk_cols;
                let oracle16 = 8192.min(round_up(size.min(ceil_div(size, nr) + 15), 16));
                assert_eq!(fp16, oracle16, "FP16 SIZE = {size}, NR = {nr}");
                let fp32 = ring(size, nr, 4, false).chunk_cols;
                let oracle32 = 4096.min(round_up(ceil_div(size, nr), 8));
                assert_eq!(fp32, oracle32, "FP32 SIZE = {size}, NR = {nr}");
            }
        }
    }
}
