//! The library's public API, pinned: every public item of the crate `polycover` (modules,
//! types, traits, functions, constants) and its members (fields, variants, methods),
//! one line each in `tests/public-api.txt`, so that a change to the API is a visible diff
//! in review, never an accident of a `pub` in the wrong place.
//!
//! The list comes from rustdoc's JSON output of the library (`cargo rustdoc -- -Z
//! unstable-options --output-format json`, allowed on a stable toolchain by
//! `RUSTC_BOOTSTRAP=1`: the format is unstable, so only its stable core is read: the
//! index, the root module, each item's name, visibility and kind, a module's items, a
//! `pub use`'s target, and a type's inherent impls). Without default features, so that no
//! C++ is built for it: no public item depends on a feature. It is built in a target
//! directory of its own, as the outer `cargo test` holds the lock of the usual one.
//!
//! Two more kinds of line keep the facade honest:
//! - `unnamed KIND PATH`: a type of the crate that a public signature or field hands out
//!   (a report, an error, a piece of a puzzle) but no public path names. A caller can
//!   read it and not name it; it is counted with the items, so that hiding a type is no
//!   way to shrink the facade.
//! - the facade's size: its items (everything but members) and the unnamed types are
//!   held to [`MOST_ITEMS`], the names at the root to [`MOST_AT_THE_ROOT`].
//!
//! After a deliberate change, `POLYCOVER_BLESS=1 cargo test --release --test lib
//! public_api` writes the new list; commit it with the change.

use std::collections::{BTreeSet, HashSet};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::common::ROOT;

/// The most top-level names (`polycover::X`): the facade is chosen, not grown.
const MOST_AT_THE_ROOT: usize = 32;

/// The most items (modules, types, traits, functions, constants: not their members) and
/// unnamed types together (64 since `Solution`, the view a listing's callback gets,
/// asked for by embedders: issue 62; 65 since `engine::Certifies`, the certificate's
/// shape an engine declares instead of `certify/` matching its name: issue 63).
const MOST_ITEMS: usize = 65;

#[test]
fn the_public_api_is_the_pinned_one() {
    let target = Path::new(ROOT).join("target/public-api");
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(ROOT)
        .env("RUSTC_BOOTSTRAP", "1")
        .args(["rustdoc", "--quiet", "-p", "polycover", "--lib"])
        .args(["--no-default-features", "--target-dir"])
        .arg(&target)
        .args(["--", "-Z", "unstable-options", "--output-format", "json"])
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo rustdoc failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = std::fs::read_to_string(target.join("doc/polycover.json")).unwrap();
    let doc: Value = serde_json::from_str(&json).unwrap();
    let lines = public_items(&doc);
    let at_root = lines
        .iter()
        .filter(|l| {
            l.split(' ')
                .nth(1)
                .is_some_and(|p| p.matches("::").count() == 1)
        })
        .count();
    assert!(
        at_root <= MOST_AT_THE_ROOT,
        "{at_root} names at the library's root, more than {MOST_AT_THE_ROOT}"
    );
    let items = lines
        .iter()
        .filter(|l| !is_member(l) && !l.starts_with("use "))
        .count();
    assert!(
        items <= MOST_ITEMS,
        "{items} items and unnamed types, more than {MOST_ITEMS}"
    );
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let pinned_path = Path::new(ROOT).join("tests/public-api.txt");
    if std::env::var_os("POLYCOVER_BLESS").is_some() {
        std::fs::write(&pinned_path, &text).unwrap();
        return;
    }
    let pinned = std::fs::read_to_string(&pinned_path).unwrap_or_default();
    let before: BTreeSet<&str> = pinned.lines().collect();
    let now: BTreeSet<&str> = text.lines().collect();
    let added: Vec<&&str> = now.difference(&before).collect();
    let removed: Vec<&&str> = before.difference(&now).collect();
    assert!(
        added.is_empty() && removed.is_empty(),
        "the public API changed (tests/public-api.txt; after a deliberate change, \
         POLYCOVER_BLESS=1 writes the new list):\nadded:\n{}\nremoved:\n{}",
        added
            .iter()
            .map(|l| format!("+ {l}"))
            .collect::<Vec<_>>()
            .join("\n"),
        removed
            .iter()
            .map(|l| format!("- {l}"))
            .collect::<Vec<_>>()
            .join("\n"),
    );
}

/// Whether a line is a member of an item (a field, variant, method or associated item),
/// not an item.
fn is_member(line: &str) -> bool {
    let kind = line.split(' ').next().unwrap_or("");
    matches!(
        kind,
        "struct_field" | "variant" | "assoc_const" | "assoc_type"
    ) || (kind == "function" && {
        // A method's parent is a type (capitalised), a free function's a module.
        let path = line.split(' ').nth(1).unwrap_or("");
        let parent = path.rsplit("::").nth(1).unwrap_or("");
        parent.starts_with(|c: char| c.is_ascii_uppercase())
    })
}

/// `kind path` for every public item reachable from the crate's root, its members, and
/// the unnamed types its signatures hand out, sorted.
fn public_items(doc: &Value) -> Vec<String> {
    let index = &doc["index"];
    let mut lines = BTreeSet::new();
    let mut seen = HashSet::new();
    let mut reached = Vec::new();
    walk(
        index,
        &id(&doc["root"]),
        "polycover",
        &mut lines,
        &mut seen,
        &mut reached,
    );
    lines.extend(unnamed(doc, &reached));
    lines.into_iter().collect()
}

/// The crate's own types that the reached items' signatures, fields and variants name
/// (and, in turn, theirs) but no public path reaches: `unnamed KIND PATH`, the path where
/// the type is defined, and the type's members under that path.
fn unnamed(doc: &Value, reached: &[String]) -> Vec<String> {
    let index = &doc["index"];
    let named: HashSet<&str> = reached.iter().map(String::as_str).collect();
    let mut todo: Vec<String> = reached.to_vec();
    let mut done = HashSet::new();
    let mut out = Vec::new();
    while let Some(item_id) = todo.pop() {
        if !done.insert(item_id.clone()) {
            continue;
        }
        let item = &index[item_id.as_str()];
        let mut found = Vec::new();
        mentioned(&item["inner"], &mut found);
        for member in member_ids(index, item) {
            mentioned(&index[member.as_str()]["inner"], &mut found);
        }
        for t in found {
            let target = &index[t.as_str()];
            let k = kind(target);
            let local = target["crate_id"] == 0;
            if local
                && !named.contains(t.as_str())
                && matches!(k.as_str(), "struct" | "enum" | "trait" | "type_alias")
                && !done.contains(&t)
            {
                let path = doc["paths"][t.as_str()]["path"]
                    .as_array()
                    .map(|p| {
                        p.iter()
                            .filter_map(Value::as_str)
                            .collect::<Vec<_>>()
                            .join("::")
                    })
                    .unwrap_or_default();
                out.push(format!("unnamed {k} {path}"));
                let mut fields = BTreeSet::new();
                members(index, target, &path, &mut fields);
                out.extend(fields);
                todo.push(t);
            }
        }
    }
    out
}

/// The ids of the types a piece of an item's JSON names (`resolved_path`s).
fn mentioned(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            if let Some(path) = o.get("resolved_path") {
                out.push(id(&path["id"]));
            }
            o.values().for_each(|x| mentioned(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| mentioned(x, out)),
        _ => {}
    }
}

fn id(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The item's kind, the one key of its `inner`.
fn kind(item: &Value) -> String {
    item["inner"]
        .as_object()
        .and_then(|o| o.keys().next().cloned())
        .unwrap_or_default()
}

fn walk(
    index: &Value,
    module: &str,
    path: &str,
    lines: &mut BTreeSet<String>,
    seen: &mut HashSet<String>,
    reached: &mut Vec<String>,
) {
    let Some(items) = index[module]["inner"]["module"]["items"].as_array() else {
        return;
    };
    for child in items {
        let item = &index[id(child).as_str()];
        if item["visibility"] != "public" {
            continue;
        }
        let (target, name) = match kind(item).as_str() {
            "use" => {
                let to = id(&item["inner"]["use"]["id"]);
                let name = item["inner"]["use"]["name"]
                    .as_str()
                    .unwrap_or("")
                    .to_string();
                (to, name)
            }
            _ => (id(child), item["name"].as_str().unwrap_or("").to_string()),
        };
        let full = format!("{path}::{name}");
        let target_item = &index[target.as_str()];
        if target_item.is_null() {
            // A re-export of another crate's item.
            lines.insert(format!("use {full}"));
            continue;
        }
        let k = kind(target_item);
        lines.insert(format!("{k} {full}{}", signature(target_item)));
        reached.push(target.clone());
        match k.as_str() {
            "module" if seen.insert(target.clone()) => {
                walk(index, &target, &full, lines, seen, reached)
            }
            _ => members(index, target_item, &full, lines),
        }
    }
}

/// The ids of a type's public fields, variants and inherent methods, and of a trait's
/// items.
fn member_ids(index: &Value, item: &Value) -> Vec<String> {
    let k = kind(item);
    let inner = &item["inner"][k.as_str()];
    let mut ids: Vec<String> = Vec::new();
    if let Some(fields) = inner["kind"]["plain"]["fields"].as_array() {
        ids.extend(fields.iter().map(id));
    }
    if let Some(fields) = inner["kind"]["tuple"].as_array() {
        ids.extend(fields.iter().filter(|f| !f.is_null()).map(id));
    }
    if let Some(variants) = inner["variants"].as_array() {
        ids.extend(variants.iter().map(id));
    }
    if let Some(items) = inner["items"].as_array() {
        ids.extend(items.iter().map(id));
    }
    for imp in inner["impls"].as_array().into_iter().flatten() {
        let imp = &index[id(imp).as_str()]["inner"]["impl"];
        if imp["trait"].is_null() && imp["blanket_impl"].is_null() {
            ids.extend(imp["items"].as_array().into_iter().flatten().map(id));
        }
    }
    ids.retain(|member| {
        let m = &index[member.as_str()];
        !m.is_null() && (m["visibility"] == "public" || k == "trait" || k == "enum")
    });
    ids
}

/// A type's public fields, variants and inherent methods, and a trait's items.
fn members(index: &Value, item: &Value, path: &str, lines: &mut BTreeSet<String>) {
    for member in member_ids(index, item) {
        let m = &index[member.as_str()];
        let name = m["name"].as_str().unwrap_or("_");
        lines.insert(format!("{} {path}::{name}{}", kind(m), signature(m)));
    }
}

/// What follows an item's path on its line: a function's signature (`(self: &Self, n:
/// u32) -> Result<Count>`, its generics first), a field's or constant's type (`: usize`),
/// a tuple variant's fields; nothing for the other kinds. Types are written as their
/// last path segment with their arguments, so that moving a type keeps the lines of the
/// signatures that use it and shows only its own.
fn signature(item: &Value) -> String {
    let k = kind(item);
    let inner = &item["inner"][k.as_str()];
    match k.as_str() {
        "function" => format!(
            "{}({}){}",
            generics(&inner["generics"]),
            arguments(&inner["sig"], true),
            arrow(&inner["sig"]["output"])
        ),
        "struct_field" => format!(": {}", ty(inner)),
        "constant" => format!(": {}", ty(&inner["type"])),
        "assoc_const" => format!(": {}", ty(&inner["type"])),
        "variant" => match inner["kind"]["tuple"].as_array() {
            Some(fields) => format!("({} fields)", fields.len()),
            None => String::new(),
        },
        _ => String::new(),
    }
}

/// A function's generic parameters with their bounds, `<'a, T: Fn(u32)>`; those that
/// rustdoc makes up for `impl Trait` arguments are left out (the argument shows them).
fn generics(g: &Value) -> String {
    let params: Vec<String> = g["params"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["kind"]["type"]["is_synthetic"] != true)
        .map(|p| {
            let name = p["name"].as_str().unwrap_or("_").to_string();
            match p["kind"]["type"]["bounds"].as_array() {
                Some(b) if !b.is_empty() => format!("{name}: {}", bounds(b)),
                _ => name,
            }
        })
        .collect();
    let wheres: Vec<String> = g["where_predicates"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|w| {
            let b = &w["bound_predicate"];
            b.is_object().then(|| {
                let list = b["bounds"].as_array().cloned().unwrap_or_default();
                format!("{}: {}", ty(&b["type"]), bounds(&list))
            })
        })
        .collect();
    let mut out = String::new();
    if !params.is_empty() {
        out = format!("<{}>", params.join(", "));
    }
    if !wheres.is_empty() {
        out.push_str(&format!(" where {}", wheres.join(", ")));
    }
    out
}

/// Trait bounds joined by ` + `.
fn bounds(list: &[Value]) -> String {
    list.iter()
        .map(|b| match (&b["trait_bound"], &b["outlives"]) {
            (t, _) if t.is_object() => path(&t["trait"]),
            (_, Value::String(l)) => l.clone(),
            _ => "?".into(),
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// A path with its generic arguments: `Result<Engine>`, `IntoIterator<Item = (Setting,
/// &'v str)>`, `Fn(u32) -> bool`.
fn path(p: &Value) -> String {
    let name = p["path"]
        .as_str()
        .or(p["name"].as_str())
        .unwrap_or("?")
        .rsplit("::")
        .next()
        .unwrap_or("?")
        .to_string();
    let args = &p["args"];
    if let Some(a) = args.get("angle_bracketed") {
        let mut parts: Vec<String> = a["args"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|g| match (&g["type"], &g["lifetime"], &g["const"]) {
                (t, _, _) if !t.is_null() => ty(t),
                (_, Value::String(l), _) => l.clone(),
                (_, _, c) if !c.is_null() => c["expr"].as_str().unwrap_or("?").to_string(),
                _ => "_".into(),
            })
            .collect();
        for c in a["constraints"]
            .as_array()
            .or(a["bindings"].as_array())
            .into_iter()
            .flatten()
        {
            let cname = c["name"].as_str().unwrap_or("?");
            match &c["binding"]["equality"]["type"] {
                Value::Null => {
                    let b = c["binding"]["constraint"]
                        .as_array()
                        .cloned()
                        .unwrap_or_default();
                    parts.push(format!("{cname}: {}", bounds(&b)));
                }
                t => parts.push(format!("{cname} = {}", ty(t))),
            }
        }
        if parts.is_empty() {
            name
        } else {
            format!("{name}<{}>", parts.join(", "))
        }
    } else if let Some(f) = args.get("parenthesized") {
        let inputs: Vec<String> = f["inputs"]
            .as_array()
            .into_iter()
            .flatten()
            .map(ty)
            .collect();
        format!("{name}({}){}", inputs.join(", "), arrow(&f["output"]))
    } else {
        name
    }
}

/// A signature's arguments, `name: T` each where `named`, else `T` (a function pointer's).
fn arguments(sig: &Value, named: bool) -> String {
    let each = sig["inputs"].as_array().into_iter().flatten().map(|pair| {
        let t = ty(&pair[1]);
        if named {
            format!("{}: {t}", pair[0].as_str().unwrap_or("_"))
        } else {
            t
        }
    });
    each.collect::<Vec<_>>().join(", ")
}

/// A return type as ` -> T`; nothing for `()`, which rustdoc writes as none.
fn arrow(output: &Value) -> String {
    match output {
        Value::Null => String::new(),
        t => format!(" -> {}", ty(t)),
    }
}

/// A type as Rust writes it (paths by their last segment).
fn ty(t: &Value) -> String {
    let Some((k, v)) = t.as_object().and_then(|o| o.iter().next()) else {
        return "?".into();
    };
    match k.as_str() {
        "resolved_path" => path(v),
        "generic" | "primitive" => v.as_str().unwrap_or("?").to_string(),
        "borrowed_ref" => {
            let lifetime = v["lifetime"]
                .as_str()
                .map(|l| format!("{l} "))
                .unwrap_or_default();
            let mutable = if v["is_mutable"] == true { "mut " } else { "" };
            format!("&{lifetime}{mutable}{}", ty(&v["type"]))
        }
        "raw_pointer" => {
            let m = if v["is_mutable"] == true {
                "mut"
            } else {
                "const"
            };
            format!("*{m} {}", ty(&v["type"]))
        }
        "slice" => format!("[{}]", ty(v)),
        "array" => format!("[{}; {}]", ty(&v["type"]), v["len"].as_str().unwrap_or("?")),
        "tuple" => {
            let parts: Vec<String> = v.as_array().into_iter().flatten().map(ty).collect();
            format!("({})", parts.join(", "))
        }
        "impl_trait" => format!("impl {}", bounds(v.as_array().map_or(&[][..], |a| a))),
        "dyn_trait" => {
            let mut parts: Vec<String> = v["traits"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|t| path(&t["trait"]))
                .collect();
            if let Some(l) = v["lifetime"].as_str() {
                parts.push(l.to_string());
            }
            format!("dyn {}", parts.join(" + "))
        }
        "qualified_path" => format!(
            "<{} as {}>::{}",
            ty(&v["self_type"]),
            path(&v["trait"]),
            v["name"].as_str().unwrap_or("?")
        ),
        "function_pointer" => format!(
            "fn({}){}",
            arguments(&v["sig"], false),
            arrow(&v["sig"]["output"])
        ),
        "infer" => "_".into(),
        other => format!("<{other}>"),
    }
}

/// A listing's callback gets a `Solution` (issue 62, item 15) that renders as the
/// command line does: its text is what `solve` prints after `s SATISFIABLE`, its JSON the
/// line `enumerate --format jsonl` writes, and its placements the `c v` lines' words.
#[test]
fn a_listed_solution_renders_as_the_command_line_does() {
    use polycover::{Engine, Problem, RunOptions};
    let soma = Problem::load("soma", None).unwrap();
    let mut seen = None;
    soma.for_each_solution(&Engine::dlx(), &RunOptions::default(), &mut |s| {
        let placements: Vec<String> = s.placements().collect();
        seen = Some((
            s.text(),
            s.json(1).to_string(),
            placements,
            s.options().to_vec(),
        ));
        std::ops::ControlFlow::Break(())
    })
    .unwrap();
    let (text, json, placements, options) = seen.expect("Soma has solutions");
    let solve = crate::common::polycover(&["solve", "soma", "--solver", "dlx"]);
    let solved = String::from_utf8(solve.stdout).unwrap();
    let layers = solved.split("s SATISFIABLE\n").nth(1).unwrap();
    assert_eq!(text.trim_end(), layers.trim_end());
    let listed = crate::common::polycover(&[
        "enumerate",
        "soma",
        "--solver",
        "dlx",
        "--limit",
        "1",
        "--format",
        "jsonl",
    ]);
    let listed = String::from_utf8(listed.stdout).unwrap();
    assert_eq!(json, listed.trim_end());
    assert_eq!(placements.len(), 7);
    assert_eq!(placements[0], soma.puzzle().describe_option(options[0]));
    assert_eq!(soma.solution(&options).text(), text);
}
