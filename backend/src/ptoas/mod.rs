//! `--emit=pto`: the converted module in the custom syntax PTOAS parses.
//!
//! PTOAS reads MLIR with its own op definitions, so it accepts the generic
//! form too, but the generic form of its operand-segment ops changes arity
//! between releases (docs/tools/pld-translate.md). This printer therefore spells every
//! PTO op in its custom form (`pto.tload ins(..) outs(..)`,
//! `pto.comm.tnotify(..) {notifyOp = #pto<notify_op set>}`, compact tile
//! buffer types), `func`/`arith`/`scf` in their standard custom forms, and
//! falls back to the generic form only for ops without a known spelling.
//!
//! It names values itself (`%c4` for constants, `%argN` for block
//! arguments, `%N` otherwise), so the text is self-consistent whatever MLIR
//! would have chosen.
//!
//! Only kernels are emitted: functions carrying `pto.kernel_kind` (set by
//! `convert-pld-to-pto`). HOST and CHIP orchestrators and declarations are
//! not PTO code and are listed in a comment; any other function is an error,
//! because it is device code that was never converted. A kernel may call
//! only kernels (PTOAS has no linker for helpers).
//!
//! The input must be a verified module (`pld-translate` verifies it first):
//! the printer relies on IRDL's operand counts.

mod ops;
mod rules;
mod spelling;

use melior::ir::{
    block::BlockLike, operation::OperationLike, Attribute, BlockRef, Identifier, OperationRef,
    RegionLike, Value, ValueLike,
};
use pld_dialect::{enums::FuncKind, query::function_kind};
use pld_ir::op_name;
use pld_ir::print::symbol_ref;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// Why a module has no PTOAS text: the op to blame and the reason.
pub struct EmitError<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub message: String,
}

type Emitted<'c, 'a, T = ()> = Result<T, EmitError<'c, 'a>>;

fn fail<'c, 'a, T>(op: OperationRef<'c, 'a>, message: impl Into<String>) -> Emitted<'c, 'a, T> {
    Err(EmitError {
        op,
        message: message.into(),
    })
}

/// The PTOAS text of `module` (a `builtin.module`).
pub fn emit<'c, 'a>(module: OperationRef<'c, 'a>) -> Emitted<'c, 'a, String>
where
    'c: 'a,
{
    let mut out = String::from("// PTO for PTOAS, written by pld-translate --emit=pto.\n");
    let mut body = String::new();
    let Some(block) = module.region(0).ok().and_then(|r| r.first_block()) else {
        return fail(module, "expected a module with a body");
    };
    if let Some((op, message)) = crate::unlowered::collectives(module).into_iter().next() {
        return fail(op, message);
    }
    // The functions that will exist in the output: calls may only target
    // these (PTOAS cannot link helpers, docs/tools/pld-translate.md).
    let mut kernels = HashSet::new();
    let mut op = block.first_operation();
    while let Some(current) = op {
        op = current.next_in_block();
        if matches!(classify(current), Function::Kernel) {
            kernels.insert(symbol(current));
        }
    }
    let mut op = block.first_operation();
    while let Some(current) = op {
        op = current.next_in_block();
        if op_name(&current) != "func.func" {
            return fail(
                current,
                "has no PTO form at module level; PTOAS reads functions only",
            );
        }
        match classify(current) {
            Function::Kernel => {
                let mut printer = Printer::new(&mut body, 1, &kernels);
                printer.function(current)?;
            }
            Function::Skipped(why) => {
                writeln!(out, "// skipped {}: {why}", symbol_ref(&symbol(current)))
                    .expect("string write");
            }
            Function::Unconverted(why) => return fail(current, why),
        }
    }
    out.push_str("module");
    let attributes: Vec<String> = module
        .attributes()
        .filter(|(name, _)| {
            name.as_string_ref()
                .as_str()
                .is_ok_and(|n| n.starts_with("pto."))
        })
        .map(named_attribute)
        .collect();
    if !attributes.is_empty() {
        write!(out, " attributes {{{}}}", attributes.join(", ")).expect("string write");
    }
    out.push_str(" {\n");
    out.push_str(&body);
    out.push_str("}\n");
    Ok(out)
}

/// `name = value` in PTOAS spelling, for an attribute dictionary.
fn named_attribute((name, value): (Identifier, Attribute)) -> String {
    format!(
        "{} = {}",
        name.as_string_ref().as_str().unwrap_or_default(),
        spelling::attribute(&value.to_string())
    )
}

enum Function {
    Kernel,
    Skipped(&'static str),
    Unconverted(String),
}

fn classify(function: OperationRef) -> Function {
    if op_name(&function) != "func.func" {
        return Function::Skipped("not a function");
    }
    // PTOAS and the C++ it becomes name functions by C strings (recheck27c
    // H1: `@"k\001"` came out as `@"k\01"`, another name).
    if symbol(function).contains('\0') {
        return Function::Unconverted(format!(
            "{} has {}",
            symbol_ref(&symbol(function)),
            pld_dialect::query::NUL_IN_NAME
        ));
    }
    let bodyless = function
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .is_none();
    // A converted kernel's declaration (an AIV helper defined elsewhere)
    // has no code to emit.
    if function.attribute("pto.kernel_kind").is_ok() && !bodyless {
        return Function::Kernel;
    }
    if pld_dialect::query::builtin_template(function).is_some() {
        return Function::Skipped("builtin kernel, rendered from its template");
    }
    match function_kind(function) {
        Ok(Some(FuncKind::Host)) => Function::Skipped("HOST orchestrator, not PTO code"),
        Ok(Some(FuncKind::Chip)) => Function::Skipped("CHIP orchestrator, not PTO code"),
        _ if bodyless => Function::Skipped("declaration"),
        Ok(Some(kind)) => Function::Unconverted(format!(
            "@{} is an {} without pto.kernel_kind; run convert-pld-to-pto (or the pld-to-pto \
             pipeline) first",
            symbol(function),
            kind.describe()
        )),
        _ => Function::Unconverted(format!(
            "@{0} has no pto.kernel_kind: only kernels converted by convert-pld-to-pto have a \
             PTO form; a helper a kernel calls (which the simulator compiles with it) is \
             inlined into its callers first: make @{0} private and add inline and symbol-dce \
             after pld-to-pto (--pass-pipeline='builtin.module(pld-to-pto,inline,symbol-dce)')",
            symbol(function)
        )),
    }
}

/// A function's name, unquoted.
fn symbol(function: OperationRef) -> String {
    function
        .attribute("sym_name")
        .ok()
        .and_then(pld_ir::attr::string)
        .unwrap_or_default()
}

/// Prints one function: owns the SSA names, which are scoped per function.
struct Printer<'o> {
    out: &'o mut String,
    /// The functions the output defines (what a call may target).
    kernels: &'o HashSet<String>,
    indent: usize,
    names: HashMap<usize, String>,
    used: HashSet<String>,
    /// Per base name, the suffix its next search starts at.
    suffixes: HashMap<String, usize>,
    next_value: usize,
    next_argument: usize,
}

fn key(value: Value) -> usize {
    value.to_raw().ptr as usize
}

impl<'o> Printer<'o> {
    fn new(out: &'o mut String, indent: usize, kernels: &'o HashSet<String>) -> Self {
        Printer {
            out,
            kernels,
            indent,
            names: HashMap::new(),
            used: HashSet::new(),
            suffixes: HashMap::new(),
            next_value: 0,
            next_argument: 0,
        }
    }

    /// Starts a line at the current indentation.
    fn line(&mut self) -> &mut String {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out
    }

    /// Gives `value` a fresh name built from `base`: the first of `base`,
    /// `base_1`, `base_2`, ... not used yet. The search starts after the
    /// suffix `base` took last (names are never freed, so the ones before
    /// are still taken): 40000 constants of one name took 20 s when every
    /// search started at `base`.
    fn define(&mut self, value: Value, base: String) -> String {
        let spelled = |suffix: usize| match suffix {
            0 => base.clone(),
            n => format!("{base}_{n}"),
        };
        let mut suffix = self.suffixes.get(&base).copied().unwrap_or(0);
        let mut name = spelled(suffix);
        while self.used.contains(&name) {
            suffix += 1;
            name = spelled(suffix);
        }
        self.suffixes.insert(base, suffix + 1);
        self.used.insert(name.clone());
        let name = format!("%{name}");
        self.names.insert(key(value), name.clone());
        name
    }

    fn define_argument(&mut self, value: Value) -> String {
        let base = format!("arg{}", self.next_argument);
        self.next_argument += 1;
        self.define(value, base)
    }

    fn define_numbered(&mut self, value: Value) -> String {
        let base = self.next_value.to_string();
        self.next_value += 1;
        self.define(value, base)
    }

    /// The name of a value defined earlier.
    fn name<'c, 'a>(&self, op: OperationRef<'c, 'a>, value: Value) -> Emitted<'c, 'a, String> {
        match self.names.get(&key(value)) {
            Some(name) => Ok(name.clone()),
            None => fail(op, "operand defined outside the function it is used in"),
        }
    }

    fn names<'c, 'a>(
        &self,
        op: OperationRef<'c, 'a>,
        values: &[Value],
    ) -> Emitted<'c, 'a, Vec<String>> {
        values.iter().map(|v| self.name(op, *v)).collect()
    }

    fn function<'c, 'a>(&mut self, function: OperationRef<'c, 'a>) -> Emitted<'c, 'a>
    where
        'c: 'a,
    {
        let Some(block) = function.region(0).ok().and_then(|r| r.first_block()) else {
            return fail(function, "a kernel needs a body");
        };
        if block.next_in_region().is_some() {
            return fail(
                function,
                "PTOAS wraps a kernel body in one code section, so it must be a single block",
            );
        }
        let mut parameters = Vec::new();
        for i in 0..block.argument_count() {
            let argument: Value = block.argument(i).expect("argument in range").into();
            let name = self.define_argument(argument);
            parameters.push(format!(
                "{name}: {}",
                ops::type_(function, argument.r#type())?
            ));
        }
        let private = function
            .attribute("sym_visibility")
            .is_ok_and(|v| v.to_string() == "\"private\"");
        let returns = function
            .attribute("function_type")
            .ok()
            .and_then(pld_ir::attr::type_value)
            .and_then(|t| melior::ir::r#type::FunctionType::try_from(t).ok())
            .map_or(0, |t| t.result_count());
        if returns > 0 {
            // PTOAS kernels (entries or not) are `void` C++ functions.
            return fail(function, "a PTO kernel returns nothing");
        }
        let mut attributes = Vec::new();
        // A public kernel is a launchable entry (`__global__`).
        if !private {
            attributes.push("pto.entry".to_string());
        }
        let kind = function
            .attribute("pto.kernel_kind")
            .expect("classified as a kernel");
        attributes.push(format!(
            "pto.kernel_kind = {}",
            spelling::attribute(&kind.to_string())
        ));
        let visibility = if private { "private " } else { "" };
        let header = format!(
            "func.func {visibility}{}({}) attributes {{{}}} {{\n",
            symbol_ref(&symbol(function)),
            parameters.join(", "),
            attributes.join(", ")
        );
        self.line().push_str(&header);
        self.block_body(block)?;
        self.line().push_str("}\n");
        Ok(())
    }

    /// The ops of a block, one level deeper; an operand-less terminator is
    /// left implicit, as the custom forms of `func`/`scf` allow.
    fn block_body<'c, 'a>(&mut self, block: BlockRef<'c, 'a>) -> Emitted<'c, 'a>
    where
        'c: 'a,
    {
        self.indent += 1;
        let mut op = block.first_operation();
        while let Some(current) = op {
            op = current.next_in_block();
            let implicit =
                op.is_none() && current.operand_count() == 0 && op_name(&current) == "scf.yield";
            if !implicit {
                self.op(current)?;
            }
        }
        self.indent -= 1;
        Ok(())
    }
}
