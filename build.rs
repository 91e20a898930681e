//! Embeds every rule file under `rules/` into the binary, so the built-in catalogue
//! needs no files at run time and a new rule file needs no code change.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml")
        ) {
            out.push(path);
        }
    }
}

fn main() {
    let root =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-changed=rules");
    let mut files = Vec::new();
    collect(&root.join("rules"), &mut files);
    files.sort();
    let mut code = String::from(
        "/// Built-in rule files: (path relative to the crate, contents).\npub(crate) static BUILTIN_RULES: &[(&str, &str)] = &[\n",
    );
    for f in &files {
        let relative = f
            .strip_prefix(&root)
            .unwrap_or(f)
            .to_string_lossy()
            .replace('\\', "/");
        // Paths relative to the manifest, so the generated file is valid for any
        // checkout that shares a target directory.
        let _ = writeln!(
            code,
            "    ({relative:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/\", {relative:?}))),"
        );
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("builtin_rules.rs");
    std::fs::write(out, code).expect("OUT_DIR is writable");
}
