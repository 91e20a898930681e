//! A parallel job that starts more worker processes per node than the node has GPUs.
//! ParallelRunStep gives each process a GPU of its own through `CUDA_VISIBLE_DEVICES`
//! until they run out; the processes beyond the GPU count get none, so a CUDA library
//! in them finds no device (or every one of them falls back to the CPU).
//!
//! The node's VM size comes from the job itself (`resources.instance_type`, serverless),
//! from a compute YAML in the project that the job names (`compute: azureml:NAME`), or,
//! for an SDK v1 script, from the script's own `provisioning_configuration(vm_size=…)`.

use std::collections::BTreeMap;

use serde_json::Value;

use super::vm_size::{Accelerators, accelerators};
use crate::evidence::resource::Resource;
use crate::finding::{Computed, Evidence, Location};

/// The rule of [`processes_exceed_gpus`].
pub(crate) const RULE_ID: &str = "parallel-job-processes-exceed-gpus";

/// A VM size read from a file, with where it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SizeAt {
    pub size: String,
    pub path: String,
    pub line: u64,
    /// The compute it is the size of, when named.
    pub compute: Option<String>,
}

/// The compute a job runs on, as its file names it: `azureml:gpu-cluster` (v2), or
/// `compute_target="gpu-cluster"` (v1, a literal).
pub(crate) fn compute_name(job: &Resource) -> Option<String> {
    let text = job
        .json
        .get("compute")
        .or_else(|| job.json.get("compute_target"))?
        .as_str()?
        .trim();
    let name = text.strip_prefix("azureml:").unwrap_or(text);
    // `azureml:/subscriptions/…/computes/NAME` names it by id.
    let name = name.rsplit('/').next().unwrap_or(name);
    (!name.is_empty()).then(|| name.to_owned())
}

/// The VM size of the job's nodes: its own `resources.instance_type`, else the compute
/// it names among `computes`, else (a v1 script that names no compute by a literal and
/// provisions one size) `script_sizes`.
pub(crate) fn node_size(
    job: &Resource,
    computes: &[SizeAt],
    script_sizes: &[SizeAt],
) -> Option<SizeAt> {
    let pointer = "/resources/instance_type";
    if let Some(size) = job.json.pointer(pointer).and_then(Value::as_str) {
        return Some(SizeAt {
            size: size.to_owned(),
            path: job.path.clone(),
            line: job.line_of(pointer),
            compute: None,
        });
    }
    if let Some(name) = compute_name(job) {
        if let Some(c) = computes.iter().find(|c| {
            c.compute
                .as_deref()
                .is_some_and(|n| n.eq_ignore_ascii_case(&name))
        }) {
            return Some(c.clone());
        }
        // A compute named by a literal is that one, whatever the script provisions.
        return None;
    }
    // A v1 script whose compute_target is a variable: the one size it provisions.
    match script_sizes {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// The finding when the job's processes per node outnumber the GPUs of `size`.
pub(crate) fn processes_exceed_gpus(job: &Resource, size: &SizeAt) -> Option<Computed> {
    let Accelerators::Cuda(gpus, model) = accelerators(&size.size) else {
        return None;
    };
    let (pointer, processes) = ["/max_concurrency_per_instance", "/process_count_per_node"]
        .into_iter()
        .find_map(|p| Some((p, job.json.pointer(p)?.as_u64()?)))?;
    if processes <= u64::from(gpus) {
        return None;
    }
    let key = pointer.trim_start_matches('/');
    let evidence = vec![
        Evidence {
            location: Location::Pointer {
                path: job.path.clone(),
                line: job.line_of(pointer),
                pointer: job.absolute(pointer),
            },
            text: format!("{processes} worker processes per node"),
            at: 0,
            computed: false,
            columns: None,
        },
        Evidence::at_line(
            size.path.clone(),
            size.line,
            format!(
                "{} has {gpus} {model} GPU{}",
                size.size,
                if gpus == 1 { "" } else { "s" }
            ),
        ),
    ];
    let mut facts: BTreeMap<String, String> = [
        ("setting", key.to_owned()),
        ("processes", processes.to_string()),
        ("gpus", gpus.to_string()),
        ("vm_size", size.size.clone()),
        ("gpu_model", model.to_owned()),
        ("without_gpu", (processes - u64::from(gpus)).to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    if let Some(c) = &size.compute {
        facts.insert("compute".to_owned(), c.clone());
    }
    Some(Computed {
        rule_id: RULE_ID,
        count: 1,
        evidence,
        facts,
        names: job.names(),
        commands: Vec::new(),
        edits: vec![crate::engine::fix::set_key(job, pointer, gpus.to_string())],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::yaml_doc;

    fn job(text: &str) -> Resource {
        super::super::parallel_jobs("job.yml", &yaml_doc::parse(text).unwrap()).remove(0)
    }

    fn compute(name: &str, size: &str) -> SizeAt {
        SizeAt {
            size: size.to_owned(),
            path: "compute.yml".to_owned(),
            line: 3,
            compute: Some(name.to_owned()),
        }
    }

    #[test]
    fn processes_beyond_the_gpus_of_the_named_compute() {
        let j = job(
            "type: parallel\ncompute: azureml:gpu-cluster\nmax_concurrency_per_instance: 4\ntask:\n  type: run_function\n",
        );
        let computes = [
            compute("cpu", "Standard_DS3_v2"),
            compute("gpu-cluster", "STANDARD_NC12S_V3"),
        ];
        let size = node_size(&j, &computes, &[]).unwrap();
        let c = processes_exceed_gpus(&j, &size).unwrap();
        assert_eq!(c.facts["gpus"], "2");
        assert_eq!(c.facts["without_gpu"], "2");
        assert_eq!(c.facts["compute"], "gpu-cluster");
        assert_eq!(c.evidence[0].location.line(), 3);
        assert_eq!(
            c.evidence[1].text,
            "STANDARD_NC12S_V3 has 2 Tesla V100 GPUs"
        );
        // A CPU cluster, as many processes as GPUs, or an unknown compute: nothing.
        let on_cpu = job("type: parallel\ncompute: azureml:cpu\nmax_concurrency_per_instance: 4\n");
        let size = node_size(&on_cpu, &computes, &[]).unwrap();
        assert!(processes_exceed_gpus(&on_cpu, &size).is_none());
        let fits = job("type: parallel\ncompute: gpu-cluster\nmax_concurrency_per_instance: 2\n");
        assert!(processes_exceed_gpus(&fits, &node_size(&fits, &computes, &[]).unwrap()).is_none());
        let elsewhere =
            job("type: parallel\ncompute: azureml:other\nmax_concurrency_per_instance: 4\n");
        assert!(node_size(&elsewhere, &computes, &[]).is_none());
    }

    #[test]
    fn a_v1_script_size_counts_only_for_a_compute_given_as_a_variable() {
        let call = |compute: &str| Resource {
            json: serde_json::json!({"parallel_run_call": "ParallelRunConfig", "compute_target": compute, "process_count_per_node": 8}),
            ..job("type: parallel\n")
        };
        let provisioned = [SizeAt {
            size: "STANDARD_NC6s_v3".to_owned(),
            path: "pipeline.py".to_owned(),
            line: 8,
            compute: None,
        }];
        assert!(node_size(&call("cpu-cluster"), &[], &provisioned).is_none());
        let mut variable = call("x");
        variable
            .json
            .as_object_mut()
            .unwrap()
            .remove("compute_target");
        assert_eq!(node_size(&variable, &[], &provisioned).unwrap().line, 8);
    }

    #[test]
    fn serverless_jobs_name_their_size() {
        let j = job(
            "type: parallel\nresources:\n  instance_type: Standard_NC24ads_A100_v4\n  instance_count: 2\nmax_concurrency_per_instance: 2\n",
        );
        let size = node_size(&j, &[], &[]).unwrap();
        assert_eq!(size.line, 3);
        let c = processes_exceed_gpus(&j, &size).unwrap();
        assert_eq!(c.facts["gpus"], "1");
        assert!(!c.facts.contains_key("compute"));
    }
}
