//! The checks of a scoring script: what the inference server calls must be there, the
//! packages it imports must be in its environment, and its model must be loaded from
//! where the deployment puts it. Pure: the script as `python::read` saw it, and the
//! environment the command found for it.

use std::collections::BTreeMap;

use crate::finding::{Change, Computed, Edit, Evidence};

use super::environment::{PythonEnvironment, normalise};
use super::python::{Script, is_standard_library, provided_by_any_of};
use crate::lint::environment::package_of_import;

pub(crate) const MISSING_INIT_OR_RUN: &str = "score-script-missing-init-or-run";
pub(crate) const RUN_TAKES_NO_ARGUMENT: &str = "score-script-run-takes-no-argument";
pub(crate) const IMPORT_NOT_IN_ENVIRONMENT: &str = "score-script-import-not-in-environment";
pub(crate) const MODEL_PATH_WITHOUT_MODEL_DIR: &str = "score-script-model-path-without-model-dir";

pub(crate) const ENTRY_WITHOUT_RUN: &str = "prs-entry-script-without-run";
pub(crate) const ENTRY_INIT_MAKEDIRS: &str = "prs-entry-script-init-makedirs-not-idempotent";

/// The ids of the rules computed here.
pub(crate) const RULES: &[&str] = &[
    MISSING_INIT_OR_RUN,
    RUN_TAKES_NO_ARGUMENT,
    IMPORT_NOT_IN_ENVIRONMENT,
    MODEL_PATH_WITHOUT_MODEL_DIR,
    ENTRY_WITHOUT_RUN,
    ENTRY_INIT_MAKEDIRS,
];

/// What is wrong with a parallel job's entry script: `run(mini_batch)` must be there,
/// and folders `init()` creates must survive every worker process creating them.
pub(crate) fn entry_findings(path: &str, script: &Script) -> Vec<Computed> {
    let mut out = Vec::new();
    match script.function("run") {
        Some(run) if run.positional > 0 => {}
        found => {
            let mut c = computed(
                ENTRY_WITHOUT_RUN,
                vec![Evidence::at_line(
                    path.to_owned(),
                    found.map_or(1, |f| f.line),
                    if found.is_some() {
                        "def run(...) takes no mini-batch argument"
                    } else {
                        "no module-level run(mini_batch) defined in this file"
                    },
                )],
                &[],
            );
            c.edits = match found {
                Some(run) => vec![add_argument(path, run, "mini_batch")],
                None => vec![append(path, ENTRY_RUN_STUB)],
            };
            out.push(c);
        }
    }
    let racy: Vec<Evidence> = script
        .init_makedirs
        .iter()
        .filter(|m| !m.exist_ok || !m.parents)
        .map(|m| {
            let missing = match (m.parents, m.exist_ok) {
                (false, false) => "parents=True, exist_ok=True",
                (false, true) => "parents=True",
                _ => "exist_ok=True",
            };
            Evidence::at_line(
                path.to_owned(),
                m.line,
                format!("{}(...) without {missing}", m.call),
            )
        })
        .collect();
    if let Some(first) = script
        .init_makedirs
        .iter()
        .find(|m| !m.exist_ok || !m.parents)
    {
        let mut c = computed(ENTRY_INIT_MAKEDIRS, racy, &[("call", first.call.clone())]);
        c.edits = script
            .init_makedirs
            .iter()
            .filter(|m| !m.exist_ok || !m.parents)
            .filter_map(|m| idempotent(path, m))
            .collect();
        out.push(c);
    }
    out
}

/// What a scoring script lacking `init()` or `run()` gains at its end.
const INIT_STUB: &[&str] = &[
    "",
    "",
    "def init():",
    "    # Called once per worker when the server starts: load the model here, from",
    "    # os.path.join(os.environ[\"AZUREML_MODEL_DIR\"], ...).",
    "    pass",
];

const RUN_STUB: &[&str] = &[
    "",
    "",
    "def run(raw_data):",
    "    # Called for every scoring request with its body; the return value is the answer.",
    "    raise NotImplementedError(\"score raw_data here\")",
];

/// What an entry script lacking `run(mini_batch)` gains at its end.
const ENTRY_RUN_STUB: &[&str] = &[
    "",
    "",
    "def run(mini_batch):",
    "    # Called for each mini-batch (file paths, or a pandas DataFrame for tabular",
    "    # input); return one result per item (a list or a DataFrame).",
    "    raise NotImplementedError(\"process mini_batch here\")",
];

/// Lines added at the end of the file.
fn append(path: &str, lines: &[&str]) -> Edit {
    Edit {
        path: path.to_owned(),
        line: u64::MAX,
        change: Change::InsertLines {
            lines: lines.iter().map(|l| (*l).to_owned()).collect(),
        },
    }
}

/// `def run():` becomes `def run(ARG):` (`def run(*, x)`: `def run(ARG, *, x)`).
fn add_argument(path: &str, run: &super::python::Function, arg: &str) -> Edit {
    let (old, new) = if run.parameters == 0 {
        ("def run()".to_owned(), format!("def run({arg})"))
    } else {
        ("def run(".to_owned(), format!("def run({arg}, "))
    };
    Edit {
        path: path.to_owned(),
        line: run.line,
        change: Change::ReplaceText { old, new },
    }
}

/// The folder creation with the flags that let every worker run it: `exist_ok=True`,
/// and `parents=True` for `mkdir`. None when a flag is written with another value or
/// the call spans lines.
fn idempotent(path: &str, m: &super::python::MakeDirs) -> Option<Edit> {
    let args = m.arguments.as_deref()?;
    if args.contains("exist_ok") || args.contains("parents") {
        return None;
    }
    let inner = args.strip_prefix('(')?.strip_suffix(')')?.trim_end();
    let flags = if m.call.ends_with("mkdir") && !m.call.ends_with("makedirs") {
        "parents=True, exist_ok=True"
    } else {
        "exist_ok=True"
    };
    let joined = match inner.trim_end_matches(',') {
        "" => format!("({flags})"),
        body => format!("({body}, {flags})"),
    };
    Some(Edit {
        path: path.to_owned(),
        line: m.line,
        change: Change::ReplaceText {
            old: format!("{}{args}", m.call),
            new: format!("{}{joined}", m.call),
        },
    })
}

fn computed(rule_id: &'static str, evidence: Vec<Evidence>, facts: &[(&str, String)]) -> Computed {
    Computed {
        rule_id,
        count: evidence.len().max(1) as u64,
        evidence,
        facts: facts
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
        names: BTreeMap::new(),
        commands: Vec::new(),
        edits: Vec::new(),
    }
}

/// Everything wrong with the scoring script at `path`. `environment` is the file the
/// image is built from (its path and packages), when one was found; `local` are the
/// modules beside the script (its own `helpers.py`, a `utils/` package).
pub(crate) fn findings(
    path: &str,
    script: &Script,
    environment: Option<(&str, &PythonEnvironment)>,
    local: &[String],
) -> Vec<Computed> {
    let mut out = Vec::new();
    let missing: Vec<&str> = ["init", "run"]
        .into_iter()
        .filter(|name| script.function(name).is_none())
        .collect();
    if !missing.is_empty() {
        let text = format!(
            "no module-level {} defined in this file",
            missing
                .iter()
                .map(|m| format!("{m}()"))
                .collect::<Vec<_>>()
                .join(" or ")
        );
        let mut c = computed(
            MISSING_INIT_OR_RUN,
            vec![Evidence::at_line(path.to_owned(), 1, text)],
            &[("missing", missing.join(", "))],
        );
        let mut stub: Vec<&str> = Vec::new();
        for m in &missing {
            stub.extend(if *m == "init" { INIT_STUB } else { RUN_STUB });
        }
        c.edits = vec![append(path, &stub)];
        out.push(c);
    }
    if let Some(run) = script.function("run")
        && run.positional == 0
    {
        let mut c = computed(
            RUN_TAKES_NO_ARGUMENT,
            vec![Evidence::at_line(
                path.to_owned(),
                run.line,
                "def run(...) takes no positional argument".to_owned(),
            )],
            &[],
        );
        c.edits = vec![add_argument(path, run, "raw_data")];
        out.push(c);
    }
    if let Some((env_path, env)) = environment {
        out.extend(imports_missing(path, script, env_path, env, local));
    }
    if !script.reads_model_dir
        && let Some(first) = script.model_files.first()
    {
        let evidence = script
            .model_files
            .iter()
            .map(|m| {
                Evidence::at_line(
                    path.to_owned(),
                    m.line,
                    format!("'{}' is opened relative to the working directory", m.path),
                )
            })
            .collect();
        let mut c = computed(
            MODEL_PATH_WITHOUT_MODEL_DIR,
            evidence,
            &[
                ("model_file", first.path.clone()),
                ("line", first.line.to_string()),
            ],
        );
        c.edits = script
            .model_files
            .iter()
            .filter_map(|m| model_dir_edit(path, m))
            .collect();
        if !c.edits.is_empty() && !script.module_names.iter().any(|n| n == "os") {
            // After the first module-level import statement ends (a `from __future__`
            // one must stay first), else at the top.
            let after = script.first_import_end.unwrap_or(0);
            c.edits.push(Edit {
                path: path.to_owned(),
                line: after,
                change: Change::InsertLines {
                    lines: vec!["import os".to_owned()],
                },
            });
        }
        out.push(c);
    }
    out
}

/// The literal joined to the model folder the service mounts. The folder is the
/// registered model's; a path that starts with the name the model was registered from
/// (`outputs/`, `model/`) keeps only its file name, which is where the mount puts it.
/// None for an f-string or a path with braces: its value is built at run time.
fn model_dir_edit(path: &str, m: &super::python::ModelFile) -> Option<Edit> {
    let prefix = m.literal.split(['"', '\'']).next().unwrap_or_default();
    if prefix.contains(['f', 'F']) || m.path.contains('{') {
        return None;
    }
    let quote = if m.literal.ends_with('"') { '"' } else { '\'' };
    let file = m.path.rsplit('/').next().unwrap_or(&m.path);
    Some(Edit {
        path: path.to_owned(),
        line: m.line,
        change: Change::ReplaceText {
            old: m.literal.clone(),
            new: format!(
                "os.path.join(os.environ[{quote}AZUREML_MODEL_DIR{quote}], {quote}{file}{quote})"
            ),
        },
    })
}

/// Third-party imports whose distribution the environment does not list.
fn imports_missing(
    path: &str,
    script: &Script,
    env_path: &str,
    env: &PythonEnvironment,
    local: &[String],
) -> Option<Computed> {
    let listed = |name: &str| env.packages.iter().any(|p| p.name == normalise(name));
    let missing: Vec<(String, String, u64)> = script
        .imports
        .iter()
        .filter(|(module, _)| !is_standard_library(module) && !local.contains(module))
        .filter_map(|(module, line)| {
            let alternatives = provided_by_any_of(module);
            let found = if alternatives.is_empty() {
                listed(&package_of_import(module))
            } else {
                alternatives.iter().any(|d| listed(d))
            };
            (!found).then(|| (module.clone(), package_of_import(module), *line))
        })
        .collect();
    let (module, _, _) = missing.first()?.clone();
    let evidence = missing
        .iter()
        .map(|(m, d, l)| {
            let needs = if m == d {
                String::new()
            } else {
                format!(" (the package is {d})")
            };
            Evidence::at_line(
                path.to_owned(),
                *l,
                format!("import {m}: not in {env_path}{needs}"),
            )
        })
        .collect();
    let mut c = computed(
        IMPORT_NOT_IN_ENVIRONMENT,
        evidence,
        // `package` is derived from `module` for the fix text.
        &[
            ("module", module),
            ("environment_file", env_path.to_owned()),
        ],
    );
    // Each package goes after the environment's last pip requirement.
    if let Some(last) = env
        .packages
        .iter()
        .filter(|p| p.source == "pip")
        .map(|p| p.line)
        .max()
    {
        let mut seen: Vec<&str> = Vec::new();
        for (_, package, _) in &missing {
            if seen.contains(&package.as_str()) {
                continue;
            }
            seen.push(package);
            c.edits.push(Edit {
                path: env_path.to_owned(),
                line: last,
                change: Change::AddItem {
                    value: package.clone(),
                },
            });
        }
    }
    Some(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::environment::from_requirements;
    use crate::lint::python::read;

    fn ids(found: &[Computed]) -> Vec<&'static str> {
        found.iter().map(|c| c.rule_id).collect()
    }

    #[test]
    fn a_good_script_passes() {
        let script = read(
            "import os, json\nimport joblib\nfrom sklearn.ensemble import RandomForestClassifier\n\ndef init():\n    global model\n    model = joblib.load(os.path.join(os.environ['AZUREML_MODEL_DIR'], 'model.pkl'))\n\ndef run(raw):\n    return json.loads(raw)\n",
        );
        let env = from_requirements("scikit-learn==1.5.2\njoblib==1.4.2\n");
        assert!(findings("score.py", &script, Some(("requirements.txt", &env)), &[]).is_empty());
    }

    #[test]
    fn entry_scripts() {
        let good = read(
            "import os\ndef init():\n    os.makedirs('out', exist_ok=True)\ndef run(mini_batch):\n    return mini_batch\n",
        );
        assert!(entry_findings("batch.py", &good).is_empty());
        let bad = read(
            "import os\nclass Job:\n    def run(self, mini_batch):\n        pass\ndef init():\n    os.makedirs('out/tmp')\n",
        );
        let found = entry_findings("batch.py", &bad);
        assert_eq!(ids(&found), [ENTRY_WITHOUT_RUN, ENTRY_INIT_MAKEDIRS]);
        assert_eq!(found[1].evidence[0].location.line(), 6);
        assert_eq!(
            found[1].evidence[0].text,
            "os.makedirs(...) without exist_ok=True"
        );
    }

    #[test]
    fn each_problem_at_its_line() {
        let script = read(
            "import cv2\nimport yaml\nfrom PIL import Image\nimport numpy as np\nimport helpers\n\nclass Scorer:\n    def init(self):\n        pass\n\ndef run():\n    model = open('model/model.onnx', 'rb')\n",
        );
        let env = from_requirements("numpy==1.26.4\nopencv-python-headless==4.10.0.84\n");
        let found = findings(
            "src/score.py",
            &script,
            Some(("conda.yml", &env)),
            &["helpers".to_owned()],
        );
        assert_eq!(
            ids(&found),
            [
                MISSING_INIT_OR_RUN,
                RUN_TAKES_NO_ARGUMENT,
                IMPORT_NOT_IN_ENVIRONMENT,
                MODEL_PATH_WITHOUT_MODEL_DIR
            ]
        );
        assert_eq!(found[0].facts["missing"], "init");
        assert_eq!(found[1].evidence[0].location.line(), 11);
        let imports: Vec<(u64, &str)> = found[2]
            .evidence
            .iter()
            .map(|e| (e.location.line(), e.text.as_str()))
            .collect();
        assert_eq!(
            imports,
            vec![
                (2, "import yaml: not in conda.yml (the package is pyyaml)"),
                (3, "import PIL: not in conda.yml (the package is pillow)"),
            ]
        );
        assert_eq!(found[3].evidence[0].location.line(), 12);
        // Without an environment file, imports are not judged.
        assert_eq!(findings("src/score.py", &script, None, &[]).len(), 3);
    }
}
