//! A sanity check of MLIR bytecode before MLIR's reader sees it.
//!
//! MLIR 22's bytecode reader trusts some counts in a file: it sizes a
//! table by the count at the head of the String, Dialect and
//! AttrTypeOffset sections before reading the entries, so a damaged count
//! makes it abort the process (`LLVM ERROR: SmallVector unable to grow`),
//! and it fills the attribute and type tables by the per-dialect group
//! counts that follow without checking them against the table's size, so
//! a damaged group count writes past the table (heap corruption; glibc
//! aborts with `corrupted size vs. prev_size`, or the process goes on with
//! a corrupted heap). [`damaged`] reads the section framing and those
//! counts, and nothing else: a file it passes may still be refused by
//! MLIR's reader, with MLIR's own error.

/// Why `bytes` (MLIR bytecode, magic included) would make MLIR's reader
/// abort or write out of bounds; `None` when the counts it checks are
/// sound (or it cannot tell, and MLIR's reader reports the problem).
pub fn damaged(bytes: &[u8]) -> Option<String> {
    let mut file = Reader::new(bytes);
    file.take(4)?; // the magic number
    file.varint()?; // the version
    file.c_string()?; // the producer
    while !file.is_empty() {
        let (section, data) = file.section()?;
        let checked = match section {
            Section::String => counted(data, "strings"),
            Section::Dialect => counted(data, "dialects"),
            Section::AttrTypeOffset => attr_type_offsets(data),
            Section::Other => None,
        };
        if let Some(problem) = checked {
            return Some(format!("{} section: {problem}", section.name()));
        }
    }
    None
}

/// How deeply bytecode may nest (the region level of an op plus its
/// deepest attribute or type): text within [`crate::nesting::MAX_NESTING`]
/// reads as a few levels more (a type in a function type in a type
/// attribute in the op's dictionary), so its bytecode reads back.
pub const MAX_DEPTH: usize = crate::nesting::MAX_NESTING + 16;

extern "C" {
    /// `cpp/depth.cpp`: how deeply an op and everything in it nest,
    /// measured without recursion.
    fn pld_ir_depth(op: mlir_sys::MlirOperation) -> u32;
}

/// Why `op` (as MLIR read it from bytecode) nests too deeply for MLIR's
/// printer and pld's walks, which recurse once per level; `None` within
/// [`MAX_DEPTH`].
pub fn too_deep<'c: 'a, 'a>(
    op: &impl melior::ir::operation::OperationLike<'c, 'a>,
) -> Option<String> {
    // SAFETY: `op` is live; the function only reads the IR.
    let depth = unsafe { pld_ir_depth(op.to_raw()) } as usize;
    (depth > MAX_DEPTH).then(|| {
        format!(
            "nests {depth} levels deep (regions, attributes and types); pld accepts at most \
             {MAX_DEPTH}"
        )
    })
}

/// The sections [`damaged`] looks into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    String,
    Dialect,
    AttrTypeOffset,
    Other,
}

impl Section {
    fn of(id: u8) -> Self {
        match id {
            0 => Section::String,
            1 => Section::Dialect,
            3 => Section::AttrTypeOffset,
            _ => Section::Other,
        }
    }

    /// As MLIR's reader names it.
    fn name(self) -> &'static str {
        match self {
            Section::String => "String (0)",
            Section::Dialect => "Dialect (1)",
            Section::AttrTypeOffset => "AttrTypeOffset (3)",
            Section::Other => "another",
        }
    }
}

/// A section that starts with the count of its entries, each at least a
/// byte long.
fn counted(data: &[u8], what: &str) -> Option<String> {
    let mut section = Reader::new(data);
    let count = section.varint()?;
    let left = section.remaining();
    (count > left as u64).then(|| format!("it counts {count} {what} in {left} bytes"))
}

/// The AttrTypeOffset section: the counts of attributes and types, then
/// per dialect a group of entries (the dialect, the group's size, one
/// varint per entry) until each count is reached.
fn attr_type_offsets(data: &[u8]) -> Option<String> {
    let mut section = Reader::new(data);
    let attributes = section.varint()?;
    let types = section.varint()?;
    let left = section.remaining() as u64;
    if attributes.saturating_add(types) > left {
        return Some(format!(
            "it counts {attributes} attributes and {types} types in {left} bytes"
        ));
    }
    for (what, count) in [("attributes", attributes), ("types", types)] {
        let mut missing = count;
        while missing > 0 {
            section.varint()?; // the dialect
            let group = section.varint()?;
            if group > missing {
                return Some(format!(
                    "a dialect's group of {what} has {group} entries where {missing} of the \
                     {count} counted remain"
                ));
            }
            for _ in 0..group {
                section.varint()?;
            }
            missing -= group;
        }
    }
    None
}

/// Reads the bytecode encoding: bytes, varints, strings and sections.
struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Reader<'b> {
    fn new(bytes: &'b [u8]) -> Self {
        Reader { bytes, at: 0 }
    }

    fn is_empty(&self) -> bool {
        self.at >= self.bytes.len()
    }

    fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.at)
    }

    fn byte(&mut self) -> Option<u8> {
        let byte = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(byte)
    }

    fn take(&mut self, length: usize) -> Option<&'b [u8]> {
        let end = self.at.checked_add(length)?;
        let taken = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(taken)
    }

    /// A varint: the first byte's trailing zeros count the bytes that
    /// follow (all eight when it is zero); the bits above the marker are
    /// the value, little-endian.
    fn varint(&mut self) -> Option<u64> {
        let first = self.byte()?;
        if first & 1 == 1 {
            return Some(u64::from(first >> 1));
        }
        let more = if first == 0 {
            8
        } else {
            first.trailing_zeros() as usize
        };
        let mut value = [0u8; 9];
        value[0] = first;
        value[1..=more].copy_from_slice(self.take(more)?);
        if first == 0 {
            let tail: [u8; 8] = value[1..9].try_into().ok()?;
            return Some(u64::from_le_bytes(tail));
        }
        let low: [u8; 8] = value[..8].try_into().ok()?;
        Some(u64::from_le_bytes(low) >> (more + 1))
    }

    /// A NUL-terminated string.
    fn c_string(&mut self) -> Option<&'b [u8]> {
        let length = self.bytes.get(self.at..)?.iter().position(|&b| b == 0)?;
        let string = self.take(length)?;
        self.at += 1;
        Some(string)
    }

    /// A section: its id and its data. The id's high bit says an alignment
    /// follows, and then padding bytes (0xCB) up to an address that is a
    /// multiple of it, as MLIR aligns the data in memory.
    fn section(&mut self) -> Option<(Section, &'b [u8])> {
        let id = self.byte()?;
        let length = usize::try_from(self.varint()?).ok()?;
        if id & 0x80 != 0 {
            let alignment = usize::try_from(self.varint()?).ok()?;
            if !alignment.is_power_of_two() {
                return None;
            }
            while !(self.bytes.as_ptr() as usize + self.at).is_multiple_of(alignment) {
                if self.byte()? != 0xCB {
                    return None;
                }
            }
        }
        Some((Section::of(id & 0x7F), self.take(length)?))
    }
}

#[cfg(test)]
mod tests {
    use super::{damaged, Reader};

    /// A file: magic, version 6, producer, then `sections` (id, data).
    fn file(sections: &[(u8, Vec<u8>)]) -> Vec<u8> {
        let mut bytes = b"ML\xEFR".to_vec();
        bytes.push(6 << 1 | 1);
        bytes.extend_from_slice(b"test\0");
        for (id, data) in sections {
            bytes.push(*id);
            bytes.push((data.len() as u8) << 1 | 1);
            bytes.extend_from_slice(data);
        }
        bytes
    }

    /// One-byte varints.
    fn small(values: &[u8]) -> Vec<u8> {
        values.iter().map(|v| v << 1 | 1).collect()
    }

    #[test]
    fn varints_are_read_as_mlir_encodes_them() {
        // 1 byte: value 5; 2 bytes (marker 0b10): 300; 9 bytes: u64::MAX.
        let mut bytes = vec![5 << 1 | 1];
        bytes.extend_from_slice(&((300u16 << 2) | 0b10).to_le_bytes());
        bytes.push(0);
        bytes.extend_from_slice(&u64::MAX.to_le_bytes());
        let mut reader = Reader::new(&bytes);
        assert_eq!(reader.varint(), Some(5));
        assert_eq!(reader.varint(), Some(300));
        assert_eq!(reader.varint(), Some(u64::MAX));
        assert_eq!(reader.varint(), None);
    }

    #[test]
    fn counts_larger_than_their_section_are_damage() {
        // Two strings "a" and "b": the count, two sizes, the data.
        let strings = [small(&[2, 2, 2]), b"a\0b\0".to_vec()].concat();
        let sound = file(&[(0, strings.clone()), (1, small(&[1, 0]))]);
        assert_eq!(damaged(&sound), None);
        // The dialect count 0xFFFF... (all 9 bytes) in 1 byte of entries.
        let mut huge = vec![0];
        huge.extend_from_slice(&u64::MAX.to_le_bytes());
        huge.push(1);
        let bad = file(&[(0, strings), (1, huge)]);
        assert_eq!(
            damaged(&bad).as_deref(),
            Some("Dialect (1) section: it counts 18446744073709551615 dialects in 1 bytes")
        );
    }

    #[test]
    fn an_attribute_group_larger_than_its_count_is_damage() {
        // 2 attributes, 1 type: groups (dialect 0, 2 entries), then
        // (dialect 0, 1 entry).
        let sound = small(&[2, 1, 0, 2, 4, 4, 0, 1, 6]);
        assert_eq!(damaged(&file(&[(3, sound)])), None);
        // The attribute group says 3 entries where 2 are counted.
        let bad = small(&[2, 1, 0, 3, 4, 4, 4, 0, 1]);
        assert_eq!(
            damaged(&file(&[(3, bad)])).as_deref(),
            Some(
                "AttrTypeOffset (3) section: a dialect's group of attributes has 3 entries \
                 where 2 of the 2 counted remain"
            )
        );
    }
}
