//! Command templates of rules: `{name}` placeholders filled from facts and the run's
//! values, only where the value is safe to paste into a shell.

use std::collections::BTreeMap;

/// Values for command placeholders that come from the run, not from the evidence.
pub(crate) type Placeholders = BTreeMap<&'static str, String>;

/// Whether a value can be pasted into a shell command as it is. Values come from logs,
/// which an attacker may write: anything with quotes, spaces, `$`, backticks or other
/// shell syntax is not filled in, and the placeholder stays visible instead.
pub(crate) fn shell_safe(value: &str) -> bool {
    !value.is_empty()
        && value.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'_' | b'.' | b':' | b'/' | b'=' | b'@' | b'%' | b'+' | b',' | b'~' | b'-'
                )
        })
}

/// `value` as one shell word: as it is when [`shell_safe`], else single-quoted.
pub(crate) fn shell_word(value: &str) -> String {
    if shell_safe(value) {
        value.to_owned()
    } else {
        format!("'{}'", value.replace('\'', "'\\''"))
    }
}

/// Shell words: split at blanks outside quotes, quotes removed (how a shell reads a
/// printed command, and how a job's `program_arguments` reach the entry script).
pub(crate) fn shell_split(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut any = false;
    for ch in command.chars() {
        match (quote, ch) {
            (None, '\'' | '"') => {
                quote = Some(ch);
                any = true;
            }
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            (_, c) => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

/// Fills `{name}` placeholders from the run (flags, project file: what the user said
/// wins), then from facts, when the value is [`shell_safe`]; unknown or unsafe ones
/// stay `{name}` for [`show_missing`].
pub(crate) fn fill(template: &str, facts: &BTreeMap<String, String>, run: &Placeholders) -> String {
    fill_with(template, facts, run, |v| {
        shell_safe(v).then(|| v.to_owned())
    })
}

/// Whether a value can stand in a fix's prose: any short text that cannot end a code
/// span or start a placeholder (`>=3.8` can; a backtick or a newline cannot).
pub(crate) fn prose_safe(value: &str) -> bool {
    !value.is_empty() && value.len() <= 200 && !value.contains(['`', '\n', '\r', '{', '}', '<'])
}

/// [`fill`] for a fix's text, where values need not be shell words: a value that is not
/// [`prose_safe`] as it is (a quoted message holding `<object at 0x…>`, or one longer
/// than a sentence) is shown as [`as_prose`] makes it, never as a placeholder nobody
/// can fill.
pub(crate) fn fill_prose(
    template: &str,
    facts: &BTreeMap<String, String>,
    run: &Placeholders,
) -> String {
    fill_with(template, facts, run, as_prose)
}

/// `value` made [`prose_safe`]: on one line, the characters that would end a code span
/// or open a placeholder swapped for look-alikes, cut to 200 bytes.
pub(crate) fn as_prose(value: &str) -> Option<String> {
    const MAX: usize = 200;
    if value.trim().is_empty() {
        return None;
    }
    if prose_safe(value) {
        return Some(value.to_owned());
    }
    let mut out: String = value
        .trim()
        .chars()
        .map(|c| match c {
            '`' => '\'',
            '\n' | '\r' => ' ',
            '{' => '(',
            '}' => ')',
            '<' => '\u{2039}',
            c => c,
        })
        .collect();
    if out.len() > MAX {
        let mut cut = MAX - 3;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push('\u{2026}');
    }
    Some(out)
}

/// A fix's text with the facts it names by name shown by value: `(fact `exit_code`)`
/// becomes `(`3`)`, `(facts `state` and `minutes`)` becomes `(`Updating` and `75`)`,
/// and a fact name alone in parentheses, `(`timeouts`)`, its value. In parentheses
/// that start with a captured fact, the other names captured are shown too. Rule authors
/// name facts so one text serves every run; the reader wants this run's values. Names
/// the finding did not capture stay as written.
pub(crate) fn show_fact_values(text: &str, facts: &BTreeMap<String, String>) -> String {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(concat!(
            // `(fact `a`, times `b`)`, `(`a`)`: names inside parentheses.
            r"\((?:facts?\s+)?(`[a-z][a-z0-9_]*`[^()`]*(?:`[a-z][a-z0-9_]*`[^()`]*)*)\)",
            // `the fact `a` says`, `facts `a`, `b` and `c``: a list in the prose.
            r"|\b(the\s+)?facts?\s+(`[a-z][a-z0-9_]*`(?:(?:,\s*|\s+and\s+)`[a-z][a-z0-9_]*`)*)",
        ))
        .expect("valid regex")
    });
    let value = |name: &str| facts.get(name).filter(|v| prose_safe(v));
    // Each backticked name of `names` as its value where known; whether the first was.
    let swap = |names: &str| -> (String, bool) {
        let mut first_known = None;
        let mut out = String::new();
        for (i, part) in names.split('`').enumerate() {
            if i % 2 == 1 {
                let v = value(part);
                first_known.get_or_insert(v.is_some());
                out.push('`');
                out.push_str(v.map_or(part, String::as_str));
                out.push('`');
            } else {
                out.push_str(part);
            }
        }
        (out, first_known == Some(true))
    };
    re.replace_all(text, |c: &regex::Captures| {
        let whole = &c[0];
        if let Some(names) = c.get(3) {
            let (out, known) = swap(names.as_str());
            return match (known, c.get(2)) {
                (false, _) => whole.to_owned(),
                // "the fact `assumed` says" → "the value `…` says".
                (true, Some(the)) => format!("{}value {out}", the.as_str()),
                (true, None) => out,
            };
        }
        let (out, known) = swap(&c[1]);
        if !known {
            return whole.to_owned();
        }
        // "(fact `image` when the log names it)": it did, so the condition goes.
        let out = match out.find(" when ") {
            Some(at) if !out[..at].contains(' ') || out[..at].ends_with('`') => &out[..at],
            _ => out.as_str(),
        };
        format!("({out})")
    })
    .into_owned()
}

fn fill_with(
    template: &str,
    facts: &BTreeMap<String, String>,
    run: &Placeholders,
    value: fn(&str) -> Option<String>,
) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        match after.find('}') {
            Some(end) => {
                let name = &after[..end];
                match run
                    .get(name)
                    .or_else(|| facts.get(name))
                    .and_then(|v| value(v))
                {
                    Some(v) => out.push_str(&v),
                    None => {
                        out.push('{');
                        out.push_str(name);
                        out.push('}');
                    }
                }
                rest = &after[end + 1..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Whether `name` is a placeholder name (`endpoint`, `storage_account`), not shell or
/// JMESPath braces such as `{name:name, id:id}` or `${IFS}`.
fn is_name(name: &str) -> bool {
    name.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// The `{name}` placeholders still in `text`, in order, each once.
pub(crate) fn unfilled(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let after = &rest[start + 1..];
        let Some(end) = after.find('}') else { break };
        let name = &after[..end];
        if is_name(name) && !rest[..start].ends_with('$') && !out.contains(&name) {
            out.push(name);
        }
        rest = &after[end + 1..];
    }
    out
}

/// How a placeholder still unknown is shown: `<endpoint>`, `<storage-account>`.
pub(crate) fn missing_form(name: &str) -> String {
    format!("<{}>", name.replace('_', "-"))
}

/// `text` with every `{name}` still unfilled shown as [`missing_form`], the one style
/// a user sees for a value to fill in.
pub(crate) fn show_missing(text: &str) -> String {
    let mut out = text.to_owned();
    for name in unfilled(text) {
        out = out.replace(&format!("{{{name}}}"), &missing_form(name));
    }
    out
}

/// Where the user gets a value a command needs, for the names a flag, the project
/// file or one `az` query fills; shown once under the findings for the ones missing.
pub(crate) const FILLED_BY: &[(&str, &str)] = &[
    (
        "endpoint",
        "az ml online-endpoint list -g GROUP -w WORKSPACE -o table; then `endpoint:` in .amldoctor.yaml",
    ),
    (
        "deployment",
        "az ml online-deployment list -e ENDPOINT -g GROUP -w WORKSPACE -o table; then `deployment:` in .amldoctor.yaml",
    ),
    ("group", "-g GROUP, or `resource-group:` in .amldoctor.yaml"),
    (
        "workspace",
        "-w WORKSPACE, or `workspace:` in .amldoctor.yaml",
    ),
    (
        "subscription",
        "--subscription ID, or `subscription:` in .amldoctor.yaml",
    ),
    (
        "region",
        "az ml workspace show -n WORKSPACE -g GROUP --query location -o tsv",
    ),
    // Both queries print an ARM id; `basename` keeps the name the flags expect.
    (
        "storage_account",
        "az ml workspace show -n WORKSPACE -g GROUP --query storage_account -o tsv | xargs basename",
    ),
    (
        "registry",
        "az ml workspace show -n WORKSPACE -g GROUP --query container_registry -o tsv | xargs basename",
    ),
    (
        "namespace",
        "az ml compute show -n COMPUTE -g GROUP -w WORKSPACE --query namespace -o tsv",
    ),
    ("pod", "kubectl get pods -n NAMESPACE"),
    (
        "run_id",
        "az ml job list -g GROUP -w WORKSPACE --query \"[].name\" -o tsv",
    ),
    (
        "model",
        "the `model:` of your deployment YAML, or az ml model list -g GROUP -w WORKSPACE -o table",
    ),
    (
        "deployment_yaml",
        "the deployment YAML file you deploy with",
    ),
    (
        "model_version",
        "az ml model list -n MODEL -g GROUP -w WORKSPACE -o table",
    ),
    ("logs", "the ParallelRunStep logs/ folder you downloaded"),
    (
        "identity_client_id",
        "az ml online-endpoint show -n ENDPOINT -g GROUP -w WORKSPACE --query identity (a user-assigned identity's client id, or the system-assigned principal id)",
    ),
    (
        "rps",
        "the requests per second the deployment must serve (score --rps N takes it)",
    ),
    (
        "entry_module",
        "the entry script's module: its file name without .py",
    ),
    (
        "failing_input",
        "an input file of a failed mini-batch (the job summary lists them)",
    ),
    (
        "job_yaml",
        "the parallel job YAML file you submit (rehearse parallel --job-file takes it)",
    ),
];

/// Whether `name` (between `<` and `>`) is a placeholder's kebab name: `storage-account`,
/// not an HTML tag's attributes, a URL or a shell redirection.
pub(crate) fn is_kebab(name: &str) -> bool {
    name.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// The `<kebab-name>` values a rule author left for the user in a command (the
/// principal id, the deployment YAML): amldoctor never reads them from the input.
pub(crate) fn authored(command: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let mut rest = command;
    while let Some(start) = rest.find('<') {
        let after = &rest[start + 1..];
        let Some(end) = after.find('>') else { break };
        let token = &rest[start..start + end + 2];
        if is_kebab(&after[..end]) && !out.contains(&token) {
            out.push(token);
        }
        rest = &after[end + 1..];
    }
    out
}

/// Where to find the values of [`authored`] placeholders that come up often; the
/// others point at the finding's fix, which says what the value is.
pub(crate) const AUTHORED_HINTS: &[(&str, &str)] = &[
    (
        "<principal-id>",
        "the principal id of the identity the fix names (az identity show --ids IDENTITY_ID --query principalId -o tsv for a user-assigned one)",
    ),
    (
        "<serving-deployment>",
        "the deployment that serves the traffic now (az ml online-endpoint show -n ENDPOINT --query traffic)",
    ),
    ("<registry-id>", "az acr show -n REGISTRY --query id -o tsv"),
    (
        "<storage-account-id>",
        "az storage account show -n STORAGE_ACCOUNT --query id -o tsv",
    ),
    (
        "<private-dns-zone-group>",
        "az network private-dns zone list --query \"[?name=='privatelink.api.azureml.ms'].resourceGroup\" -o tsv",
    ),
    ("<package-name>", "the package the error names"),
    (
        "<server-ip>",
        "the DNS server's address; for `system`, a nameserver line of /etc/resolv.conf (ipconfig /all on Windows)",
    ),
    ("<server-port>", "53, unless the server listens elsewhere"),
    (
        "<vnet-id>",
        "az network vnet show -g GROUP -n VNET --query id -o tsv (the network that calls the endpoint)",
    ),
    (
        "<service-name>",
        "the SDK v1 web service's name (print(list(ws.webservices)) lists them)",
    ),
    (
        "<origin>",
        "the web page's origin: scheme://host[:port] as the browser shows it",
    ),
    (
        "<vnet>",
        "az network vnet list -g GROUP --query \"[].name\" -o tsv",
    ),
    (
        "<subnet>",
        "az network vnet subnet list -g GROUP --vnet-name VNET --query \"[].name\" -o tsv",
    ),
    (
        "<endpoint-principal-id>",
        "az ml online-endpoint show -n ENDPOINT -g GROUP -w WORKSPACE --query identity.principal_id -o tsv (system-assigned); for a user-assigned identity, az identity show --ids IDENTITY_ID --query principalId -o tsv",
    ),
    (
        "<environment-name>",
        "the `environment:` of your deployment YAML (azureml:NAME:VERSION)",
    ),
    (
        "<environment-version>",
        "the `environment:` of your deployment YAML (azureml:NAME:VERSION)",
    ),
    (
        "<cluster-name>",
        "the AKS cluster behind the Kubernetes compute: az ml compute show -n COMPUTE -g GROUP -w WORKSPACE --query resource_id -o tsv",
    ),
    (
        "<cluster-group>",
        "the resource group of that AKS cluster (in the same resource_id)",
    ),
    (
        "<kubernetes-compute>",
        "az ml compute list -g GROUP -w WORKSPACE --type kubernetes -o table",
    ),
    ("<node-name>", "kubectl get nodes -o wide"),
    ("<new-link-name>", "a name of your choice for the new link"),
    (
        "<new-deployment>",
        "a name of your choice for the new deployment, unique in the endpoint",
    ),
    (
        "<compute-cluster>",
        "a compute cluster: an existing one (az ml compute list -g GROUP -w WORKSPACE --type amlcompute -o table) or the name of one to create",
    ),
];

/// What to tell the user about an [`authored`] placeholder.
pub(crate) fn authored_hint(token: &str) -> &'static str {
    AUTHORED_HINTS
        .iter()
        .find(|(t, _)| *t == token)
        .map_or("yours to give: the fix above says what it is", |(_, h)| h)
}

/// [`FILLED_BY`] for a name only `az ml batch-…` commands need: a batch endpoint's
/// deployments are not listed by `online-deployment list`.
const FILLED_BY_BATCH: &[(&str, &str)] = &[
    (
        "endpoint",
        "az ml batch-endpoint list -g GROUP -w WORKSPACE -o table; then `endpoint:` in .amldoctor.yaml",
    ),
    (
        "deployment",
        "az ml batch-deployment list -e ENDPOINT -g GROUP -w WORKSPACE -o table; then `deployment:` in .amldoctor.yaml",
    ),
];

/// A value a printed command needs and the run did not give, and how to give it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct MissingName {
    /// As shown in the commands: `<endpoint>`.
    pub placeholder: String,
    /// The flag, project key or query that fills it.
    pub filled_by: String,
}

/// The values still shown `<name>` in printed `commands` (every one) and `fixes`
/// (the ones a flag or query fills: a fix's prose also shows `azureml:<name>:<version>`
/// as a pattern), in the order [`FILLED_BY`] gives, then the rule authors' own.
pub(crate) fn missing_in<'a>(
    commands: impl Iterator<Item = &'a str>,
    fixes: impl Iterator<Item = &'a str>,
) -> Vec<MissingName> {
    let commands: Vec<&str> = commands.collect();
    let mut tokens: Vec<&str> = Vec::new();
    for c in commands.iter().copied() {
        for t in authored(c) {
            if !tokens.contains(&t) {
                tokens.push(t);
            }
        }
    }
    let fix_tokens: Vec<&str> = fixes.flat_map(authored).collect();
    // Where every command that needs the name is a batch one, the batch way to find it.
    let batch_only = |form: &str| {
        let mut needing = commands.iter().filter(|c| c.contains(form)).peekable();
        // `az ml batch-deployment …`: the group after `ml`.
        let batch = |c: &str| {
            c.split_whitespace()
                .nth(2)
                .is_some_and(|g| g.starts_with("batch-"))
        };
        needing.peek().is_some() && needing.all(|c| batch(c))
    };
    let mut out: Vec<MissingName> = FILLED_BY
        .iter()
        .map(|(name, how)| (name, missing_form(name), how))
        .filter(|(_, form, _)| {
            tokens.contains(&form.as_str()) || fix_tokens.contains(&form.as_str())
        })
        .map(|(name, placeholder, how)| {
            let batch = FILLED_BY_BATCH.iter().find(|(n, _)| n == name);
            let how = match batch {
                Some((_, b)) if batch_only(&placeholder) => b,
                _ => how,
            };
            MissingName {
                placeholder,
                filled_by: (*how).to_owned(),
            }
        })
        .collect();
    for t in tokens {
        if !out.iter().any(|m| m.placeholder == t) {
            out.push(MissingName {
                placeholder: t.to_owned(),
                filled_by: authored_hint(t).to_owned(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_that_is_not_prose_safe_still_fills_a_fix() {
        let facts = BTreeMap::from([(
            "message".to_owned(),
            "ServiceRequestError: <urllib3.connection object at 0x7f>: `boom`\nnext".to_owned(),
        )]);
        let run = Placeholders::new();
        assert_eq!(
            fill_prose("It says: {message}", &facts, &run),
            "It says: ServiceRequestError: \u{2039}urllib3.connection object at 0x7f>: 'boom' next"
        );
        let long = BTreeMap::from([("message".to_owned(), "é".repeat(150))]);
        let filled = fill_prose("{message}", &long, &run);
        assert!(
            filled.len() <= 200 && filled.ends_with('\u{2026}'),
            "{filled}"
        );
        // A shell command never takes such a value: it stays a placeholder.
        assert_eq!(fill("echo {message}", &facts, &run), "echo {message}");
    }

    #[test]
    fn a_name_only_batch_commands_need_is_found_the_batch_way() {
        let batch = ["az ml batch-deployment show --endpoint-name ep -n <deployment>"];
        let m = missing_in(batch.into_iter(), std::iter::empty());
        assert!(
            m[0].filled_by.starts_with("az ml batch-deployment list"),
            "{m:?}"
        );
        let both = [
            batch[0],
            "az ml online-deployment get-logs -e ep -n <deployment>",
        ];
        let m = missing_in(both.into_iter(), std::iter::empty());
        assert!(
            m[0].filled_by.starts_with("az ml online-deployment list"),
            "{m:?}"
        );
    }

    #[test]
    fn named_facts_read_as_their_values() {
        let facts: BTreeMap<String, String> = [
            ("exit_code", "3"),
            ("state", "Updating"),
            ("minutes", "75"),
            ("host", "ep.westeurope.inference.ml.azure.com"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        let show = |t: &str| show_fact_values(t, &facts);
        assert_eq!(
            show("a non-zero code (fact `exit_code`), which"),
            "a non-zero code (`3`), which"
        );
        assert_eq!(
            show("change (facts `state` and `minutes`);"),
            "change (`Updating` and `75`);"
        );
        assert_eq!(
            show("the name (fact `host`) does not"),
            "the name (`ep.westeurope.inference.ml.azure.com`) does not"
        );
        assert_eq!(
            show("the fact `host` says"),
            "the value `ep.westeurope.inference.ml.azure.com` says"
        );
        assert_eq!(
            show("facts `state`, `minutes` and `zone` when read"),
            "`Updating`, `75` and `zone` when read"
        );
        assert_eq!(show("(fact `exit_code` when the log names it)"), "(`3`)");
        assert_eq!(show("failures (`exit_code`)"), "failures (`3`)");
        assert_eq!(show("code (fact\n`exit_code`) and"), "code (`3`) and");
        // Names not captured, and keys that are no facts, stay as written.
        assert_eq!(
            show("(fact `image` when the log names it)"),
            "(fact `image` when the log names it)"
        );
        assert_eq!(
            show("raise (`request_timeout_ms`)"),
            "raise (`request_timeout_ms`)"
        );
    }

    #[test]
    fn missing_names_show_one_way_and_other_braces_stay() {
        let text = "az x -e {endpoint} --account {storage_account} --query \"{name:name}\" ${IFS} {endpoint}";
        assert_eq!(unfilled(text), ["endpoint", "storage_account"]);
        assert_eq!(
            show_missing(text),
            "az x -e <endpoint> --account <storage-account> --query \"{name:name}\" ${IFS} <endpoint>"
        );
    }

    #[test]
    fn the_run_wins_over_facts() {
        let facts = BTreeMap::from([("deployment".to_owned(), "green".to_owned())]);
        let run = Placeholders::from([("deployment", "blue".to_owned())]);
        assert_eq!(fill("-n {deployment}", &facts, &run), "-n blue");
        assert_eq!(
            fill("-n {deployment}", &facts, &Placeholders::new()),
            "-n green"
        );
    }
}
