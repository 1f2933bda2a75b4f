//! Writing the body of a generated function as MLIR text: constants
//! hoisted to the top, fresh SSA names, every op at one location.

use pld_dialect::enums::{FuncKind, PldEnum};
use std::collections::BTreeMap;

/// The body of one function being written.
pub struct Body {
    /// `index` constants, hoisted to the function's entry.
    constants: BTreeMap<i64, String>,
    /// Constants of other types (`i32`, `i64`), by their text.
    typed: BTreeMap<String, String>,
    head: Vec<String>,
    lines: Vec<String>,
    next: usize,
    depth: usize,
    /// The trailing location of every op: `loc("f.mlir":3:8)`.
    pub loc: String,
}

impl Body {
    pub fn new(loc: &str) -> Body {
        Body {
            constants: BTreeMap::new(),
            typed: BTreeMap::new(),
            head: Vec::new(),
            lines: Vec::new(),
            next: 0,
            depth: 1,
            loc: loc.to_string(),
        }
    }

    /// A fresh SSA name with `prefix` (`%v3`).
    pub fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("%{prefix}{}", self.next)
    }

    /// The `index` constant `value`.
    pub fn index(&mut self, value: i64) -> String {
        if let Some(name) = self.constants.get(&value) {
            return name.clone();
        }
        let name = if value < 0 {
            format!("%cm{}", value.unsigned_abs())
        } else {
            format!("%c{value}")
        };
        self.constants.insert(value, name.clone());
        name
    }

    /// A constant of another integer type (`i32`, `i64`).
    pub fn typed(&mut self, value: i64, ty: &str) -> String {
        let key = format!("{value} : {ty}");
        if let Some(name) = self.typed.get(&key) {
            return name.clone();
        }
        let name = format!("%k{}_{ty}_{}", value.unsigned_abs(), self.typed.len());
        self.typed.insert(key, name.clone());
        name
    }

    /// An op at the entry, after the constants (views, the device index).
    pub fn head(&mut self, op: &str) {
        let loc = self.loc.clone();
        self.head_at(op, &loc);
    }

    /// [`Body::head`] at another location.
    pub fn head_at(&mut self, op: &str, loc: &str) {
        self.head.push(format!("  {op} {loc}"));
    }

    /// An op at the current point.
    pub fn op(&mut self, op: &str) {
        let loc = self.loc.clone();
        self.op_at(op, &loc);
    }

    /// [`Body::op`] at another location.
    pub fn op_at(&mut self, op: &str, loc: &str) {
        let pad = "  ".repeat(self.depth);
        self.lines.push(format!("{pad}{op} {loc}"));
    }

    /// `value = lhs <op> rhs` on `index`, folding the identities.
    pub fn arith(&mut self, op: &str, lhs: &str, rhs: &str) -> String {
        let result = self.fresh("t");
        self.op(&format!("{result} = arith.{op} {lhs}, {rhs} : index"));
        result
    }

    /// Opens `scf.for %i = 0 to count step 1`; returns `%i`.
    pub fn open_for(&mut self, count: usize) -> String {
        let induction = self.fresh("i");
        let (zero, one, upper) = (self.index(0), self.index(1), self.index(count as i64));
        let pad = "  ".repeat(self.depth);
        self.lines.push(format!(
            "{pad}scf.for {induction} = {zero} to {upper} step {one} {{"
        ));
        self.depth += 1;
        induction
    }

    /// Closes the innermost loop.
    pub fn close(&mut self) {
        self.depth -= 1;
        let pad = "  ".repeat(self.depth);
        self.lines.push(format!("{pad}}} {}", self.loc));
    }

    /// The body's text: constants, head, ops.
    pub fn finish(self) -> String {
        let mut out = String::new();
        for (value, name) in &self.constants {
            out.push_str(&format!(
                "  {name} = arith.constant {value} : index {}\n",
                self.loc
            ));
        }
        for (key, name) in &self.typed {
            out.push_str(&format!("  {name} = arith.constant {key} {}\n", self.loc));
        }
        for line in self.head.iter().chain(&self.lines) {
            out.push_str(line);
            out.push('\n');
        }
        out
    }
}

/// The text inside `loc(...)` of a printed location.
pub fn loc_inner(printed: &str) -> &str {
    printed
        .strip_prefix("loc(")
        .and_then(|s| s.strip_suffix(')'))
        .unwrap_or("unknown")
}

/// A name location around a printed location: `loc("name"(inner))`.
pub fn named_loc(name: &str, printed: &str) -> String {
    format!(
        "loc(\"{}\"({}))",
        pld_ir::print::escaped(name),
        loc_inner(printed)
    )
}

/// The attribute dictionary of a function of kind `kind`:
/// `{pld.kind = #pld.func_kind<"host">}`.
pub fn kind_attributes(kind: FuncKind) -> String {
    format!("{{pld.kind = #{}<\"{kind}\">}}", FuncKind::ATTR)
}
