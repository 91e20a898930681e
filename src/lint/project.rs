//! The files of a deployment read before it is created: what each file is (spec,
//! environment, scoring or entry script, parallel job, compute, v1 pipeline script),
//! the specs and jobs as resources for the rules, and lint's own computed findings
//! (scripts against their environment, GPUs against processes per node).

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::evidence::resource::{Resource, ResourceKind};
use crate::evidence::yaml_doc;
use crate::finding::NotAnalysed;
use crate::source::project_files::{self, ProjectFile, ProjectFiles};

use super::{self as lint, FileKind};

/// What the user should know about the files, besides findings.
#[derive(Debug, Default)]
pub(crate) struct Notes {
    /// Files the user named that could not be used: each one `error:` line, exit 2.
    pub(crate) input_errors: Vec<Error>,
    pub(crate) not_analysed: Vec<NotAnalysed>,
    pub(crate) warnings: Vec<String>,
}

/// Reads every file: the resources, computed findings and notes of a lint run.
pub(crate) fn read(files: &ProjectFiles) -> (Read, Notes) {
    let mut notes = Notes::default();
    for (path, reason) in &files.unreadable {
        notes
            .input_errors
            .push(Error::input(format!("cannot read {path}: {reason}")));
        notes
            .not_analysed
            .push(NotAnalysed::error(path, reason.clone()));
    }
    let mut read = Read::default();
    for file in &files.files {
        read.file(file, &mut notes);
    }
    // With nothing to deploy the command stops here, unless a named file was the reason.
    if read.deployable > 0 || !notes.input_errors.is_empty() {
        let scoring = std::mem::take(&mut read.scoring);
        read.script_findings(&scoring, &mut notes);
        read.gpu_findings();
        read.specs.append(&mut read.file_resources);
    }
    (read, notes)
}

/// What reading the files gave.
#[derive(Debug, Default)]
pub(crate) struct Read {
    pub(crate) specs: Vec<Resource>,
    /// Environments and parallel jobs: resources of files only lint reads.
    file_resources: Vec<Resource>,
    /// Each environment file: its path, display name and packages.
    env_files: Vec<(PathBuf, String, lint::environment::PythonEnvironment)>,
    scripts: Vec<Script>,
    /// Scoring scripts the specs name, with the spec's conda file.
    scoring: Vec<(PathBuf, Option<PathBuf>)>,
    /// Entry scripts parallel jobs name.
    entry_scripts: Vec<PathBuf>,
    pub(crate) computed: Vec<crate::finding::Computed>,
    /// Compute specs: read for the VM size of the jobs that name them, checked by nothing.
    pub(crate) computes: Vec<Resource>,
    compute_sizes: Vec<lint::gpu::SizeAt>,
    /// The `provisioning_configuration(vm_size=…)` sizes of each v1 pipeline script.
    script_sizes: Vec<lint::gpu::SizeAt>,
    /// Files of a kind a deployment is made of.
    pub(crate) deployable: usize,
    /// The scoring and entry scripts checked (their display paths), for the inputs list.
    pub(crate) checked_scripts: Vec<String>,
}

/// A file's text and, for YAML, its document; `None` (noted) when it cannot be used.
fn readable<'f>(
    file: &'f ProjectFile,
    display: &str,
    c: &mut Notes,
) -> Option<(&'f str, Option<yaml_doc::YamlDoc>)> {
    let text = match &file.text {
        Ok(text) => text,
        Err(e) => {
            if file.named {
                c.input_errors.push(e.clone());
            }
            c.not_analysed
                .push(NotAnalysed::error(display, e.message.clone()));
            return None;
        }
    };
    if file.named && text.trim_start_matches('\u{feff}').trim().is_empty() {
        let reason = "it is empty; expected a deployment, endpoint, job or environment file";
        c.input_errors
            .push(Error::input(format!("{display}: {reason}")));
        c.not_analysed
            .push(NotAnalysed::error(display, reason.to_owned()));
        return None;
    }
    if !is_yaml(&file.path) {
        return Some((text, None));
    }
    match yaml_doc::parse(text) {
        Ok(doc) => Some((text, Some(doc))),
        Err(e) => {
            c.input_errors.push(Error::input(format!("{display}: {e}")));
            c.not_analysed
                .push(NotAnalysed::error(display, e.to_string()));
            None
        }
    }
}

impl Read {
    fn file(&mut self, file: &ProjectFile, c: &mut Notes) {
        let display = file.path.display().to_string();
        let Some((text, yaml)) = readable(file, &display, c) else {
            return;
        };
        let kind = lint::classify(&file.path, yaml.as_ref().map(|d| &d.value));
        match (kind, yaml) {
            (FileKind::OnlineDeployment, Some(doc)) => {
                self.deployable += 1;
                self.deployment_spec(&file.path, &display, &doc);
            }
            (FileKind::CondaEnvironment, Some(doc)) => {
                self.deployable += 1;
                let env = lint::environment::from_conda(&doc);
                self.environment(&file.path, &display, env, c);
            }
            (FileKind::Requirements, _) => {
                self.deployable += 1;
                let env = lint::environment::from_requirements(text);
                self.environment(&file.path, &display, env, c);
            }
            (FileKind::ParallelJob, Some(doc)) => {
                self.deployable += 1;
                self.parallel_jobs(&file.path, &display, &doc);
            }
            (FileKind::Compute, Some(doc)) => {
                let (r, size) = lint::compute(&display, &doc);
                self.computes.push(r);
                self.compute_sizes.extend(size);
            }
            (FileKind::OnlineEndpoint, Some(doc)) => {
                self.deployable += 1;
                self.specs.push(lint::endpoint_resource(&display, &doc));
            }
            (FileKind::OtherYaml, _) => {
                if file.named {
                    c.not_analysed.push(NotAnalysed::new(
                        &display,
                        format!("not a file lint reads: looked for {}", lint::LOOKED_FOR),
                    ));
                }
            }
            (FileKind::Python, _) => {
                self.deployable += 1;
                let script = lint::python::read(text);
                let calls = lint::parallel_run_calls(&display, &script);
                if !calls.is_empty() {
                    // A v1 pipeline script: its parallel run settings are checked.
                    self.file_resources.extend(calls);
                    self.script_sizes
                        .extend(
                            script
                                .vm_sizes
                                .iter()
                                .map(|(size, line)| lint::gpu::SizeAt {
                                    size: size.clone(),
                                    path: display.clone(),
                                    line: *line,
                                    compute: None,
                                }),
                        );
                    return;
                }
                self.scripts.push(Script {
                    path: file.path.clone(),
                    display,
                    script,
                });
            }
            (other, _) => {
                self.deployable += 1;
                c.not_analysed.push(NotAnalysed::new(
                    &display,
                    format!(
                        "a {}: lint does not check this kind of file yet",
                        other.name()
                    ),
                ));
            }
        }
    }
}

impl Read {
    /// A deployment spec: the resource, the files it names that do not exist, and its
    /// scoring script (with its conda file) for the script checks.
    fn deployment_spec(&mut self, path: &Path, display: &str, doc: &yaml_doc::YamlDoc) {
        let spec = lint::deployment_resource(display, doc);
        let dir = path.parent().unwrap_or(Path::new("."));
        let references = lint::references(&spec, dir);
        let resolved = |pointer: &str| {
            references
                .iter()
                .find(|r| r.pointer == pointer)
                .map(|r| r.resolved.clone())
        };
        if let Some(script) = resolved("/code_configuration/scoring_script") {
            self.scoring
                .push((script, resolved("/environment/conda_file")));
        }
        let missing: Vec<lint::Reference> = references
            .into_iter()
            .filter(|r| !project_files::exists(&r.resolved))
            .collect();
        self.computed.extend(lint::missing_references(
            lint::FILE_NOT_FOUND,
            &spec,
            &missing,
        ));
        self.specs.push(spec);
    }

    /// The parallel jobs of a file: their resources, the files they name that do not
    /// exist, and their entry scripts for the entry script checks.
    fn parallel_jobs(&mut self, path: &Path, display: &str, doc: &yaml_doc::YamlDoc) {
        let dir = path.parent().unwrap_or(Path::new("."));
        for job in lint::parallel_jobs(display, doc) {
            let references = lint::job_references(&job, dir);
            if let Some(entry) = references
                .iter()
                .find(|r| r.pointer == "/task/entry_script")
            {
                self.entry_scripts.push(entry.resolved.clone());
            }
            let missing: Vec<lint::Reference> = references
                .into_iter()
                .filter(|r| !project_files::exists(&r.resolved))
                .collect();
            self.computed.extend(lint::missing_references(
                lint::JOB_FILE_NOT_FOUND,
                &job,
                &missing,
            ));
            self.file_resources.push(job);
        }
    }

    /// Parallel jobs whose nodes have fewer GPUs than worker processes.
    fn gpu_findings(&mut self) {
        for job in &self.file_resources {
            if job.kind != ResourceKind::ParallelJob {
                continue;
            }
            let own: Vec<lint::gpu::SizeAt> = self
                .script_sizes
                .iter()
                .filter(|s| s.path == job.path)
                .cloned()
                .collect();
            if let Some(size) = lint::gpu::node_size(job, &self.compute_sizes, &own) {
                self.computed
                    .extend(lint::gpu::processes_exceed_gpus(job, &size));
            }
        }
    }

    fn environment(
        &mut self,
        file: &Path,
        path: &str,
        env: lint::environment::PythonEnvironment,
        c: &mut Notes,
    ) {
        for (line, text) in &env.unreadable {
            c.warnings.push(format!(
                "{path}:{line}: '{text}' is not a requirement pip can read (PEP 508); it was skipped"
            ));
        }
        self.computed
            .extend(lint::python_requires::check(path, &env));
        self.file_resources
            .push(lint::environment::resource(path, &env));
        self.env_files
            .push((file.to_path_buf(), path.to_owned(), env));
    }

    /// The scoring scripts' findings: a script a spec names, or a `score*.py`. Its
    /// environment is the spec's conda file, else one beside it or in a parent folder.
    fn script_findings(&mut self, scoring: &[(PathBuf, Option<PathBuf>)], c: &mut Notes) {
        for s in &self.scripts {
            let named = scoring.iter().find(|(p, _)| same_file(p, &s.path));
            let by_name = s
                .path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.to_ascii_lowercase().starts_with("score"));
            if self.entry_scripts.iter().any(|p| same_file(p, &s.path)) {
                self.computed
                    .extend(lint::script::entry_findings(&s.display, &s.script));
                self.checked_scripts.push(s.display.clone());
                continue;
            }
            if named.is_none() && !by_name {
                c.not_analysed.push(NotAnalysed::new(
                    &s.display,
                    "a Python file no deployment spec names as its scoring script (nor named score*.py)",
                ));
                continue;
            }
            let env = named
                .and_then(|(_, conda)| conda.as_ref())
                .and_then(|conda| self.env_files.iter().find(|(p, _, _)| same_file(p, conda)))
                .or_else(|| {
                    s.path.ancestors().skip(1).take(3).find_map(|dir| {
                        self.env_files
                            .iter()
                            .find(|(p, _, _)| p.parent() == Some(dir))
                    })
                });
            let local = s
                .path
                .parent()
                .map(project_files::local_modules)
                .unwrap_or_default();
            self.computed.extend(lint::script::findings(
                &s.display,
                &s.script,
                env.map(|(_, display, env)| (display.as_str(), env)),
                &local,
            ));
            self.checked_scripts.push(s.display.clone());
        }
    }
}

/// Whether two paths name the same file (`./src/score.py` and `src/score.py`).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// A Python file read.
#[derive(Debug)]
struct Script {
    path: PathBuf,
    display: String,
    script: lint::python::Script,
}

fn is_yaml(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("yml") || e.eq_ignore_ascii_case("yaml"))
}
