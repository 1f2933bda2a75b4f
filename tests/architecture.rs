//! The architecture's rules that a compiler does not check
//! (docs/architecture.md):
//!
//! - in every crate of the workspace, the top-level module trees (`a` with
//!   everything under `a/`) reference each other without a cycle, and so
//!   do the modules at every level (a module and the modules inside it are
//!   one tree, which may use each other);
//! - the simulator's four layers only reach down: the runtime uses none of
//!   the compiler, the explorer and programs; the compiler neither of the
//!   last two; the explorer not programs.
//!
//! A reference is a path `crate::a...` (also inside `use crate::{a, b}`),
//! or `super::a`, outside comments and
//! outside the file's `#[cfg(test)]` module (the tests of a module may use
//! anything). Cargo already refuses a cycle between crates.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The workspace's crate directories, from the root `Cargo.toml`.
fn members(root: &Path) -> Vec<PathBuf> {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("read Cargo.toml");
    let line = manifest
        .lines()
        .find(|l| l.trim_start().starts_with("members"))
        .expect("a members line");
    line.split('"')
        .skip(1)
        .step_by(2)
        .map(|member| root.join(member))
        .collect()
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir)
        .expect("read a source directory")
        .flatten()
    {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The text of a file as the rules read it: comment lines dropped, and
/// nothing from its `#[cfg(test)]` test module on.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|next| next.trim_start().starts_with("mod tests"))
        {
            break;
        }
        if !trimmed.starts_with("//") {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The first identifier of `text`.
fn identifier(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// A crate's graph: module -> (module it uses -> a file that does).
type Graph = BTreeMap<String, BTreeMap<String, PathBuf>>;

/// The granularity of a graph.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    /// Top-level module trees (`a` with everything under `a/`).
    Trees,
    /// Modules at every level; a module and those inside it are one tree
    /// and may use each other.
    Modules,
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(graph: &Graph) -> Vec<Vec<String>> {
    struct Walk<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        found: Vec<Vec<String>>,
    }
    impl<'g> Walk<'g> {
        fn visit(&mut self, v: &'g str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            for w in self.graph.get(v).into_iter().flat_map(|e| e.keys()) {
                if !self.index.contains_key(w.as_str()) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w.as_str()]);
                    self.low.insert(v, low);
                } else if self.stack.contains(&w.as_str()) {
                    let low = self.low[v].min(self.index[w.as_str()]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    component.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.found
}

/// The module a file of `src/` is (`a::b` for `a/b.rs` or `a/b/mod.rs`);
/// `None` for the crate root and the binaries.
fn module_path(src: &Path, file: &Path) -> Option<Vec<String>> {
    let relative = file.strip_prefix(src).ok()?;
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.first().is_some_and(|p| p == "bin") {
        return None;
    }
    let last = parts.pop()?;
    match last.as_str() {
        "lib.rs" | "main.rs" if parts.is_empty() => return None,
        "mod.rs" => {}
        _ => parts.push(last.trim_end_matches(".rs").to_string()),
    }
    Some(parts)
}

/// The paths `code` names: each `crate::a::b...` (also in `use
/// crate::{a::b, c}`) and `super::a...`, as segments from the crate root
/// (`super` taken from `module`).
fn paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let segments = |text: &str| -> Vec<String> {
        let mut out = Vec::new();
        let mut rest = text;
        loop {
            let name = identifier(rest);
            if name.is_empty() {
                break;
            }
            out.push(name.to_string());
            match rest[name.len()..].strip_prefix("::") {
                Some(next) => rest = next,
                None => break,
            }
        }
        out
    };
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        match rest.strip_prefix('{') {
            Some(list) => {
                let list = &list[..list.find(';').unwrap_or(list.len())];
                let mut depth = 0;
                let mut start = true;
                for (i, c) in list.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ',' if depth == 0 => start = true,
                        c if start && !c.is_whitespace() => {
                            start = false;
                            found.push(segments(&list[i..]));
                        }
                        _ => {}
                    }
                }
            }
            None => found.push(segments(rest)),
        }
    }
    let parent = &module[..module.len().saturating_sub(1)];
    for (at, _) in code.match_indices("super::") {
        let mut path = parent.to_vec();
        path.extend(segments(&code[at + "super::".len()..]));
        found.push(path);
    }
    found
}

/// A crate's modules (at `level`), each with the modules it uses.
fn module_graph(src: &Path, level: Level) -> Graph {
    let mut files = Vec::new();
    sources(src, &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().filter_map(|f| module_path(src, f)).collect();
    let shown = |m: &[String]| match level {
        Level::Trees => m[0].clone(),
        Level::Modules => m.join("::"),
    };
    let apart = |a: &[String], b: &[String]| match level {
        Level::Trees => a[0] != b[0],
        Level::Modules => !(a.starts_with(b) || b.starts_with(a)),
    };
    let mut graph = Graph::new();
    for file in &files {
        let Some(module) = module_path(src, file) else {
            continue;
        };
        let text = std::fs::read_to_string(file).expect("read a source file");
        let edges = graph.entry(shown(&module)).or_default();
        for path in paths(&code(&text), &module) {
            // The longest prefix of the path that is a module.
            let target = (1..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|p| modules.contains(p));
            if let Some(target) = target.filter(|t| apart(t, &module)) {
                edges.entry(shown(&target)).or_insert_with(|| file.clone());
            }
        }
    }
    graph
}

/// The failures of `graph`'s cycles, each with its edges and files.
fn cycle_failures(member: &Path, graph: &Graph) -> Vec<String> {
    cycles(graph)
        .into_iter()
        .map(|component| {
            let edges: Vec<String> = component
                .iter()
                .flat_map(|m| {
                    graph[m]
                        .iter()
                        .filter(|(to, _)| component.contains(to))
                        .map(move |(to, file)| format!("{m} -> {to} ({})", file.display()))
                })
                .collect();
            format!(
                "{}: a cycle of {}:\n    {}",
                member.display(),
                component.join(", "),
                edges.join("\n    ")
            )
        })
        .collect()
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn no_crate_has_a_cycle_of_module_trees() {
    let failures: Vec<String> = members(&root())
        .iter()
        .flat_map(|member| cycle_failures(member, &module_graph(&member.join("src"), Level::Trees)))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn no_crate_has_a_cycle_of_modules_at_any_level() {
    let failures: Vec<String> = members(&root())
        .iter()
        .flat_map(|member| {
            cycle_failures(member, &module_graph(&member.join("src"), Level::Modules))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_simulator_layers_only_reach_down() {
    let layers = ["runtime", "compiler", "explore", "program"];
    let graph = module_graph(&root().join("sim/src"), Level::Trees);
    let mut failures = Vec::new();
    for (below, layer) in layers.iter().enumerate() {
        for (target, file) in graph.get(*layer).into_iter().flatten() {
            if layers[below + 1..].contains(&target.as_str()) {
                failures.push(format!("{layer} uses {target} ({})", file.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_cycle_and_its_references_are_found() {
    let module = ["x".to_string(), "y".to_string()];
    let text = "use crate::{a::b::C, d};\n// crate::c in a comment\nfn f() { super::z::g(); crate::e::f::h(); }\n#[cfg(test)]\nmod tests { use crate::t; }\n";
    let found = paths(&code(text), &module);
    let expected: Vec<Vec<&str>> = vec![
        vec!["a", "b", "C"],
        vec!["d"],
        vec!["e", "f", "h"],
        vec!["x", "z", "g"],
    ];
    assert_eq!(found, expected);
    let mut graph = Graph::new();
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        graph
            .entry(from.into())
            .or_default()
            .insert(to.into(), PathBuf::new());
    }
    assert_eq!(cycles(&graph), vec![vec!["a", "b", "c"]]);
}
