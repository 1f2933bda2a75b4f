//! The architecture's rules that a compiler does not check
//! (docs/architecture.md):
//!
//! - in every crate of the workspace, the modules inside any one module
//!   (the crate's top-level modules too) use each other without a cycle,
//!   each counted with everything inside it (a module and the modules
//!   inside it are one tree, which may use each other);
//! - the simulator's four layers only reach down: the runtime uses none of
//!   the compiler, the explorer and programs; the compiler neither of the
//!   last two; the explorer not programs.
//!
//! A use is a path `crate::a::b...` (also inside `use crate::{a::b, c::{d,
//! e}}`) or `super::...` (`super::super::...` too), outside comments and
//! outside a file's `#[cfg(test)] mod tests` block (the tests of a module
//! may use anything). Cargo already refuses a cycle between crates.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The workspace's crate directories, from the root `Cargo.toml`.
fn members(root: &Path) -> Vec<PathBuf> {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("read Cargo.toml");
    let line = manifest
        .lines()
        .find(|l| l.trim_start().starts_with("members"))
        .expect("a members line");
    let members: Vec<PathBuf> = line
        .split('"')
        .skip(1)
        .step_by(2)
        .map(|member| root.join(member))
        .collect();
    assert!(members.len() > 5, "the members line lists {members:?}");
    members
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
/// its `#[cfg(test)] mod tests { ... }` block (to its closing brace).
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    let mut depth: Option<i64> = None;
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if let Some(open) = depth.as_mut() {
            *open += line.matches('{').count() as i64 - line.matches('}').count() as i64;
            if *open <= 0 && line.contains('}') {
                depth = None;
            }
            continue;
        }
        if trimmed == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|next| next.trim_start().starts_with("mod tests"))
        {
            depth = Some(0);
            continue;
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

/// The strongly connected components of more than one module (Tarjan),
/// each sorted.
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

/// The paths of a use tree at the start of `text` (after `crate::` or
/// `super::`), each prefixed by `prefix`: `a::b` gives `prefix::a::b`,
/// `a::{b, c::{d}}` gives `prefix::a::b` and `prefix::a::c::d`.
fn use_tree(text: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    let mut rest = text;
    loop {
        let name = identifier(rest);
        if name.is_empty() {
            break;
        }
        path.push(name.to_string());
        match rest[name.len()..].strip_prefix("::") {
            Some(next) => rest = next,
            None => break,
        }
    }
    let Some(list) = rest.strip_prefix('{') else {
        out.push(path);
        return;
    };
    // Each item of the braces at depth 0, read as a tree of its own.
    let (mut depth, mut start) = (0, 0);
    for (i, c) in list.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                use_tree(list[start..i].trim_start(), &path, out);
                return;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                use_tree(list[start..i].trim_start(), &path, out);
                start = i + 1;
            }
            _ => {}
        }
    }
}

/// The paths `code` uses, as segments from the crate root (`super` taken
/// from `module`).
fn paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        use_tree(&code[at + "crate::".len()..], &[], &mut found);
    }
    for (at, _) in code.match_indices("super::") {
        // The first `super` of a chain: count the chain.
        if code[..at].ends_with("::") {
            continue;
        }
        let mut rest = &code[at..];
        let mut up = 0;
        while let Some(next) = rest.strip_prefix("super::") {
            up += 1;
            rest = next;
        }
        let base = &module[..module.len().saturating_sub(up)];
        use_tree(rest, base, &mut found);
    }
    found
}

/// One use: the module, the module it uses, the file that does.
type Use = (Vec<String>, Vec<String>, PathBuf);

/// The modules of the crate under `src`, and every use between them (the
/// used module being the longest prefix of the path that is one).
fn uses(src: &Path) -> (BTreeSet<Vec<String>>, Vec<Use>) {
    let mut files = Vec::new();
    sources(src, &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().filter_map(|f| module_path(src, f)).collect();
    let mut found = Vec::new();
    for file in &files {
        let Some(module) = module_path(src, file) else {
            continue;
        };
        let text = std::fs::read_to_string(file).expect("read a source file");
        for path in paths(&code(&text), &module) {
            let target = (1..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|p| modules.contains(p));
            if let Some(target) = target {
                found.push((module.clone(), target, file.clone()));
            }
        }
    }
    (modules, found)
}

/// The graph of the modules directly inside `parent` (the crate's
/// top-level modules for an empty one), each with everything inside it.
fn children_graph(parent: &[String], modules: &BTreeSet<Vec<String>>, uses: &[Use]) -> Graph {
    let child = |m: &Vec<String>| {
        (m.len() > parent.len() && m.starts_with(parent)).then(|| m[..=parent.len()].join("::"))
    };
    let mut graph = Graph::new();
    for m in modules
        .iter()
        .filter(|m| m.len() == parent.len() + 1 && m.starts_with(parent))
    {
        graph.entry(m.join("::")).or_default();
    }
    for (from, to, file) in uses {
        if let (Some(a), Some(b)) = (child(from), child(to)) {
            if a != b {
                graph
                    .entry(a)
                    .or_default()
                    .entry(b)
                    .or_insert_with(|| file.clone());
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
fn no_crate_has_a_cycle_of_modules_inside_one_module() {
    let mut failures = Vec::new();
    let mut modules_seen = 0;
    for member in members(&root()) {
        let (modules, uses) = uses(&member.join("src"));
        modules_seen += modules.len();
        let parents = std::iter::once(Vec::new()).chain(modules.iter().cloned());
        for parent in parents {
            let graph = children_graph(&parent, &modules, &uses);
            failures.extend(cycle_failures(&member, &graph));
        }
    }
    assert!(modules_seen > 100, "only {modules_seen} modules read");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_simulator_layers_only_reach_down() {
    let layers = ["runtime", "compiler", "explore", "program"];
    let (modules, uses) = uses(&root().join("sim/src"));
    let graph = children_graph(&[], &modules, &uses);
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
fn uses_and_cycles_are_found() {
    let module = ["x".to_string(), "y".to_string()];
    let text = "use crate::{a::b::C, d::{e, f::G}};\n// crate::c in a comment\n\
                fn f() { super::z::g(); super::super::w::h(); crate::e::f::h(); }\n\
                #[cfg(test)]\nmod tests {\n    use crate::t;\n    fn f() { if x { y } }\n}\n\
                fn after() { crate::q::r(); }\n";
    let found = paths(&code(text), &module);
    let expected: Vec<Vec<&str>> = vec![
        vec!["a", "b", "C"],
        vec!["d", "e"],
        vec!["d", "f", "G"],
        vec!["e", "f", "h"],
        vec!["q", "r"],
        vec!["x", "z", "g"],
        vec!["w", "h"],
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
    // A use of a module's child from the module's own sibling's child is
    // a use between the siblings.
    let modules: BTreeSet<Vec<String>> = [vec!["r"], vec!["r", "a"], vec!["r", "b"], vec!["s"]]
        .into_iter()
        .map(|m| m.into_iter().map(String::from).collect())
        .collect();
    let path = |m: &[&str]| m.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let uses = vec![
        (path(&["r", "a"]), path(&["s"]), PathBuf::new()),
        (path(&["s"]), path(&["r", "b"]), PathBuf::new()),
    ];
    let top = children_graph(&[], &modules, &uses);
    assert_eq!(cycles(&top), vec![vec!["r", "s"]]);
}
