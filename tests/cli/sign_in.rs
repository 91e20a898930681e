//! Where and as whom live commands sign in: the az CLI credential asks for the token of
//! the subscription's own tenant (`azureProfile.json` lists it; `--tenant` overrides),
//! as `az account get-access-token --tenant` does; the service principal of a sovereign
//! cloud signs in at that cloud's authority host. The az CLI here is a script that
//! answers as `az account get-access-token -o json` does (azure_identity's
//! `CliTokenResponse`: `accessToken`, `expires_on`) and logs its arguments; the
//! authority is seen through an HTTPS proxy on 127.0.0.1 that records the host each
//! `CONNECT` asks for and refuses it, so no request leaves this machine.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::sync::{Arc, Mutex};

use super::fake_azure::{Answer, FakeAzure, Request, TOKEN};
use super::{Run, Sandbox};

const HOME_TENANT: &str = "11111111-aaaa-4aaa-8aaa-111111111111";
const OTHER_TENANT: &str = "22222222-bbbb-4bbb-8bbb-222222222222";
const HOME_SUB: &str = "0000aaaa-0000-4000-8000-00000000aaaa";
const OTHER_SUB: &str = "0000bbbb-0000-4000-8000-00000000bbbb";

/// A sandbox whose az CLI is the logging script and whose profile holds a subscription
/// in each of two tenants.
fn with_az(fake: &FakeAzure, name: &str) -> (Sandbox, std::path::PathBuf) {
    let sb = fake.sandbox(name, "1");
    let log = sb.work().join("az-args.log");
    let script = sb.write(
        "bin/az",
        &format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\nprintf '%s\\n' '{{\"accessToken\": \"{TOKEN}\", \"expiresOn\": \"2099-01-01 00:00:00.000000\", \"expires_on\": 4070908800, \"subscription\": \"{HOME_SUB}\", \"tenant\": \"{HOME_TENANT}\", \"tokenType\": \"Bearer\"}}'\n",
            log.display()
        ),
    );
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    sb.write(
        "home/.azure/azureProfile.json",
        &format!(
            "\u{feff}{{\"subscriptions\": [\
             {{\"id\": \"{HOME_SUB}\", \"name\": \"Home\", \"isDefault\": true, \"tenantId\": \"{HOME_TENANT}\", \"environmentName\": \"AzureCloud\"}},\
             {{\"id\": \"{OTHER_SUB}\", \"name\": \"Partner\", \"isDefault\": false, \"tenantId\": \"{OTHER_TENANT}\", \"environmentName\": \"AzureCloud\"}}]}}"
        ),
    );
    let path = format!(
        "{}:{}",
        script.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (sb.env("PATH", &path), log)
}

fn logs(sb: &Sandbox, more: &[&str]) -> Run {
    let mut args = vec![
        "logs", "-e", "ep1", "-n", "blue", "-g", "rg1", "-w", "ws1", "--auth", "cli", "--debug",
    ];
    args.extend_from_slice(more);
    Run::from(sb.command(&args).output().unwrap())
}

fn not_found() -> FakeAzure {
    FakeAzure::start(|_: &Request, _| {
        Answer::json(
            404,
            r#"{"error": {"code": "ResourceNotFound", "message": "The Resource was not found."}}"#,
        )
    })
}

#[test]
fn a_subscription_of_another_tenant_signs_in_to_that_tenant() {
    let fake = not_found();
    let (sb, log) = with_az(&fake, "tenant-profile");
    let run = logs(&sb, &["--subscription", OTHER_SUB]);
    let args = std::fs::read_to_string(&log).unwrap();
    assert!(
        args.contains(&format!("account get-access-token -o json --scope https://management.azure.com/.default --tenant {OTHER_TENANT}")),
        "{args}"
    );
    assert!(
        run.stderr
            .contains(&format!("tenant = {OTHER_TENANT} (from")),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(&format!(
            "signing in with the az CLI sign-in to tenant {OTHER_TENANT}; authority https://login.microsoftonline.com"
        )),
        "{}",
        run.stderr
    );
    // The token reached Resource Manager: the 404 is the fake's answer, not a sign-in failure.
    assert!(
        fake.arm_requests()
            .iter()
            .any(|r| r.target.contains(OTHER_SUB)),
        "{}",
        run.stderr
    );

    // --tenant wins over the profile.
    std::fs::remove_file(&log).unwrap();
    logs(
        &sb,
        &[
            "--subscription",
            OTHER_SUB,
            "--tenant",
            "contoso.onmicrosoft.com",
        ],
    );
    let args = std::fs::read_to_string(&log).unwrap();
    assert!(args.contains("--tenant contoso.onmicrosoft.com"), "{args}");

    // A subscription the profile does not list is asked for by id; az finds its tenant.
    std::fs::remove_file(&log).unwrap();
    let unknown = "0000cccc-0000-4000-8000-00000000cccc";
    logs(&sb, &["--subscription", unknown]);
    let args = std::fs::read_to_string(&log).unwrap();
    assert!(
        args.contains(&format!("--subscription {unknown}")),
        "{args}"
    );
    assert!(!args.contains("--tenant"), "{args}");

    // A tenant a shell would read is refused before anything runs.
    let bad = logs(&sb, &["--tenant", "t;id"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("--tenant"), "{}", bad.stderr);
}

/// An HTTPS proxy on 127.0.0.1 that records the `CONNECT` targets and refuses them.
fn refusing_proxy() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
                head.push(byte[0]);
            }
            let text = String::from_utf8_lossy(&head);
            log.lock()
                .unwrap()
                .push(text.lines().next().unwrap_or("").to_owned());
            let _ = stream.write_all(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
        }
    });
    (url, seen)
}

#[test]
fn a_sovereign_cloud_signs_in_at_its_own_authority() {
    let fake = not_found();
    for (cloud, authority_env, host) in [
        ("AzureChinaCloud", None, "login.chinacloudapi.cn"),
        ("AzureUSGovernment", None, "login.microsoftonline.us"),
        (
            "AzureChinaCloud",
            Some("https://login.partner.example"),
            "login.partner.example",
        ),
    ] {
        let (proxy, seen) = refusing_proxy();
        let mut sb = fake
            .sandbox(&format!("authority-{host}"), "1")
            .env("AZURE_CLIENT_ID", "00000000-1111-4111-8111-000000000001")
            .env("AZURE_TENANT_ID", HOME_TENANT)
            .env("AZURE_CLIENT_SECRET", "not-a-real-secret")
            .env("HTTPS_PROXY", &proxy)
            .env("https_proxy", &proxy)
            // The credential retries a refused token request; the run's bound ends it
            // (long enough that a machine busy with the rest of the suite still gets the
            // first request out to the proxy).
            .env("AMLDOCTOR_HTTP_TIMEOUT", "8");
        if let Some(a) = authority_env {
            sb = sb.env("AZURE_AUTHORITY_HOST", a);
        }
        let run = Run::from(
            sb.command(&[
                "logs",
                "-e",
                "ep1",
                "-n",
                "blue",
                "--subscription",
                HOME_SUB,
                "-g",
                "rg1",
                "-w",
                "ws1",
                "--cloud",
                cloud,
                "--auth",
                "env",
                "--debug",
            ])
            .output()
            .unwrap(),
        );
        assert_eq!(run.code, 3, "{}", run.stderr);
        assert!(
            run.stderr
                .contains("error: signing in with a service principal")
                || run.stderr.contains("error: cannot sign in to Azure"),
            "{}",
            run.stderr
        );
        assert!(
            run.stderr.contains(&format!("authority https://{host}")),
            "{}",
            run.stderr
        );
        let targets = seen.lock().unwrap().clone();
        assert!(
            !targets.is_empty()
                && targets
                    .iter()
                    .all(|t| t.starts_with(&format!("CONNECT {host}:443 "))),
            "{cloud}: {targets:?}"
        );
        assert!(!run.stderr.contains("not-a-real-secret"), "{}", run.stderr);
    }
}

/// A token of the wrong tenant is refused by Resource Manager with
/// `InvalidAuthenticationTokenTenant`, whose message names the subscription's tenant (the
/// wording users paste from `az` and the SDKs): the hint says which `--tenant` to pass.
#[test]
fn a_token_of_another_tenant_is_told_which_tenant_to_ask() {
    let fake = FakeAzure::start(|_: &Request, _| {
        Answer::json(
            401,
            &format!(
                r#"{{"error": {{"code": "InvalidAuthenticationTokenTenant", "message": "The access token is from the wrong issuer 'https://sts.windows.net/{HOME_TENANT}/'. It must match the tenant 'https://sts.windows.net/{OTHER_TENANT}/' associated with this subscription. Please use the authority (URL) 'https://login.windows.net/{OTHER_TENANT}' to get the token. Note, if the subscription is transferred to another tenant there is no impact to the services, but information about new tenant could take time to propagate (up to an hour). If you just transferred your subscription and see this error message, please try back later."}}}}"#
            ),
        )
        .with_header("www-authenticate", "Bearer authorization_uri=\"https://login.windows.net/\", error=\"invalid_token\", error_description=\"The access token is from the wrong issuer.\"")
    });
    let (sb, _) = with_az(&fake, "tenant-mismatch");
    // The profile's default subscription, asked for with the home tenant's token.
    let run = logs(&sb, &["--subscription", HOME_SUB]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr
            .contains(&format!("hint: the token is from another tenant than the subscription's: run again with --tenant {OTHER_TENANT}")),
        "{}",
        run.stderr
    );
}

/// Under Continuous Access Evaluation Resource Manager refuses a revoked token, or one
/// a Conditional Access policy wants more of (MFA), with a claims challenge: a 401 whose
/// `WWW-Authenticate` carries `error="insufficient_claims"` and base64 `claims` (the
/// shape azure-mgmt-core's `ARMChallengeAuthenticationPolicy` handles). The CLI credential
/// cannot answer it itself: the hint gives the `az login --claims-challenge` to run.
#[test]
fn a_claims_challenge_tells_how_to_sign_in_again() {
    const CLAIMS: &str =
        "eyJhY2Nlc3NfdG9rZW4iOnsibmJmIjp7ImVzc2VudGlhbCI6dHJ1ZSwidmFsdWUiOiIxNzk2MDAwMDAwIn19fQ==";
    let fake = FakeAzure::start(|_: &Request, _| {
        Answer::json(
            401,
            r#"{"error": {"code": "InvalidAuthenticationToken", "message": "Continuous access evaluation resulted in challenge with result: InteractionRequired and code: TokenIssuedBeforeRevocationTimestamp"}}"#,
        )
        .with_header(
            "www-authenticate",
            &format!(r#"Bearer authorization_uri="https://login.microsoftonline.com/common/oauth2/authorize", error="insufficient_claims", claims="{CLAIMS}""#),
        )
    });
    let (sb, _) = with_az(&fake, "claims-challenge");
    let run = logs(&sb, &["--subscription", HOME_SUB]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr.contains("TokenIssuedBeforeRevocationTimestamp"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(
            "hint: Conditional Access asks for a new sign-in that meets its claims challenge"
        ) && run.stderr.contains(&format!(
            "run az login --claims-challenge \"{CLAIMS}\" and try again"
        )),
        "{}",
        run.stderr
    );
}
