//! The command line, declared with clap derive: `///` comments here are the `--help`
//! text users read, so they say what each option does and the form it takes.
//!
//! Options shared by every command live in flattened structs marked `global`, so they
//! may be given before or after the subcommand, as with `az`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::capacity::quantity;
use crate::context::{cloud, name_rules};
use crate::evidence::DocumentKind;
use crate::finding::FailOn;
use crate::ratio::Ratio;
use crate::report::OutputFormat;

const EXAMPLES_AND_DEFAULTS: &str = "\
Examples:
  amldoctor rules example flask2-register-typeerror | amldoctor diagnose -
  az ml online-deployment get-logs -e my-ep -n blue | amldoctor diagnose -
  amldoctor explain OutOfQuota
  amldoctor replicas --rps 20
  amldoctor replicas --rps 50 --latency 250ms --max-concurrent 4 -o json
  source <(amldoctor completions bash)

Defaults for --subscription, --resource-group, --workspace-name and --cloud come from the \
flag, then AMLDOCTOR_* variables, then the az CLI's own defaults (az configure --defaults, \
az account set, AZURE_DEFAULTS_GROUP, AZURE_DEFAULTS_WORKSPACE, AZURE_CLOUD_NAME), then \
.amldoctor.yaml in the working directory or a parent.
";

/// The top-level help epilogue; the exit-code table comes from [`ExitCode`], its one
/// definition.
fn after_help() -> String {
    format!(
        "{}\n\n{}",
        EXAMPLES_AND_DEFAULTS.trim_end(),
        crate::exit_code::ExitCode::help_table().trim_end()
    )
}

/// Diagnoses Azure Machine Learning online deployments and ParallelRunStep jobs, and
/// sizes deployments.
#[derive(Debug, Parser)]
#[command(name = "amldoctor", version, about, after_help = after_help(), propagate_version = true)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command accepts.
#[derive(Debug, Clone, Default, Args)]
pub struct GlobalArgs {
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub azure: AzureArgs,
}

impl GlobalArgs {
    /// The flags as plain values, for resolving the context.
    pub fn flags(&self) -> crate::context::Flags {
        crate::context::Flags {
            output: self.output.output,
            no_color: self.output.no_color,
            quiet: self.output.quiet,
            verbose: self.output.verbose,
            debug: self.output.debug,
            subscription: self.azure.subscription.first().cloned(),
            subscriptions: self.azure.subscription.clone(),
            resource_group: self.azure.resource_group.clone(),
            workspace_name: self.azure.workspace_name.clone(),
            cloud: self.azure.cloud.clone(),
            tenant: self.azure.tenant.clone(),
            auth: self.azure.auth.map(AuthArg::choice),
        }
    }
}

/// How results are printed.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Output")]
pub struct OutputArgs {
    /// Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]
    #[arg(short = 'o', long, global = true, value_enum, value_name = "FORMAT")]
    pub output: Option<OutputFormat>,
    /// Never use colours (also when NO_COLOR is set); colours are used only on a terminal
    #[arg(long, global = true)]
    pub no_color: bool,
    /// Print only the essential result on stdout and no notes
    #[arg(short = 'q', long, global = true)]
    pub quiet: bool,
    /// Print more: every input file of a ParallelRunStep tree, not a count per folder
    #[arg(short = 'v', long, global = true, conflicts_with = "quiet")]
    pub verbose: bool,
    /// Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)
    #[arg(long, global = true)]
    pub debug: bool,
}

/// Which Azure workspace to talk to.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Azure")]
pub struct AzureArgs {
    /// Subscription id or name [default: the az CLI's default subscription]; `check
    /// --fleet` takes several (repeat it)
    #[arg(long, global = true, value_name = "ID", value_parser = name_rules::subscription, action = clap::ArgAction::Append)]
    pub subscription: Vec<String>,
    /// Resource group [default: az configure --defaults group=…]
    #[arg(short = 'g', long, global = true, value_name = "NAME", value_parser = name_rules::resource_group)]
    pub resource_group: Option<String>,
    /// Azure Machine Learning workspace [default: az configure --defaults workspace=…]
    #[arg(short = 'w', long, global = true, value_name = "NAME", value_parser = name_rules::workspace)]
    pub workspace_name: Option<String>,
    /// Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI's active cloud]
    #[arg(long, global = true, value_name = "NAME", value_parser = parse_cloud)]
    pub cloud: Option<String>,
    /// Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json
    /// gives the subscription]; a service principal signs in to AZURE_TENANT_ID
    #[arg(long, global = true, value_name = "ID", value_parser = name_rules::tenant)]
    pub tenant: Option<String>,
    /// How to sign in: auto tries a service principal from AZURE_CLIENT_ID/
    /// AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE),
    /// App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]
    #[arg(long, global = true, value_enum, value_name = "HOW")]
    pub auth: Option<AuthArg>,
}

/// `--auth`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AuthArg {
    /// The first that applies, in the order above
    Auto,
    /// Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET
    Env,
    /// Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)
    Workload,
    /// Managed identity of the Azure compute this runs on
    ManagedIdentity,
    /// The az CLI (or azd) sign-in
    Cli,
}

impl AuthArg {
    pub fn choice(self) -> crate::source::azure::AuthChoice {
        use crate::source::azure::AuthChoice;
        match self {
            AuthArg::Auto => AuthChoice::Auto,
            AuthArg::Env => AuthChoice::Env,
            AuthArg::Workload => AuthChoice::Workload,
            AuthArg::ManagedIdentity => AuthChoice::ManagedIdentity,
            AuthArg::Cli => AuthChoice::Cli,
        }
    }
}

fn parse_cloud(text: &str) -> Result<String, String> {
    cloud::Cloud::parse_known(text).map(|c| c.name().to_owned())
}

#[derive(Debug, Subcommand)]
pub enum Command {
    Logs(LogsArgs),
    Diagnose(DiagnoseArgs),
    Check(CheckArgs),
    Lint(LintArgs),
    Explain(ExplainArgs),
    Rules(RulesArgs),
    Replicas(ReplicasArgs),
    Score(ScoreArgs),
    Rehearse(RehearseArgs),
    Mcp(McpArgs),
    Completions(CompletionsArgs),
}

/// Serve the diagnosis to AI agents over the Model Context Protocol, on stdio.
///
/// An agent (VS Code agent mode, Claude, Cursor) starts `amldoctor mcp` and calls its
/// tools instead of guessing from a log: diagnose_text, diagnose_paths, explain,
/// check_resources, lint_paths, replicas and rules_search, with the rule catalogue and
/// the explain entries as resources and a "triage a failed deployment" prompt. Tools
/// read files only under the --root folders (symbolic links included) and write
/// nothing. With --allow-azure, diagnose_deployment, check_workspace and get_logs read
/// Azure with the same sign-in and defaults as the command line; they never change a
/// resource.
#[derive(Debug, Clone, Args)]
#[command(after_help = "\
Examples:
  amldoctor mcp                                  # files under the working directory
  amldoctor mcp --root ~/logs --root ./deploy
  amldoctor mcp --allow-azure -g my-rg -w my-ws  # also the tools that read Azure")]
pub struct McpArgs {
    /// A folder whose files the tools may read (repeatable) [default: the working
    /// directory]
    #[arg(long = "root", value_name = "DIR")]
    pub roots: Vec<PathBuf>,
    /// Also serve diagnose_deployment, check_workspace and get_logs, which read Azure
    #[arg(long)]
    pub allow_azure: bool,
}

/// Options of every command that reports findings: the CI gate and report files.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Gate and reports")]
pub struct ReportArgs {
    /// Exit 1 when a finding at or above this severity is reported (and not suppressed
    /// or in the baseline)
    #[arg(long, value_enum, value_name = "LEVEL", default_value = "error")]
    pub fail_on: FailOn,
    /// Show findings at or above this severity [default: warning for table and
    /// markdown, info for the machine formats]; the gate still counts every finding
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub min_severity: Option<crate::finding::Severity>,
    /// Do not report this rule (repeatable); for accepted findings prefer a suppression
    /// with a reason in .amldoctor.yaml
    #[arg(long, value_name = "RULE_ID")]
    pub ignore: Vec<String>,
    /// Findings in this baseline file (from --write-baseline) are reported as unchanged
    /// and do not fail the gate; only new ones do
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Write every current finding to FILE as a baseline, then apply it
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Also write a report to a file: FORMAT=PATH (e.g. sarif=results.sarif), or a PATH
    /// whose extension names the format (.sarif .json .yaml .xml .md); repeatable
    #[arg(long, value_name = "[FORMAT=]PATH", value_parser = parse_output_file)]
    pub output_file: Vec<(OutputFormat, PathBuf)>,
    /// The SARIF run's category (runs[].automationDetails.id), so code scanning keeps
    /// the uploads of different jobs apart [default: amldoctor/COMMAND/]
    #[arg(long, value_name = "ID")]
    pub sarif_category: Option<String>,
    /// Keep suppressed and baseline-unchanged findings in SARIF, each result then saying
    /// whether it is suppressed and new (code scanning ignores both and shows them open)
    #[arg(long)]
    pub sarif_keep_suppressed: bool,
    /// Put a `file` attribute on every JUnit testcase, as GitLab shows it (Jenkins
    /// xUnit's junit-10.xsd has it on testsuites only, where it always is)
    #[arg(long)]
    pub junit_file_attribute: bool,
    /// The most bytes markdown on stdout may have: a longer report keeps its summary
    /// and the first findings, and says how many it left out (a pull-request comment
    /// takes 65,536 characters, which bytes never undercount; a job summary 1 MiB; 0
    /// for no limit). A markdown --output-file is always whole
    #[arg(long, value_name = "BYTES", default_value_t = crate::report::markdown::PR_COMMENT_LIMIT)]
    pub markdown_limit: usize,
}

fn parse_output_file(text: &str) -> Result<(OutputFormat, PathBuf), String> {
    use clap::ValueEnum;
    if let Some((format, path)) = text.split_once('=')
        && !format.is_empty()
        && format.chars().all(|c| c.is_ascii_alphanumeric())
    {
        // The extensions' names too: `md=summary.md` is markdown, not a file so named.
        let named = match format.to_ascii_lowercase().as_str() {
            "md" => Ok(OutputFormat::Markdown),
            "yml" => Ok(OutputFormat::Yaml),
            "xml" => Ok(OutputFormat::Junit),
            "txt" | "text" => Ok(OutputFormat::Table),
            other => OutputFormat::from_str(other, true),
        };
        let Ok(f) = named else {
            return Err(format!(
                "unknown format '{format}' before '=': expected one of {} (or md, yml, xml, txt)",
                OutputFormat::names().join(", ")
            ));
        };
        if path.is_empty() {
            return Err("expected FORMAT=PATH with a path after '='".to_owned());
        }
        return Ok((f, PathBuf::from(path)));
    }
    let path = PathBuf::from(text);
    match OutputFormat::from_extension(&path) {
        Some(f) => Ok((f, path)),
        None => Err(format!(
            "expected FORMAT=PATH (FORMAT one of {}) or a path ending in .sarif, .json, .yaml, .xml, .md or .txt",
            OutputFormat::names().join(", ")
        )),
    }
}

/// Print an online deployment's container logs, or save them (and a ParallelRunStep
/// run's log tree) as a bundle, read from Azure.
///
/// The same logs as `az ml online-deployment get-logs`: the inference server's console
/// (where score.py, the server and gunicorn write) or the storage initializer's (the
/// model and code download). With --out DIR, both containers' logs and the endpoint,
/// deployment and workspace JSON are saved with a manifest.json, for `amldoctor diagnose
/// DIR`. With --run RUN_ID, a ParallelRunStep run's `logs/` and `azureml-logs/` files
/// are downloaded into --out DIR (given a pipeline run, its ParallelRunStep step is
/// found). Read-only; names come from the flags, the az CLI defaults (`az configure
/// --defaults group=… workspace=…`) or .amldoctor.yaml.
#[derive(Debug, Clone, Args)]
#[command(after_help = "\
Examples:
  amldoctor logs -e my-endpoint -n blue -g my-rg -w my-ws
  amldoctor logs -e my-endpoint --container storage-initializer -l 200
  amldoctor logs -e my-endpoint -n blue --out ./blue-bundle
  amldoctor diagnose ./blue-bundle
  amldoctor logs --run my-pipeline-run-id --out ./job-logs --jobs 16")]
pub struct LogsArgs {
    /// The online endpoint
    #[arg(short = 'e', long = "endpoint-name", value_name = "NAME", value_parser = name_rules::endpoint, required_unless_present = "run")]
    pub endpoint: Option<String>,
    /// The deployment [default: the endpoint's only deployment]
    #[arg(short = 'n', long = "name", value_name = "NAME", value_parser = name_rules::endpoint, requires = "endpoint")]
    pub deployment: Option<String>,
    /// Which container's log
    #[arg(
        long,
        value_enum,
        default_value = "inference-server",
        conflicts_with = "run"
    )]
    pub container: ContainerArg,
    /// How many lines from the end, as az does
    #[arg(short = 'l', long, value_name = "N", default_value = "5000", value_parser = quantity::parse_count)]
    pub lines: u64,
    /// Keep reading the log and print new lines as they come, until interrupted (Ctrl-C)
    #[arg(short = 'f', long, conflicts_with_all = ["out", "run"])]
    pub follow: bool,
    /// Seconds between reads with --follow (doubled while nothing new comes, up to 60; each
    /// read after the first asks for the last 200 lines)
    #[arg(long, value_name = "SECONDS", default_value = "5", value_parser = quantity::parse_count, requires = "follow")]
    pub interval: u64,
    /// A ParallelRunStep run (or the pipeline run holding it) whose log tree to download
    #[arg(
        long,
        value_name = "RUN_ID",
        conflicts_with = "endpoint",
        requires = "out"
    )]
    pub run: Option<String>,
    /// Save a bundle into this folder (with manifest.json) instead of printing; an
    /// interrupted --run download resumes where it stopped
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Parallel downloads with --run
    #[arg(long, value_name = "N", default_value = "8", value_parser = quantity::parse_count, requires = "run")]
    pub jobs: u64,
}

/// `--container`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ContainerArg {
    /// The inference server: score.py, the server and gunicorn
    InferenceServer,
    /// The model and code download before the server starts
    StorageInitializer,
    /// Both, one after the other, each under a header line
    All,
}

/// Find out why a deployment or a batch job failed, from logs you have or read live.
///
/// Reads files, directories (recursively) and standard input (`-`): resource JSON
/// (as `amldoctor check` reads it, checked by every resource rule), the output of
/// `az ml online-deployment get-logs` (inference-server or storage-initializer
/// container), a failed `az ml online-deployment create`, `kubectl describe pod`, an
/// image build log, or a ParallelRunStep / parallel job log tree (its `logs/` folder),
/// which also gets a job summary. Each input's kind is detected from its content
/// (override with --kind). Every known error signature becomes a finding with its
/// evidence (path:line), the facts read from it, the fix and the next commands to run.
/// A bundle saved by `logs --out` or `--save` is read back as it was collected. With -e
/// (and -n) or --run instead of paths, the logs and resources are read from Azure
/// first.
#[derive(Debug, Clone, Args)]
#[command(after_help = "\
Examples:
  amldoctor rules example flask2-register-typeerror | amldoctor diagnose -
  az ml online-deployment get-logs -e my-ep -n blue | amldoctor diagnose -
  amldoctor diagnose ./collected-logs/ -o json --fail-on warning
  amldoctor diagnose ./downloaded-job/        # a ParallelRunStep job tree
  amldoctor diagnose create-output.txt --kind cli --rules ./team-rules
  amldoctor diagnose logs/ -o sarif --output-file markdown=summary.md
  amldoctor diagnose logs/ --baseline amldoctor-baseline.json
  amldoctor diagnose -e my-ep -n blue --save ./blue-bundle  # live, Azure
  amldoctor diagnose --run my-pipeline-run-id               # live PRS job")]
pub struct DiagnoseArgs {
    /// Files or directories to analyse (a bundle too); `-` reads standard input
    #[arg(value_name = "PATH", required_unless_present_any = ["endpoint", "run", "log_analytics"], conflicts_with_all = ["endpoint", "run", "log_analytics"])]
    pub paths: Vec<String>,
    /// Read every input as this kind instead of detecting it
    #[arg(long, value_enum, value_name = "KIND")]
    pub kind: Option<DocumentKind>,
    /// Diagnose this online endpoint live: its logs and settings are read from Azure
    #[arg(short = 'e', long = "endpoint-name", value_name = "NAME", value_parser = name_rules::endpoint)]
    pub endpoint: Option<String>,
    /// The deployment, with -e [default: the endpoint's only deployment]
    #[arg(short = 'n', long = "name", value_name = "NAME", value_parser = name_rules::endpoint, requires = "endpoint")]
    pub deployment: Option<String>,
    /// Diagnose this ParallelRunStep run (or its pipeline run) live: its log tree is
    /// downloaded from Azure
    #[arg(long, value_name = "RUN_ID", conflicts_with = "endpoint")]
    pub run: Option<String>,
    /// Diagnose from this Log Analytics workspace (its GUID, the workspace id) the online
    /// endpoints' console and event logs, where their diagnostic settings send them; -e
    /// and -n narrow it to one endpoint or deployment. The rules' literals run in Log
    /// Analytics as one filter, so only candidate lines are read
    #[arg(
        long = "log-analytics",
        value_name = "WORKSPACE_ID",
        conflicts_with = "run"
    )]
    pub log_analytics: Option<String>,
    /// With --log-analytics: how far back to read: 24h, 90m, 7d, PT6H [default: 24h]
    #[arg(long, value_name = "DURATION", value_parser = quantity::parse_lookback, requires = "log_analytics", allow_hyphen_values = true)]
    pub since: Option<Ratio>,
    /// With -e, --run or --log-analytics: keep what was read from Azure as a bundle in DIR
    #[arg(long, value_name = "DIR", conflicts_with = "paths")]
    pub save: Option<PathBuf>,
    /// A directory of extra rule files (repeatable); added to the built-in catalogue
    #[arg(long = "rules", value_name = "DIR")]
    pub rule_dirs: Vec<PathBuf>,
    /// Worker threads for scanning [default: the number of CPUs]
    #[arg(long, short = 'j', value_name = "N", value_parser = quantity::parse_count)]
    pub jobs: Option<u64>,
    #[command(flatten)]
    pub report: ReportArgs,
}

/// Check the files you are about to deploy, before `az ml online-deployment create`.
///
/// Reads the paths given (files or directories; the working directory by default) and
/// tells each file's kind: online deployment specs (YAML), parallel job specs, conda
/// environments, requirements files and Python scripts. A deployment spec is read like
/// the deployment `az ml online-deployment show` prints, so every deployment rule and
/// configuration check applies to it (probe timings, the request timeout limit, a
/// missing instance type), and each local path it names (code folder, scoring script,
/// conda file, model) must exist. Findings point at the line of the file to change,
/// and go through the same gate and report formats as `diagnose`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "\
Examples:
  amldoctor lint                                # the working directory
  amldoctor lint deploy/blue.yml
  amldoctor lint ./deployment -o sarif --output-file lint.sarif")]
pub struct LintArgs {
    /// Files or directories to check [default: the working directory]
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// A directory of extra rule files (repeatable); added to the built-in catalogue
    #[arg(long = "rules", value_name = "DIR")]
    pub rule_dirs: Vec<PathBuf>,
    /// Also print, per file, the edited lines that would fix each finding (a unified
    /// diff with no context lines); files are never written
    #[arg(long)]
    pub fix_suggestions: bool,
    #[command(flatten)]
    pub report: ReportArgs,
}

/// Check the configuration of a workspace, its Key Vault, private endpoints and online
/// deployments, read live from Azure or from saved JSON.
///
/// Without --from, reads the workspace, its Key Vault (from the workspace's keyVault
/// id), its container registry's private endpoint connections and, with -e (and -n),
/// the endpoint and deployment from Azure, and runs the workspace's own diagnosis
/// (each of its results is a finding named by its code). A check the identity may not
/// read is reported as skipped, with the role it needs. With --from, reads what `az ml
/// workspace show`, `az keyvault show`, `az acr show`, `az acr
/// private-endpoint-connection list`, `az storage account show`, `az ml online-endpoint
/// show`, `az ml online-deployment show`, `az network private-dns record-set list` or
/// `az rest` print, from files, directories (a saved bundle too) or standard input.
/// Each document's kind is told from its shape; every resource rule of the chosen area
/// runs over them, and rules that need two resources (a deployment and its registry)
/// see all of them.
///
/// `check dns` resolves the endpoint's scoring host and the workspace, registry, Key
/// Vault and storage hosts (from Azure, from --from, or --host alone, which needs no
/// Azure access) through this machine's resolver and each --nameserver, and says where
/// an answer is missing, slow, public for a private workspace, outside --expect-cidr, or
/// differs between servers. `check all` re-judges DNS answers saved in a bundle, and
/// resolves anew when live or given --host or --nameserver.
#[derive(Debug, Clone, Args)]
#[command(after_help = "\
Examples:
  amldoctor check all -g my-rg -w my-ws                  # live, from Azure
  amldoctor check dns -e my-endpoint --nameserver 168.63.129.16
  amldoctor check dns --host my-ep.westeurope.inference.ml.azure.com
  amldoctor check dns --from ./ws-bundle --expect-cidr 10.0.0.0/16
  amldoctor check deployment -e my-endpoint -n blue --rps 20 --latency 250ms
  amldoctor check all --save ./ws-bundle
  amldoctor check all --from ./ws-bundle
  az keyvault show -n kv-prod -o json > kv.json
  amldoctor check keyvault --from kv.json
  az ml workspace show -n ws -o json | amldoctor check workspace --from -
  amldoctor check all --from ./resources/ -o sarif")]
pub struct CheckArgs {
    /// What to check
    #[arg(value_enum, default_value = "all")]
    pub area: CheckSelection,
    /// JSON of the resources: files, directories, or `-` for standard input
    /// (repeatable); without it, they are read from Azure
    #[arg(long = "from", value_name = "FILE|DIR|-")]
    pub from: Vec<String>,
    /// The online endpoint to check, when reading from Azure
    #[arg(short = 'e', long = "endpoint-name", value_name = "NAME", value_parser = name_rules::endpoint, conflicts_with = "from")]
    pub endpoint: Option<String>,
    /// Its deployment, with -e [default: every deployment of the endpoint]
    #[arg(short = 'n', long = "name", value_name = "NAME", value_parser = name_rules::endpoint, requires = "endpoint")]
    pub deployment: Option<String>,
    /// When reading from Azure: keep what was read as a bundle in DIR
    #[arg(long, value_name = "DIR", conflicts_with = "from")]
    pub save: Option<PathBuf>,
    /// Requests per second the deployment must serve: checks the instance count with the
    /// `replicas` formula
    #[arg(long, value_name = "RPS", value_parser = quantity::parse_rate, allow_negative_numbers = true)]
    pub rps: Option<Ratio>,
    /// Time one request takes, for --rps: 10, 250ms, PT10S [default: 10s]
    #[arg(long, value_name = "DURATION", value_parser = quantity::parse_duration, allow_hyphen_values = true, requires = "rps")]
    pub latency: Option<Ratio>,
    /// dns: a host to resolve besides those the resources name; a URL is taken for its
    /// host (repeatable)
    #[arg(long = "host", value_name = "HOST", value_parser = name_rules::dns_host)]
    pub hosts: Vec<String>,
    /// dns: a DNS server to ask besides the system resolver (repeatable); Azure DNS,
    /// 168.63.129.16, answers only inside an Azure virtual network
    #[arg(long = "nameserver", value_name = "IP[:PORT]", value_parser = name_rules::nameserver)]
    pub nameservers: Vec<std::net::SocketAddr>,
    /// dns: an address range every answer must fall in (repeatable)
    #[arg(long = "expect-cidr", value_name = "CIDR", value_parser = name_rules::cidr)]
    pub expect_cidrs: Vec<ipnet::IpNet>,
    /// dns: ask only the --nameserver servers, not this machine's resolver
    #[arg(long, requires = "nameservers")]
    pub no_system_resolver: bool,
    /// Every workspace in scope from one Azure Resource Graph query (with its Key Vault,
    /// registry, storage account, endpoints and deployments), checked workspace by
    /// workspace; the scope is --subscription (repeatable) or --management-group
    #[arg(long, conflicts_with_all = ["from", "endpoint", "save", "hosts", "nameservers"])]
    pub fleet: bool,
    /// With --fleet: a management group to query (repeatable)
    #[arg(long = "management-group", value_name = "NAME", requires = "fleet")]
    pub management_groups: Vec<String>,
    /// A directory of extra rule files (repeatable); added to the built-in catalogue
    #[arg(long = "rules", value_name = "DIR")]
    pub rule_dirs: Vec<PathBuf>,
    #[command(flatten)]
    pub report: ReportArgs,
}

/// The areas `check` covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckSelection {
    /// Every area below
    All,
    /// v1 legacy mode, public network access and the workspace's private endpoints
    Workspace,
    /// The Key Vault firewall lets trusted Azure services through
    Keyvault,
    /// Private endpoint connections of the registry, storage and workspace; egress
    PrivateEndpoint,
    /// Online endpoint traffic and deployment state, timeouts, probes and instances
    Deployment,
    /// The workspace's hosts resolve, to private addresses where they must, from here
    Dns,
}

impl CheckSelection {
    /// The one area chosen, or `None` for all.
    pub fn area(self) -> Option<crate::rules::resource::CheckArea> {
        use crate::rules::resource::CheckArea;
        match self {
            CheckSelection::All => None,
            CheckSelection::Workspace => Some(CheckArea::Workspace),
            CheckSelection::Keyvault => Some(CheckArea::Keyvault),
            CheckSelection::PrivateEndpoint => Some(CheckArea::PrivateEndpoint),
            CheckSelection::Deployment => Some(CheckArea::Deployment),
            CheckSelection::Dns => Some(CheckArea::Dns),
        }
    }
}

/// Explain a deployment error code, an HTTP status of a scoring request, or a rule.
///
/// Codes are the ones `az ml online-deployment create` reports (OutOfQuota,
/// ImageBuildFailure, ResourceNotReady, the Kubernetes-only codes…); statuses are those a
/// managed or Kubernetes online endpoint returns; rule ids are from `amldoctor rules list`.
/// Matching is case-insensitive.
#[derive(Debug, Clone, Args)]
#[command(after_help = "\
Examples:
  amldoctor explain OutOfQuota
  amldoctor explain 429
  amldoctor explain flask2-register-typeerror -o json")]
pub struct ExplainArgs {
    /// An error code, an HTTP status or a rule id
    #[arg(value_name = "CODE|STATUS|RULE")]
    pub query: String,
}

/// List, show, test and document the rule catalogue.
#[derive(Debug, Clone, Args)]
#[command(after_help = "\
Examples:
  amldoctor rules list
  amldoctor rules show user-init-failed
  amldoctor rules example user-init-failed | amldoctor diagnose -
  amldoctor rules test ./team-rules
  amldoctor rules docs > docs/rules.md")]
pub struct RulesArgs {
    #[command(subcommand)]
    pub action: RulesAction,
}

#[derive(Debug, Clone, Subcommand)]
pub enum RulesAction {
    /// List every rule: id, severity, family and title (with -q, the ids alone)
    List {
        /// Only the rules whose id, title, family, codes or remediation contain TEXT
        /// (any case)
        #[arg(long, value_name = "TEXT")]
        search: Option<String>,
        /// Only the rules of this family (build, deployment, http, …)
        #[arg(long, value_name = "NAME")]
        family: Option<String>,
        /// A directory of extra rule files to include (repeatable)
        #[arg(long = "rules", value_name = "DIR")]
        rule_dirs: Vec<PathBuf>,
    },
    /// Show one rule in full: what it matches, why it matters, the fix
    Show {
        /// The rule id
        id: String,
        /// A directory of extra rule files to include (repeatable)
        #[arg(long = "rules", value_name = "DIR")]
        rule_dirs: Vec<PathBuf>,
    },
    /// Check every rule against its own examples (built-in, plus those in DIR)
    Test {
        /// A directory of rule files to load and test with the built-in ones
        dir: Option<PathBuf>,
    },
    /// Print the rule reference as markdown (the source of docs/rules.md); with
    /// --rules, a team's own rules are documented beside the built-in ones
    Docs {
        /// A directory of extra rule files to include (repeatable)
        #[arg(long = "rules", value_name = "DIR")]
        rule_dirs: Vec<PathBuf>,
    },
    /// Print a rule's example text, to try `diagnose` on it or to start a test log
    Example {
        /// The rule id
        id: String,
        /// Print the example that must not match instead of the one that must
        #[arg(long)]
        no_match: bool,
        /// Which example, from 1
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        number: u32,
        /// A directory of extra rule files to include (repeatable)
        #[arg(long = "rules", value_name = "DIR")]
        rule_dirs: Vec<PathBuf>,
    },
}

/// Size an online deployment: how many instances a request rate needs, and the 429
/// ceiling of pending requests.
///
/// concurrent requests = rps × request time / target utilization;
/// instances = ceil(concurrent requests / max concurrent requests per instance).
/// The service rejects requests with 429 beyond 2 × max concurrent × instances pending.
/// Arithmetic is exact: a whole result is never rounded up by floating-point error.
#[derive(Debug, Clone, Args)]
#[command(after_help = "\
Examples:
  amldoctor replicas --rps 20
      286 instances: the troubleshooting article's example (10 s, 70 %)
  amldoctor replicas --rps 20 --latency 250ms --max-concurrent 4
  amldoctor replicas --rps 20 --instances 3
      what 3 instances sustain, and whether that reaches 20 requests/s
  amldoctor replicas --rps 20 --deployment-file blue-deployment.yml -o json
      read request_settings, scale_settings and instance_count from the YAML
  amldoctor replicas --rps 20 -e my-endpoint -n blue -g my-rg -w my-ws
      the same, read from the live deployment in Azure")]
pub struct ReplicasArgs {
    /// Target requests per second, a decimal greater than 0 (e.g. 20 or 0.5)
    #[arg(long, value_name = "RPS", value_parser = quantity::parse_rate, allow_negative_numbers = true)]
    pub rps: Ratio,
    /// Time to process one request: 10, 10s, 250ms, 1.5s, 2m or PT10S (pick a high percentile) [default: 10s]
    #[arg(long, value_name = "DURATION", value_parser = quantity::parse_duration, allow_hyphen_values = true)]
    pub latency: Option<Ratio>,
    /// max_concurrent_requests_per_instance, a whole number ≥ 1 [default: 1, or the deployment file's]
    #[arg(long, value_name = "N", value_parser = quantity::parse_count, allow_negative_numbers = true)]
    pub max_concurrent: Option<u64>,
    /// Target utilization: 0.7, 70% or 70, in (0, 100%] [default: 70%, or the deployment file's]
    #[arg(long, value_name = "UTIL", value_parser = quantity::parse_utilization, allow_negative_numbers = true)]
    pub utilization: Option<Ratio>,
    /// Evaluate this existing instance count: the rps it sustains and whether it meets --rps
    #[arg(long, value_name = "N", value_parser = quantity::parse_count, allow_negative_numbers = true)]
    pub instances: Option<u64>,
    /// An az ml online deployment YAML to read request_settings, scale_settings and
    /// instance_count from; flags override its values
    #[arg(long, short = 'f', value_name = "FILE", conflicts_with = "endpoint")]
    pub deployment_file: Option<PathBuf>,
    /// Read the settings from this online endpoint's deployment in Azure (-n names it;
    /// without -n, the endpoint's only deployment)
    #[arg(short = 'e', long = "endpoint-name", value_name = "NAME", value_parser = name_rules::endpoint)]
    pub endpoint: Option<String>,
    /// The deployment to read, with -e
    #[arg(short = 'n', long = "name", value_name = "NAME", value_parser = name_rules::endpoint, requires = "endpoint")]
    pub deployment: Option<String>,
}

/// Send scoring requests to an online endpoint and explain what the caller gets back.
///
/// Resolves the scoring URI and authentication from the endpoint (read from Azure, or
/// from its JSON with --from), sends the body --count times, --concurrency at once, and
/// reports how the requests ended, their latency percentiles and, for each error status,
/// what it means on this kind of endpoint, with the ids a support request needs. Keys and
/// tokens are never printed, logged or saved. Nothing in Azure is changed.
#[derive(Debug, Clone, Args)]
#[command(after_help = "\
Examples:
  amldoctor score -e my-ep --data req.json -g my-rg -w my-ws
      one request, with the key or token read from the endpoint
  amldoctor score -e my-ep -n green --data req.json --count 50 --concurrency 5
      50 requests to the green deployment, whatever its traffic share
  amldoctor score --from endpoint.json --key-env ENDPOINT_KEY --data req.json
      offline: the endpoint as az ml online-endpoint show -o json printed it
  amldoctor score -e my-ep --data req.json --count 100 --concurrency 8 --rps 40
      the instances 40 requests/s need at themeasured p95 latency")]
pub struct ScoreArgs {
    /// The online endpoint [default: the name in --from, or `endpoint:` in .amldoctor.yaml]
    #[arg(short = 'e', long = "endpoint-name", value_name = "NAME", value_parser = name_rules::endpoint)]
    pub endpoint: Option<String>,
    /// Send every request to this deployment (the azureml-model-deployment header), so a
    /// deployment with 0 % traffic is reached too
    #[arg(short = 'n', long = "name", value_name = "NAME", value_parser = name_rules::endpoint)]
    pub deployment: Option<String>,
    /// The request body: a file, or - for standard input
    #[arg(long, value_name = "FILE|-")]
    pub data: String,
    /// The body's content type
    #[arg(long, value_name = "TYPE", default_value = "application/json")]
    pub content_type: String,
    /// How many requests to send (more than 100 needs --force)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = quantity::parse_count, allow_negative_numbers = true)]
    pub count: u64,
    /// How many requests at once (more than 8 needs --force)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = quantity::parse_count, allow_negative_numbers = true)]
    pub concurrency: u64,
    /// Give up on a request after this long: 30, 30s, 500ms, PT2M [default: 30s]
    #[arg(long, value_name = "DURATION", value_parser = quantity::parse_duration, allow_hyphen_values = true)]
    pub timeout: Option<Ratio>,
    /// Requests per second the endpoint must serve: the instances that needs at the
    /// measured p95 latency, by the `replicas` formula
    #[arg(long, value_name = "RPS", value_parser = quantity::parse_rate, allow_negative_numbers = true)]
    pub rps: Option<Ratio>,
    /// Allow up to 10,000 requests and 64 at once (a load on a live endpoint: its
    /// callers share it)
    #[arg(long)]
    pub force: bool,
    /// The endpoint's JSON (and its deployments', for the 429 ceiling) instead of reading
    /// Azure: what `az ml online-endpoint show -o json` or the REST API prints (repeatable)
    #[arg(long = "from", value_name = "FILE")]
    pub from: Vec<PathBuf>,
    /// With --from: the environment variable that holds the endpoint's key
    #[arg(
        long,
        value_name = "VAR",
        requires = "from",
        conflicts_with = "token_env"
    )]
    pub key_env: Option<String>,
    /// With --from: the environment variable that holds a token (an AML token, or an
    /// Entra token for https://ml.azure.com)
    #[arg(long, value_name = "VAR", requires = "from")]
    pub token_env: Option<String>,
    /// A directory of extra rule files (repeatable); added to the built-in catalogue
    #[arg(long = "rules", value_name = "DIR")]
    pub rule_dirs: Vec<PathBuf>,
    #[command(flatten)]
    pub report: ReportArgs,
}

/// Run the scoring script or the ParallelRunStep entry script locally, as the platform
/// would, and diagnose what happens.
///
/// `online` starts the real inference server (azureml-inference-server-http, from the
/// chosen Python) on 127.0.0.1 only, waits for its liveness route, sends each request and
/// stops it; `parallel` runs the entry script under a harness that calls init() once per
/// worker process and run() per mini-batch, as the driver does, and writes a job's log
/// tree. Both report through the same catalogue as `diagnose`. Nothing is sent to Azure.
#[derive(Debug, Clone, Args)]
pub struct RehearseArgs {
    #[command(subcommand)]
    pub mode: RehearseMode,
}

#[derive(Debug, Clone, Subcommand)]
pub enum RehearseMode {
    Online(RehearseOnlineArgs),
    Parallel(RehearseParallelArgs),
}

/// Start the inference server with the scoring script and send it requests.
#[derive(Debug, Clone, Args)]
#[command(after_help = "\
Examples:
  amldoctor rehearse online --entry-script score.py --model-dir ./model --data request.json
  amldoctor rehearse online --deployment-file blue-deployment.yml --model-dir ./model
      the script, probes, request timeout and environment variables of the deployment
  amldoctor rehearse online --entry-script score.py --python ~/envs/serving/bin/python")]
pub struct RehearseOnlineArgs {
    /// The scoring script [default: the deployment file's code_configuration.scoring_script]
    #[arg(long, value_name = "FILE")]
    pub entry_script: Option<PathBuf>,
    /// The model folder, set as AZUREML_MODEL_DIR (what the platform downloads the
    /// registered model to)
    #[arg(long, value_name = "DIR")]
    pub model_dir: Option<PathBuf>,
    /// A request body to POST to /score (repeatable) [default: the sample of the script's
    /// input schema, when it declares one]
    #[arg(long, value_name = "FILE")]
    pub data: Vec<PathBuf>,
    /// The request bodies' content type
    #[arg(long, value_name = "TYPE", default_value = "application/json")]
    pub content_type: String,
    /// The online deployment YAML: its probes bound the start-up, its
    /// request_timeout_ms the requests, and its environment_variables are set
    #[arg(long, value_name = "FILE")]
    pub deployment_file: Option<PathBuf>,
    /// The Python interpreter to run the server with [default: $CONDA_PREFIX's, else
    /// $VIRTUAL_ENV's, else python3]
    #[arg(long, value_name = "PATH")]
    pub python: Option<PathBuf>,
    /// The longest the server may take to start, and each request: 120, 90s, 2m, PT2M
    #[arg(long, value_name = "DURATION", default_value = "120s", value_parser = quantity::parse_duration)]
    pub timeout: Ratio,
    /// Keep the server's log in this folder (otherwise a temporary folder, removed)
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// A directory of extra rule files (repeatable); added to the built-in catalogue
    #[arg(long = "rules", value_name = "DIR")]
    pub rule_dirs: Vec<PathBuf>,
    #[command(flatten)]
    pub report: ReportArgs,
}

/// What a ParallelRunStep input is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum InputType {
    /// run() gets a list of file paths
    File,
    /// run() gets a pandas DataFrame (CSV, Parquet, JSON lines)
    Tabular,
}

/// What the job does with run()'s results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputAction {
    /// Every result is a row of the output file: run() must return one per input
    AppendRow,
    /// Only the counts matter: run() may return anything
    SummaryOnly,
}

/// Run a ParallelRunStep entry script over local inputs, as the driver would.
#[derive(Debug, Clone, Args)]
#[command(after_help = "\
Examples:
  amldoctor rehearse parallel --entry-script score.py --input ./sample-files
  amldoctor rehearse parallel --entry-script score.py --input data.csv --input-type tabular \\
      --mini-batch-size 1MB --processes 4
  amldoctor rehearse parallel --job-file parallel-job.yml --input ./sample --out ./rehearsal
      the entry script, arguments, mini-batch size, timeout and threshold of the job")]
pub struct RehearseParallelArgs {
    /// The entry script [default: the job file's task.entry_script]
    #[arg(long, value_name = "FILE")]
    pub entry_script: Option<PathBuf>,
    /// An input file or folder (repeatable): a sample of the job's inputs
    #[arg(long = "input", value_name = "PATH", required = true)]
    pub inputs: Vec<PathBuf>,
    /// Files (run() gets paths) or tabular (run() gets a DataFrame) [default: tabular
    /// when the job file's input is an mltable, else file]
    #[arg(long, value_enum, value_name = "TYPE")]
    pub input_type: Option<InputType>,
    /// Items per mini-batch (a count of files) or a size of table data (1MB, 512KB)
    /// [default: the job file's, else 10 files or 1MB]
    #[arg(long, value_name = "N|SIZE", value_parser = crate::rehearsal::job_settings::parse_mini_batch_size)]
    pub mini_batch_size: Option<crate::rehearsal::job_settings::MiniBatchSize>,
    /// Worker processes run in parallel [default: the job file's
    /// max_concurrency_per_instance, else 2]
    #[arg(long, value_name = "N", value_parser = quantity::parse_count)]
    pub processes: Option<u64>,
    /// Seconds each run() may take [default: the job file's retry_settings.timeout, else 60]
    #[arg(long, value_name = "SECONDS", value_parser = quantity::parse_count)]
    pub run_invocation_timeout: Option<u64>,
    /// What happens to run()'s results [default: with a job file, append-row when its
    /// task has append_row_to, else summary-only; without one, append-row]
    #[arg(long, value_enum, value_name = "ACTION")]
    pub output_action: Option<OutputAction>,
    /// The v2 parallel job YAML (or a pipeline with one parallel step)
    #[arg(long, value_name = "FILE")]
    pub job_file: Option<PathBuf>,
    /// A program argument passed to the entry script, as the driver passes them
    /// (repeatable; use the = form: --arg=--threshold=0.5)
    #[arg(long = "arg", value_name = "ARG", allow_hyphen_values = true)]
    pub args: Vec<String>,
    /// The Python interpreter [default: $CONDA_PREFIX's, else $VIRTUAL_ENV's, else python3]
    #[arg(long, value_name = "PATH")]
    pub python: Option<PathBuf>,
    /// Write the job's log tree and outputs here and keep them (otherwise a temporary
    /// folder, removed)
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The longest the whole rehearsal may take: 600, 10m, PT10M
    #[arg(long, value_name = "DURATION", default_value = "600s", value_parser = quantity::parse_duration)]
    pub timeout: Ratio,
    /// A directory of extra rule files (repeatable); added to the built-in catalogue
    #[arg(long = "rules", value_name = "DIR")]
    pub rule_dirs: Vec<PathBuf>,
    #[command(flatten)]
    pub report: ReportArgs,
}

/// Print a shell completion script to stdout.
///
/// The same scripts are checked in under completions/ in the source tree.
#[derive(Debug, Clone, Args)]
#[command(after_help = "\
Examples:
  amldoctor completions bash \\
      > ~/.local/share/bash-completion/completions/amldoctor
  amldoctor completions zsh > ~/.zfunc/_amldoctor
  amldoctor completions fish > ~/.config/fish/completions/amldoctor.fish
  amldoctor completions powershell >> $PROFILE
  amldoctor completions elvish >> ~/.config/elvish/rc.elv")]
pub struct CompletionsArgs {
    /// The shell to generate for
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn globals_go_before_or_after_the_subcommand() {
        let a = Cli::try_parse_from(["amldoctor", "-o", "json", "replicas", "--rps", "2"]).unwrap();
        let b = Cli::try_parse_from([
            "amldoctor",
            "replicas",
            "--rps",
            "2",
            "-o",
            "json",
            "-w",
            "ws1",
        ])
        .unwrap();
        assert_eq!(a.global.output.output, Some(OutputFormat::Json));
        assert_eq!(b.global.output.output, Some(OutputFormat::Json));
        assert_eq!(b.global.azure.workspace_name.as_deref(), Some("ws1"));
    }
}
