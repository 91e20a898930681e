//! az CLI defaults, AMLDOCTOR_* variables and .amldoctor.yaml as the binary sees them.

use crate::Sandbox;

const PROFILE: &str = "\u{feff}{\"installationId\": \"abc\", \"subscriptions\": [{\"id\": \"11111111-2222-3333-4444-555555555555\", \"name\": \"ML Prod\", \"state\": \"Enabled\", \"user\": {\"name\": \"me@contoso.com\", \"type\": \"user\"}, \"isDefault\": true, \"tenantId\": \"aaaaaaaa-0000-0000-0000-000000000000\", \"environmentName\": \"AzureCloud\"}]}";

fn debug_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("debug: "))
        .collect()
}

#[test]
fn az_cli_defaults_are_picked_up_and_shown_with_debug() {
    let sb = Sandbox::new("ctx-az");
    sb.write(
        "home/.azure/config",
        "[defaults]\ngroup = rg-ml\nworkspace = ws-ml\n\n[cloud]\nname = AzureCloud\n",
    );
    sb.write("home/.azure/azureProfile.json", PROFILE);
    let run = sb.run(&["replicas", "--rps", "20", "--debug", "-o", "json"]);
    let v = run.ok().json();
    assert_eq!(
        v["next_command"],
        "az ml online-deployment update --name <deployment> --endpoint-name <endpoint> --set instance_count=286 request_settings.request_timeout_ms=13000 -g rg-ml -w ws-ml"
    );
    let debug = debug_lines(&run.stderr).join("\n");
    let home = sb.home().join(".azure");
    assert!(
        debug.contains(&format!(
            "subscription = 11111111-2222-3333-4444-555555555555 (from default subscription in {})",
            home.join("azureProfile.json").display()
        )),
        "{debug}"
    );
    assert!(
        debug.contains(&format!(
            "resource group = rg-ml (from [defaults] group in {})",
            home.join("config").display()
        )),
        "{debug}"
    );
    assert!(
        debug.contains("cloud = AzureCloud (from [cloud] name in"),
        "{debug}"
    );
    // Without --debug nothing is printed on stderr.
    assert_eq!(sb.run(&["replicas", "--rps", "20"]).ok().stderr, "");
}

#[test]
fn azure_config_dir_and_az_variables() {
    let sb = Sandbox::new("ctx-azdir").env("AZURE_DEFAULTS_GROUP", "rg-from-var");
    let dir = sb.root.join("elsewhere");
    sb.write(
        "elsewhere/config",
        "[defaults]\ngroup = rg-file\nworkspace = ws-file\n",
    );
    let sb = sb.env("AZURE_CONFIG_DIR", dir.to_str().unwrap());
    let run = sb.run(&["replicas", "--rps", "1", "--debug"]);
    let debug = debug_lines(&run.ok().stderr).join("\n");
    assert!(
        debug.contains("resource group = rg-from-var (from $AZURE_DEFAULTS_GROUP)"),
        "{debug}"
    );
    assert!(
        debug.contains("workspace = ws-file (from [defaults] workspace in"),
        "{debug}"
    );
}

#[test]
fn flags_beat_amldoctor_variables_which_beat_az() {
    let sb = Sandbox::new("ctx-precedence")
        .env("AMLDOCTOR_WORKSPACE", "ws-var")
        .env("AMLDOCTOR_RESOURCE_GROUP", "rg-var");
    sb.write(
        "home/.azure/config",
        "[defaults]\ngroup = rg-az\nworkspace = ws-az\n",
    );
    let run = sb.run(&["replicas", "--rps", "1", "--debug", "-g", "rg-flag"]);
    let debug = debug_lines(&run.ok().stderr).join("\n");
    assert!(
        debug.contains("resource group = rg-flag (from --resource-group)"),
        "{debug}"
    );
    assert!(
        debug.contains("workspace = ws-var (from $AMLDOCTOR_WORKSPACE)"),
        "{debug}"
    );
}

#[test]
fn missing_az_files_are_normal() {
    let sb = Sandbox::new("ctx-none");
    std::fs::remove_dir_all(sb.home().join(".azure")).unwrap();
    let run = sb.run(&["replicas", "--rps", "1", "--debug"]);
    let debug = debug_lines(&run.ok().stderr).join("\n");
    assert!(debug.contains("subscription is not set"), "{debug}");
    assert!(
        debug.contains("cloud = AzureCloud (from default)"),
        "{debug}"
    );
}

#[test]
fn malformed_az_files_are_clear_errors() {
    // A command that calls Azure stops on a broken az file, naming file and line.
    let sb = Sandbox::new("ctx-bad-config");
    sb.write("home/.azure/config", "[defaults\ngroup = rg\n");
    sb.run(&["replicas", "--rps", "1", "-e", "ep1", "-n", "blue"])
        .usage_error(&[
            ".azure/config: line 1: section header is missing its closing ']'",
            "hint: ",
        ]);
    // Offline work goes on with a warning, without the az defaults.
    let run = sb.run(&["replicas", "--rps", "1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("warning: ")
            && run
                .stderr
                .contains("section header is missing its closing ']'"),
        "{}",
        run.stderr
    );

    let sb = Sandbox::new("ctx-bad-profile");
    sb.write(
        "home/.azure/azureProfile.json",
        "\u{feff}{\"subscriptions\": [",
    );
    sb.run(&["logs", "-e", "ep1"])
        .usage_error(&["azureProfile.json: invalid JSON at line 1", "az login"]);
    let run = sb.run(&["explain", "OutOfQuota"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("warning: ") && run.stderr.contains("azureProfile.json: invalid JSON"),
        "{}",
        run.stderr
    );
}

#[test]
fn invalid_variables_name_the_variable() {
    let sb = Sandbox::new("ctx-bad-var").env("AMLDOCTOR_OUTPUT", "xml");
    sb.run(&["replicas", "--rps", "1"]).usage_error(&[
        "invalid value 'xml' from $AMLDOCTOR_OUTPUT: expected one of: table, json, yaml",
    ]);
    let sb = Sandbox::new("ctx-bad-ws").env("AMLDOCTOR_WORKSPACE", "w");
    sb.run(&["replicas", "--rps", "1"])
        .usage_error(&["$AMLDOCTOR_WORKSPACE", "3 to 33"]);
}

#[test]
fn project_file_in_a_parent_directory() {
    let sb = Sandbox::new("ctx-project");
    sb.write(
        "work/.amldoctor.yaml",
        "# team defaults\noutput: json\nresource-group: rg-team\nworkspace: ws-team\n",
    );
    let nested = sb.work().join("services/churn");
    std::fs::create_dir_all(&nested).unwrap();
    let run = crate::Run::from(
        sb.command_in(&nested, &["replicas", "--rps", "20"])
            .output()
            .unwrap(),
    );
    let v = run.ok().json();
    assert!(
        v["next_command"]
            .as_str()
            .unwrap()
            .ends_with("-g rg-team -w ws-team")
    );
    // A flag still wins over the project file.
    let run = crate::Run::from(
        sb.command_in(&nested, &["replicas", "--rps", "20", "-o", "table"])
            .output()
            .unwrap(),
    );
    assert!(run.ok().stdout.starts_with("286 instances needed"));
}

#[test]
fn project_file_unknown_key_names_key_and_file() {
    let sb = Sandbox::new("ctx-project-bad");
    sb.write(
        "work/.amldoctor.yaml",
        "workspace: ws-team\nresource_group: rg\n",
    );
    sb.run(&["replicas", "--rps", "20"]).usage_error(&[
        ".amldoctor.yaml: unknown key 'resource_group' at line 2 column 1 (expected one of: subscription, resource-group, workspace, endpoint, deployment, cloud, output, rules, suppressions)",
    ]);
}
