//! Small readers for builtin attributes. Each returns `None` when the
//! attribute is of another kind, so the verifier can report it instead of
//! failing.

use melior::ir::{attribute::IntegerAttribute, Attribute, AttributeLike};

/// The value of an integer attribute (any integer type but `i1`) when it
/// is in `i64`'s range as written ([`integer`]); `None` for another kind
/// of attribute, or a value out of range (which a verifier reports with
/// [`integer`]).
pub fn int(attribute: Attribute) -> Option<i64> {
    match integer(attribute)? {
        Integer::InRange(value) => Some(value),
        Integer::OutOfRange(_) => None,
    }
}

/// An integer attribute's value as written: by its type's signedness,
/// unsigned for `ui*`, signed for `si*` and signless (as MLIR prints
/// them), so `4294967295 : ui32` is 4294967295, not -1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Integer {
    /// A value in `i64`'s range.
    InRange(i64),
    /// A value out of it (an unsigned one above `i64::MAX`, a wide one
    /// either way), in decimal as MLIR prints it.
    OutOfRange(String),
}

impl Integer {
    /// Whether the value is below zero.
    pub fn is_negative(&self) -> bool {
        match self {
            Integer::InRange(value) => *value < 0,
            Integer::OutOfRange(text) => text.starts_with('-'),
        }
    }
}

impl std::fmt::Display for Integer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Integer::InRange(value) => write!(f, "{value}"),
            Integer::OutOfRange(text) => f.write_str(text),
        }
    }
}

/// The value of an integer attribute (any integer type but `i1`) as
/// written; `None` for another kind of attribute.
pub fn integer(attribute: Attribute) -> Option<Integer> {
    if is_bool(attribute) {
        return None;
    }
    let integer = IntegerAttribute::try_from(attribute).ok()?;
    // SAFETY: type queries on the live type of a live integer attribute
    // (an integer or `index` type).
    let (width, unsigned) = unsafe {
        let raw = mlir_sys::mlirAttributeGetType(attribute.to_raw());
        if mlir_sys::mlirTypeIsAIndex(raw) {
            (64, false)
        } else {
            let width = mlir_sys::mlirIntegerTypeGetWidth(raw);
            (width, mlir_sys::mlirIntegerTypeIsUnsigned(raw))
        }
    };
    if width > 64 {
        // The C API reads 64 bits; the printed value (`<value> : i128`)
        // is exact.
        let printed = attribute.to_string();
        let value = printed.split(" : ").next().unwrap_or(&printed).to_string();
        return Some(match value.parse() {
            Ok(small) => Integer::InRange(small),
            Err(_) => Integer::OutOfRange(value),
        });
    }
    if unsigned {
        let value = integer.unsigned_value();
        return Some(match i64::try_from(value) {
            Ok(small) => Integer::InRange(small),
            Err(_) => Integer::OutOfRange(value.to_string()),
        });
    }
    Some(Integer::InRange(integer.signed_value()))
}

// SAFETY (for every block below): each accessor is called on a live
// attribute only after the matching `mlirAttributeIsA*` check, indices come
// from the attribute's own element count, and returned strings are copied
// before the function returns.

/// Whether the attribute is `true`/`false`.
pub fn is_bool(attribute: Attribute) -> bool {
    // SAFETY: a kind query on a live attribute.
    unsafe { mlir_sys::mlirAttributeIsABool(attribute.to_raw()) }
}

/// Whether the attribute is an affine map (`affine_map<...>`).
pub fn is_affine_map(attribute: Attribute) -> bool {
    // SAFETY: a kind query on a live attribute.
    unsafe { mlir_sys::mlirAttributeIsAAffineMap(attribute.to_raw()) }
}

/// The value of a `true`/`false` attribute.
pub fn bool_value(attribute: Attribute) -> Option<bool> {
    // SAFETY: checked to be a bool attribute first.
    is_bool(attribute).then(|| unsafe { mlir_sys::mlirBoolAttrGetValue(attribute.to_raw()) })
}

/// Copies an MLIR string reference. Unlike melior's `StringRef::as_str`,
/// it accepts the null data pointer MLIR uses for empty strings.
pub fn string_ref(raw: mlir_sys::MlirStringRef) -> String {
    if raw.data.is_null() || raw.length == 0 {
        return String::new();
    }
    // SAFETY: a non-null MLIR string reference points at `length` readable
    // bytes owned by the context (or the attribute), alive during the copy.
    let bytes = unsafe { std::slice::from_raw_parts(raw.data as *const u8, raw.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// The value of a string attribute.
pub fn string(attribute: Attribute) -> Option<String> {
    let raw = attribute.to_raw();
    // SAFETY: see the note at the top of this file (kind checked first).
    unsafe {
        mlir_sys::mlirAttributeIsAString(raw)
            .then(|| string_ref(mlir_sys::mlirStringAttrGetValue(raw)))
    }
}

/// The elements of an `array<i64: ...>` attribute.
pub fn i64_array(attribute: Attribute) -> Option<Vec<i64>> {
    let raw = attribute.to_raw();
    // SAFETY: see the note at the top of this file (kind checked first).
    unsafe {
        if !mlir_sys::mlirAttributeIsADenseI64Array(raw) {
            return None;
        }
        let len = mlir_sys::mlirDenseArrayGetNumElements(raw);
        Some(
            (0..len)
                .map(|i| mlir_sys::mlirDenseI64ArrayGetElement(raw, i))
                .collect(),
        )
    }
}

/// The elements of an `array<i32: ...>` attribute.
pub fn i32_array(attribute: Attribute) -> Option<Vec<i32>> {
    let raw = attribute.to_raw();
    // SAFETY: see the note at the top of this file (kind checked first).
    unsafe {
        if !mlir_sys::mlirAttributeIsADenseI32Array(raw) {
            return None;
        }
        let len = mlir_sys::mlirDenseArrayGetNumElements(raw);
        Some(
            (0..len)
                .map(|i| mlir_sys::mlirDenseI32ArrayGetElement(raw, i))
                .collect(),
        )
    }
}

/// The elements of an `array<i16: ...>` attribute (the shard dialect's
/// grid axes).
pub fn i16_array(attribute: Attribute) -> Option<Vec<i16>> {
    let raw = attribute.to_raw();
    // SAFETY: see the note at the top of this file (kind checked first).
    unsafe {
        if !mlir_sys::mlirAttributeIsADenseI16Array(raw) {
            return None;
        }
        let len = mlir_sys::mlirDenseArrayGetNumElements(raw);
        Some(
            (0..len)
                .map(|i| mlir_sys::mlirDenseI16ArrayGetElement(raw, i))
                .collect(),
        )
    }
}

/// The elements of an `[...]` array attribute.
pub fn array<'c>(attribute: Attribute<'c>) -> Option<Vec<Attribute<'c>>> {
    let raw = attribute.to_raw();
    // SAFETY: see the note at the top of this file (kind checked first).
    unsafe {
        if !mlir_sys::mlirAttributeIsAArray(raw) {
            return None;
        }
        let len = mlir_sys::mlirArrayAttrGetNumElements(raw);
        Some(
            (0..len)
                .map(|i| Attribute::from_raw(mlir_sys::mlirArrayAttrGetElement(raw, i)))
                .collect(),
        )
    }
}

/// The entries of a `{...}` dictionary attribute, in order.
pub fn dictionary<'c>(attribute: Attribute<'c>) -> Option<Vec<(String, Attribute<'c>)>> {
    let raw = attribute.to_raw();
    // SAFETY: see the note at the top of this file (kind checked first).
    unsafe {
        if !mlir_sys::mlirAttributeIsADictionary(raw) {
            return None;
        }
        let len = mlir_sys::mlirDictionaryAttrGetNumElements(raw);
        Some(
            (0..len)
                .map(|i| {
                    let named = mlir_sys::mlirDictionaryAttrGetElement(raw, i);
                    (
                        string_ref(mlir_sys::mlirIdentifierStr(named.name)),
                        Attribute::from_raw(named.attribute),
                    )
                })
                .collect(),
        )
    }
}

/// The function a `func.call` calls (its `callee` attribute).
pub fn callee(call: melior::ir::OperationRef) -> Option<String> {
    use melior::ir::operation::OperationLike;
    flat_symbol(call.attribute("callee").ok()?)
}

/// The lists of an upstream `shard` dialect axis array, read from its
/// printed form (`#shard<axisarray[[0], [], [1, 2]]>`: the grid axes that
/// split each tensor axis); `None` when it is not one.
pub fn shard_axis_array(attribute: Attribute) -> Option<Vec<Vec<usize>>> {
    let text = attribute.to_string();
    let inner = text
        .strip_prefix("#shard<axisarray")?
        .strip_suffix('>')?
        .trim()
        .strip_prefix('[')?
        .strip_suffix(']')?;
    let mut lists = Vec::new();
    for part in inner.split(']').map(str::trim) {
        let part = part.trim_start_matches(',').trim();
        let Some(list) = part.strip_prefix('[') else {
            continue;
        };
        let axes = list
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| s.parse::<usize>().ok())
            .collect::<Option<Vec<_>>>()?;
        lists.push(axes);
    }
    Some(lists)
}

/// The symbol named by a `@sym` attribute.
pub fn flat_symbol(attribute: Attribute) -> Option<String> {
    let raw = attribute.to_raw();
    // SAFETY: see the note at the top of this file (kind checked first).
    unsafe {
        if !mlir_sys::mlirAttributeIsAFlatSymbolRef(raw) {
            return None;
        }
        Some(string_ref(mlir_sys::mlirFlatSymbolRefAttrGetValue(raw)))
    }
}

/// The type held by a type attribute (e.g. `dtype = f32`).
pub fn type_value<'c>(attribute: Attribute<'c>) -> Option<melior::ir::Type<'c>> {
    let raw = attribute.to_raw();
    // SAFETY: see the note at the top of this file (kind checked first).
    unsafe {
        mlir_sys::mlirAttributeIsAType(raw)
            .then(|| melior::ir::Type::from_raw(mlir_sys::mlirTypeAttrGetValue(raw)))
    }
}

/// The payload of a dynamic (IRDL) attribute `#<mnemonic><"payload">`, read
/// from its printed form because the C API has no accessor for the
/// parameters of dynamic attributes.
pub fn enum_payload(attribute: Attribute, mnemonic: &str) -> Option<String> {
    let text = attribute.to_string();
    let inner = text
        .strip_prefix('#')?
        .strip_prefix(mnemonic)?
        .strip_prefix("<\"")?
        .strip_suffix("\">")?;
    Some(inner.replace("\\\"", "\"").replace("\\\\", "\\"))
}

/// The text between the outer `<` and `>` of a printed dynamic attribute,
/// when it has the given mnemonic.
pub fn dynamic_params(attribute: Attribute, mnemonic: &str) -> Option<String> {
    printed_params(&attribute.to_string(), mnemonic).map(str::to_string)
}

/// [`dynamic_params`] of an attribute printed already.
pub fn printed_params<'t>(text: &'t str, mnemonic: &str) -> Option<&'t str> {
    text.strip_prefix('#')?
        .strip_prefix(mnemonic)?
        .strip_prefix('<')?
        .strip_suffix('>')
}

#[cfg(test)]
mod tests {
    use super::{int, integer, Integer};
    use melior::ir::Attribute;

    #[test]
    fn integers_are_read_by_the_signedness_of_their_type() {
        let context = crate::parse::upstream_context();
        let read = |text: &str| integer(Attribute::parse(&context, text).unwrap());
        let cases = [
            ("4294967295 : ui32", Integer::InRange(4294967295)),
            ("-1 : si32", Integer::InRange(-1)),
            ("-1 : i32", Integer::InRange(-1)),
            ("7 : index", Integer::InRange(7)),
            ("9223372036854775807 : ui64", Integer::InRange(i64::MAX)),
            (
                "9223372036854775808 : ui64",
                Integer::OutOfRange("9223372036854775808".into()),
            ),
            (
                "18446744073709551615 : ui64",
                Integer::OutOfRange("18446744073709551615".into()),
            ),
            ("-5 : i128", Integer::InRange(-5)),
            (
                "36893488147419103232 : i128",
                Integer::OutOfRange("36893488147419103232".into()),
            ),
            (
                "-36893488147419103232 : si128",
                Integer::OutOfRange("-36893488147419103232".into()),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(read(text), Some(expected), "{text}");
        }
        assert_eq!(read("true"), None);
        assert_eq!(read("1.0 : f32"), None);
        // `int` has only the values in range.
        let attribute = Attribute::parse(&context, "18446744073709551615 : ui64").unwrap();
        assert_eq!(int(attribute), None);
        let attribute = Attribute::parse(&context, "4294967295 : ui32").unwrap();
        assert_eq!(int(attribute), Some(4294967295));
    }
}
