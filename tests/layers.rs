//! The layering of ARCHITECTURE.md, checked against the code.
//!
//! Every `crate::`, `super::` and `self::` path in the library and the
//! command-line tool (in `use` lines and inline, outside comments and
//! `#[cfg(test)]` items) is resolved to the file that defines its module.
//! The test fails, naming the file and line, when
//!
//! - a file is in no layer of the table "Modules and what they may touch";
//! - a file imports a file of a higher layer;
//! - files import each other, directly or in a loop, other than the one
//!   loop that ARCHITECTURE.md documents ("The one exception");
//! - library code imports through the crate root's re-exports
//!   (`crate::Position`), which hides the module it really uses.
//!
//! A `pub use` in a module's own `mod.rs` (or `lib.rs`) that hands on the
//! items of its submodules is the module's face, not a dependency, and is
//! not an edge.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// The engine crate's sources, from the repository root.
const ENGINE: &str = "crates/engine/src";

/// A source file: its path from the repository root, its module path, and
/// whether it belongs to the binary (`src/main.rs`, `src/cli/`).
#[derive(Clone, Debug)]
struct Source {
    path: String,
    module: Vec<String>,
    binary: bool,
}

fn sources() -> Vec<Source> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }
    // The engine's crate (crates/engine/src) and the binary's (src/).
    let mut files = Vec::new();
    walk(&Path::new(ROOT).join(ENGINE), &mut files);
    walk(&Path::new(ROOT).join("src"), &mut files);
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(ROOT)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let inner = rel
                .trim_start_matches(ENGINE)
                .trim_start_matches('/')
                .trim_start_matches("src/")
                .trim_end_matches(".rs");
            let mut module: Vec<String> = inner.split('/').map(str::to_string).collect();
            if matches!(
                module.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                module.pop();
            }
            let binary = rel == "src/main.rs" || rel.starts_with("src/cli/");
            Source {
                path: rel,
                module,
                binary,
            }
        })
        .collect()
}

/// The code of a file without comments, string contents and
/// `#[cfg(test)]` items, line by line (line numbers kept).
pub(crate) fn code_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip_depth: Option<i32> = None;
    let mut pending_test = false;
    let mut depth = 0i32;
    let mut in_block_comment = false;
    for raw in text.lines() {
        // Strip block comments, line comments and string literals.
        let mut line = String::new();
        let mut chars = raw.chars().peekable();
        let mut in_str = false;
        while let Some(c) = chars.next() {
            if in_block_comment {
                if c == '*' && chars.peek() == Some(&'/') {
                    chars.next();
                    in_block_comment = false;
                }
                continue;
            }
            if in_str {
                if c == '\\' {
                    chars.next();
                } else if c == '"' {
                    in_str = false;
                    line.push('"');
                }
                continue;
            }
            match c {
                '/' if chars.peek() == Some(&'/') => break,
                '/' if chars.peek() == Some(&'*') => {
                    chars.next();
                    in_block_comment = true;
                }
                '"' => {
                    in_str = true;
                    line.push('"');
                }
                '\'' => {
                    // A char literal ('{', '"') or a lifetime ('a).
                    let rest: String = chars.clone().take(3).collect();
                    if rest.starts_with('\\') {
                        let n = rest.find('\'').map_or(0, |i| i + 1);
                        for _ in 0..n.max(2) {
                            chars.next();
                        }
                        line.push_str("' '");
                    } else if rest.chars().nth(1) == Some('\'') {
                        chars.next();
                        chars.next();
                        line.push_str("' '");
                    } else {
                        line.push('\'');
                    }
                }
                _ => line.push(c),
            }
        }
        let opens = line.matches('{').count() as i32;
        let closes = line.matches('}').count() as i32;
        let trimmed = line.trim();
        if let Some(d) = skip_depth {
            depth += opens - closes;
            if depth <= d {
                skip_depth = None;
            }
            out.push(String::new());
            continue;
        }
        if trimmed.starts_with("#[cfg(")
            && trimmed.contains("test")
            && !trimmed.contains("not(test")
        {
            pending_test = true;
            out.push(String::new());
            continue;
        }
        if pending_test && !trimmed.is_empty() && !trimmed.starts_with("#[") {
            pending_test = false;
            if opens > closes {
                skip_depth = Some(depth);
                depth += opens - closes;
            }
            out.push(String::new());
            continue;
        }
        depth += opens - closes;
        out.push(line);
    }
    out
}

/// The paths a `use` tree names: `a::{b, c::{d, e}}` gives `a::b`,
/// `a::c::d`, `a::c::e`.
fn expand_use(tree: &str) -> Vec<String> {
    // Drop renames (`x as y`), then the spaces.
    let mut words: Vec<&str> = Vec::new();
    let mut it = tree.split_whitespace().peekable();
    while let Some(w) = it.next() {
        if w == "as" {
            // The new name, with any `,` or `}` that follows it.
            if let Some(n) = it.next() {
                let tail = n.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_');
                words.push(tail);
            }
        } else {
            words.push(w);
        }
    }
    let tree: String = words.concat();
    fn go(prefix: &str, tree: &str, out: &mut Vec<String>) {
        match tree.find('{') {
            None => {
                out.push(format!("{prefix}{tree}"));
            }
            Some(i) => {
                let head = &tree[..i];
                let inner = &tree[i + 1..tree.rfind('}').unwrap_or(tree.len())];
                let mut depth = 0;
                let mut start = 0;
                let p = format!("{prefix}{head}");
                for (j, c) in inner.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            if !inner[start..j].is_empty() {
                                go(&p, &inner[start..j], out);
                            }
                            start = j + 1;
                        }
                        _ => {}
                    }
                }
                if !inner[start..].is_empty() {
                    go(&p, &inner[start..], out);
                }
            }
        }
    }
    let mut out = Vec::new();
    go("", &tree, &mut out);
    out
}

/// One path used by a file: the line, the path's segments from `crate`,
/// `super` or `self`, and whether it is a `pub use`.
struct Use {
    line: usize,
    segments: Vec<String>,
    reexport: bool,
}

fn uses(lines: &[String]) -> Vec<Use> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim();
        let is_use = t.starts_with("use ") || (t.starts_with("pub") && t.contains(" use "));
        if is_use && !t.contains("macro_rules") {
            let reexport = t.starts_with("pub");
            let mut stmt = String::new();
            let first = i;
            loop {
                stmt.push_str(lines[i].trim());
                stmt.push(' ');
                if lines[i].contains(';') || i + 1 == lines.len() {
                    break;
                }
                i += 1;
            }
            let body = stmt[stmt.find("use ").unwrap() + 4..].trim();
            let body = body.trim_end().trim_end_matches(';').trim();
            for path in expand_use(body) {
                let segments: Vec<String> = path
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect();
                if matches!(
                    segments.first().map(String::as_str),
                    Some("crate" | "super" | "self" | "$crate")
                ) {
                    out.push(Use {
                        line: first + 1,
                        segments,
                        reexport,
                    });
                }
            }
        } else {
            // Inline paths: `crate::a::b`, `super::x`, `$crate::y`.
            for key in ["$crate::", "crate::", "super::", "self::"] {
                let mut from = 0;
                while let Some(pos) = lines[i][from..].find(key) {
                    let at = from + pos;
                    from = at + key.len();
                    let before = lines[i][..at].chars().last();
                    if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
                        || (key == "crate::" && lines[i][..at].ends_with('$'))
                        || (key == "self::" && lines[i][..at].ends_with("super::"))
                    {
                        continue;
                    }
                    let rest = &lines[i][at..];
                    let end = rest
                        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '$'))
                        .unwrap_or(rest.len());
                    let segments: Vec<String> = rest[..end]
                        .split("::")
                        .filter(|s| !s.is_empty())
                        .map(str::to_string)
                        .collect();
                    out.push(Use {
                        line: i + 1,
                        segments,
                        reexport: false,
                    });
                }
            }
        }
        i += 1;
    }
    out
}

/// The file of the module that `segments` (from `crate`, `super` or
/// `self`, as seen from `from`) names: the longest prefix that is a
/// module. `None` for a path into the crate root's own items.
fn resolve(
    from: &Source,
    segments: &[String],
    modules: &HashMap<(bool, Vec<String>), usize>,
    macros: &HashMap<String, usize>,
) -> Option<Result<usize, String>> {
    let mut base: Vec<String> = Vec::new();
    let mut rest = segments;
    let own = |m: &[String]| -> Vec<String> { m.to_vec() };
    let mut module = own(&from.module);
    // A file's module path for `super`: the module that contains it.
    while let Some(first) = rest.first() {
        match first.as_str() {
            "crate" | "$crate" => {
                base.clear();
                module.clear();
                rest = &rest[1..];
                break;
            }
            "self" => {
                base = module.clone();
                rest = &rest[1..];
            }
            "super" => {
                module.pop();
                base = module.clone();
                rest = &rest[1..];
            }
            _ => break,
        }
    }
    if segments[0] == "self" || segments[0] == "super" {
        base = module.clone();
    }
    let mut path = base.clone();
    let mut best = modules.get(&(from.binary, path.clone())).copied();
    let mut matched = 0;
    for (n, s) in rest.iter().enumerate() {
        path.push(s.clone());
        if let Some(&f) = modules.get(&(from.binary, path.clone())) {
            best = Some(f);
            matched = n + 1;
        } else {
            break;
        }
    }
    if base.is_empty() && matched == 0 {
        // An item of the crate root: a macro exported from a module, or a
        // re-export of lib.rs.
        let name = rest.first()?;
        if let Some(&f) = macros.get(name) {
            return Some(Ok(f));
        }
        if from.binary {
            return None;
        }
        return Some(Err(format!(
            "crate::{name} goes through the crate root's re-exports; name the module"
        )));
    }
    best.map(Ok)
}

/// One row entry of the layer table: a module path, whether it names the
/// binary's modules (`bin:`), and its layer.
type LayerEntry = (Vec<String>, bool, u32);

/// The layer table of ARCHITECTURE.md: module path -> layer, and the files
/// of the documented loop.
fn layer_table() -> (Vec<LayerEntry>, BTreeSet<String>) {
    let text = std::fs::read_to_string(Path::new(ROOT).join("ARCHITECTURE.md")).unwrap();
    let section = text
        .split("## Modules and what they may touch")
        .nth(1)
        .expect("ARCHITECTURE.md has the section \"Modules and what they may touch\"");
    let mut table = Vec::new();
    for line in section.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 || !line.starts_with('|') {
            continue;
        }
        let layer: u32 = match cells[1].parse() {
            Ok(l) => l,
            Err(_) => continue,
        };
        for name in cells[2].split('`').skip(1).step_by(2) {
            let (binary, name) = match name.strip_prefix("bin:") {
                Some(n) => (true, n),
                None => (false, name),
            };
            let path = if name.is_empty() || name == "crate" {
                Vec::new()
            } else {
                name.split("::").map(str::to_string).collect()
            };
            table.push((path, binary, layer));
        }
    }
    assert!(!table.is_empty(), "no layer rows found in ARCHITECTURE.md");
    let exception = section
        .split("### The one exception")
        .nth(1)
        .map(|s| {
            s.split("\n#")
                .next()
                .unwrap_or("")
                .split('`')
                .skip(1)
                .step_by(2)
                .filter(|f| f.starts_with("src/") || f.starts_with(ENGINE))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    (table, exception)
}

fn layer_of(src: &Source, table: &[LayerEntry]) -> Option<u32> {
    table
        .iter()
        .filter(|(p, bin, _)| {
            // The crate root (an empty path) is lib.rs or main.rs alone.
            *bin == src.binary
                && src.module.starts_with(p)
                && (!p.is_empty() || src.module.is_empty())
        })
        .max_by_key(|(p, _, _)| p.len())
        .map(|&(_, _, l)| l)
}

/// Strongly connected components of the file graph (Tarjan).
fn cycles(n: usize, edges: &BTreeMap<(usize, usize), usize>) -> Vec<Vec<usize>> {
    let mut adj = vec![Vec::new(); n];
    for &(a, b) in edges.keys() {
        adj[a].push(b);
    }
    struct T<'a> {
        adj: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(t: &mut T, v: usize) {
        t.index[v] = Some(t.next);
        t.low[v] = t.next;
        t.next += 1;
        t.stack.push(v);
        t.on[v] = true;
        for i in 0..t.adj[v].len() {
            let w = t.adj[v][i];
            match t.index[w] {
                None => {
                    visit(t, w);
                    t.low[v] = t.low[v].min(t.low[w]);
                }
                Some(iw) if t.on[w] => t.low[v] = t.low[v].min(iw),
                _ => {}
            }
        }
        if Some(t.low[v]) == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        adj: &adj,
        index: vec![None; n],
        low: vec![0; n],
        on: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            visit(&mut t, v);
        }
    }
    t.out
}

/// The import graph: for every (importer, imported) pair, the first line.
struct Graph {
    files: Vec<Source>,
    edges: BTreeMap<(usize, usize), usize>,
    problems: Vec<String>,
}

fn graph() -> Graph {
    let files = sources();
    let mut modules = HashMap::new();
    for (i, f) in files.iter().enumerate() {
        modules.insert((f.binary, f.module.clone()), i);
    }
    let mut macros = HashMap::new();
    let texts: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(Path::new(ROOT).join(&f.path)).unwrap())
        .collect();
    for (i, text) in texts.iter().enumerate() {
        let mut exported = false;
        for line in text.lines() {
            let t = line.trim();
            if t.starts_with("#[macro_export]") {
                exported = true;
            } else if let Some(rest) = t.strip_prefix("macro_rules!") {
                if exported {
                    let name: String = rest
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    macros.insert(name, i);
                }
                exported = false;
            } else if !t.starts_with("#[") && !t.starts_with("///") && !t.is_empty() {
                exported = false;
            }
        }
    }
    let mut edges = BTreeMap::new();
    let mut problems = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let lines = code_lines(&texts[i]);
        for u in uses(&lines) {
            let target = match resolve(f, &u.segments, &modules, &macros) {
                None => continue,
                Some(Err(why)) => {
                    problems.push(format!("{}:{}: {why}", f.path, u.line));
                    continue;
                }
                Some(Ok(t)) => t,
            };
            if target == i {
                continue;
            }
            let to = &files[target];
            let face = u.reexport
                && to.module.len() > f.module.len()
                && to.module.starts_with(&f.module)
                && to.binary == f.binary;
            if face {
                continue;
            }
            edges.entry((i, target)).or_insert(u.line);
        }
    }
    Graph {
        files,
        edges,
        problems,
    }
}

#[test]
fn imports_follow_the_layers_of_architecture_md() {
    let (table, exception) = layer_table();
    let g = graph();
    let mut problems = g.problems.clone();
    let layers: Vec<Option<u32>> = g.files.iter().map(|f| layer_of(f, &table)).collect();
    for (f, l) in g.files.iter().zip(&layers) {
        if l.is_none() {
            problems.push(format!(
                "{}: in no layer of ARCHITECTURE.md (add its module to the table)",
                f.path
            ));
        }
    }
    for (&(a, b), &line) in &g.edges {
        if let (Some(la), Some(lb)) = (layers[a], layers[b]) {
            if lb > la {
                problems.push(format!(
                    "{}:{line}: imports {} (layer {lb}) from layer {la}",
                    g.files[a].path, g.files[b].path
                ));
            }
        }
    }
    for comp in cycles(g.files.len(), &g.edges) {
        let names: BTreeSet<String> = comp.iter().map(|&i| g.files[i].path.clone()).collect();
        if names == exception {
            continue;
        }
        let mut why = Vec::new();
        for &a in &comp {
            for &b in &comp {
                if let Some(line) = g.edges.get(&(a, b)) {
                    why.push(format!("{}:{line} -> {}", g.files[a].path, g.files[b].path));
                }
            }
        }
        problems.push(format!("files that import each other: {}", why.join("; ")));
    }
    assert!(
        problems.is_empty(),
        "the layering of ARCHITECTURE.md does not hold:\n  {}",
        problems.join("\n  ")
    );
}

#[test]
fn the_documented_exception_is_a_real_loop() {
    let (_, exception) = layer_table();
    if exception.is_empty() {
        return;
    }
    let g = graph();
    let found = cycles(g.files.len(), &g.edges)
        .into_iter()
        .map(|c| {
            c.iter()
                .map(|&i| g.files[i].path.clone())
                .collect::<BTreeSet<_>>()
        })
        .any(|c| c == exception);
    assert!(
        found,
        "ARCHITECTURE.md documents the loop {exception:?}, which the code no longer has: \
         remove it from \"The one exception\""
    );
}

#[test]
fn the_checker_sees_imports() {
    // The parser itself, on a few shapes of `use`.
    assert_eq!(
        expand_use("crate::a::{b, c::{d, e as f}}"),
        ["crate::a::b", "crate::a::c::d", "crate::a::c::e"]
    );
    let lines = code_lines(
        "use crate::x::Y; // crate::z\nfn f() { let c = '{'; crate::w::v(); }\n\
         #[cfg(test)]\nmod tests {\n    use crate::t::U;\n}\nuse super::q;\n",
    );
    let found: Vec<String> = uses(&lines).iter().map(|u| u.segments.join("::")).collect();
    assert_eq!(found, ["crate::x::Y", "crate::w::v", "super::q"]);
}
