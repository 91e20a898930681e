//! Turns raw global arguments into a validated [`Context`] before any command runs.
//!
//! Each value is taken from the first of: the command-line flag, an `AMLDOCTOR_*`
//! variable, the az CLI's own settings (`AZURE_DEFAULTS_*`/`AZURE_CLOUD_NAME`
//! variables over its `config` file; the `isDefault` subscription of
//! `azureProfile.json`), and the project file `.amldoctor.yaml`. Nothing here does I/O:
//! `source` hands over the environment snapshot and the files' text.

pub(crate) mod az_cli;
pub(crate) mod cloud;
pub(crate) mod name_rules;
pub(crate) mod overrides;
pub(crate) mod project_config;

use std::path::PathBuf;

use clap::ValueEnum;

use crate::error::{Error, Result};
use crate::report::OutputFormat;
use crate::setting::{Setting, ValueSource};
pub(crate) use crate::source::Environment;
use crate::source::LoadedFile;

pub(crate) use cloud::Cloud;
use project_config::ProjectConfig;

/// The files the context is resolved from, as loaded by `source`.
#[derive(Debug, Clone, Default)]
pub struct ContextFiles {
    /// The az CLI INI file (`$AZURE_CONFIG_DIR/config` or `~/.azure/config`).
    pub az_config: Option<LoadedFile>,
    /// `azureProfile.json` in the same folder.
    pub az_profile: Option<LoadedFile>,
    /// The nearest `.amldoctor.yaml` at or above the working directory.
    pub project: Option<LoadedFile>,
}

/// Everything commands need to know about where and how to work.
#[derive(Debug, Clone)]
pub struct Context {
    pub output: Setting<OutputFormat>,
    /// Colours and styles on stdout.
    pub color: bool,
    pub quiet: bool,
    pub verbose: bool,
    pub debug: bool,
    /// Columns table output is laid out for: `COLUMNS`, else the terminal's width,
    /// else 100.
    pub width: usize,
    pub subscription: Option<Setting<String>>,
    /// Every `--subscription` flag, for `check --fleet`.
    pub subscriptions: Vec<String>,
    pub resource_group: Option<Setting<String>>,
    pub workspace: Option<Setting<String>>,
    /// The project file's `endpoint` / `deployment`: they fill printed commands.
    pub endpoint: Option<Setting<String>>,
    pub deployment: Option<Setting<String>>,
    pub cloud: Setting<Cloud>,
    /// The Entra tenant to sign in to: `--tenant`, else the one `azureProfile.json`
    /// lists for the subscription (a subscription of another tenant than the az CLI's
    /// default needs its own tenant's token).
    pub tenant: Option<Setting<String>>,
    /// How commands that read Azure sign in (`--auth`).
    pub auth: crate::source::azure::AuthChoice,
    /// The project file in effect, if any.
    pub project_file: Option<PathBuf>,
    /// Extra rule directories from the project file's `rules`, relative to its folder.
    pub project_rule_dirs: Vec<PathBuf>,
    /// Accepted findings from the project file's `suppressions`.
    pub suppressions: Vec<crate::gate::Suppression>,
    /// When the run began (the context is resolved first): reports say how long it took.
    pub started: std::time::Instant,
    /// The `AMLDOCTOR_*` variables that fix the clock or replace Azure's endpoints.
    pub overrides: overrides::Overrides,
    /// What `-` reads when the caller hands the text over in memory (an MCP tool's
    /// paste) instead of on standard input.
    pub stdin: Option<std::sync::Arc<[u8]>>,
}

#[derive(Clone)]
struct Candidate {
    value: String,
    origin: ValueSource,
}

/// The places a value can come from, parsed once; each lookup yields a [`Candidate`]
/// carrying its origin, and callers chain them in precedence order.
struct Sources<'a> {
    env: &'a Environment,
    ini: Option<(&'a LoadedFile, az_cli::IniFile)>,
    profile_subscription: Option<Candidate>,
    project: Option<(&'a LoadedFile, ProjectConfig)>,
}

impl<'a> Sources<'a> {
    fn read(env: &'a Environment, files: &'a ContextFiles) -> Result<Sources<'a>> {
        let ini = match &files.az_config {
            Some(f) => Some((
                f,
                az_cli::IniFile::parse(&f.text).map_err(|e| {
                    Error::input(format!("{}: {e}", f.path.display())).with_hint(
                        "fix or remove the az CLI config file (az configure rewrites it)",
                    )
                })?,
            )),
            None => None,
        };
        let profile_subscription = match &files.az_profile {
            Some(f) => az_cli::default_subscription(&f.text)
                .map_err(|e| {
                    Error::input(format!("{}: {e}", f.path.display())).with_hint(
                        "run 'az login' to rewrite the az CLI profile, or pass --subscription",
                    )
                })?
                .map(|s| Candidate {
                    value: s.id,
                    origin: ValueSource::AzProfile(f.path.clone()),
                }),
            None => None,
        };
        let project = match &files.project {
            Some(f) => Some((
                f,
                ProjectConfig::parse(&f.text)
                    .map_err(|e| Error::input(format!("{}: {e}", f.path.display())))?,
            )),
            None => None,
        };
        Ok(Sources {
            env,
            ini,
            profile_subscription,
            project,
        })
    }

    fn flag(value: &Option<String>, name: &'static str) -> Option<Candidate> {
        value.clone().map(|v| Candidate {
            value: v,
            origin: ValueSource::Flag(name),
        })
    }

    fn var(&self, name: &str) -> Option<Candidate> {
        self.env.var(name).map(|v| Candidate {
            value: v.trim().to_owned(),
            origin: ValueSource::Env(name.to_owned()),
        })
    }

    fn az_key(&self, section: &str, key: &str) -> Option<Candidate> {
        self.ini.as_ref().and_then(|(f, ini)| {
            ini.get(section, key).map(|v| Candidate {
                value: v.to_owned(),
                origin: ValueSource::AzConfig {
                    path: f.path.clone(),
                    key: format!("[{section}] {key}"),
                },
            })
        })
    }

    fn project_key(
        &self,
        key: &str,
        pick: fn(&ProjectConfig) -> &Option<String>,
    ) -> Option<Candidate> {
        self.project.as_ref().and_then(|(f, cfg)| {
            pick(cfg).clone().map(|v| Candidate {
                value: v,
                origin: ValueSource::ProjectFile {
                    path: f.path.clone(),
                    key: key.to_owned(),
                },
            })
        })
    }

    fn output(&self, flag: Option<OutputFormat>) -> Result<Setting<OutputFormat>> {
        if let Some(o) = flag {
            return Ok(Setting::new(o, ValueSource::Flag("--output")));
        }
        match self
            .var("AMLDOCTOR_OUTPUT")
            .or_else(|| self.project_key("output", |c| &c.output))
        {
            Some(c) => Ok(Setting::new(
                OutputFormat::from_str(&c.value, true).map_err(|_| {
                    invalid(
                        &c,
                        &format!("expected one of: {}", OutputFormat::names().join(", ")),
                    )
                })?,
                c.origin,
            )),
            None => Ok(Setting::default(OutputFormat::Table)),
        }
    }

    fn cloud(&self, flag: &Option<String>) -> Result<Setting<Cloud>> {
        let cloud = Self::flag(flag, "--cloud")
            .or_else(|| self.var("AMLDOCTOR_CLOUD"))
            .or_else(|| self.var("AZURE_CLOUD_NAME"))
            .or_else(|| self.az_key("cloud", "name"))
            .or_else(|| self.project_key("cloud", |c| &c.cloud));
        Ok(match cloud {
            None => Setting::default(Cloud::AzureCloud),
            Some(c) => match Cloud::parse_known(&c.value) {
                Ok(known) => Setting::new(known, c.origin),
                // `az cloud register` clouds are legitimate in the az CLI's own config.
                Err(_)
                    if matches!(&c.origin, ValueSource::AzConfig { .. })
                        || c.origin == ValueSource::Env("AZURE_CLOUD_NAME".to_owned()) =>
                {
                    Setting::new(Cloud::Custom(c.value), c.origin)
                }
                Err(e) => return Err(invalid(&c, &e)),
            },
        })
    }
}

/// What the command line said, as plain values (the CLI fills it from its flags).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Flags {
    pub output: Option<OutputFormat>,
    pub no_color: bool,
    pub quiet: bool,
    pub verbose: bool,
    pub debug: bool,
    pub subscription: Option<String>,
    /// Every `--subscription` given (`check --fleet` reads them all).
    pub subscriptions: Vec<String>,
    pub resource_group: Option<String>,
    pub workspace_name: Option<String>,
    pub cloud: Option<String>,
    pub tenant: Option<String>,
    pub auth: Option<crate::source::azure::AuthChoice>,
}

impl Context {
    /// For a command that writes only some formats: a default from the environment or
    /// the project file (`AMLDOCTOR_OUTPUT=sarif` set for the findings commands) that
    /// does not apply falls back to a table; the same format from `-o` stays, for the
    /// command to refuse.
    pub(crate) fn fit_output(&mut self, writes: &[OutputFormat]) {
        if !writes.contains(&self.output.value)
            && !matches!(self.output.origin, crate::setting::ValueSource::Flag(_))
        {
            self.output = Setting::default(OutputFormat::Table);
        }
    }

    pub fn resolve(args: &Flags, env: &Environment, files: &ContextFiles) -> Result<Context> {
        let src = Sources::read(env, files)?;
        let azure = args;
        let subscription = Sources::flag(&azure.subscription, "--subscription")
            .or_else(|| src.var("AMLDOCTOR_SUBSCRIPTION"))
            .or_else(|| src.profile_subscription.clone())
            .or_else(|| src.project_key("subscription", |c| &c.subscription));
        let resource_group = Sources::flag(&azure.resource_group, "--resource-group")
            .or_else(|| src.var("AMLDOCTOR_RESOURCE_GROUP"))
            .or_else(|| src.var("AZURE_DEFAULTS_GROUP"))
            .or_else(|| src.az_key("defaults", "group"))
            .or_else(|| src.project_key("resource-group", |c| &c.resource_group));
        let workspace = Sources::flag(&azure.workspace_name, "--workspace-name")
            .or_else(|| src.var("AMLDOCTOR_WORKSPACE"))
            .or_else(|| src.var("AZURE_DEFAULTS_WORKSPACE"))
            .or_else(|| src.az_key("defaults", "workspace"))
            .or_else(|| src.project_key("workspace", |c| &c.workspace));
        // Validated in this order so the first error reported is the same as ever.
        let output = src.output(args.output)?;
        let mut subscription = validate(subscription, name_rules::subscription)?;
        // A subscription *name* becomes its id when the az profile knows it, so ARM
        // paths and printed commands carry the id.
        if let (Some(s), Some(profile)) = (&mut subscription, &files.az_profile)
            && !name_rules::is_guid(&s.value)
            && let Some(id) = az_cli::subscription_id_named(&profile.text, &s.value)
        {
            s.value = id;
        }
        let resource_group = validate(resource_group, name_rules::resource_group)?;
        let workspace = validate(workspace, name_rules::workspace)?;
        let endpoint = validate(
            src.project_key("endpoint", |c| &c.endpoint),
            name_rules::endpoint,
        )?;
        let deployment = validate(
            src.project_key("deployment", |c| &c.deployment),
            name_rules::endpoint,
        )?;
        let cloud = src.cloud(&azure.cloud)?;
        let tenant = Sources::flag(&azure.tenant, "--tenant")
            .map(|c| Setting::new(c.value, c.origin))
            .or_else(|| {
                let (s, f) = (subscription.as_ref()?, files.az_profile.as_ref()?);
                az_cli::subscription_tenant(&f.text, &s.value)
                    .filter(|t| name_rules::tenant(t).is_ok())
                    .map(|t| Setting::new(t, ValueSource::AzProfile(f.path.clone())))
            });

        let suppressions = match &src.project {
            Some((f, cfg)) => suppressions_of(&f.path, cfg)?,
            None => Vec::new(),
        };

        let no_color_env = env.vars.get("NO_COLOR").is_some_and(|v| !v.is_empty());
        Ok(Context {
            stdin: None,
            started: std::time::Instant::now(),
            overrides: overrides::Overrides::read(env),
            color: env.stdout_is_terminal
                && !args.no_color
                && !no_color_env
                && output.value == OutputFormat::Table,
            quiet: args.quiet,
            verbose: args.verbose,
            debug: args.debug,
            width: env
                .var("COLUMNS")
                .and_then(|v| v.trim().parse::<usize>().ok())
                .filter(|w| *w >= 20)
                .or(env.terminal_columns)
                .unwrap_or(crate::report::style::DEFAULT_WIDTH)
                .clamp(40, 400),
            output,
            subscription,
            subscriptions: args.subscriptions.clone(),
            resource_group,
            workspace,
            endpoint,
            deployment,
            cloud,
            tenant,
            auth: args.auth.unwrap_or_default(),
            project_file: files.project.as_ref().map(|f| f.path.clone()),
            project_rule_dirs: src
                .project
                .as_ref()
                .map(|(f, cfg)| {
                    let base = f.path.parent().map(PathBuf::from).unwrap_or_default();
                    cfg.rules.iter().flatten().map(|d| base.join(d)).collect()
                })
                .unwrap_or_default(),
            suppressions,
        })
    }

    /// One line per resolved value with its origin, for `--debug`.
    pub fn describe(&self) -> Vec<String> {
        let line = |name: &str, value: Option<(&dyn std::fmt::Display, &ValueSource)>| match value {
            Some((v, o)) => format!("{name} = {v} (from {o})"),
            None => format!("{name} is not set"),
        };
        vec![
            line("output", Some((&self.output.value, &self.output.origin))),
            line(
                "subscription",
                self.subscription
                    .as_ref()
                    .map(|s| (&s.value as _, &s.origin)),
            ),
            line(
                "resource group",
                self.resource_group
                    .as_ref()
                    .map(|s| (&s.value as _, &s.origin)),
            ),
            line(
                "workspace",
                self.workspace.as_ref().map(|s| (&s.value as _, &s.origin)),
            ),
            line("cloud", Some((&self.cloud.value, &self.cloud.origin))),
            line(
                "tenant",
                self.tenant.as_ref().map(|s| (&s.value as _, &s.origin)),
            ),
            match &self.project_file {
                Some(p) => format!("project file = {}", p.display()),
                None => "project file: none found".to_owned(),
            },
            format!("color = {}, quiet = {}", self.color, self.quiet),
        ]
    }
}

/// Validates `suppressions:`: every entry needs a reason; dates are `YYYY-MM-DD`.
fn suppressions_of(
    path: &std::path::Path,
    cfg: &ProjectConfig,
) -> Result<Vec<crate::gate::Suppression>> {
    let mut out = Vec::new();
    for (i, s) in cfg.suppressions.iter().flatten().enumerate() {
        let key = format!("suppressions[{i}]");
        let fail = |what: &str| Error::input(format!("{}: {key}.{what}", path.display()));
        if s.rule.trim().is_empty() {
            return Err(fail("rule must name a rule id"));
        }
        let reason = s.reason.as_deref().map(str::trim).unwrap_or("");
        if reason.is_empty() {
            return Err(fail("reason is required: say why this finding is accepted")
                .with_hint("add e.g. `reason: legacy image kept until the Q3 migration`"));
        }
        let expires = match &s.expires {
            None => None,
            Some(text) => {
                let valid =
                    text.len() == 10 && text.as_bytes()[4] == b'-' && text.as_bytes()[7] == b'-';
                match crate::rules::compare::parse_date(text).filter(|_| valid) {
                    Some(d) => Some(d),
                    None => {
                        return Err(fail(&format!(
                            "expires: '{text}' is not a date like 2027-03-31"
                        )));
                    }
                }
            }
        };
        out.push(crate::gate::Suppression {
            rule: s.rule.trim().to_owned(),
            reason: reason.to_owned(),
            expires,
            path: s.path.clone(),
            source: format!("{}: {key}", path.display()),
        });
    }
    Ok(out)
}

fn invalid(c: &Candidate, expected: &str) -> Error {
    Error::input(format!(
        "invalid value '{}' from {}: {expected}",
        c.value, c.origin
    ))
}

fn validate(
    candidate: Option<Candidate>,
    check: fn(&str) -> std::result::Result<String, String>,
) -> Result<Option<Setting<String>>> {
    match candidate {
        None => Ok(None),
        Some(c) => match check(&c.value) {
            Ok(v) => Ok(Some(Setting::new(v, c.origin))),
            Err(e) => Err(invalid(&c, &e)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn file(path: &str, text: &str) -> Option<LoadedFile> {
        Some(LoadedFile {
            path: PathBuf::from(path),
            text: text.to_owned(),
        })
    }

    fn env(vars: &[(&str, &str)]) -> Environment {
        Environment {
            vars: vars
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            stdout_is_terminal: true,
            terminal_columns: Some(132),
        }
    }

    fn args() -> Flags {
        Flags::default()
    }

    const PROFILE: &str =
        "\u{feff}{\"subscriptions\":[{\"id\":\"sub-from-profile\",\"isDefault\":true}]}";

    fn all_files() -> ContextFiles {
        ContextFiles {
            az_config: file(
                "/h/.azure/config",
                "[defaults]\ngroup = rg-az\nworkspace = ws-az\n[cloud]\nname = AzureChinaCloud\n",
            ),
            az_profile: file("/h/.azure/azureProfile.json", PROFILE),
            project: file(
                "/p/.amldoctor.yaml",
                "subscription: sub-project\nresource-group: rg-project\nworkspace: ws-project\ncloud: AzureUSGovernment\noutput: yaml\n",
            ),
        }
    }

    #[test]
    fn nothing_anywhere_gives_defaults() {
        let ctx = Context::resolve(&args(), &env(&[]), &ContextFiles::default()).unwrap();
        assert_eq!(ctx.output, Setting::default(OutputFormat::Table));
        assert_eq!(ctx.cloud, Setting::default(Cloud::AzureCloud));
        assert!(
            ctx.subscription.is_none() && ctx.resource_group.is_none() && ctx.workspace.is_none()
        );
        assert!(ctx.color);
    }

    #[test]
    fn flags_win_over_everything() {
        let mut a = args();
        a.subscription = Some("sub-flag".into());
        a.resource_group = Some("rg-flag".into());
        a.workspace_name = Some("ws-flag".into());
        a.cloud = Some("AzureCloud".into());
        a.output = Some(OutputFormat::Json);
        let e = env(&[
            ("AMLDOCTOR_WORKSPACE", "ws-env"),
            ("AZURE_DEFAULTS_GROUP", "rg-azenv"),
        ]);
        let ctx = Context::resolve(&a, &e, &all_files()).unwrap();
        assert_eq!(
            ctx.subscription.unwrap(),
            Setting::new("sub-flag".into(), ValueSource::Flag("--subscription"))
        );
        assert_eq!(ctx.resource_group.unwrap().value, "rg-flag");
        assert_eq!(ctx.workspace.unwrap().value, "ws-flag");
        assert_eq!(ctx.cloud.value, Cloud::AzureCloud);
        assert_eq!(ctx.output.value, OutputFormat::Json);
        assert!(!ctx.color, "colour only for tables");
    }

    #[test]
    fn amldoctor_variables_then_az_variables_then_az_files_then_project() {
        let e = env(&[
            ("AMLDOCTOR_WORKSPACE", "ws-env"),
            ("AZURE_DEFAULTS_GROUP", "rg-azenv"),
            ("AZURE_DEFAULTS_WORKSPACE", "ws-azenv"),
        ]);
        let ctx = Context::resolve(&args(), &e, &all_files()).unwrap();
        assert_eq!(
            ctx.workspace.unwrap().origin,
            ValueSource::Env("AMLDOCTOR_WORKSPACE".into())
        );
        assert_eq!(ctx.resource_group.unwrap().value, "rg-azenv");
        let sub = ctx.subscription.unwrap();
        assert_eq!(sub.value, "sub-from-profile");
        assert_eq!(
            sub.origin,
            ValueSource::AzProfile(PathBuf::from("/h/.azure/azureProfile.json"))
        );
        assert_eq!(ctx.cloud.value, Cloud::AzureChinaCloud);
        assert_eq!(
            ctx.output.value,
            OutputFormat::Yaml,
            "only the project file sets output"
        );

        let ctx = Context::resolve(&args(), &env(&[]), &all_files()).unwrap();
        assert_eq!(
            ctx.resource_group.unwrap().origin,
            ValueSource::AzConfig {
                path: PathBuf::from("/h/.azure/config"),
                key: "[defaults] group".into()
            }
        );

        let only_project = ContextFiles {
            project: all_files().project,
            ..Default::default()
        };
        let ctx = Context::resolve(&args(), &env(&[]), &only_project).unwrap();
        assert_eq!(ctx.subscription.unwrap().value, "sub-project");
        assert_eq!(ctx.resource_group.unwrap().value, "rg-project");
        assert_eq!(ctx.workspace.unwrap().value, "ws-project");
        assert_eq!(ctx.cloud.value, Cloud::AzureUSGovernment);
        assert_eq!(
            ctx.project_file.as_deref(),
            Some(Path::new("/p/.amldoctor.yaml"))
        );
    }

    #[test]
    fn empty_variables_are_unset() {
        let e = env(&[
            ("AMLDOCTOR_WORKSPACE", ""),
            ("AZURE_DEFAULTS_WORKSPACE", "  "),
        ]);
        let ctx = Context::resolve(&args(), &e, &all_files()).unwrap();
        assert_eq!(ctx.workspace.unwrap().value, "ws-az");
    }

    #[test]
    fn invalid_values_name_their_origin() {
        let err = Context::resolve(
            &args(),
            &env(&[("AMLDOCTOR_WORKSPACE", "x")]),
            &ContextFiles::default(),
        )
        .unwrap_err();
        assert_eq!(err.exit_code(), crate::exit_code::ExitCode::Usage);
        assert!(
            err.message.starts_with(
                "invalid value 'x' from $AMLDOCTOR_WORKSPACE: expected a workspace name"
            ),
            "{}",
            err.message
        );

        let err = Context::resolve(
            &args(),
            &env(&[("AMLDOCTOR_OUTPUT", "xml")]),
            &ContextFiles::default(),
        )
        .unwrap_err();
        assert!(
            err.message.contains("expected one of: table, json, yaml"),
            "{}",
            err.message
        );

        let bad_project = ContextFiles {
            project: file("/p/.amldoctor.yaml", "cloud: Mars\n"),
            ..Default::default()
        };
        let err = Context::resolve(&args(), &env(&[]), &bad_project).unwrap_err();
        assert_eq!(
            err.message,
            "invalid value 'Mars' from cloud in /p/.amldoctor.yaml: expected AzureCloud, AzureChinaCloud or AzureUSGovernment"
        );
    }

    #[test]
    fn registered_clouds_from_az_are_kept() {
        let files = ContextFiles {
            az_config: file("/h/config", "[cloud]\nname = AzureStackUser\n"),
            ..Default::default()
        };
        let ctx = Context::resolve(&args(), &env(&[]), &files).unwrap();
        assert_eq!(ctx.cloud.value, Cloud::Custom("AzureStackUser".into()));
        let err = Context::resolve(
            &args(),
            &env(&[("AMLDOCTOR_CLOUD", "AzureStackUser")]),
            &files,
        )
        .unwrap_err();
        assert!(err.message.contains("$AMLDOCTOR_CLOUD"));
    }

    #[test]
    fn malformed_files_are_clear_errors() {
        let files = ContextFiles {
            az_config: file("/h/config", "[defaults\n"),
            ..Default::default()
        };
        let err = Context::resolve(&args(), &env(&[]), &files).unwrap_err();
        assert_eq!(
            err.message,
            "/h/config: line 1: section header is missing its closing ']'"
        );
        let files = ContextFiles {
            az_profile: file("/h/azureProfile.json", "\u{feff}{oops"),
            ..Default::default()
        };
        let err = Context::resolve(&args(), &env(&[]), &files).unwrap_err();
        assert!(
            err.message
                .starts_with("/h/azureProfile.json: invalid JSON at line 1"),
            "{}",
            err.message
        );
        let files = ContextFiles {
            project: file("/p/.amldoctor.yaml", "worksapce: ws1\n"),
            ..Default::default()
        };
        let err = Context::resolve(&args(), &env(&[]), &files).unwrap_err();
        assert!(
            err.message
                .starts_with("/p/.amldoctor.yaml: unknown key 'worksapce'"),
            "{}",
            err.message
        );
    }

    #[test]
    fn colour_rules() {
        let mut a = args();
        assert!(
            !Context::resolve(&a, &env(&[("NO_COLOR", "1")]), &ContextFiles::default())
                .unwrap()
                .color
        );
        assert!(
            Context::resolve(&a, &env(&[("NO_COLOR", "")]), &ContextFiles::default())
                .unwrap()
                .color
        );
        let mut piped = env(&[]);
        piped.stdout_is_terminal = false;
        assert!(
            !Context::resolve(&a, &piped, &ContextFiles::default())
                .unwrap()
                .color
        );
        a.no_color = true;
        assert!(
            !Context::resolve(&a, &env(&[]), &ContextFiles::default())
                .unwrap()
                .color
        );
    }

    #[test]
    fn describe_names_origins() {
        let ctx = Context::resolve(&args(), &env(&[]), &all_files()).unwrap();
        let lines = ctx.describe().join("\n");
        assert!(lines.contains("subscription = sub-from-profile (from default subscription in /h/.azure/azureProfile.json)"), "{lines}");
        assert!(
            lines.contains("resource group = rg-az (from [defaults] group in /h/.azure/config)"),
            "{lines}"
        );
    }
}
