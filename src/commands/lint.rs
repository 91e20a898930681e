//! `amldoctor lint [PATH]...`: the files of a deployment, checked before it is
//! created. Source walks the paths; `lint` says what each file is and turns deployment
//! specs into resources; the deployment rules, configuration checks and lint's own
//! computed checks run over them; the shared pipeline gates and reports.

use std::io::Write;
use std::path::PathBuf;

use crate::analyse::{Analysed, Evidence, Options, Selection, analyse, placeholders};
use crate::cli::LintArgs;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::exit_code::ExitCode;
use crate::lint;
use crate::report::findings::ResourceReport;
use crate::source::project_files;

use super::pipeline::finish;
use super::support::load_rules;

pub(crate) fn run(
    ctx: &Context,
    args: &LintArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let set = load_rules(ctx, &args.rule_dirs)?;
    let files = project_files::collect(&paths);
    let mut c = Analysed {
        fix_texts: args.fix_suggestions.then(|| files.texts()),
        ..Analysed::default()
    };
    let (read, notes) = lint::project::read(&files);
    c.input_errors = notes.input_errors;
    c.not_analysed = notes.not_analysed;
    c.warnings = notes.warnings;
    if read.deployable == 0 && c.input_errors.is_empty() {
        let named: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(Error::input(format!(
            "no deployable files in {}: looked for {}",
            named.join(", "),
            lint::LOOKED_FOR
        ))
        .with_hint(
            "name the deployment YAML (amldoctor lint deploy/blue.yml) or the folder that holds it",
        ));
    }
    let mut reports: Vec<ResourceReport> = read
        .specs
        .iter()
        .chain(&read.computes)
        .map(ResourceReport::of)
        .collect();
    // A script is read as a file, not a resource, but it is an input all the same.
    reports.extend(read.checked_scripts.iter().map(|path| {
        ResourceReport {
            path: path.clone(),
            pointer: String::new(),
            kind: crate::evidence::resource::ResourceKind::PythonScript,
            shape: crate::evidence::resource::Shape::File,
            name: std::path::Path::new(path)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned()),
            id: None,
        }
    }));
    let mut evidence = Evidence::of_resources(read.specs);
    evidence.lint = read.computed;
    let options = Options::new(Selection::Lint, placeholders::of_context(ctx));
    let analysed = analyse(&set, evidence, &options);
    c.resources.extend(reports);
    c.findings = analysed.findings;
    c.rules = analysed.rules;
    c.names = analysed.names;
    c.missing_names = analysed.missing_names;
    finish("lint", ctx, &set, &args.report, c, out, err)
}
