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
/// shape. An error says what is wrong with the file, as a predicate of it
/// ("is not a .npy file ...", "has a malformed .npy header: ...", "holds
/// '<i4' elements; ..."), for the caller to put after the file's name.
pub fn decode(bytes: &[u8], dtype: Dtype, shape: &[usize]) -> Result<Vec<u8>, String> {
    let (header, data) = split(bytes)?;
    let fields = header_fields(&header).map_err(|e| format!("has a malformed .npy header: {e}"))?;
    if fields.descr != descr(dtype) {
        return Err(format!(
            "holds '{}' elements, not the {} ('{}') of what it fills",
            fields.descr,
            dtype.name(),
            descr(dtype)
        ));
    }
    // A 0-d array is one element, as a one-element `[1]` parameter is (a
    // rank-0 tensor's buffer: a window has at least one dimension).
    let scalar_for_one = fields.shape.is_empty() && shape == [1];
    if fields.shape != shape && !scalar_for_one {
        return Err(format!(
            "has shape {:?}, not the {shape:?} of what it fills",
            fields.shape
        ));
    }
    if fields.fortran_order {
        return Err(
            "is Fortran-ordered ('fortran_order': True); pld reads C-ordered arrays \
             (save np.ascontiguousarray(a))"
                .into(),
        );
    }
    let elements: usize = shape.iter().product();
    if data.len() != elements * dtype.bytes() {
        return Err(format!(
            "holds {} bytes of data after its header; {elements} elements of {} need {}",
            data.len(),
            dtype.name(),
            elements * dtype.bytes()
        ));
    }
    Ok(data.to_vec())
}

/// The header text and the data of a `.npy` file (format 1.0, 2.0 or
/// 3.0).
fn split(bytes: &[u8]) -> Result<(String, &[u8]), String> {
    const MAGIC: &[u8] = b"\x93NUMPY";
    if !bytes.starts_with(MAGIC) {
        let first = &bytes[..bytes.len().min(MAGIC.len())];
        return Err(format!(
            "is not a .npy file: it starts with \"{}\", not the magic string \"\\x93NUMPY\"",
            first.escape_ascii()
        ));
    }
    let (major, minor) = match bytes.get(6..8) {
        Some(&[major, minor]) => (major, minor),
        _ => return Err("is truncated: it ends inside the .npy format version".into()),
    };
    let width = match (major, minor) {
        (1, 0) => 2,
        (2 | 3, 0) => 4,
        _ => {
            return Err(format!(
                "has .npy format version {major}.{minor}; pld reads versions 1.0, 2.0 and 3.0"
            ))
        }
    };
    let start = 8 + width;
    let length = match bytes.get(8..start) {
        Some(field) => field
            .iter()
            .rev()
            .fold(0usize, |n, b| (n << 8) | usize::from(*b)),
        None => return Err("is truncated: it ends inside the .npy header length".into()),
    };
    let Some(header) = bytes.get(start..start.saturating_add(length)) else {
        return Err(format!(
            "is truncated: its .npy header is {length} bytes long, but only {} follow",
            bytes.len() - start
        ));
    };
    let text = match major {
        // Versions 1 and 2 are latin-1, version 3 UTF-8.
        3 => std::str::from_utf8(header)
            .map_err(|_| "has a .npy header that is not UTF-8 text".to_string())?
            .to_string(),
        _ => header.iter().map(|b| char::from(*b)).collect(),
    };
    Ok((text, &bytes[start + length..]))
}

/// The fields of a header.
#[derive(Debug, PartialEq)]
struct Fields {
    descr: String,
    fortran_order: bool,
    shape: Vec<usize>,
}

/// A value of the header's dictionary (a Python literal).
#[derive(Debug, PartialEq)]
enum Value {
    Str(String),
    Bool(bool),
    Int(i64),
    Tuple(Vec<Value>),
    /// A list (a structured dtype's descr).
    List(Vec<Value>),
}

impl Value {
    /// The value as Python writes it, for a message: cut after
    /// [`SHOWN_CHARS`] characters (a header of thousands of nested
    /// parentheses was echoed whole, a line of 15 KB).
    fn shown(&self) -> String {
        let text = self.python();
        match text.char_indices().nth(SHOWN_CHARS) {
            Some((cut, _)) => format!("{}... ({} characters)", &text[..cut], text.chars().count()),
            None => text,
        }
    }

    /// The value as Python writes it.
    fn python(&self) -> String {
        let join = |items: &[Value]| {
            items
                .iter()
                .map(Value::python)
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Value::Str(text) => format!("'{text}'"),
            Value::Bool(true) => "True".into(),
            Value::Bool(false) => "False".into(),
            Value::Int(n) => n.to_string(),
            Value::Tuple(items) if items.len() == 1 => format!("({},)", items[0].python()),
            Value::Tuple(items) => format!("({})", join(items)),
            Value::List(items) => format!("[{}]", join(items)),
        }
    }
}

/// The values of the header's three keys, in the order of [`KEYS`].
fn keys(entries: Vec<(String, Value)>) -> Result<[Value; 3], String> {
    let mut slots: [Option<Value>; 3] = [None, None, None];
    for (key, value) in entries {
        let index = KEYS.iter().position(|k| *k == key).ok_or_else(|| {
            format!("unknown key '{key}' (a header holds 'descr', 'fortran_order' and 'shape')")
        })?;
        if slots[index].replace(value).is_some() {
            return Err(format!("the key '{key}' is given twice"));
        }
    }
    let [descr, fortran_order, shape] = slots;
    let need = |slot: Option<Value>, key: &str| {
        slot.ok_or_else(|| {
            format!("no '{key}' key (a header holds 'descr', 'fortran_order' and 'shape')")
        })
    };
    Ok([
        need(descr, KEYS[0])?,
        need(fortran_order, KEYS[1])?,
        need(shape, KEYS[2])?,
    ])
}

const KEYS: [&str; 3] = ["descr", "fortran_order", "shape"];

/// How much of a header value a message shows.
const SHOWN_CHARS: usize = 80;

/// Reads the header's dictionary and its three keys.
fn header_fields(header: &str) -> Result<Fields, String> {
    let [descr, fortran_order, shape_value] = keys(Literal::new(header).dict()?)?;
    let descr = match descr {
        Value::Str(text) => text,
        other => {
            return Err(format!(
                "'descr' is {}, not a type string such as '<f4' (structured dtypes are not \
                 supported)",
                other.shown()
            ))
        }
    };
    let fortran_order = match fortran_order {
        Value::Bool(order) => order,
        other => {
            return Err(format!(
                "'fortran_order' is {}, not True or False",
                other.shown()
            ))
        }
    };
    let shape = match &shape_value {
        Value::Tuple(dims) => dims
            .iter()
            .map(|d| match d {
                Value::Int(n) => usize::try_from(*n).ok(),
                _ => None,
            })
            .collect::<Option<Vec<usize>>>(),
        _ => None,
    }
    .ok_or_else(|| format!("'shape' is {}, not a tuple of sizes", shape_value.shown()))?;
    Ok(Fields {
        descr,
        fortran_order,
        shape,
    })
}

/// A reader of the Python literal a header holds.
struct Literal<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Literal<'a> {
    fn new(text: &'a str) -> Self {
        Literal { text, at: 0 }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn skip_space(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start().len();
    }

    fn eat(&mut self, token: &str) -> bool {
        self.skip_space();
        let found = self.rest().starts_with(token);
        if found {
            self.at += token.len();
        }
        found
    }

    fn error(&self, wanted: &str) -> String {
        let rest: String = self.rest().trim_end().chars().take(40).collect();
        match rest.is_empty() {
            true => format!("expected {wanted} at the end of `{}`", self.text.trim_end()),
            false => format!(
                "expected {wanted} at character {} of `{}`, found `{rest}`",
                self.at + 1,
                self.text.trim_end()
            ),
        }
    }

    /// `{'key': value, ...}` and nothing after it but white space.
    fn dict(&mut self) -> Result<Vec<(String, Value)>, String> {
        if !self.eat("{") {
            return Err(self.error("a dictionary '{'"));
        }
        let mut entries = Vec::new();
        while !self.eat("}") {
            self.skip_space();
            let Some(Value::Str(key)) = self.string() else {
                return Err(self.error("a quoted key or '}'"));
            };
            if !self.eat(":") {
                return Err(self.error(&format!("':' after '{key}'")));
            }
            entries.push((key, self.value()?));
            if !self.eat(",") && !self.rest().trim_start().starts_with('}') {
                return Err(self.error("',' or '}'"));
            }
        }
        self.skip_space();
        match self.rest().is_empty() {
            true => Ok(entries),
            false => Err(self.error("nothing after the dictionary")),
        }
    }

    fn value(&mut self) -> Result<Value, String> {
        self.skip_space();
        if let Some(string) = self.string() {
            return Ok(string);
        }
        for (word, value) in [("True", true), ("False", false)] {
            if self.eat(word) {
                return Ok(Value::Bool(value));
            }
        }
        for (open, close, list) in [("(", ")", false), ("[", "]", true)] {
            if self.eat(open) {
                let items = self.items(close)?;
                return Ok(if list {
                    Value::List(items)
                } else {
                    Value::Tuple(items)
                });
            }
        }
        self.int().ok_or_else(|| self.error("a value"))
    }

    /// `value, value, ...` up to `close` (a trailing comma allowed).
    fn items(&mut self, close: &str) -> Result<Vec<Value>, String> {
        let mut items = Vec::new();
        while !self.eat(close) {
            items.push(self.value()?);
            if !self.eat(",") && !self.rest().trim_start().starts_with(close) {
                return Err(self.error(&format!("',' or '{close}'")));
            }
        }
        Ok(items)
    }

    /// A quoted string (no escapes: headers hold none).
    fn string(&mut self) -> Option<Value> {
        let quote = self
            .rest()
            .chars()
            .next()
            .filter(|c| *c == '\'' || *c == '"')?;
        let body = &self.rest()[1..];
        let end = body.find(quote)?;
        let text = body[..end].to_string();
        self.at += end + 2;
        Some(Value::Str(text))
    }

    fn int(&mut self) -> Option<Value> {
        let rest = self.rest();
        let digits = rest.strip_prefix('-').unwrap_or(rest);
        let length = digits.len()
            - digits
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .len();
        let length = length + rest.len() - digits.len();
        let value = rest[..length].parse().ok()?;
        self.at += length;
        Some(Value::Int(value))
    }
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

    /// A 0-d array (`np.float32(1.5)` saved) fills a `[1]` parameter, and
    /// nothing else.
    #[test]
    fn a_0d_array_fills_a_one_element_parameter() {
        let bytes = 1.5f32.to_le_bytes();
        let scalar = encode(Dtype::F32, &[], &bytes);
        assert!(std::str::from_utf8(&scalar[10..64])
            .unwrap()
            .contains("'shape': (), "));
        assert_eq!(decode(&scalar, Dtype::F32, &[1]).unwrap(), bytes);
        assert!(decode(&scalar, Dtype::F32, &[1, 1])
            .unwrap_err()
            .contains("has shape [], not the [1, 1] of what it fills"));
        assert!(decode(&scalar, Dtype::F32, &[2])
            .unwrap_err()
            .contains("has shape []"));
    }

    /// A version 1.0 file with `header` as its header text and `data`.
    fn file(header: &str, data: &[u8]) -> Vec<u8> {
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend_from_slice(&(header.len() as u16).to_le_bytes());
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(data);
        out
    }

    fn error(bytes: &[u8]) -> String {
        decode(bytes, Dtype::F32, &[2]).unwrap_err()
    }

    /// A value thousands of characters long is cut in the message (it
    /// was echoed whole: trust23's 15 KB line).
    #[test]
    fn a_long_header_value_is_cut() {
        let shape = format!("{}2{}", "(".repeat(3000), ")".repeat(3000));
        let header = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {shape}, }}\n");
        let message = error(&file(&header, &[0; 8]));
        assert!(message.len() < 300, "{message}");
        assert!(
            message.contains("... (9001 characters), not a tuple of sizes"),
            "{message}"
        );
    }

    #[test]
    fn malformed_headers_say_what_is_wrong() {
        let good = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n";
        assert!(decode(&file(good, &[0; 8]), Dtype::F32, &[2]).is_ok());
        // Written by hand (another writer's spacing, quotes, no trailing comma).
        let other = "{\"shape\":(2,),\"fortran_order\":False,\"descr\":\"<f4\"}";
        assert!(decode(&file(other, &[0; 8]), Dtype::F32, &[2]).is_ok());
        assert_eq!(
            error(b"PK\x03\x04rest"),
            "is not a .npy file: it starts with \"PK\\x03\\x04re\", not the magic string \"\\x93NUMPY\""
        );
        assert_eq!(
            error(b"\x93NUMPY"),
            "is truncated: it ends inside the .npy format version"
        );
        assert_eq!(
            error(b"\x93NUMPY\x04\x00\x00\x00"),
            "has .npy format version 4.0; pld reads versions 1.0, 2.0 and 3.0"
        );
        assert_eq!(
            error(b"\x93NUMPY\x01\x00\x40\x00{'descr'"),
            "is truncated: its .npy header is 64 bytes long, but only 8 follow"
        );
        let header = |text: &str| error(&file(text, &[0; 8]));
        assert_eq!(
            header("{'descr': '<f4', 'shape': (2,)}"),
            "has a malformed .npy header: no 'fortran_order' key (a header holds 'descr', \
             'fortran_order' and 'shape')"
        );
        assert_eq!(
            header("{'descr': '<f4', 'fortran_order': False}"),
            "has a malformed .npy header: no 'shape' key (a header holds 'descr', \
             'fortran_order' and 'shape')"
        );
        assert_eq!(
            header("{'descr' '<f4'}"),
            "has a malformed .npy header: expected ':' after 'descr' at character 10 of \
             `{'descr' '<f4'}`, found `'<f4'}`"
        );
        assert_eq!(
            header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)"),
            "has a malformed .npy header: expected ',' or '}' at the end of \
             `{'descr': '<f4', 'fortran_order': False, 'shape': (2,)`"
        );
        assert_eq!(
            header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}"),
            "has a malformed .npy header: unknown key 'x' (a header holds 'descr', \
             'fortran_order' and 'shape')"
        );
        assert_eq!(
            header("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}"),
            "has a malformed .npy header: 'descr' is [('a', '<f4')], not a type string such as \
             '<f4' (structured dtypes are not supported)"
        );
        assert_eq!(
            header("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,)}"),
            "has a malformed .npy header: 'shape' is (-2,), not a tuple of sizes"
        );
        assert_eq!(
            header("{'descr': '<f4', 'fortran_order': True, 'shape': (2,)}"),
            "is Fortran-ordered ('fortran_order': True); pld reads C-ordered arrays (save \
             np.ascontiguousarray(a))"
        );
        assert_eq!(
            error(&file(good, &[0; 7])),
            "holds 7 bytes of data after its header; 2 elements of f32 need 8"
        );
    }
}
