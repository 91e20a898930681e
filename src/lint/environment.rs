//! Conda environment files and pip requirements files, read into one view of the
//! packages an image build will install: the resource the environment rules read
//! (`applies-to: [environment]`). Pip lines are PEP 508 requirements (pep508_rs);
//! conda lines are match specs (`python=3.10`, `numpy>=1.24`, `conda-forge::flask=2.0`).

use std::collections::BTreeMap;
use std::str::FromStr;

use serde_json::{Map, Value, json};

use crate::evidence::json_lines::{JsonText, escape_token};
use crate::evidence::resource::{Resource, ResourceKind, Shape};
use crate::evidence::yaml_doc::YamlDoc;

/// The key that marks the view (and tells `evidence::resource` what it is).
pub(crate) const VIEW_KEY: &str = "environment_kind";

/// One package an environment installs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Package {
    /// Normalised (PEP 503: lower case, runs of `-_.` as `-`).
    pub name: String,
    /// What follows the name, as written (`==2.0.3`, `>=1.0,<2`, `=3.10`); empty when
    /// unconstrained.
    pub specifier: String,
    /// The one version it can be (`==2.0.3`, conda `=3.10`), if pinned.
    pub version: Option<String>,
    /// `conda` or `pip`.
    pub source: &'static str,
    pub line: u64,
    /// An environment marker limits it (`; python_version >= "3.9"`): it may not be
    /// installed at all.
    pub conditional: bool,
}

/// The packages of one file, and the lines that could not be read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct PythonEnvironment {
    /// `conda` or `pip`.
    pub kind: &'static str,
    /// A conda environment's `name:`.
    pub name: Option<String>,
    pub packages: Vec<Package>,
    /// `(line, text)` of requirement lines that are not valid.
    pub unreadable: Vec<(u64, String)>,
}

/// PEP 503 name normalisation.
pub(crate) fn normalise(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut dash = false;
    for c in name.trim().chars() {
        if matches!(c, '-' | '_' | '.') {
            dash = true;
        } else {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

/// A pip requirement line (PEP 508), or `None` for an option line (`-r`, `--index-url`,
/// `-e`), a URL or a blank.
fn pip_package(text: &str, line: u64) -> Option<Result<Package, String>> {
    let text = text.split(" #").next().unwrap_or(text).trim();
    if text.is_empty() || text.starts_with('#') || text.starts_with('-') {
        return None;
    }
    let requirement = match pep508_rs::Requirement::<pep508_rs::VerbatimUrl>::from_str(text) {
        Ok(r) => r,
        Err(_) => return Some(Err(text.to_owned())),
    };
    let (specifier, version) = match &requirement.version_or_url {
        Some(pep508_rs::VersionOrUrl::VersionSpecifier(specs)) => {
            let exact = match specs.iter().collect::<Vec<_>>().as_slice() {
                [one] if *one.operator() == pep440_rs::Operator::Equal => {
                    Some(one.version().to_string())
                }
                _ => None,
            };
            (specs.to_string(), exact)
        }
        Some(pep508_rs::VersionOrUrl::Url(url)) => (format!("@ {url}"), None),
        None => (String::new(), None),
    };
    Some(Ok(Package {
        name: normalise(requirement.name.as_ref()),
        specifier,
        version,
        source: "pip",
        line,
        conditional: !requirement.marker.is_true(),
    }))
}

/// A conda match spec (`python=3.10`, `numpy>=1.24,<2`, `conda-forge::flask=2.0.3=py_0`,
/// `flask 2.0.3`).
fn conda_package(text: &str, line: u64) -> Option<Package> {
    let text = text.trim();
    let text = text.rsplit_once("::").map_or(text, |(_, t)| t);
    let split = text
        .find(['=', '<', '>', '!', '~', ' '])
        .unwrap_or(text.len());
    let name = normalise(&text[..split]);
    if name.is_empty() {
        return None;
    }
    let specifier = text[split..].trim().to_owned();
    let version = if let Some(v) = specifier.strip_prefix("==") {
        Some(v.split('=').next().unwrap_or(v).trim().to_owned())
    } else if let Some(v) = specifier.strip_prefix('=') {
        // `=3.10` is 3.10.*; `=2.0.3=py_0` adds a build string.
        Some(
            v.split('=')
                .next()
                .unwrap_or(v)
                .trim_end_matches(".*")
                .to_owned(),
        )
    } else if !specifier.is_empty() && specifier.chars().next().is_some_and(|c| c.is_ascii_digit())
    {
        Some(specifier.split(' ').next().unwrap_or_default().to_owned())
    } else {
        None
    };
    Some(Package {
        name,
        specifier,
        version: version.filter(|v| !v.is_empty() && !v.contains('*')),
        source: "conda",
        line,
        conditional: false,
    })
}

/// The packages of a conda environment file.
pub(crate) fn from_conda(doc: &YamlDoc) -> PythonEnvironment {
    let mut env = PythonEnvironment {
        kind: "conda",
        name: doc
            .value
            .get("name")
            .and_then(Value::as_str)
            .map(str::to_owned),
        ..PythonEnvironment::default()
    };
    let Some(deps) = doc.value.get("dependencies").and_then(Value::as_array) else {
        return env;
    };
    let line = |p: &str| doc.lines.get(p).copied().unwrap_or(1);
    for (i, dep) in deps.iter().enumerate() {
        let at = format!("/dependencies/{i}");
        match dep {
            Value::String(spec) => env.packages.extend(conda_package(spec, line(&at))),
            Value::Object(map) => {
                for (j, item) in map
                    .get("pip")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .enumerate()
                {
                    let Some(text) = item.as_str() else { continue };
                    let l = line(&format!("{at}/pip/{j}"));
                    match pip_package(text, l) {
                        Some(Ok(p)) => env.packages.push(p),
                        Some(Err(t)) => env.unreadable.push((l, t)),
                        None => {}
                    }
                }
            }
            _ => {}
        }
    }
    env
}

/// The packages of a pip requirements file.
pub(crate) fn from_requirements(text: &str) -> PythonEnvironment {
    let mut env = PythonEnvironment {
        kind: "pip",
        ..PythonEnvironment::default()
    };
    for (i, raw) in text.lines().enumerate() {
        let l = i as u64 + 1;
        match pip_package(raw, l) {
            Some(Ok(p)) => env.packages.push(p),
            Some(Err(t)) => env.unreadable.push((l, t)),
            None => {}
        }
    }
    env
}

/// The environment as the resource its rules read:
/// `{"environment_kind": "conda", "python": "3.10", "packages": {NAME: {"specifier",
/// "version", "pinned", "source"}}, "unpinned": [NAME…]}`, each package at its line.
pub(crate) fn resource(path: &str, env: &PythonEnvironment) -> Resource {
    let mut packages = Map::new();
    let mut lines = BTreeMap::new();
    let mut unpinned = Vec::new();
    for p in &env.packages {
        let pointer = format!("/packages/{}", escape_token(&p.name));
        lines.entry(pointer).or_insert(p.line);
        // Conda's own `pip` and `python` are the toolchain, not dependencies to pin.
        if p.specifier.is_empty() && p.name != "pip" && p.name != "python" {
            unpinned.push(Value::String(p.name.clone()));
        }
        packages.entry(p.name.clone()).or_insert_with(|| {
            json!({
                "specifier": p.specifier,
                "version": p.version,
                "pinned": p.version.is_some(),
                "source": p.source,
            })
        });
    }
    for (i, _) in unpinned.iter().enumerate() {
        let name = unpinned[i].as_str().unwrap_or_default();
        if let Some(l) = lines.get(&format!("/packages/{}", escape_token(name))) {
            lines.insert(format!("/unpinned/{i}"), *l);
        }
    }
    let python = packages
        .get("python")
        .and_then(|p| p.get("version"))
        .cloned()
        .unwrap_or(Value::Null);
    let json = json!({
        VIEW_KEY: env.kind,
        "python": python,
        "packages": packages,
        "unpinned": unpinned,
    });
    Resource {
        path: path.to_owned(),
        base: String::new(),
        kind: ResourceKind::Environment,
        shape: Shape::File,
        id: None,
        name: Some(match env.name.as_deref() {
            Some(name) => name.to_owned(),
            None => format!("{} packages", env.kind),
        }),
        json,
        text: JsonText::from_yaml_lines(lines),
    }
}

/// The PyPI package that provides the import `module`: the usual name where the two
/// differ (`sklearn` is `scikit-learn`), the dotted name joined with `-` for the
/// `azure` and `azureml` namespaces, else the top-level module.
pub(crate) fn package_of_import(module: &str) -> String {
    const KNOWN: &[(&str, &str)] = &[
        ("sklearn", "scikit-learn"),
        ("cv2", "opencv-python-headless"),
        ("PIL", "pillow"),
        ("yaml", "pyyaml"),
        ("bs4", "beautifulsoup4"),
        ("skimage", "scikit-image"),
        ("dateutil", "python-dateutil"),
        ("dotenv", "python-dotenv"),
        ("jwt", "pyjwt"),
        ("attr", "attrs"),
        ("Crypto", "pycryptodome"),
        ("serial", "pyserial"),
        ("docx", "python-docx"),
        ("fitz", "pymupdf"),
        ("google.protobuf", "protobuf"),
        ("sentencepiece", "sentencepiece"),
        ("tensorflow_hub", "tensorflow-hub"),
    ];
    let parts: Vec<&str> = module.split('.').collect();
    if let Some((_, p)) = KNOWN
        .iter()
        .find(|(m, _)| module == *m || module.starts_with(&format!("{m}.")))
    {
        return (*p).to_owned();
    }
    match parts.as_slice() {
        ["azure" | "azureml", rest @ ..] if !rest.is_empty() => parts.join("-"),
        [top, ..] => top.replace('_', "-"),
        [] => module.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::yaml_doc;

    #[test]
    fn conda_and_pip_lines_with_their_versions() {
        let doc = yaml_doc::parse(
            "name: env\nchannels: [conda-forge]\ndependencies:\n  - python=3.10\n  - conda-forge::numpy>=1.24,<2\n  - pip\n  - flask=2.0.3=pyhd8ed1ab_0\n  - pip:\n    - azureml-inference-server-http==0.7.4\n    - Jinja2 >= 3.1  # templating\n    - scikit_learn\n    - not a requirement !!\n",
        )
        .unwrap();
        let env = from_conda(&doc);
        let got: Vec<(&str, &str, Option<&str>, u64)> = env
            .packages
            .iter()
            .map(|p| {
                (
                    p.name.as_str(),
                    p.specifier.as_str(),
                    p.version.as_deref(),
                    p.line,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("python", "=3.10", Some("3.10"), 4),
                ("numpy", ">=1.24,<2", None, 5),
                ("pip", "", None, 6),
                ("flask", "=2.0.3=pyhd8ed1ab_0", Some("2.0.3"), 7),
                ("azureml-inference-server-http", "==0.7.4", Some("0.7.4"), 9),
                ("jinja2", ">=3.1", None, 10),
                ("scikit-learn", "", None, 11),
            ]
        );
        assert_eq!(
            env.unreadable,
            vec![(12, "not a requirement !!".to_owned())]
        );
        let r = resource("env/conda.yml", &env);
        assert_eq!(r.json["python"], "3.10");
        assert_eq!(r.json["unpinned"], json!(["scikit-learn"]));
        assert_eq!(r.line_of("/packages/flask/version"), 7);
    }

    #[test]
    fn requirements_files_skip_options_and_comments() {
        let env = from_requirements(
            "# serving\n-r base.txt\n--extra-index-url https://example.org/simple\nFlask==2.2.5\nazureml-defaults>=1.44 ; python_version >= '3.8'\n\npandas\n",
        );
        let got: Vec<(&str, Option<&str>, u64)> = env
            .packages
            .iter()
            .map(|p| (p.name.as_str(), p.version.as_deref(), p.line))
            .collect();
        assert_eq!(
            got,
            vec![
                ("flask", Some("2.2.5"), 4),
                ("azureml-defaults", None, 5),
                ("pandas", None, 7)
            ]
        );
        assert!(env.unreadable.is_empty());
        assert_eq!(normalise("Ruamel.YAML__x"), "ruamel-yaml-x");
    }
}
