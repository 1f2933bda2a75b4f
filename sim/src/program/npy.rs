//! NumPy `.npy` files (format version 1.0), for kernel inputs and outputs.

use crate::program::model::Dtype;

fn descr(dtype: Dtype) -> &'static str {
    match dtype {
        Dtype::F16 => "<f2",
        Dtype::F32 => "<f4",
        Dtype::I32 => "<i4",
        Dtype::I8 => "|i1",
    }
}

/// The bytes of a C-order `.npy` file holding `data` (little-endian
/// elements of `dtype`) with `shape`.
pub fn encode(dtype: Dtype, shape: &[usize], data: &[u8]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let mut header = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}",
        descr(dtype)
    );
    // Magic (6) + version (2) + length (2) + header + '\n', a multiple of 64.
    let unpadded = 10 + header.len() + 1;
    header.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

/// The data of a `.npy` file, checked against the expected dtype and
/// shape.
pub fn decode(bytes: &[u8], dtype: Dtype, shape: &[usize]) -> Result<Vec<u8>, String> {
    let elements: usize = shape.iter().product();
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err("not a .npy file".into());
    }
    let (length, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() < 12 => return Err("truncated .npy header".into()),
        2 | 3 => (
            u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize,
            12,
        ),
        v => return Err(format!("unsupported .npy version {v}")),
    };
    let header = bytes
        .get(start..start + length)
        .and_then(|h| std::str::from_utf8(h).ok())
        .ok_or("truncated .npy header")?;
    let field = |key: &str| -> Option<String> {
        let rest = header.split(&format!("'{key}':")).nth(1)?.trim_start();
        let end = if rest.starts_with('(') {
            rest.find(')')? + 1
        } else {
            rest.find(',')?
        };
        Some(rest[..end].trim().trim_matches('\'').to_string())
    };
    let found = field("descr").unwrap_or_default();
    if found != descr(dtype) {
        return Err(format!(
            "holds '{found}' elements; the parameter needs {} ('{}')",
            dtype.name(),
            descr(dtype)
        ));
    }
    let found_shape: Vec<usize> = field("shape")
        .unwrap_or_default()
        .trim_matches(|c| c == '(' || c == ')')
        .split(',')
        .filter_map(|d| d.trim().parse().ok())
        .collect();
    if found_shape != shape {
        return Err(format!(
            "has shape {found_shape:?}; the parameter is {shape:?}"
        ));
    }
    if header.contains("'fortran_order': True") {
        return Err("Fortran-ordered arrays are not supported".into());
    }
    let data = &bytes[start + length..];
    if data.len() != elements * dtype.bytes() {
        return Err(format!(
            "holds {} bytes of data; {elements} elements need {}",
            data.len(),
            elements * dtype.bytes()
        ));
    }
    Ok(data.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_header_alignment() {
        let data: Vec<u8> = [1.0f32, 2.0, 3.0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let file = encode(Dtype::F32, &[1, 3], &data);
        let header_end = file.len() - data.len();
        assert_eq!(header_end % 64, 0);
        assert!(std::str::from_utf8(&file[10..header_end])
            .unwrap()
            .starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3), }"));
        assert_eq!(decode(&file, Dtype::F32, &[1, 3]).unwrap(), data);
        assert!(decode(&file, Dtype::I32, &[1, 3])
            .unwrap_err()
            .contains("holds '<f4'"));
        assert!(decode(&file, Dtype::F32, &[3, 1])
            .unwrap_err()
            .contains("has shape [1, 3]"));
        assert!(decode(b"nope", Dtype::F32, &[1]).is_err());
        let vector = encode(Dtype::I32, &[4], &[0; 16]);
        assert!(decode(&vector, Dtype::I32, &[4]).is_ok());
    }
}
