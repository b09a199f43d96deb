//! Every relative link of the README, ARCHITECTURE.md, the engine's README
//! and the pages of docs/ (the book) resolves: the file or directory it
//! names exists, and its `#anchor` is a heading of the page it points at
//! (GitHub's anchors, which mdBook's agree with for these pages). Links in
//! code (fenced blocks, `code spans`) and to other sites are not links.

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The documents whose links are checked: the README, ARCHITECTURE.md,
/// the engine's README and every page of docs/, relative to `root`.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut docs = vec![
        PathBuf::from("README.md"),
        PathBuf::from("ARCHITECTURE.md"),
        PathBuf::from("crates/engine/README.md"),
    ];
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| p.strip_prefix(root).unwrap().to_path_buf())
        .collect();
    pages.sort();
    docs.extend(pages);
    docs
}

/// `text` with fenced code blocks and code spans blanked out (newlines
/// kept), so that what looks like a link or a heading in code is neither.
fn prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fenced = false;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push('\n');
        } else if fenced {
            out.push('\n');
        } else {
            out.push_str(line);
        }
    }
    // Code spans: a run of n backticks up to the next run of exactly n,
    // across lines as Markdown allows.
    let chars: Vec<char> = out.chars().collect();
    let mut kept = String::with_capacity(out.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            kept.push(chars[i]);
            i += 1;
            continue;
        }
        let run = chars[i..].iter().take_while(|&&c| c == '`').count();
        let mut j = i + run;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let n = chars[j..].iter().take_while(|&&c| c == '`').count();
                if n == run {
                    close = Some(j + n);
                    break;
                }
                j += n;
            } else {
                j += 1;
            }
        }
        match close {
            Some(end) => {
                kept.extend(chars[i..end].iter().filter(|&&c| c == '\n'));
                i = end;
            }
            None => {
                kept.extend(&chars[i..i + run]);
                i += run;
            }
        }
    }
    kept
}

/// GitHub's anchor for a heading: lower case, spaces to dashes, only
/// letters, digits, dashes and underscores kept.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings, a repeated one numbered as GitHub
/// does (`notes`, `notes-1`, ...). Code spans in a heading keep their
/// text, so headings are read outside fenced blocks only.
fn anchors(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if fenced || hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = anchor(&line[hashes..]);
        let seen = out
            .iter()
            .filter(|a| {
                *a == &base
                    || a.strip_prefix(&format!("{base}-"))
                        .is_some_and(|n| n.parse::<u32>().is_ok())
            })
            .count();
        out.push(if seen == 0 {
            base
        } else {
            format!("{base}-{seen}")
        });
    }
    out
}

/// The targets of the inline links and images of `text` (`[..](target)`,
/// `![..](target)`), with their line numbers.
fn links(text: &str) -> Vec<(usize, String)> {
    let prose = prose(text);
    let mut out = Vec::new();
    let mut rest = prose.as_str();
    let mut offset = 0;
    while let Some(i) = rest.find("](") {
        let start = i + 2;
        let tail = &rest[start..];
        let Some(end) = tail.find(')') else { break };
        let target = tail[..end].trim();
        let target = target.split_whitespace().next().unwrap_or_default();
        let target = target.trim_start_matches('<').trim_end_matches('>');
        let line = prose[..offset + start].matches('\n').count() + 1;
        out.push((line, target.to_string()));
        offset += start + end;
        rest = &tail[end..];
    }
    out
}

/// What is wrong with the relative links of `doc` (relative to `root`):
/// one line each, naming the document, the line and the link.
fn broken_links(root: &Path, doc: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(root.join(doc)).unwrap();
    let dir = doc.parent().unwrap_or(Path::new(""));
    let mut broken = Vec::new();
    for (line, target) in links(&text) {
        if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, frag) = target.split_once('#').unwrap_or((&target, ""));
        let path = if file.is_empty() {
            doc.to_path_buf()
        } else {
            dir.join(file)
        };
        let full = root.join(&path);
        if !full.exists() {
            broken.push(format!(
                "{}:{line}: `{target}`: no such file {}",
                doc.display(),
                path.display()
            ));
            continue;
        }
        if frag.is_empty() {
            continue;
        }
        if full.extension().is_none_or(|x| x != "md") {
            broken.push(format!(
                "{}:{line}: `{target}`: an anchor into a file that is not a page",
                doc.display()
            ));
            continue;
        }
        let page = std::fs::read_to_string(&full).unwrap();
        if !anchors(&page).iter().any(|a| a == frag) {
            broken.push(format!(
                "{}:{line}: `{target}`: {} has no heading with the anchor #{frag}",
                doc.display(),
                path.display()
            ));
        }
    }
    broken
}

#[test]
fn every_relative_link_and_anchor_of_the_docs_resolves() {
    let root = Path::new(ROOT);
    let docs = documents(root);
    assert!(docs.len() > 20, "docs/ has its pages: {docs:?}");
    let mut broken = Vec::new();
    let mut checked = 0;
    for doc in &docs {
        checked += links(&std::fs::read_to_string(root.join(doc)).unwrap()).len();
        broken.extend(broken_links(root, doc));
    }
    assert!(checked > 150, "the links are read: {checked}");
    assert!(
        broken.is_empty(),
        "links that do not resolve (fix the link, or the heading it names):\n  {}",
        broken.join("\n  ")
    );
}

#[test]
fn the_link_checker_finds_a_missing_page_and_a_missing_heading() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("docs")).unwrap();
    std::fs::write(
        dir.path().join("docs/a.md"),
        "# A page\n\n## Notes\n\n## Notes\n\n### `solve` (2026)\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("README.md"),
        "# R\n\nSee [a](docs/a.md), [notes](docs/a.md#notes), [again](docs/a.md#notes-1), \
         [solve](docs/a.md#solve-2026), [here](#r), [site](https://example.org/x#y),\n\
         and `[code](gone.md)`:\n\n```sh\n[in a block](gone.md)\n```\n\n\
         Broken: [b](docs/b.md), [c](docs/a.md#notes-2),\n[d](#nowhere).\n",
    )
    .unwrap();
    let broken = broken_links(dir.path(), Path::new("README.md"));
    assert_eq!(broken.len(), 3, "{broken:#?}");
    assert!(
        broken[0].starts_with("README.md:10: `docs/b.md`: no such file"),
        "{broken:#?}"
    );
    assert!(broken[1].contains("`docs/a.md#notes-2`"), "{broken:#?}");
    assert!(
        broken[2].starts_with("README.md:11: `#nowhere`"),
        "{broken:#?}"
    );
}
