//! Names in printed commands, one test per source: flags (a subscription name resolved
//! through the az profile), the project file, values captured from the logs, and what
//! stays unknown (shown as `<name>`, with the flag that fills it said once).

use super::{Sandbox, fixture};

const STORAGE_403: &str = "2024-05-14 08:21:05,331 ERROR storage-initializer - Failed to download blob https://mlwsprod7f3a.blob.core.windows.net/azureml/ExperimentRun/dcid.x/outputs/model/model.pkl\nazure.core.exceptions.HttpResponseError: This request is not authorized to perform this operation using this permission.\nErrorCode:AuthorizationPermissionMismatch\n";

fn commands(v: &serde_json::Value) -> Vec<String> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["commands"].as_array().unwrap().clone())
        .map(|c| c.as_str().unwrap().to_owned())
        .collect()
}

fn missing(v: &serde_json::Value) -> Vec<String> {
    v["missing_names"].as_array().map_or_else(Vec::new, |a| {
        a.iter()
            .map(|m| m["placeholder"].as_str().unwrap().to_owned())
            .collect()
    })
}

#[test]
fn flags_fill_commands_and_a_subscription_name_becomes_its_id() {
    let sb = Sandbox::new("names-flags");
    sb.write(
        "home/.azure/azureProfile.json",
        "\u{feff}{\"subscriptions\": [{\"id\": \"3f2a9c1e-7b4d-4e8f-9a0b-6c5d4e3f2a1b\", \"name\": \"ML Prod\", \"isDefault\": false}]}",
    );
    let log = sb.write("work/storage.log", STORAGE_403);
    let v = sb.diagnose_json(&[
        log.to_str().unwrap(),
        "--subscription",
        "ML Prod",
        "-g",
        "rg-flag",
        "-w",
        "ws-flag",
    ]);
    let all = commands(&v).join("\n");
    // The storage account is a fact of the log; the rest comes from the flags.
    // The account's own id is the scope, not a path built with the workspace's group.
    assert!(
        all.contains("--scope $(az storage account show -n mlwsprod7f3a --subscription 3f2a9c1e-7b4d-4e8f-9a0b-6c5d4e3f2a1b --query id -o tsv)"),
        "{all}"
    );
    assert!(all.contains("-g rg-flag -w ws-flag"), "{all}");
    assert!(!all.contains('{'), "no template braces left: {all}");
    // Then the value the rule's author left to the user, said once with its hint.
    assert_eq!(
        missing(&v),
        ["<endpoint>", "<deployment>", "<identity-client-id>"]
    );
}

#[test]
fn the_project_file_names_the_endpoint_and_deployment() {
    let sb = Sandbox::new("names-project");
    sb.write(
        "work/.amldoctor.yaml",
        "resource-group: rg-proj\nworkspace: ws-proj\nendpoint: churn-ep\ndeployment: blue\n",
    );
    let log = sb.write("work/storage.log", STORAGE_403);
    let v = sb.diagnose_json(&[log.to_str().unwrap()]);
    let all = commands(&v).join("\n");
    assert!(
        all.contains("az ml online-deployment get-logs -e churn-ep -n blue -g rg-proj -w ws-proj"),
        "{all}"
    );
    assert!(
        all.contains("az ml online-endpoint show -n churn-ep"),
        "{all}"
    );
    // The subscription is all that is left to name (no profile in this sandbox),
    // besides the principal the rule's author leaves to the user.
    assert_eq!(missing(&v), ["<subscription>", "<identity-client-id>"]);
}

#[test]
fn a_request_url_in_the_log_names_group_workspace_and_endpoint() {
    // The names are on a debug line no rule quotes; the quota error is elsewhere.
    let sb = Sandbox::new("names-captured");
    let v = sb.diagnose_json(&[&fixture("logs/cli-out-of-quota.txt")]);
    let all = commands(&v).join("\n");
    assert!(
        all.contains("az ml online-deployment list --endpoint-name churn-endpoint -g rg-ml-prod -w mlw-churn-prod"),
        "{all}"
    );
    assert!(missing(&v).is_empty(), "{:?}", missing(&v));
    // The pod and namespace of a kubectl paste fill the kubectl commands.
    let v = sb.diagnose_json(&[&fixture("logs/kubectl-describe-pod-oomkilled.txt")]);
    let all = commands(&v).join("\n");
    assert!(
        all.contains(
            "kubectl logs green-fraud-k8s-7f9c8d6b5-x2kqp -n azureml-workloads --previous"
        ),
        "{all}"
    );
    // A ParallelRunStep command names the tree the user passed, not a relative logs/.
    let tree = fixture("prs/failed-job");
    let v = sb.diagnose_json(&[&tree]);
    let all = commands(&v).join("\n");
    assert!(
        all.contains(&format!("grep -rh \"failed for\" {tree}/logs/user/error/")),
        "{all}"
    );
    assert!(
        !all.contains("<logs>"),
        "every tree command names the tree: {all}"
    );
}

#[test]
fn unknown_names_show_one_way_and_the_report_says_which_flag_fills_them() {
    let sb = Sandbox::new("names-unknown");
    let log = sb.write("work/storage.log", STORAGE_403);
    let run = sb.run(&["diagnose", log.to_str().unwrap(), "--fail-on", "never"]);
    run.ok();
    assert!(
        run.stdout
            .contains("get-logs -e <endpoint> -n <deployment> -g <group> -w <workspace>"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("{endpoint}"), "{}", run.stdout);
    let block = run
        .stdout
        .split("Fill in before running the commands above:")
        .nth(1)
        .expect("the fill-in list");
    assert_eq!(run.stdout.matches("Fill in before running").count(), 1);
    for line in [
        "<endpoint>",
        "az ml online-endpoint list -g GROUP -w WORKSPACE -o table",
        "<deployment>",
        "`deployment:` in .amldoctor.yaml",
        "<group>",
        "-g GROUP",
        "<workspace>",
        "-w WORKSPACE",
    ] {
        assert!(crate::flat(block).contains(line), "{line}: {block}");
    }
}

#[test]
fn names_on_a_pasted_az_ml_line_a_connection_string_and_a_model_path_are_used() {
    let sb = Sandbox::new("names-pasted");
    // A CI log: the failing az command as the user typed it, then the error.
    let v = sb.diagnose_json(&[&fixture("pasted/mixed-cli-events-container.txt")]);
    let all = commands(&v).join("\n");
    assert!(
        all.contains("az ml online-deployment get-logs -e credit-risk-ep -n blue -g rg-credit-ml -w mlw-credit"),
        "{all}"
    );
    for name in ["<endpoint>", "<deployment>", "<group>", "<workspace>"] {
        assert!(!missing(&v).contains(&name.to_owned()), "{name}");
    }
    // The model folder the server printed names the registered model and version.
    let v = sb.diagnose_json(&[&fixture("logs/server-0.7.7-init-failure.log")]);
    let all = commands(&v).join("\n");
    assert!(
        all.contains("az ml model download --name credit-model --version 3"),
        "{all}"
    );
    // A placeholder pasted in the user's own command is not taken for a name.
    let log = sb.write(
        "work/ci.log",
        "$ az ml online-deployment create -n MY_DEPLOYMENT -e <endpoint> -f d.yml\n\
         ERROR: (None) BadArgument: Unable to download user model from https://st01.blob.core.windows.net/c/model.pkl.\n",
    );
    let v = sb.diagnose_json(&[log.to_str().unwrap()]);
    let all = commands(&v).join("\n");
    assert!(!all.contains("MY_DEPLOYMENT"), "{all}");
    assert!(all.contains("-n <deployment>"), "{all}");
}

#[test]
fn author_placeholders_are_listed_with_a_hint() {
    let sb = Sandbox::new("names-authored");
    let run = sb.run(&[
        "diagnose",
        &fixture("logs/cli-k8s-unschedulable.txt"),
        "--fail-on",
        "never",
    ]);
    let out = &run.ok().stdout;
    let block = out
        .split("Fill in before running the commands above:")
        .nth(1)
        .expect("the fill-in list");
    for (placeholder, hint) in [
        ("<node-name>", "kubectl get nodes"),
        ("<cluster-name>", "az ml compute show -n COMPUTE"),
    ] {
        let line = block
            .lines()
            .find(|l| l.trim_start().starts_with(placeholder))
            .unwrap_or_else(|| panic!("{placeholder} listed: {block}"));
        assert!(crate::flat(block).contains(hint), "{line}");
    }
}

#[test]
fn a_role_is_granted_to_the_endpoint_identity_never_the_user() {
    let sb = Sandbox::new("names-principal");
    let log = sb.write("work/storage.log", STORAGE_403);
    let run = sb.run(&[log.to_str().unwrap()].iter().fold(
        vec!["diagnose", "--fail-on", "never"],
        |mut a, p| {
            a.push(p);
            a
        },
    ));
    let out = crate::flat(&run.ok().stdout);
    assert!(out.contains("--assignee <identity-client-id>"), "{out}");
    assert!(out.contains("--query identity"), "{out}");
    assert!(!out.contains("signed-in-user"), "{out}");
    // In markdown, a placeholder in prose is code, not an HTML tag a renderer drops.
    let md = sb.run(&[
        "diagnose",
        log.to_str().unwrap(),
        "-o",
        "markdown",
        "--fail-on",
        "never",
    ]);
    assert!(
        md.ok().stdout.contains("(`<storage-account>`)")
            || !md.stdout.contains("(<storage-account>)"),
        "{}",
        md.stdout
    );
    assert!(!md.stdout.contains(" <storage-account> "), "{}", md.stdout);
}

#[test]
fn the_build_log_command_takes_the_account_container_and_path_the_message_names() {
    let sb = super::Sandbox::new("names-build-log");
    sb.write(
        "work/create.txt",
        "azure.core.exceptions.HttpResponseError: (None) ImageBuildFailure: Error with docker image build; see the build log under the storage account 'mlwsstore01' in the container 'buildlogs' at the path 'ImageLogs/0a1b2c3d/build.log'.\n",
    );
    let report = sb.diagnose_json(&["create.txt"]);
    let f = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "image-build-failure")
        .unwrap();
    assert!(
        f["commands"].as_array().unwrap().iter().any(|c| c
            == "az storage blob download --account-name mlwsstore01 --container-name buildlogs --name ImageLogs/0a1b2c3d/build.log --file build.log --auth-mode login"),
        "{f}"
    );
}
