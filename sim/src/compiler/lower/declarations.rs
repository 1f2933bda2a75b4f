//! The device functions as MLIR declarations, read from `pld_sim.h`.
//!
//! The header is the one definition of the simulator's device-function
//! ABI: bindgen reads it for the Rust side, and this module reads its
//! prototypes for the kernels' side, so a function added or changed there
//! cannot be declared differently here.

/// A C parameter or result type of a device function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CType {
    /// Any pointer (`void *`, `const int32_t *`, `PldSimBlockFn`, ...):
    /// `!llvm.ptr`.
    Pointer,
    I32,
    I64,
}

impl CType {
    fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        // A data pointer, or a function pointer (a block of a launch).
        if text.contains('*') || text.trim() == "PldSimBlockFn" {
            return Ok(CType::Pointer);
        }
        match text.trim_start_matches("const ").trim() {
            "int32_t" => Ok(CType::I32),
            "int64_t" => Ok(CType::I64),
            other => Err(format!("pld_sim.h: no MLIR type for the C type '{other}'")),
        }
    }

    fn mlir(self) -> &'static str {
        match self {
            CType::Pointer => "!llvm.ptr",
            CType::I32 => "i32",
            CType::I64 => "i64",
        }
    }
}

/// One `pld_sim_*` prototype.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceFunction {
    pub name: String,
    pub parameters: Vec<CType>,
    pub result: Option<CType>,
}

impl DeviceFunction {
    /// `func.func private @name(...) -> ...`.
    pub fn declaration(&self) -> String {
        let parameters: Vec<&str> = self.parameters.iter().map(|t| t.mlir()).collect();
        let result = self
            .result
            .map(|r| format!(" -> {}", r.mlir()))
            .unwrap_or_default();
        format!(
            "func.func private @{}({}){result}",
            self.name,
            parameters.join(", ")
        )
    }
}

/// Every prototype of `header` whose name starts with `pld_sim_`.
pub fn parse_header(header: &str) -> Result<Vec<DeviceFunction>, String> {
    let code = strip_comments_and_directives(header);
    let mut functions = Vec::new();
    for statement in code.split(';') {
        let statement = statement.split_whitespace().collect::<Vec<_>>().join(" ");
        let Some(open) = statement.find("pld_sim_") else {
            continue;
        };
        let (result, rest) = statement.split_at(open);
        let Some((name, parameters)) = rest.split_once('(') else {
            continue;
        };
        let parameters = parameters.trim_end().trim_end_matches(')');
        let result = match result.trim().trim_start_matches('}').trim() {
            "void" => None,
            other => Some(CType::parse(other)?),
        };
        let parameters = match parameters.trim() {
            "" | "void" => Vec::new(),
            list => list
                .split(',')
                .map(|p| CType::parse(&drop_name(p)))
                .collect::<Result<_, _>>()?,
        };
        functions.push(DeviceFunction {
            name: name.trim().to_string(),
            parameters,
            result,
        });
    }
    Ok(functions)
}

/// The device functions of the simulator's header.
pub fn device_functions() -> Vec<DeviceFunction> {
    parse_header(pld_runtime_sys::PLD_SIM_H)
        .expect("pld_sim.h declares only types the lowering knows (a unit test checks)")
}

/// The declarations of every device function, as MLIR source.
pub fn declarations() -> String {
    device_functions()
        .iter()
        .map(DeviceFunction::declaration)
        .collect::<Vec<_>>()
        .join("\n")
}

/// `const int32_t *cell` -> `const int32_t *`.
fn drop_name(parameter: &str) -> String {
    let parameter = parameter.trim();
    match parameter.rfind(|c: char| !(c.is_alphanumeric() || c == '_')) {
        Some(end) => parameter[..=end].to_string(),
        None => parameter.to_string(),
    }
}

fn strip_comments_and_directives(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        rest = rest[start + 2..]
            .split_once("*/")
            .map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .filter(|l| !l.trim_start().starts_with('#'))
        .map(|l| l.replace("extern \"C\" {", ""))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_implemented_function_is_declared_in_the_header() {
        let declared = device_functions();
        for (name, _) in crate::runtime::ffi::DEVICE_FUNCTIONS {
            assert!(
                declared.iter().any(|f| f.name == *name),
                "{name} is implemented but not declared in pld_sim.h"
            );
        }
    }

    #[test]
    fn reads_the_prototypes() {
        let header = "/* a comment; with pld_sim_fake(int) */\n#define X 1\n\
                      void pld_sim_a(int32_t *cell, int32_t value,\n int32_t op);\n\
                      int32_t pld_sim_b(const int32_t *cell);\nvoid pld_sim_c(void);\n\
                      void *pld_sim_d(int64_t bytes);";
        let functions = parse_header(header).unwrap();
        let declarations: Vec<String> = functions.iter().map(|f| f.declaration()).collect();
        assert_eq!(
            declarations,
            [
                "func.func private @pld_sim_a(!llvm.ptr, i32, i32)",
                "func.func private @pld_sim_b(!llvm.ptr) -> i32",
                "func.func private @pld_sim_c()",
                "func.func private @pld_sim_d(i64) -> !llvm.ptr",
            ]
        );
        assert!(parse_header("void pld_sim_e(float x);").is_err());
    }

    #[test]
    fn the_header_declares_the_functions_kernels_call() {
        let functions = device_functions();
        let names: Vec<&str> = functions.iter().map(|f| f.name.as_str()).collect();
        for name in [
            "pld_sim_at",
            "pld_sim_notify",
            "pld_sim_wait",
            "pld_sim_test",
            "pld_sim_fence",
            "pld_sim_tile_alloc",
            "pld_sim_copy",
            "pld_sim_fill_pad",
        ] {
            assert!(names.contains(&name), "{name} in {names:?}");
        }
        let copy = functions.iter().find(|f| f.name == "pld_sim_copy").unwrap();
        assert_eq!(copy.parameters.len(), 10);
    }
}
