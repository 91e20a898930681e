//! A Kubernetes online deployment's `resources`: every request must be at most its
//! limit, or Kubernetes refuses the pod. Quantities are read as Kubernetes writes them
//! (`500m` CPU, `2Gi` memory, plain numbers), compared exactly as integers of the
//! smallest unit (milli-units, bytes).

use serde_json::Value;

use super::CheckOptions;
use crate::evidence::resource::{Resource, ResourceKind};
use crate::finding::{Computed, Evidence, Location};

pub(crate) const RULE_ID: &str = "deployment-spec-requests-over-limits";

/// A Kubernetes quantity in thousandths of its unit (`500m` is 500, `1` is 1000,
/// `1Ki` is 1,024,000); `None` for what is not a quantity.
pub(crate) fn milli(value: &Value) -> Option<u128> {
    let text = match value {
        Value::String(s) => s.trim().to_owned(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, suffix) = text.split_at(split);
    let factor: u128 = match suffix {
        "m" => 1,
        "" => 1_000,
        "k" => 1_000_000,
        "M" => 1_000_000_000,
        "G" => 1_000_000_000_000,
        "T" => 1_000_000_000_000_000,
        "Ki" => 1_024_000,
        "Mi" => 1_048_576_000,
        "Gi" => 1_073_741_824_000,
        "Ti" => 1_099_511_627_776_000,
        _ => return None,
    };
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    let whole: u128 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let mut value = whole.checked_mul(factor)?;
    // Decimal places, exactly: 1.5Gi is whole 1 plus 5/10 of the factor.
    let mut scale = factor;
    for d in frac.chars() {
        let digit = u128::from(d.to_digit(10)?);
        if !scale.is_multiple_of(10) {
            // Finer than the smallest unit: round up, as Kubernetes does.
            if digit > 0 {
                value += 1;
            }
            break;
        }
        scale /= 10;
        value += digit * scale;
    }
    Some(value)
}

/// Where a deployment document holds its requests and limits: the YAML and `az ml`
/// shape, and the Resource Manager one (`KubernetesOnlineDeployment` in the REST specs:
/// what `az rest` prints and live `check -e` saves).
const SHAPES: [(&str, &str); 2] = [
    ("/resources/requests", "/resources/limits"),
    (
        "/properties/containerResourceRequirements/containerResourceRequests",
        "/properties/containerResourceRequirements/containerResourceLimits",
    ),
];

/// Requests over their limits, in either shape of [`SHAPES`].
pub(crate) fn requests_over_limits(r: &Resource, _: &CheckOptions) -> Option<Computed> {
    if r.kind != ResourceKind::OnlineDeployment {
        return None;
    }
    let (at, requests, limits) = SHAPES.iter().find_map(|(req, lim)| {
        let requests = r.json.pointer(req)?.as_object()?;
        let limits = r.json.pointer(lim)?.as_object()?;
        Some((*req, requests, limits))
    })?;
    let mut evidence = Vec::new();
    let mut edits = Vec::new();
    let mut first: Option<(String, String, String)> = None;
    for (name, request) in requests {
        let Some(limit) = limits.get(name) else {
            continue;
        };
        let (Some(req), Some(lim)) = (milli(request), milli(limit)) else {
            continue;
        };
        if req <= lim {
            continue;
        }
        let show = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_owned);
        let pointer = format!("{at}/{}", crate::evidence::json_lines::escape_token(name));
        evidence.push(Evidence {
            location: Location::Pointer {
                path: r.path.clone(),
                line: r.line_of(&pointer),
                pointer: r.absolute(&pointer),
            },
            text: format!(
                "{name}: request {} is more than its limit {}",
                show(request),
                show(limit)
            ),
            at: 0,
            computed: false,
            columns: None,
        });
        // The request comes down to the limit: what the pod is allowed anyway.
        edits.extend(super::deployment::set_edit(r, &pointer, show(limit)));
        first.get_or_insert((name.clone(), show(request), show(limit)));
    }
    let (resource, request, limit) = first?;
    Some(Computed {
        rule_id: RULE_ID,
        count: evidence.len() as u64,
        evidence,
        facts: [
            ("resource".to_owned(), resource),
            ("request".to_owned(), request),
            ("limit".to_owned(), limit),
        ]
        .into_iter()
        .collect(),
        names: r.names(),
        commands: Vec::new(),
        edits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn kubernetes_quantities() {
        assert_eq!(milli(&json!("500m")), Some(500));
        assert_eq!(milli(&json!("1")), Some(1000));
        assert_eq!(milli(&json!(2)), Some(2000));
        assert_eq!(milli(&json!("1.5")), Some(1500));
        assert_eq!(milli(&json!("1Gi")), Some(1_073_741_824_000));
        assert_eq!(milli(&json!("1.5Gi")), Some(1_610_612_736_000));
        assert_eq!(milli(&json!("512Mi")), Some(536_870_912_000));
        assert_eq!(milli(&json!("1G")), Some(1_000_000_000_000));
        assert_eq!(
            milli(&json!("0.0001")),
            Some(1),
            "finer than a milli-unit rounds up"
        );
        assert_eq!(milli(&json!("lots")), None);
        assert_eq!(milli(&json!("1Qi")), None);
        assert_eq!(milli(&json!(".")), None);
    }
}
