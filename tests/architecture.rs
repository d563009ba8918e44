//! The crate's architecture, checked: the module graph (one node per module, one edge per
//! `use` or path that names another module's item, followed through re-exports to the module
//! that defines it, except a module's re-exports of its own descendants) has no cycle, no command imports another
//! command, and the evaluation wing's layers point one way (record ← gate ← eval ← report ←
//! ci ← commands). The graph is read from the source with `syn`, test code left out, like
//! `cargo modules dependencies --acyclic` would read it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

type ModPath = Vec<String>;

/// One module of the crate: where its file is and what it declares.
struct Module {
    file: PathBuf,
    /// Names of the child modules it declares (`mod x;`), test modules left out.
    children: BTreeSet<String>,
    /// Paths it names, as written, each with whether it is named by a re-export (`pub use`).
    uses: Vec<(ModPath, bool)>,
    /// What it re-exports: the name others use → the path as written in its `pub use`.
    reexports: BTreeMap<String, ModPath>,
}

fn is_test_attr(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        if a.path().is_ident("test") {
            return true;
        }
        if !a.path().is_ident("cfg") {
            return false;
        }
        let text = a.meta.to_token_stream_string();
        // `#[cfg(test)]` and `#[cfg(all(test, ...))]`, not `#[cfg(not(test))]`.
        text.contains("test") && !text.contains("not (test")
    })
}

trait MetaText {
    fn to_token_stream_string(&self) -> String;
}

impl MetaText for syn::Meta {
    fn to_token_stream_string(&self) -> String {
        quote::ToTokens::to_token_stream(self).to_string()
    }
}

fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

/// Collects the paths a module names, skipping test items.
#[derive(Default)]
struct Paths {
    found: Vec<(Vec<String>, bool)>,
    children: Vec<(String, Option<String>)>,
    /// Inside a `pub use` (any visibility wider than private).
    reexporting: bool,
    reexports: BTreeMap<String, Vec<String>>,
}

impl Paths {
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut full = prefix.clone();
                if n.ident != "self" {
                    full.push(n.ident.to_string());
                }
                if self.reexporting
                    && let Some(last) = full.last()
                {
                    self.reexports.insert(last.clone(), full.clone());
                }
                self.found.push((full, self.reexporting));
            }
            syn::UseTree::Rename(r) => {
                let mut full = prefix.clone();
                if r.ident != "self" {
                    full.push(r.ident.to_string());
                }
                if self.reexporting {
                    self.reexports.insert(r.rename.to_string(), full.clone());
                }
                self.found.push((full, self.reexporting));
            }
            syn::UseTree::Glob(_) => self.found.push((prefix.clone(), self.reexporting)),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
        }
    }

    /// `crate::a::b` sequences inside macro invocations (format!, vec!, …), read from tokens.
    fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
        let flat: Vec<proc_macro2::TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < flat.len() {
            match &flat[i] {
                proc_macro2::TokenTree::Group(g) => self.tokens(g.stream()),
                proc_macro2::TokenTree::Ident(id)
                    if id == "crate" || id == "super" || id == "self" =>
                {
                    let mut path = vec![id.to_string()];
                    let mut j = i + 1;
                    loop {
                        let colons = matches!(flat.get(j), Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == ':')
                            && matches!(flat.get(j + 1), Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == ':');
                        match (colons, flat.get(j + 2)) {
                            (true, Some(proc_macro2::TokenTree::Ident(next))) => {
                                path.push(next.to_string());
                                j += 3;
                            }
                            _ => break,
                        }
                    }
                    if path.len() > 1 {
                        self.found.push((path, false));
                    }
                    i = j;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_item(&mut self, i: &'ast syn::Item) {
        let attrs: &[syn::Attribute] = match i {
            syn::Item::Fn(x) => &x.attrs,
            syn::Item::Mod(x) => &x.attrs,
            syn::Item::Impl(x) => &x.attrs,
            syn::Item::Use(x) => &x.attrs,
            syn::Item::Struct(x) => &x.attrs,
            syn::Item::Enum(x) => &x.attrs,
            syn::Item::Const(x) => &x.attrs,
            syn::Item::Static(x) => &x.attrs,
            syn::Item::Trait(x) => &x.attrs,
            syn::Item::Type(x) => &x.attrs,
            syn::Item::Macro(x) => &x.attrs,
            _ => &[],
        };
        if is_test_attr(attrs) {
            return;
        }
        match i {
            syn::Item::Mod(m) if m.content.is_none() => {
                self.children
                    .push((m.ident.to_string(), path_attr(&m.attrs)));
            }
            syn::Item::Use(u) => {
                self.reexporting = !matches!(u.vis, syn::Visibility::Inherited);
                self.use_tree(&mut Vec::new(), &u.tree);
                self.reexporting = false;
            }
            _ => syn::visit::visit_item(self, i),
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_test_attr(&f.attrs) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        if p.leading_colon.is_none() && p.segments.len() > 1 {
            self.found.push((
                p.segments.iter().map(|s| s.ident.to_string()).collect(),
                false,
            ));
        }
        syn::visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.tokens(m.tokens.clone());
        syn::visit::visit_macro(self, m);
    }
}

/// Reads the module tree from `src/lib.rs` down.
fn read_crate(src: &Path) -> BTreeMap<ModPath, Module> {
    let mut out = BTreeMap::new();
    let mut todo: Vec<(ModPath, PathBuf, PathBuf)> =
        vec![(vec![], src.join("lib.rs"), src.to_path_buf())];
    while let Some((path, file, dir)) = todo.pop() {
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let mut v = Paths::default();
        v.visit_file(&ast);
        let mut children = BTreeSet::new();
        for (name, explicit) in v.children {
            let (child_file, child_dir) = match explicit {
                Some(p) => {
                    let f = file.parent().unwrap().join(p);
                    (f.clone(), f.with_extension(""))
                }
                None => {
                    let flat = dir.join(format!("{name}.rs"));
                    if flat.is_file() {
                        (flat, dir.join(&name))
                    } else {
                        (dir.join(&name).join("mod.rs"), dir.join(&name))
                    }
                }
            };
            let mut child = path.clone();
            child.push(name.clone());
            children.insert(name);
            todo.push((child, child_file, child_dir));
        }
        out.insert(
            path,
            Module {
                file,
                children,
                uses: v.found,
                reexports: v.reexports,
            },
        );
    }
    out
}

/// The module a path written in `at` names: the longest prefix that is a module, or `None`
/// for a path outside the crate (std, a dependency, a local item). An item a module only
/// re-exports (`pub use`) is followed to the module that defines it.
fn resolve(mods: &BTreeMap<ModPath, Module>, at: &ModPath, path: &[String]) -> Option<ModPath> {
    resolve_within(mods, at, path, 8)
}

fn resolve_within(
    mods: &BTreeMap<ModPath, Module>,
    at: &ModPath,
    path: &[String],
    depth: usize,
) -> Option<ModPath> {
    let (mut base, rest): (ModPath, &[String]) = match path.first().map(String::as_str) {
        Some("crate") => (vec![], &path[1..]),
        Some("self") => (at.clone(), &path[1..]),
        Some("super") => {
            let mut b = at.clone();
            let mut i = 0;
            while path.get(i).map(String::as_str) == Some("super") {
                b.pop();
                i += 1;
            }
            (b, &path[i..])
        }
        // A path that starts with a child module's name (`mod x;` then `x::f()`).
        Some(first) if mods[at].children.contains(first) => (at.clone(), path),
        _ => return None,
    };
    let mut item = None;
    for seg in rest {
        let mut next = base.clone();
        next.push(seg.clone());
        if mods.contains_key(&next) {
            base = next;
        } else {
            item = Some(seg);
            break;
        }
    }
    if depth > 0
        && let Some(item) = item
        && let Some(target) = mods[&base].reexports.get(item)
        && target.last() == Some(item)
        && let Some(defined) = resolve_within(mods, &base, target, depth - 1)
    {
        return Some(defined);
    }
    Some(base)
}

fn name(m: &ModPath) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

type Graph = (
    BTreeMap<ModPath, Module>,
    BTreeMap<ModPath, BTreeSet<ModPath>>,
);

fn graph() -> Graph {
    graph_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

fn graph_of(src: &Path) -> Graph {
    let mods = read_crate(src);
    let mut edges: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    for (at, m) in &mods {
        // `use crate::eval::{self, ...}` then `eval::shard::select`: follow the alias.
        let mut aliases: BTreeMap<String, ModPath> = BTreeMap::new();
        for (p, _) in &m.uses {
            if let Some(t) = resolve(&mods, at, p)
                && let Some(last) = p.last()
                && t.last() == Some(last)
            {
                aliases.insert(last.clone(), t);
            }
        }
        let set = edges.entry(at.clone()).or_default();
        for (p, reexport) in &m.uses {
            let target = resolve(&mods, at, p).or_else(|| {
                let first = aliases.get(p.first()?)?;
                let mut full: Vec<String> = vec!["crate".into()];
                full.extend(first.iter().cloned());
                full.extend(p[1..].iter().cloned());
                resolve(&mods, at, &full)
            });
            // A module may re-export what its descendants define: that is what a façade is
            // for. Every other edge counts: one up to an ancestor, and one down to a child
            // that a parent's own code uses (a parent that does more than re-export is a
            // file like any other, and a child that uses it back makes a circle).
            if let Some(t) = target
                && t != *at
                && !(*reexport && t.starts_with(at))
            {
                set.insert(t);
            }
        }
    }
    (mods, edges)
}

/// Strongly connected components of more than one module (Tarjan).
fn cycles(edges: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    struct T<'a> {
        edges: &'a BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: BTreeMap<&'a ModPath, usize>,
        low: BTreeMap<&'a ModPath, usize>,
        stack: Vec<&'a ModPath>,
        on: BTreeSet<&'a ModPath>,
        next: usize,
        out: Vec<Vec<ModPath>>,
    }
    impl<'a> T<'a> {
        fn visit(&mut self, v: &'a ModPath) {
            self.index.insert(v, self.next);
            self.low.insert(v, self.next);
            self.next += 1;
            self.stack.push(v);
            self.on.insert(v);
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.on.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = vec![];
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    comp.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    self.out.push(comp);
                }
            }
        }
    }
    let mut t = T {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: vec![],
        on: BTreeSet::new(),
        next: 0,
        out: vec![],
    };
    for v in edges.keys() {
        if !t.index.contains_key(v) {
            t.visit(v);
        }
    }
    t.out.sort();
    t.out
}

#[test]
fn the_module_graph_has_no_cycle() {
    let (mods, edges) = graph();
    assert!(mods.len() > 100, "read only {} modules", mods.len());
    let found = cycles(&edges);
    let mut text = String::new();
    for comp in &found {
        let set: BTreeSet<&ModPath> = comp.iter().collect();
        text.push_str(&format!("cycle of {} modules:\n", comp.len()));
        for a in comp {
            let to: Vec<String> = edges[a]
                .iter()
                .filter(|b| set.contains(b))
                .map(name)
                .collect();
            text.push_str(&format!(
                "  {} ({}) -> {}\n",
                name(a),
                mods[a].file.display(),
                to.join(", ")
            ));
        }
    }
    assert!(found.is_empty(), "{text}");
}

#[test]
fn no_command_imports_another() {
    let (_, edges) = graph();
    let mut bad = vec![];
    for (a, to) in &edges {
        if a.first().map(String::as_str) != Some("commands") || a.len() < 2 {
            continue;
        }
        for b in to {
            if b.first().map(String::as_str) == Some("commands") && b.get(1) != a.get(1) {
                bad.push(format!("{} -> {}", name(a), name(b)));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "commands importing commands:\n{}",
        bad.join("\n")
    );
}

/// Each layer of the evaluation wing imports none of the layers above it.
#[test]
fn the_evaluation_wing_points_one_way() {
    let (_, edges) = graph();
    let above: &[(&str, &[&str])] = &[
        (
            "gate",
            &[
                "eval", "improve", "report", "github", "ci", "commands", "cli",
            ],
        ),
        ("eval", &["report", "github", "ci", "commands", "cli"]),
        ("improve", &["report", "github", "ci", "commands", "cli"]),
        ("report", &["ci", "commands", "cli"]),
        ("ci", &["commands"]),
    ];
    let mut bad = vec![];
    for (layer, forbidden) in above {
        for (a, to) in &edges {
            if a.first().map(String::as_str) != Some(layer) {
                continue;
            }
            for b in to {
                if let Some(top) = b.first()
                    && forbidden.contains(&top.as_str())
                {
                    bad.push(format!("{} -> {}", name(a), name(b)));
                }
            }
        }
    }
    assert!(bad.is_empty(), "edges pointing up:\n{}", bad.join("\n"));
}

/// The record is the floor: it imports no stage (catalog, lint, tasks, models, score, eval,
/// gate, report, …), only the crate's plain utilities.
#[test]
fn the_record_imports_no_stage() {
    let (mods, edges) = graph();
    let utilities = [
        "record", "out", "fsio", "secrets", "json", "limits", "error",
    ];
    for u in &utilities[1..] {
        assert!(mods.contains_key(&vec![u.to_string()]), "no module `{u}`");
    }
    let mut bad = vec![];
    for (a, to) in &edges {
        if a.first().map(String::as_str) != Some("record") {
            continue;
        }
        for b in to {
            if !b
                .first()
                .is_some_and(|top| utilities.contains(&top.as_str()))
            {
                bad.push(format!("{} -> {}", name(a), name(b)));
            }
        }
    }
    assert!(bad.is_empty(), "the record imports:\n{}", bad.join("\n"));
}

/// The checker itself reads what it should: cycles planted in a scratch crate, through a
/// `use`, a path in a body, an alias and a macro, are found; test code is not read.
#[test]
fn planted_cycles_are_found() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let files: &[(&str, &str)] = &[
        ("lib.rs", "pub mod a;\npub mod b;\npub mod c;\nmod d;\n"),
        ("a.rs", "use crate::b::X;\npub struct Y;\n"),
        (
            "b.rs",
            "pub struct X;\npub fn f() -> Option<crate::a::Y> { None }\n",
        ),
        // c -> d by an alias, d -> c inside format!; c -> a only in a test.
        (
            "c.rs",
            "use crate::d;\npub fn g() { d::h(); }\n#[cfg(test)]\nmod tests { use crate::a::Y; }\n",
        ),
        (
            "d.rs",
            "pub fn h() { let _ = format!(\"{}\", crate::c::K); }\n",
        ),
    ];
    for (f, text) in files {
        std::fs::write(src.join(f), text).unwrap();
    }
    std::fs::write(
        src.join("c.rs"),
        format!("{}pub const K: u8 = 1;\n", files[3].1),
    )
    .unwrap();
    std::fs::write(
        src.join("lib.rs"),
        "pub mod a;\npub mod b;\npub mod c;\nmod d;\npub mod e;\npub mod g;\npub mod j;\n",
    )
    .unwrap();
    // e's own code uses its child f, and f uses e back: a circle through a parent. g only
    // re-exports its child h (no edge g -> h); j names h's item through g's re-export, and h
    // uses j: a circle found only by following the re-export.
    for (f, text) in [
        (
            "e/mod.rs",
            "mod f;\npub use f::Z;\npub fn uses() -> f::Z { f::Z }\n",
        ),
        (
            "e/f.rs",
            "pub struct Z;\npub fn w() { crate::e::uses(); }\n",
        ),
        ("g/mod.rs", "mod h;\npub use h::W;\n"),
        (
            "g/h.rs",
            "pub struct W;\npub fn q() -> Option<crate::j::J> { None }\n",
        ),
        ("j.rs", "use crate::g::W;\npub struct J;\n"),
    ] {
        std::fs::create_dir_all(src.join(f).parent().unwrap()).unwrap();
        std::fs::write(src.join(f), text).unwrap();
    }
    let (_, edges) = graph_of(src);
    let m = |s: &str| vec![s.to_string()];
    let m2 = |a: &str, b: &str| vec![a.to_string(), b.to_string()];
    assert_eq!(
        cycles(&edges),
        vec![
            vec![m("a"), m("b")],
            vec![m("c"), m("d")],
            vec![m("e"), m2("e", "f")],
            vec![m2("g", "h"), m("j")],
        ]
    );
    assert!(!edges[&m("c")].contains(&m("a")), "test code was read");
    assert!(edges[&m("g")].is_empty(), "a re-export made an edge");
}
