//! What a v1 pipeline script hands to `ParallelRunStep` and `ParallelRunConfig`,
//! followed through its assignments: the type and source of each input and side input
//! dataset, whether it is registered, and the class of the compute target. The call
//! arguments are variables far more often than literals (`inputs=[named_input]`), so
//! the literal reading of a call says nothing about them; this reads the script's
//! `name = …` lines in order and classifies each value by the constructor it comes from.
//!
//! The result joins the call's arguments as derived keys (`input_datasets`,
//! `side_input_datasets`, `compute_target_type`, `service_principal_auth`), which the
//! parallel-job rules test like any other field.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use tree_sitter::Node;

/// What a dataset expression is, as far as the script shows.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Dataset {
    /// `file`, `tabular` or `unknown`.
    pub kind: &'static str,
    /// `sql` (`from_sql_query`), `parquet-file` (`from_parquet_files` of one `.parquet`
    /// path) or empty.
    pub source: &'static str,
    /// Registered in the workspace (`.register(…)`, `Dataset.get_by_name(…)`).
    pub registered: bool,
    /// The name it was reached through (`named_input`), or the expression.
    pub name: String,
}

impl Dataset {
    fn to_json(&self) -> Value {
        json!({
            "type": self.kind,
            "source": self.source,
            "registered": self.registered,
            "name": self.name,
        })
    }
}

/// Compute classes ParallelRunStep cannot run on, as their constructors are written.
const OTHER_COMPUTE: &[&str] = &[
    "ComputeInstance",
    "AksCompute",
    "KubernetesCompute",
    "RemoteCompute",
    "HDInsightCompute",
    "DatabricksCompute",
    "SynapseCompute",
    "DataFactoryCompute",
    "AdlaCompute",
    "BatchCompute",
];

/// The script's assignments, classified as they are read.
#[derive(Debug, Default)]
struct Env {
    datasets: BTreeMap<String, Dataset>,
    computes: BTreeMap<String, &'static str>,
}

fn text<'s>(node: Node<'_>, bytes: &'s [u8]) -> &'s str {
    node.utf8_text(bytes).unwrap_or_default()
}

fn line(node: Node<'_>) -> u64 {
    node.start_position().row as u64 + 1
}

/// The identifier a chain starts from: `label_ds` of `label_ds.as_named_input("x").as_mount(p)`.
fn root_identifier(expr: &str) -> Option<&str> {
    let end = expr
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(expr.len());
    let root = &expr[..end];
    (!root.is_empty() && !root.starts_with(|c: char| c.is_ascii_digit())).then_some(root)
}

/// The first string literal inside `call(` … in `expr`, unquoted.
fn first_string_after<'e>(expr: &'e str, call: &str) -> Option<&'e str> {
    let rest = &expr[expr.find(call)? + call.len()..];
    let start = rest.find(['"', '\''])?;
    let quote = rest[start..].chars().next()?;
    let body = &rest[start + 1..];
    Some(&body[..body.find(quote)?])
}

/// The `default_value=` of a `PipelineParameter(...)`, or the expression itself.
fn unwrap_parameter(expr: &str) -> &str {
    if expr.contains("PipelineParameter(")
        && let Some(at) = expr.find("default_value=")
    {
        let rest = expr[at + "default_value=".len()..].trim_start();
        let end = rest.find([',', ')']).unwrap_or(rest.len());
        return rest[..end].trim();
    }
    expr
}

fn classify_dataset(expr: &str, env: &Env) -> Option<Dataset> {
    let expr = unwrap_parameter(expr.trim());
    let compact: String = expr.chars().filter(|c| !c.is_whitespace()).collect();
    let registered = compact.contains(".register(")
        || compact.contains("Dataset.get_by_name(")
        || compact.contains("Dataset.get_by_id(")
        || compact.contains(".datasets[");
    let direct = if compact.contains("Dataset.File.") || compact.contains("FileDataset") {
        Some("file")
    } else if compact.contains("Dataset.Tabular.") || compact.contains("TabularDataset") {
        Some("tabular")
    } else {
        None
    };
    if let Some(kind) = direct {
        let source = if compact.contains(".from_sql_query(") {
            "sql"
        } else if compact.contains(".from_parquet_files(")
            && first_string_after(expr, "from_parquet_files(")
                .is_some_and(|p| p.to_ascii_lowercase().ends_with(".parquet") && !p.contains('*'))
            && !compact.contains("from_parquet_files(path=[")
        {
            "parquet-file"
        } else {
            ""
        };
        return Some(Dataset {
            kind,
            source,
            registered,
            name: String::new(),
        });
    }
    if registered {
        return Some(Dataset {
            kind: "unknown",
            source: "",
            registered,
            name: String::new(),
        });
    }
    let root = root_identifier(expr)?;
    let mut d = env.datasets.get(root)?.clone();
    d.registered |= registered;
    Some(d)
}

fn classify_compute(expr: &str, env: &Env) -> Option<&'static str> {
    let compact: String = expr.chars().filter(|c| !c.is_whitespace()).collect();
    if let Some(class) = OTHER_COMPUTE
        .iter()
        .find(|c| compact.contains(&format!("{c}(")) || compact.contains(&format!("{c}.")))
    {
        return Some(class);
    }
    if compact.contains("AmlCompute(") || compact.contains("AmlCompute.") {
        return Some("AmlCompute");
    }
    env.computes.get(root_identifier(expr.trim())?).copied()
}

/// The elements of a list argument (`[a, b.as_named_input("x")]`), or the one value.
fn elements<'t>(value: Node<'t>) -> Vec<Node<'t>> {
    if value.kind() == "list" || value.kind() == "tuple" {
        let mut cursor = value.walk();
        value.named_children(&mut cursor).collect()
    } else {
        vec![value]
    }
}

/// Reads the script's assignments in order (a later `x = …` replaces an earlier one,
/// as when the script runs top to bottom).
fn assignments(node: Node<'_>, bytes: &[u8], env: &mut Env) {
    if node.kind() == "assignment"
        && let (Some(left), Some(right)) = (
            node.child_by_field_name("left"),
            node.child_by_field_name("right"),
        )
        && left.kind() == "identifier"
    {
        let name = text(left, bytes).to_owned();
        let value = text(right, bytes);
        if let Some(mut d) = classify_dataset(value, env) {
            d.name.clone_from(&name);
            env.datasets.insert(name.clone(), d);
        }
        if let Some(c) = classify_compute(value, env) {
            env.computes.insert(name, c);
        }
    }
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        assignments(child, bytes, env);
    }
}

/// The derived keys of one `ParallelRunStep(...)` / `ParallelRunConfig(...)` call: key,
/// value, line.
pub(crate) type Derived = Vec<(String, Value, u64)>;

/// The derived keys of each call node, by its line.
pub(crate) fn derive(
    root: Node<'_>,
    bytes: &[u8],
    calls: &[(u64, Node<'_>)],
) -> BTreeMap<u64, Derived> {
    let mut env = Env::default();
    assignments(root, bytes, &mut env);
    let service_principal = find_text(root, bytes, "ServicePrincipalAuthentication(");
    let mut out = BTreeMap::new();
    for (call_line, call) in calls {
        let Some(args) = call.child_by_field_name("arguments") else {
            continue;
        };
        let mut derived = Derived::new();
        let mut cursor = args.walk();
        for a in args.named_children(&mut cursor) {
            let (Some(key), Some(value)) = (
                a.child_by_field_name("name"),
                a.child_by_field_name("value"),
            ) else {
                continue;
            };
            let datasets = |v: Node<'_>| -> Value {
                Value::Array(
                    elements(v)
                        .into_iter()
                        .map(|e| {
                            let t = text(e, bytes);
                            let mut d = classify_dataset(t, &env).unwrap_or(Dataset {
                                kind: "unknown",
                                ..Dataset::default()
                            });
                            if d.name.is_empty() {
                                d.name = root_identifier(t).unwrap_or(t).to_owned();
                            }
                            d.to_json()
                        })
                        .collect(),
                )
            };
            match text(key, bytes) {
                "inputs" => derived.push(("input_datasets".into(), datasets(value), line(a))),
                "side_inputs" => {
                    derived.push(("side_input_datasets".into(), datasets(value), line(a)));
                }
                "compute_target" => {
                    if let Some(c) = classify_compute(text(value, bytes), &env) {
                        derived.push(("compute_target_type".into(), json!(c), line(a)));
                    }
                }
                _ => {}
            }
        }
        if let Some(sp) = service_principal {
            derived.push(("service_principal_auth".into(), json!(true), sp));
        }
        out.insert(*call_line, derived);
    }
    out
}

/// The line of the first node whose text holds `needle` at its start.
fn find_text(node: Node<'_>, bytes: &[u8], needle: &str) -> Option<u64> {
    if node.kind() == "call" && text(node, bytes).contains(needle) {
        return Some(line(node));
    }
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
    children
        .into_iter()
        .find_map(|c| find_text(c, bytes, needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(src: &str) -> Env {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_python::LANGUAGE.into())
            .unwrap();
        let tree = parser.parse(src, None).unwrap();
        let mut env = Env::default();
        assignments(tree.root_node(), src.as_bytes(), &mut env);
        env
    }

    #[test]
    fn datasets_are_followed_through_their_assignments() {
        let env = env_of(
            "images = Dataset.File.from_files((store, 'scans/'))\nnamed = images.as_named_input('images')\nsales = Dataset.Tabular.from_sql_query((sql_store, 'SELECT * FROM sales'))\none = Dataset.Tabular.from_parquet_files(path=(store, 'data/all.parquet'))\nmany = Dataset.Tabular.from_parquet_files(path=(store, 'data/*.parquet'))\nlabels = Dataset.get_by_name(ws, 'labels')\nreg = Dataset.File.from_files(p).register(ws, 'x')\nparam = PipelineParameter(name='in', default_value=named)\n",
        );
        let d = |n: &str| env.datasets.get(n).cloned().unwrap();
        assert_eq!((d("named").kind, d("named").registered), ("file", false));
        assert_eq!((d("sales").kind, d("sales").source), ("tabular", "sql"));
        assert_eq!(d("one").source, "parquet-file");
        assert_eq!(d("many").source, "");
        assert_eq!(
            (d("labels").kind, d("labels").registered),
            ("unknown", true)
        );
        assert!(d("reg").registered);
        assert_eq!(d("param").kind, "file");
    }

    #[test]
    fn compute_classes() {
        let env = env_of(
            "ci = ComputeInstance(workspace=ws, name='my-ci')\ncluster = ComputeTarget.create(ws, 'cpu', AmlCompute.provisioning_configuration(vm_size='STANDARD_D2_V2'))\naks = ws.compute_targets['aks']\n",
        );
        assert_eq!(env.computes.get("ci"), Some(&"ComputeInstance"));
        assert_eq!(env.computes.get("cluster"), Some(&"AmlCompute"));
        assert_eq!(env.computes.get("aks"), None);
    }
}
