//! `lint`: the files a user is about to deploy, read before anything is created. Pure:
//! the command hands in each file's parsed YAML and which referenced paths exist; this
//! module says what each file is, turns an online deployment spec into the same
//! resource the configuration checks read (so the deployment rules and computed checks
//! apply to it), and computes the findings that need the file system's answers.

pub(crate) mod dataflow;
pub(crate) mod environment;
pub(crate) mod fix;
pub(crate) mod gpu;
pub(crate) mod project;
pub(crate) mod python;
pub(crate) mod python_requires;
pub(crate) mod script;
pub(crate) mod vm_size;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::evidence::json_lines::JsonText;
use crate::evidence::resource::{Resource, ResourceKind, Shape};
use crate::evidence::yaml_doc::YamlDoc;
use crate::finding::{Computed, Evidence, Location};

/// The rule of [`missing_references`].
pub(crate) const FILE_NOT_FOUND: &str = "deployment-spec-file-not-found";

/// The rule of [`missing_references`] for a parallel job.
pub(crate) const JOB_FILE_NOT_FOUND: &str = "parallel-job-file-not-found";

/// The ids of the rules computed by lint.
pub(crate) fn computed_rule_ids() -> impl Iterator<Item = &'static str> {
    [
        FILE_NOT_FOUND,
        JOB_FILE_NOT_FOUND,
        gpu::RULE_ID,
        python_requires::RULE_ID,
    ]
    .into_iter()
    .chain(script::RULES.iter().copied())
}

/// The parallel jobs of a YAML file: the file itself (`type: parallel`) or each
/// parallel step of a pipeline (`jobs.NAME`), with their lines.
pub(crate) fn parallel_jobs(path: &str, doc: &YamlDoc) -> Vec<Resource> {
    let job = |base: String, json: &Value| Resource {
        path: path.to_owned(),
        base,
        kind: ResourceKind::ParallelJob,
        shape: Shape::File,
        id: None,
        name: json.get("name").and_then(Value::as_str).map(str::to_owned),
        json: json.clone(),
        text: JsonText::from_yaml_lines(doc.lines.clone()),
    };
    let kind = |v: &Value| v.get("type").and_then(Value::as_str).map(str::to_owned);
    match kind(&doc.value).as_deref() {
        Some("parallel") => vec![job(String::new(), &doc.value)],
        Some("pipeline") => doc
            .value
            .get("jobs")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter(|(_, j)| kind(j).as_deref() == Some("parallel"))
            .map(|(name, j)| {
                let mut r = job(
                    format!("/jobs/{}", crate::evidence::json_lines::escape_token(name)),
                    j,
                );
                r.name.get_or_insert_with(|| name.clone());
                r
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The key that marks a v1 `ParallelRunConfig(...)` / `ParallelRunStep(...)` call read
/// as a parallel job (and tells `evidence::resource` what it is).
pub(crate) const CALL_KEY: &str = "parallel_run_call";

/// The `ParallelRunConfig(...)` and `ParallelRunStep(...)` calls of a v1 pipeline
/// script as parallel jobs: their literal keyword arguments, each at its line, so the
/// parallel job rules read the v1 settings too.
pub(crate) fn parallel_run_calls(path: &str, script: &python::Script) -> Vec<Resource> {
    script
        .parallel_run_calls
        .iter()
        .map(|call| {
            let mut json = serde_json::Map::new();
            let mut lines = std::collections::BTreeMap::new();
            json.insert(CALL_KEY.to_owned(), Value::String(call.name.clone()));
            lines.insert(String::new(), call.line);
            lines.insert(format!("/{CALL_KEY}"), call.line);
            for (key, value, line) in &call.arguments {
                json.insert(key.clone(), value.clone());
                lines.insert(
                    format!("/{}", crate::evidence::json_lines::escape_token(key)),
                    *line,
                );
            }
            Resource {
                path: path.to_owned(),
                base: String::new(),
                kind: ResourceKind::ParallelJob,
                shape: Shape::File,
                id: None,
                name: json.get("name").and_then(Value::as_str).map(str::to_owned),
                json: Value::Object(json),
                text: JsonText::from_yaml_lines(lines),
            }
        })
        .collect()
}

/// The text at `pointer` when it names a local path: registered assets (`azureml:…`),
/// URLs and empty values do not.
fn local_path(r: &Resource, pointer: &str) -> Option<String> {
    let text = r.json.pointer(pointer)?.as_str()?.trim();
    let remote = text.is_empty() || text.starts_with("azureml:") || text.contains("://");
    (!remote).then(|| text.to_owned())
}

/// The local code folder and entry script a parallel job names.
pub(crate) fn job_references(job: &Resource, spec_dir: &Path) -> Vec<Reference> {
    let local = |p: &str| local_path(job, p);
    let mut out = Vec::new();
    let code = local("/task/code");
    if let Some(code) = &code {
        out.push(Reference {
            pointer: "/task/code".to_owned(),
            resolved: spec_dir.join(code),
            written: code.clone(),
        });
    }
    if let Some(script) = local("/task/entry_script") {
        let base = code
            .as_ref()
            .map_or_else(|| spec_dir.to_path_buf(), |c| spec_dir.join(c));
        out.push(Reference {
            pointer: "/task/entry_script".to_owned(),
            resolved: base.join(&script),
            written: script,
        });
    }
    out
}

/// What a file of a project is, as far as `lint` is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FileKind {
    /// An `az ml online-deployment create -f` spec (managed or Kubernetes).
    OnlineDeployment,
    /// An `az ml online-endpoint create -f` spec.
    OnlineEndpoint,
    /// A v2 parallel job (`type: parallel`) or a pipeline holding one.
    ParallelJob,
    /// A conda environment file (`dependencies:` with `python`/`pip`).
    CondaEnvironment,
    /// An `az ml compute create -f` spec (`type: amlcompute`): the VM size parallel jobs
    /// that name it run on.
    Compute,
    /// A pip requirements file.
    Requirements,
    /// A Python file (a scoring or entry script).
    Python,
    /// A YAML file of another kind.
    OtherYaml,
}

impl FileKind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            FileKind::OnlineDeployment => "online deployment spec",
            FileKind::OnlineEndpoint => "online endpoint spec",
            FileKind::ParallelJob => "parallel job spec",
            FileKind::CondaEnvironment => "conda environment",
            FileKind::Compute => "compute spec",
            FileKind::Requirements => "pip requirements file",
            FileKind::Python => "Python script",
            FileKind::OtherYaml => "YAML file",
        }
    }
}

/// What lint looks for, for the message when a directory holds none of it.
pub(crate) const LOOKED_FOR: &str = "online deployment specs (YAML with a managedOnlineDeployment or kubernetesOnlineDeployment $schema, or model, environment or code_configuration with endpoint_name or instance settings), online endpoint specs (an onlineEndpoint $schema, or name with auth_mode), parallel job specs, conda environment files, requirements*.txt and Python scripts";

/// The kind of a file from its name and, for YAML, its parsed value.
pub(crate) fn classify(path: &Path, yaml: Option<&Value>) -> FileKind {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    if ext == "py" {
        return FileKind::Python;
    }
    if ext == "txt" {
        return FileKind::Requirements;
    }
    let Some(obj) = yaml.and_then(Value::as_object) else {
        return FileKind::OtherYaml;
    };
    let schema = obj
        .get("$schema")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_ascii_lowercase();
    let has = |k: &str| obj.contains_key(k);
    let serves = has("model") || has("environment") || has("code_configuration");
    // Without endpoint_name (left to --endpoint-name), the keys only an online
    // deployment has; a batch deployment names a compute and mini-batches.
    let online_keys = [
        "instance_type",
        "instance_count",
        "request_settings",
        "liveness_probe",
        "readiness_probe",
        "scale_settings",
    ]
    .iter()
    .any(|k| has(k));
    let batch = schema.contains("batchdeployment") || has("compute") || has("mini_batch_size");
    if schema.contains("onlinedeployment")
        || (!batch && serves && (has("endpoint_name") || online_keys))
    {
        return FileKind::OnlineDeployment;
    }
    // The same test `evidence::resource` reads an endpoint spec's JSON by.
    if schema.contains("onlineendpoint")
        || (has("auth_mode") && has("name") && !has("endpoint_name") && !has("model"))
    {
        return FileKind::OnlineEndpoint;
    }
    let kind = obj.get("type").and_then(Value::as_str).unwrap_or_default();
    if schema.contains("paralleljob") || kind == "parallel" || kind == "pipeline" {
        return FileKind::ParallelJob;
    }
    if schema.contains("amlcompute") || kind.eq_ignore_ascii_case("amlcompute") {
        return FileKind::Compute;
    }
    let conda = obj.get("dependencies").is_some_and(|d| {
        d.is_array()
            && (has("channels") || has("name") || d.as_array().is_some_and(|a| !a.is_empty()))
    });
    if conda {
        return FileKind::CondaEnvironment;
    }
    FileKind::OtherYaml
}

/// An online deployment spec as the resource the deployment rules read: the `az ml`
/// shape, lines from the YAML.
pub(crate) fn deployment_resource(path: &str, doc: &YamlDoc) -> Resource {
    spec_resource(path, doc, ResourceKind::OnlineDeployment)
}

/// An online endpoint spec as the resource the endpoint rules read.
pub(crate) fn endpoint_resource(path: &str, doc: &YamlDoc) -> Resource {
    spec_resource(path, doc, ResourceKind::OnlineEndpoint)
}

fn spec_resource(path: &str, doc: &YamlDoc, kind: ResourceKind) -> Resource {
    let str_of = |k: &str| doc.value.get(k).and_then(Value::as_str).map(str::to_owned);
    Resource {
        path: path.to_owned(),
        base: String::new(),
        kind,
        shape: Shape::File,
        id: None,
        name: str_of("name"),
        json: doc.value.clone(),
        text: JsonText::from_yaml_lines(doc.lines.clone()),
    }
}

/// A compute spec as a resource (for the report's list of what was read) and its VM
/// size, if it names one.
pub(crate) fn compute(path: &str, doc: &YamlDoc) -> (Resource, Option<gpu::SizeAt>) {
    let name = doc
        .value
        .get("name")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let r = Resource {
        path: path.to_owned(),
        base: String::new(),
        kind: ResourceKind::Compute,
        shape: Shape::File,
        id: None,
        name: name.clone(),
        json: doc.value.clone(),
        text: JsonText::from_yaml_lines(doc.lines.clone()),
    };
    let size = doc
        .value
        .get("size")
        .and_then(Value::as_str)
        .map(|size| gpu::SizeAt {
            size: size.to_owned(),
            path: path.to_owned(),
            line: r.line_of("/size"),
            compute: name,
        });
    (r, size)
}

/// A local path a deployment spec names, resolved against the spec's folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reference {
    /// The key that names it.
    pub pointer: String,
    /// As written.
    pub written: String,
    /// Where it points on this machine.
    pub resolved: PathBuf,
}

/// The local files and folders a deployment spec names: its code folder and scoring
/// script (relative to the code folder), conda file, image build context and model
/// path. Registered assets (`azureml:…`), URLs and inline values are not paths.
pub(crate) fn references(spec: &Resource, spec_dir: &Path) -> Vec<Reference> {
    let local = |p: &str| local_path(spec, p);
    let mut out = Vec::new();
    let mut push = |pointer: &str, written: String, base: &Path| {
        out.push(Reference {
            pointer: pointer.to_owned(),
            resolved: base.join(&written),
            written,
        });
    };
    let code = local("/code_configuration/code");
    if let Some(code) = &code {
        push("/code_configuration/code", code.clone(), spec_dir);
    }
    if let Some(script) = local("/code_configuration/scoring_script") {
        let base = code
            .as_ref()
            .map_or_else(|| spec_dir.to_path_buf(), |c| spec_dir.join(c));
        push("/code_configuration/scoring_script", script, &base);
    }
    for pointer in [
        "/environment/conda_file",
        "/environment/build/path",
        "/model/path",
    ] {
        if let Some(p) = local(pointer) {
            push(pointer, p, spec_dir);
        }
    }
    out
}

/// The finding (under `rule_id`) for the references that do not exist (`missing`, as
/// [`references`] or [`job_references`] gave them).
pub(crate) fn missing_references(
    rule_id: &'static str,
    spec: &Resource,
    missing: &[Reference],
) -> Option<Computed> {
    let first = missing.first()?;
    let evidence = missing
        .iter()
        .map(|m| Evidence {
            location: Location::Pointer {
                path: spec.path.clone(),
                line: spec.line_of(&m.pointer),
                pointer: spec.absolute(&m.pointer),
            },
            text: format!(
                "{} does not exist (looked for {})",
                m.written,
                m.resolved.display()
            ),
            at: 0,
            computed: false,
            columns: None,
        })
        .collect();
    let key = first.pointer.trim_start_matches('/').replace('/', ".");
    Some(Computed {
        rule_id,
        count: missing.len() as u64,
        evidence,
        facts: [
            ("setting".to_owned(), key),
            ("path".to_owned(), first.written.clone()),
        ]
        .into_iter()
        .collect(),
        names: spec.names(),
        commands: Vec::new(),
        edits: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::yaml_doc;

    fn spec(text: &str) -> Resource {
        deployment_resource("deploy/blue.yml", &yaml_doc::parse(text).unwrap())
    }

    #[test]
    fn kinds_from_names_and_shapes() {
        let kind = |name: &str, text: &str| {
            let doc = yaml_doc::parse(text).unwrap();
            classify(Path::new(name), Some(&doc.value))
        };
        let managed = "$schema: https://azuremlschemas.azureedge.net/latest/managedOnlineDeployment.schema.json\nname: blue\n";
        assert_eq!(kind("blue.yml", managed), FileKind::OnlineDeployment);
        assert_eq!(
            kind(
                "d.yaml",
                "name: blue\nendpoint_name: ep\nmodel: azureml:m:1\n"
            ),
            FileKind::OnlineDeployment
        );
        assert_eq!(
            kind(
                "ep.yml",
                "$schema: https://azuremlschemas.azureedge.net/latest/managedOnlineEndpoint.schema.json\nname: ep\n"
            ),
            FileKind::OnlineEndpoint
        );
        assert_eq!(
            kind("ep.yml", "name: churn-ep\nauth_mode: key\n"),
            FileKind::OnlineEndpoint
        );
        assert_eq!(
            kind(
                "env.yml",
                "name: env\nchannels: [conda-forge]\ndependencies:\n  - python=3.10\n  - pip:\n    - azureml-inference-server-http\n"
            ),
            FileKind::CondaEnvironment
        );
        assert_eq!(kind("job.yml", "type: parallel\n"), FileKind::ParallelJob);
        assert_eq!(
            kind(
                "gpu.yml",
                "$schema: https://azuremlschemas.azureedge.net/latest/amlCompute.schema.json\nname: gpu-cluster\ntype: amlcompute\nsize: STANDARD_NC6s_v3\n"
            ),
            FileKind::Compute
        );
        assert_eq!(kind("ci.yml", "on: push\njobs: {}\n"), FileKind::OtherYaml);
        assert_eq!(
            kind(
                "d.yml",
                "model: azureml:m:1\ninstance_type: Standard_DS3_v2\ninstance_count: 1\n"
            ),
            FileKind::OnlineDeployment
        );
        assert_eq!(
            kind(
                "batch.yml",
                "name: b\nendpoint_name: ep\nmodel: azureml:m:1\ncompute: azureml:cpu\nmini_batch_size: 10\n"
            ),
            FileKind::OtherYaml
        );
        assert_eq!(classify(Path::new("src/score.py"), None), FileKind::Python);
        assert_eq!(
            classify(Path::new("requirements-dev.txt"), None),
            FileKind::Requirements
        );
    }

    #[test]
    fn references_resolve_against_the_spec_and_code_folders() {
        let s = spec(
            "name: blue\nendpoint_name: ep\nmodel:\n  path: ../model/model.pkl\ncode_configuration:\n  code: ./src\n  scoring_script: score.py\nenvironment:\n  conda_file: env/conda.yml\n  image: mcr.microsoft.com/azureml/minimal-ubuntu22.04-py39-cpu-inference:latest\n",
        );
        let refs = references(&s, Path::new("deploy"));
        let got: Vec<(&str, PathBuf)> = refs
            .iter()
            .map(|r| (r.pointer.as_str(), r.resolved.clone()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("/code_configuration/code", PathBuf::from("deploy/./src")),
                (
                    "/code_configuration/scoring_script",
                    PathBuf::from("deploy/./src/score.py")
                ),
                (
                    "/environment/conda_file",
                    PathBuf::from("deploy/env/conda.yml")
                ),
                ("/model/path", PathBuf::from("deploy/../model/model.pkl")),
            ]
        );
        let registered = spec(
            "name: blue\nendpoint_name: ep\nmodel: azureml:churn:3\nenvironment: azureml:sklearn-env@latest\n",
        );
        assert!(references(&registered, Path::new(".")).is_empty());
    }

    #[test]
    fn a_missing_file_is_reported_at_its_line() {
        let s = spec(
            "name: blue\nendpoint_name: ep\ncode_configuration:\n  code: ./src\n  scoring_script: score.py\n",
        );
        let refs = references(&s, Path::new("deploy"));
        let c = missing_references(FILE_NOT_FOUND, &s, &refs[1..]).unwrap();
        assert_eq!(c.rule_id, FILE_NOT_FOUND);
        assert_eq!(c.evidence[0].location.line(), 5);
        assert_eq!(
            c.evidence[0].text,
            "score.py does not exist (looked for deploy/./src/score.py)"
        );
        assert_eq!(c.facts["setting"], "code_configuration.scoring_script");
        assert!(missing_references(FILE_NOT_FOUND, &s, &[]).is_none());
    }
}
