//! One op at a time: the PTO custom forms of docs/tools/pld-translate.md, the
//! standard custom forms of the `arith`, `scf` and `func` ops kernels hold,
//! and the generic form for anything else of those dialects.

use super::{fail, spelling, Emitted, Printer};
use melior::ir::{
    block::BlockLike, operation::OperationLike, OperationRef, RegionLike, Type, Value, ValueLike,
};
use pld_ir::op_name;
use std::fmt::Write;

/// The PTOAS spelling of a type, blaming `op` if it has none.
pub(super) fn type_<'c, 'a>(op: OperationRef<'c, 'a>, ty: Type) -> Emitted<'c, 'a, String> {
    spelling::type_(&ty.to_string()).or_else(|message| fail(op, message))
}

const BINARY: &[&str] = &[
    "addi",
    "subi",
    "muli",
    "divsi",
    "divui",
    "ceildivsi",
    "ceildivui",
    "floordivsi",
    "remsi",
    "remui",
    "minsi",
    "maxsi",
    "minui",
    "maxui",
    "andi",
    "ori",
    "xori",
    "shli",
    "shrsi",
    "shrui",
    "addf",
    "subf",
    "mulf",
    "divf",
    "maximumf",
    "minimumf",
];

const CASTS: &[&str] = &[
    "index_cast",
    "index_castui",
    "trunci",
    "extsi",
    "extui",
    "sitofp",
    "uitofp",
    "fptosi",
    "fptoui",
    "truncf",
    "extf",
    "bitcast",
];

const CMPI: &[&str] = &[
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];

const CMPF: &[&str] = &[
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
    "une", "uno", "true",
];

/// PTOAS op names: our IRDL file spells `.` inside a mnemonic as `_`.
fn pto_name(name: &str) -> String {
    for (ours, theirs) in [
        ("pto.comm_", "pto.comm."),
        ("pto.fence_", "pto.fence."),
        ("pto.cmo_", "pto.cmo."),
    ] {
        if let Some(rest) = name.strip_prefix(ours) {
            return format!("{theirs}{rest}");
        }
    }
    name.to_string()
}

/// The op's attributes other than the ones its custom form spells itself;
/// `true` if there are any (the custom form would drop them).
fn has_other_attributes(op: OperationRef, spelled: &[&str]) -> bool {
    op.attributes().any(|(name, value)| {
        let name = name
            .as_string_ref()
            .as_str()
            .unwrap_or_default()
            .to_string();
        let text = value.to_string();
        // Defaults that the custom forms leave out.
        let default = (name == "overflowFlags" && text == "#arith.overflow<none>")
            || (name == "fastmath" && text == "#arith.fastmath<none>");
        !spelled.contains(&name.as_str()) && !default
    })
}

fn integer(text: &str) -> Option<i64> {
    text.split(" : ").next()?.trim().parse().ok()
}

/// `operandSegmentSizes`, read from its `array<i32: ...>` text.
fn segments(op: OperationRef) -> Option<Vec<usize>> {
    let text = op.attribute("operandSegmentSizes").ok()?.to_string();
    let body = text.strip_prefix("array<i32:")?.strip_suffix('>')?;
    body.split(',').map(|s| s.trim().parse().ok()).collect()
}

fn joined(items: &[String]) -> String {
    items.join(", ")
}

/// One PTO op as the custom-form printers see it: its short name, operand
/// names and types, and result types.
struct Form<'x, 'c, 'a> {
    op: OperationRef<'c, 'a>,
    short: &'x str,
    a: &'x [String],
    t: &'x [String],
    results: Vec<String>,
}

impl Form<'_, '_, '_> {
    /// The member name of an enum attribute.
    fn enum_value(&self, attribute: &str) -> Option<String> {
        let text = self.op.attribute(attribute).ok()?.to_string();
        spelling::enum_attribute(&text).map(|(_, v)| v.to_string())
    }

    /// ` {attribute = value}` in PTOAS spelling, or nothing.
    fn dictionary(&self, attribute: &str) -> String {
        self.op
            .attribute(attribute)
            .map(|v| format!(" {{{attribute} = {}}}", spelling::attribute(&v.to_string())))
            .unwrap_or_default()
    }

    /// Whether the op has attributes besides `spelled` (then it stays generic).
    fn own(&self, spelled: &[&str]) -> bool {
        has_other_attributes(self.op, spelled)
    }

    /// The operand names by segment, for ops with `operandSegmentSizes`.
    fn groups(&self) -> Option<Vec<Vec<String>>> {
        let mut groups = Vec::new();
        let mut at = 0;
        for n in segments(self.op)? {
            groups.push(self.a.get(at..at + n)?.to_vec());
            at += n;
        }
        Some(groups)
    }
}

impl Printer<'_> {
    pub(super) fn op<'c, 'a>(&mut self, op: OperationRef<'c, 'a>) -> Emitted<'c, 'a>
    where
        'c: 'a,
    {
        let name = op_name(&op);
        let dialect = name.split('.').next().unwrap_or_default();
        if !matches!(dialect, "func" | "arith" | "scf" | "pto") {
            return fail(
                op,
                "has no PTO form: a converted kernel holds func, arith, scf and pto ops only",
            );
        }
        let operands: Vec<Value> = op.operands().collect();
        let types: Vec<String> = operands
            .iter()
            .map(|v| type_(op, v.r#type()))
            .collect::<Result<_, _>>()?;
        let args = self.names(op, &operands)?;
        if dialect == "pto" {
            if let Some(text) = self.pto(op, &name, &args, &types)? {
                self.line().push_str(&text);
                self.out.push('\n');
                return Ok(());
            }
        } else if let Some(handled) = self.standard(op, &name, &args, &types)? {
            if handled {
                return Ok(());
            }
        }
        self.generic(op, &args, &types)
    }

    /// Result names and `%a, %b = ` (empty for no results).
    fn results<'c, 'a>(&mut self, op: OperationRef<'c, 'a>) -> (Vec<String>, String) {
        let names: Vec<String> = op
            .results()
            .map(|r| {
                let value: Value = r.into();
                self.define_numbered(value)
            })
            .collect();
        let prefix = if names.is_empty() {
            String::new()
        } else {
            format!("{} = ", joined(&names))
        };
        (names, prefix)
    }

    fn result_types<'c, 'a>(&self, op: OperationRef<'c, 'a>) -> Emitted<'c, 'a, Vec<String>> {
        op.results().map(|r| type_(op, r.r#type())).collect()
    }

    /// The custom form of a PTO op, or `None` for the generic fallback.
    fn pto<'c, 'a>(
        &mut self,
        op: OperationRef<'c, 'a>,
        name: &str,
        a: &[String],
        t: &[String],
    ) -> Emitted<'c, 'a, Option<String>> {
        let short = name.trim_start_matches("pto.");
        let form = Form {
            op,
            short,
            a,
            t,
            results: self.result_types(op)?,
        };
        if short.starts_with("comm_") {
            self.comm_form(&form)
        } else if matches!(short, "barrier" | "fence_barrier_all" | "cmo_cacheinvalid") {
            self.sync_form(&form)
        } else if matches!(
            short,
            "tload" | "tstore" | "tadd" | "tmax" | "tmin" | "tmul"
        ) || short.starts_with("tfillpad")
        {
            self.tile_form(&form)
        } else {
            self.view_form(&form)
        }
    }

    /// Scalars, pointers, views, tile allocation and block queries.
    fn view_form<'c, 'a>(&mut self, form: &Form<'_, 'c, 'a>) -> Emitted<'c, 'a, Option<String>> {
        let op = form.op;
        let short = form.short;
        let a = form.a;
        let t = form.t;
        let results = &form.results;
        let own = |spelled: &[&str]| form.own(spelled);
        let dictionary = |attribute: &str| form.dictionary(attribute);
        let text = match form.short {
            "load_scalar" if !own(&[]) => {
                let (_, lhs) = self.results(op);
                format!(
                    "{lhs}pto.load_scalar {}[{}] : {} -> {}",
                    a[0], a[1], t[0], results[0]
                )
            }
            "store_scalar" if !own(&[]) => format!(
                "pto.store_scalar {}, {}[{}] : {}, {}",
                a[0], a[1], a[2], t[1], t[0]
            ),
            "addptr" if !own(&[]) => {
                let (_, lhs) = self.results(op);
                format!(
                    "{lhs}pto.addptr {}, {} : {} -> {}",
                    a[0], a[1], t[0], results[0]
                )
            }
            "make_tensor_view" if !own(&["layout", "operandSegmentSizes"]) => {
                let Some(groups) = form.groups() else {
                    return Ok(None);
                };
                let (_, lhs) = self.results(op);
                format!(
                    "{lhs}pto.make_tensor_view {}, shape = [{}], strides = [{}]{} : {}",
                    a[0],
                    joined(&groups[1]),
                    joined(&groups[2]),
                    dictionary("layout"),
                    results[0]
                )
            }
            "partition_view" if !own(&["operandSegmentSizes"]) => {
                let Some(groups) = form.groups() else {
                    return Ok(None);
                };
                let (_, lhs) = self.results(op);
                format!(
                    "{lhs}pto.partition_view {}, offsets = [{}], sizes = [{}] : {} -> {}",
                    a[0],
                    joined(&groups[1]),
                    joined(&groups[2]),
                    t[0],
                    results[0]
                )
            }
            "alloc_tile" if !own(&["operandSegmentSizes"]) => {
                let Some(groups) = form.groups() else {
                    return Ok(None);
                };
                let target = pld_dialect::target::target_of(op).unwrap_or_default();
                let buffer = op.result(0).map(|r| r.r#type().to_string());
                let parsed = buffer
                    .as_deref()
                    .ok()
                    .map(pld_dialect::pto_types::TileBuf::parse);
                if let Some(Ok(tile)) = parsed {
                    super::rules::tile_fits(&tile, target.ub_bytes(), &target.to_string())
                        .or_else(|e| fail(op, e))?;
                }
                let mut clauses = String::new();
                for (keyword, group) in ["addr", "valid_row", "valid_col"].iter().zip(&groups) {
                    if let Some(value) = group.first() {
                        write!(clauses, " {keyword} = {value}").expect("string write");
                    }
                }
                let (_, lhs) = self.results(op);
                format!("{lhs}pto.alloc_tile{clauses} : {}", results[0])
            }
            "set_validshape" if !own(&[]) => {
                format!("pto.set_validshape {}, {}, {} : {}", a[0], a[1], a[2], t[0])
            }
            "get_validshape" if !own(&[]) => {
                let (_, lhs) = self.results(op);
                format!("{lhs}pto.get_validshape {} : {}", a[0], t[0])
            }
            "get_block_idx" | "get_block_num" if !own(&[]) => {
                let (_, lhs) = self.results(op);
                format!("{lhs}pto.{short}")
            }

            _ => return Ok(None),
        };
        Ok(Some(text))
    }

    /// Tile loads, stores and elementwise ops.
    fn tile_form<'c, 'a>(&mut self, form: &Form<'_, 'c, 'a>) -> Emitted<'c, 'a, Option<String>> {
        let short = form.short;
        let a = form.a;
        let t = form.t;
        let own = |spelled: &[&str]| form.own(spelled);
        let dictionary = |attribute: &str| form.dictionary(attribute);
        let text = match form.short {
            // Only the plain two-operand forms; padding operands go generic.
            "tload" if !own(&["operandSegmentSizes"]) && a.len() == 2 => format!(
                "pto.tload ins({} : {}) outs({} : {})",
                a[0], t[0], a[1], t[1]
            ),
            "tstore" if !own(&["operandSegmentSizes", "atomicType"]) && a.len() == 2 => {
                format!(
                    "pto.tstore ins({} : {}) outs({} : {}){}",
                    a[0],
                    t[0],
                    a[1],
                    t[1],
                    dictionary("atomicType")
                )
            }
            "tadd" | "tmax" | "tmin" | "tmul" if !own(&[]) => format!(
                "pto.{short} ins({}, {} : {}, {}) outs({} : {})",
                a[0], a[1], t[0], t[1], a[2], t[2]
            ),
            "tfillpad" | "tfillpad_inplace" if !own(&[]) => format!(
                "pto.{short} ins({} : {}) outs({} : {})",
                a[0], t[0], a[1], t[1]
            ),
            _ => return Ok(None),
        };
        Ok(Some(text))
    }

    /// Pipe barriers, fences and cache maintenance.
    fn sync_form<'c, 'a>(&mut self, form: &Form<'_, 'c, 'a>) -> Emitted<'c, 'a, Option<String>> {
        let op = form.op;
        let a = form.a;
        let t = form.t;
        let own = |spelled: &[&str]| form.own(spelled);
        let enum_value = |attribute: &str| form.enum_value(attribute);
        let text = match form.short {
            "barrier" if !own(&["pipe"]) => match enum_value("pipe") {
                Some(pipe) => format!("pto.barrier <{pipe}>"),
                None => return Ok(None),
            },
            "fence_barrier_all" if !own(&["scope"]) => {
                let scope = op
                    .attribute("scope")
                    .map(|s| spelling::attribute(&s.to_string()))
                    .unwrap_or_else(|_| "#pto.fence_scope<gm>".into());
                format!("pto.fence.barrier_all {scope}")
            }
            // `all` takes no address, `single_cache_line` exactly one; any
            // other combination keeps the generic form rather than lose it.
            "cmo_cacheinvalid" if !own(&["line", "space"]) => {
                match (enum_value("line").as_deref(), a.first()) {
                    (Some("all"), None) => {
                        let space = op
                            .attribute("space")
                            .map(|s| spelling::attribute(&s.to_string()))
                            .unwrap_or_else(|_| "#pto.address_space<gm>".into());
                        format!("pto.cmo.cacheinvalid all {space}")
                    }
                    (Some("single_cache_line"), Some(address))
                        if op.attribute("space").is_err() =>
                    {
                        format!(
                            "pto.cmo.cacheinvalid {address} single_cache_line : {}",
                            t[0]
                        )
                    }
                    _ => {
                        // The generic form would need a `line` spelling PTOAS
                        // does not document; refuse rather than guess.
                        return fail(
                            op,
                            "a cache invalidate needs either line 'all' without an address or \
                             'single_cache_line' with one (and no space)",
                        );
                    }
                }
            }
            _ => return Ok(None),
        };
        Ok(Some(text))
    }

    /// Signals and remote copies (`pto.comm.*`).
    fn comm_form<'c, 'a>(&mut self, form: &Form<'_, 'c, 'a>) -> Emitted<'c, 'a, Option<String>> {
        let op = form.op;
        let a = form.a;
        let t = form.t;
        let results = &form.results;
        let own = |spelled: &[&str]| form.own(spelled);
        let dictionary = |attribute: &str| form.dictionary(attribute);
        if matches!(form.short, "comm_tnotify" | "comm_twait" | "comm_ttest") {
            super::rules::signal(t).or_else(|e| fail(op, e))?;
        }
        let text = match form.short {
            "comm_tnotify" if !own(&["notifyOp"]) => format!(
                "pto.comm.tnotify({}, {} : {}, {}){}",
                a[0],
                a[1],
                t[0],
                t[1],
                dictionary("notifyOp")
            ),
            "comm_twait" if !own(&["cmp"]) => format!(
                "pto.comm.twait({}, {} : {}, {}){}",
                a[0],
                a[1],
                t[0],
                t[1],
                dictionary("cmp")
            ),
            "comm_ttest" if !own(&["cmp"]) => {
                let (_, lhs) = self.results(op);
                format!(
                    "{lhs}pto.comm.ttest({}, {} : {}, {}){} -> {}",
                    a[0],
                    a[1],
                    t[0],
                    t[1],
                    dictionary("cmp"),
                    results[0]
                )
            }
            // tget has no atomic mode: an `atomicType` on it keeps the op
            // generic rather than vanish.
            "comm_tput" if !own(&["atomicType"]) => self.transfer(op, "tput", a, t),
            "comm_tget" if !own(&[]) => self.transfer(op, "tget", a, t),
            "comm_build_async_session" if !own(&["engine", "operandSegmentSizes"]) => {
                let (_, lhs) = self.results(op);
                format!(
                    "{lhs}pto.comm.build_async_session({} : {}){} -> {}",
                    joined(a),
                    joined(t),
                    dictionary("engine"),
                    results[0]
                )
            }
            "comm_tput_async" | "comm_tget_async" if !own(&["operandSegmentSizes"]) => {
                let (_, lhs) = self.results(op);
                let mnemonic = form.short.trim_start_matches("comm_");
                format!(
                    "{lhs}pto.comm.{mnemonic}({} : {}) -> {}",
                    joined(a),
                    joined(t),
                    results[0]
                )
            }
            "comm_wait_async_event" | "comm_test_async_event" if !own(&[]) => {
                let (_, lhs) = self.results(op);
                let mnemonic = form.short.trim_start_matches("comm_");
                format!(
                    "{lhs}pto.comm.{mnemonic}({} : {}) -> {}",
                    joined(a),
                    joined(t),
                    results[0]
                )
            }
            _ => return Ok(None),
        };
        Ok(Some(text))
    }

    /// `pto.comm.tput(dst, src, buf(ping[, pong]) : ...)`; a put always
    /// states its atomic mode.
    fn transfer(&self, op: OperationRef, mnemonic: &str, a: &[String], t: &[String]) -> String {
        let atomic = if mnemonic == "tput" {
            let text = op
                .attribute("atomicType")
                .map(|v| spelling::attribute(&v.to_string()))
                .unwrap_or_else(|_| "#pto<atomic_type atomic_none>".into());
            format!(" {{atomicType = {text}}}")
        } else {
            String::new()
        };
        format!(
            "pto.comm.{mnemonic}({}, {}, buf({}) : {}){atomic}",
            a[0],
            a[1],
            joined(&a[2..]),
            joined(t)
        )
    }

    /// The custom form of a `func`, `arith` or `scf` op; `Some(true)` once
    /// printed, `None` for the generic fallback.
    fn standard<'c, 'a>(
        &mut self,
        op: OperationRef<'c, 'a>,
        name: &str,
        a: &[String],
        t: &[String],
    ) -> Emitted<'c, 'a, Option<bool>>
    where
        'c: 'a,
    {
        let (dialect, mnemonic) = name.split_once('.').unwrap_or_default();
        let results = self.result_types(op)?;
        let text = match (dialect, mnemonic) {
            ("func", "return") => {
                if a.is_empty() {
                    "return".to_string()
                } else {
                    format!("return {} : {}", joined(a), joined(t))
                }
            }
            ("func", "call") => {
                let callee = pld_ir::attr::callee(op);
                let Some(callee) = callee else {
                    return Ok(None);
                };
                if !self.kernels.contains(&callee) {
                    return fail(
                        op,
                        format!(
                            "calls {}, which has no PTO form here; PTOAS links no helpers, so \
                             inline it or make it a converted kernel",
                            super::symbol_ref(&callee)
                        ),
                    );
                }
                if has_other_attributes(op, &["callee"]) {
                    return Ok(None);
                }
                let callee = super::symbol_ref(&callee);
                let (_, lhs) = self.results(op);
                format!(
                    "{lhs}call {callee}({}) : ({}) -> ({})",
                    joined(a),
                    joined(t),
                    joined(&results)
                )
            }
            ("arith", "constant") if !has_other_attributes(op, &["value"]) => {
                let Ok(value) = op.attribute("value") else {
                    return Ok(None);
                };
                let text = value.to_string();
                let result: Value = op.result(0).expect("constant result").into();
                let lhs = self.define(result, constant_name(&text));
                format!("{lhs} = arith.constant {text}")
            }
            ("arith", "cmpi" | "cmpf") if !has_other_attributes(op, &["predicate"]) => {
                let table = if mnemonic == "cmpi" { CMPI } else { CMPF };
                let predicate = op
                    .attribute("predicate")
                    .ok()
                    .and_then(|p| integer(&p.to_string()))
                    .and_then(|p| table.get(usize::try_from(p).ok()?));
                let Some(predicate) = predicate else {
                    return Ok(None);
                };
                let (_, lhs) = self.results(op);
                format!(
                    "{lhs}arith.{mnemonic} {predicate}, {}, {} : {}",
                    a[0], a[1], t[0]
                )
            }
            ("arith", "select") if !has_other_attributes(op, &[]) => {
                let (_, lhs) = self.results(op);
                format!(
                    "{lhs}arith.select {}, {}, {} : {}",
                    a[0], a[1], a[2], results[0]
                )
            }
            ("arith", m) if BINARY.contains(&m) && !has_other_attributes(op, &[]) => {
                let (_, lhs) = self.results(op);
                format!("{lhs}arith.{m} {}, {} : {}", a[0], a[1], results[0])
            }
            ("arith", m) if CASTS.contains(&m) && !has_other_attributes(op, &[]) => {
                let (_, lhs) = self.results(op);
                format!("{lhs}arith.{m} {} : {} to {}", a[0], t[0], results[0])
            }
            ("scf", "for") if !has_other_attributes(op, &[]) => {
                self.scf_for(op, a, t, &results)?;
                return Ok(Some(true));
            }
            ("scf", "if") if !has_other_attributes(op, &[]) => {
                self.scf_if(op, a, &results)?;
                return Ok(Some(true));
            }
            ("scf", "yield") => {
                if a.is_empty() {
                    "scf.yield".to_string()
                } else {
                    format!("scf.yield {} : {}", joined(a), joined(t))
                }
            }
            _ => return Ok(None),
        };
        self.line().push_str(&text);
        self.out.push('\n');
        Ok(Some(true))
    }

    /// `scf.for %iv = %lb to %ub step %s iter_args(%x = %init) -> (T) {`.
    fn scf_for<'c, 'a>(
        &mut self,
        op: OperationRef<'c, 'a>,
        a: &[String],
        t: &[String],
        results: &[String],
    ) -> Emitted<'c, 'a>
    where
        'c: 'a,
    {
        let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) else {
            return fail(op, "scf.for without a body");
        };
        let (_, lhs) = self.results(op);
        let mut arguments = Vec::new();
        for i in 0..body.argument_count() {
            let argument: Value = body.argument(i).expect("argument in range").into();
            arguments.push(self.define_argument(argument));
        }
        let mut text = format!(
            "{lhs}scf.for {} = {} to {} step {}",
            arguments[0], a[0], a[1], a[2]
        );
        if a.len() > 3 {
            let pairs: Vec<String> = arguments[1..]
                .iter()
                .zip(&a[3..])
                .map(|(arg, init)| format!("{arg} = {init}"))
                .collect();
            write!(
                text,
                " iter_args({}) -> ({})",
                joined(&pairs),
                joined(results)
            )
            .expect("string write");
        }
        if t[0] != "index" {
            write!(text, " : {}", t[0]).expect("string write");
        }
        text.push_str(" {\n");
        self.line().push_str(&text);
        self.block_body(body)?;
        self.line().push_str("}\n");
        Ok(())
    }

    /// `scf.if %c -> (T) { .. } else { .. }`.
    fn scf_if<'c, 'a>(
        &mut self,
        op: OperationRef<'c, 'a>,
        a: &[String],
        results: &[String],
    ) -> Emitted<'c, 'a>
    where
        'c: 'a,
    {
        let (_, lhs) = self.results(op);
        let mut text = format!("{lhs}scf.if {}", a[0]);
        if !results.is_empty() {
            write!(text, " -> ({})", joined(results)).expect("string write");
        }
        text.push_str(" {\n");
        self.line().push_str(&text);
        let then = op.region(0).ok().and_then(|r| r.first_block());
        let Some(then) = then else {
            return fail(op, "scf.if without a then block");
        };
        self.block_body(then)?;
        if let Some(otherwise) = op.region(1).ok().and_then(|r| r.first_block()) {
            self.line().push_str("} else {\n");
            self.block_body(otherwise)?;
        }
        self.line().push_str("}\n");
        Ok(())
    }

    /// `%r = "name"(%a) ({ regions }) {attrs} : (T) -> R`, with the PTOAS
    /// op name and attribute spellings. Inherent attributes go in the plain
    /// dictionary: MLIR parsers since properties were introduced (LLVM 17)
    /// move them into an op's properties (checked with mlir-opt 22; PTOAS
    /// builds on LLVM 19).
    fn generic<'c, 'a>(
        &mut self,
        op: OperationRef<'c, 'a>,
        a: &[String],
        t: &[String],
    ) -> Emitted<'c, 'a>
    where
        'c: 'a,
    {
        let results = self.result_types(op)?;
        let (_, lhs) = self.results(op);
        let attributes: Vec<String> = op.attributes().map(super::named_attribute).collect();
        let mut text = format!("{lhs}\"{}\"({})", pto_name(&op_name(&op)), joined(a));
        let regions: Vec<_> = op.regions().collect();
        if !regions.is_empty() {
            text.push_str(" (");
            self.line().push_str(&text);
            for (i, region) in regions.iter().enumerate() {
                self.out.push_str(if i == 0 { "{\n" } else { ", {\n" });
                let mut block = region.first_block();
                let mut label = 0;
                while let Some(current) = block {
                    block = current.next_in_region();
                    let mut arguments = Vec::new();
                    for j in 0..current.argument_count() {
                        let argument: Value =
                            current.argument(j).expect("argument in range").into();
                        let ty = type_(op, argument.r#type())?;
                        arguments.push(format!("{}: {ty}", self.define_argument(argument)));
                    }
                    let header = if arguments.is_empty() {
                        format!("^bb{label}:\n")
                    } else {
                        format!("^bb{label}({}):\n", joined(&arguments))
                    };
                    label += 1;
                    self.line().push_str(&header);
                    self.indent += 1;
                    let mut inner = current.first_operation();
                    while let Some(nested) = inner {
                        inner = nested.next_in_block();
                        self.op(nested)?;
                    }
                    self.indent -= 1;
                }
                self.line().push('}');
            }
            text = ")".into();
        }
        if !attributes.is_empty() {
            write!(text, " {{{}}}", joined(&attributes)).expect("string write");
        }
        write!(text, " : ({}) -> ({})", joined(t), joined(&results)).expect("string write");
        if regions.is_empty() {
            self.line().push_str(&text);
        } else {
            self.out.push_str(&text);
        }
        self.out.push('\n');
        Ok(())
    }
}

/// MLIR's names for constants: `%c4`, `%c1_i32`, `%true`, `%cst`.
fn constant_name(text: &str) -> String {
    match text {
        "true" | "false" => return text.to_string(),
        _ => {}
    }
    let (value, ty) = text.split_once(" : ").unwrap_or((text, ""));
    if value.parse::<i64>().is_err() {
        return "cst".to_string();
    }
    match ty {
        "" | "index" => format!("c{value}"),
        ty => format!("c{value}_{ty}"),
    }
}
