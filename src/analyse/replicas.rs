//! What `replicas` tells the user to run: the `az ml online-deployment update` that
//! applies a capacity plan, with the run's names filled in, or why no change is needed.

use crate::capacity::CapacityPlan;
use crate::capacity::deployment::DeploymentCapacity;
use crate::report::plural;
use crate::rules::template::Placeholders;

/// The az command that applies the result, with the run's names filled in and the rest
/// shown as `<name>`, or why there is none. amldoctor never runs it.
pub(crate) fn update_command(
    plan: &CapacityPlan,
    spec: Option<&DeploymentCapacity>,
    mut names: Placeholders,
) -> (Option<String>, Option<String>) {
    let required = plan.instances_required;
    if plan.over_platform_maximum {
        return (
            None,
            Some(
                "No update command: no configuration serves requests this slow (see the warning)."
                    .to_owned(),
            ),
        );
    }
    let meets = plan.evaluation.as_ref().is_some_and(|e| e.meets_target);
    let mut settings = Vec::new();
    match &plan.inputs.autoscale_max_instances {
        // Never lower a maximum that already covers the need.
        Some(max) if max.value < required => {
            settings.push(format!("scale_settings.max_instances={required}"));
        }
        Some(_) => {}
        None if !meets => settings.push(format!("instance_count={required}")),
        None => {}
    }
    if let Some(ms) = plan.request_timeout_needed_ms {
        settings.push(format!("request_settings.request_timeout_ms={ms}"));
    }
    if settings.is_empty() {
        let why = match &plan.inputs.autoscale_max_instances {
            Some(max) => match plan.evaluation.as_ref().filter(|e| !e.meets_target) {
                Some(now) => format!(
                    "No setting to change: autoscale may grow the {} running now to the {} needed (its maximum is {}); if it does not, read its rules and the instance quota.",
                    now.instances, required, max.value
                ),
                None => format!(
                    "No change needed: the autoscale maximum of {} already covers the {} needed.",
                    plural(u128::from(max.value), "instance", "instances"),
                    required
                ),
            },
            None => "No change needed: the existing instance count meets the target.".to_owned(),
        };
        return (None, Some(why));
    }
    if let Some(d) = spec {
        for (key, value) in [("deployment", &d.name), ("endpoint", &d.endpoint_name)] {
            if let Some(v) = value {
                names.insert(key, v.clone());
            }
        }
    }
    let template = format!(
        "az ml online-deployment update --name {{deployment}} --endpoint-name {{endpoint}} --set {} -g {{group}} -w {{workspace}}",
        settings.join(" ")
    );
    let filled = crate::rules::template::fill(&template, &Default::default(), &names);
    (Some(crate::rules::template::show_missing(&filled)), None)
}
