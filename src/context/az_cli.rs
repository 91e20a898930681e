//! Parsers for the az CLI's own settings, so amldoctor picks up the same defaults as
//! `az ml`: `[defaults] group`/`workspace` and `[cloud] name` from the INI file
//! `config`, and the `isDefault` subscription from `azureProfile.json`.

use std::collections::BTreeMap;

/// An INI file as Python's `configparser` reads it: section → lower-cased key → value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct IniFile {
    sections: BTreeMap<String, BTreeMap<String, String>>,
}

impl IniFile {
    /// Parses configparser syntax: `[section]`, `key = value` or `key: value`, `#`/`;`
    /// comment lines, and indented continuation lines. Errors name the line.
    pub(crate) fn parse(text: &str) -> Result<IniFile, String> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut ini = IniFile::default();
        let mut section: Option<String> = None;
        let mut last_key: Option<String> = None;
        for (index, raw) in text.lines().enumerate() {
            let number = index + 1;
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with(';') {
                continue;
            }
            let indented = raw.starts_with([' ', '\t']);
            if indented && let (Some(s), Some(k)) = (&section, &last_key) {
                // A continuation line extends the previous value, as configparser does.
                if let Some(value) = ini.sections.get_mut(s).and_then(|m| m.get_mut(k)) {
                    value.push('\n');
                    value.push_str(trimmed);
                    continue;
                }
            }
            if let Some(name) = trimmed.strip_prefix('[') {
                let Some(name) = name.strip_suffix(']') else {
                    return Err(format!(
                        "line {number}: section header is missing its closing ']'"
                    ));
                };
                let name = name.trim().to_owned();
                ini.sections.entry(name.clone()).or_default();
                section = Some(name);
                last_key = None;
                continue;
            }
            let Some(at) = trimmed.find(['=', ':']) else {
                return Err(format!(
                    "line {number}: expected '[section]' or 'key = value'"
                ));
            };
            let Some(current) = &section else {
                return Err(format!(
                    "line {number}: 'key = value' appears before any '[section]' header"
                ));
            };
            let key = trimmed[..at].trim().to_lowercase();
            let value = trimmed[at + 1..].trim().to_owned();
            if key.is_empty() {
                return Err(format!(
                    "line {number}: a key is missing before '{}'",
                    &trimmed[at..=at]
                ));
            }
            ini.sections
                .entry(current.clone())
                .or_default()
                .insert(key.clone(), value);
            last_key = Some(key);
        }
        Ok(ini)
    }

    /// The value of `key` in `section`, if present and not empty.
    pub(crate) fn get(&self, section: &str, key: &str) -> Option<&str> {
        self.sections
            .get(section)?
            .get(&key.to_lowercase())
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    }
}

/// The default subscription of `azureProfile.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ProfileSubscription {
    pub id: String,
    pub name: Option<String>,
    pub tenant_id: Option<String>,
    pub environment_name: Option<String>,
}

/// Finds the `"isDefault": true` subscription. The file is written as `utf-8-sig`, so a
/// leading BOM is expected and skipped. A profile without subscriptions (after
/// `az logout`) is normal and yields `None`.
pub(crate) fn default_subscription(text: &str) -> Result<Option<ProfileSubscription>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Ok(None);
    }
    let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        format!(
            "invalid JSON at line {} column {}: {e}",
            e.line(),
            e.column()
        )
    })?;
    let Some(subscriptions) = doc.get("subscriptions") else {
        return Ok(None);
    };
    let Some(list) = subscriptions.as_array() else {
        return Err("'subscriptions' is not a list".to_owned());
    };
    let chosen = list
        .iter()
        .find(|s| s.get("isDefault").and_then(serde_json::Value::as_bool) == Some(true));
    let Some(chosen) = chosen else {
        return Ok(None);
    };
    let field = |k: &str| {
        chosen
            .get(k)
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned)
    };
    let Some(id) = field("id").filter(|id| !id.is_empty()) else {
        return Err("the default subscription has no 'id'".to_owned());
    };
    Ok(Some(ProfileSubscription {
        id,
        name: field("name"),
        tenant_id: field("tenantId"),
        environment_name: field("environmentName"),
    }))
}

/// The `subscriptions` list of `azureProfile.json` (written as `utf-8-sig`), when the
/// file is the JSON it should be.
fn subscriptions(text: &str) -> Option<Vec<serde_json::Value>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut doc: serde_json::Value = serde_json::from_str(text).ok()?;
    match doc.get_mut("subscriptions")?.take() {
        serde_json::Value::Array(list) => Some(list),
        _ => None,
    }
}

/// The id of the subscription called `name` in `azureProfile.json` (as `az account
/// set --subscription NAME` finds it: the name compared without regard to case), when
/// exactly one has that name.
pub(crate) fn subscription_id_named(text: &str, name: &str) -> Option<String> {
    let list = subscriptions(text)?;
    let ids: Vec<&str> = list
        .iter()
        .filter(|s| {
            s.get("name")
                .and_then(serde_json::Value::as_str)
                .is_some_and(|n| n.eq_ignore_ascii_case(name.trim()))
        })
        .filter_map(|s| s.get("id").and_then(serde_json::Value::as_str))
        .collect();
    match ids.as_slice() {
        [one] if !one.is_empty() => Some((*one).to_owned()),
        _ => None,
    }
}

/// The tenant `azureProfile.json` lists for subscription `id` (as the az CLI signs in
/// to it: `az account get-access-token --subscription` asks that tenant).
pub(crate) fn subscription_tenant(text: &str, id: &str) -> Option<String> {
    subscriptions(text)?
        .iter()
        .find(|s| {
            s.get("id")
                .and_then(serde_json::Value::as_str)
                .is_some_and(|i| i.eq_ignore_ascii_case(id.trim()))
        })?
        .get("tenantId")?
        .as_str()
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subscription_has_the_tenant_the_profile_lists() {
        let profile = "\u{feff}{\"subscriptions\": [{\"id\": \"1111\", \"tenantId\": \"t-home\", \"isDefault\": true}, {\"id\": \"2222\", \"tenantId\": \"t-other\"}, {\"id\": \"3333\"}]}";
        assert_eq!(
            subscription_tenant(profile, "2222").as_deref(),
            Some("t-other")
        );
        assert_eq!(
            subscription_tenant(profile, "1111").as_deref(),
            Some("t-home")
        );
        assert_eq!(subscription_tenant(profile, "3333"), None);
        assert_eq!(subscription_tenant(profile, "9999"), None);
    }

    #[test]
    fn subscription_names_resolve_to_their_id() {
        let profile = "\u{feff}{\"subscriptions\": [{\"id\": \"1111\", \"name\": \"ML Prod\"}, {\"id\": \"2222\", \"name\": \"Dev\"}, {\"id\": \"3333\", \"name\": \"Dev\"}]}";
        assert_eq!(
            subscription_id_named(profile, "ml prod").as_deref(),
            Some("1111")
        );
        assert_eq!(
            subscription_id_named(profile, "Dev"),
            None,
            "two subscriptions are called Dev"
        );
        assert_eq!(subscription_id_named(profile, "Other"), None);
        assert_eq!(subscription_id_named("not json", "Dev"), None);
    }

    #[test]
    fn reads_az_configure_output() {
        let ini = IniFile::parse(
            "[core]\noutput = json\n\n[defaults]\ngroup = rg1\nworkspace = ws1\nlocation = eastus\n\n[cloud]\nname = AzureCloud\n",
        )
        .unwrap();
        assert_eq!(ini.get("defaults", "group"), Some("rg1"));
        assert_eq!(ini.get("defaults", "workspace"), Some("ws1"));
        assert_eq!(ini.get("cloud", "name"), Some("AzureCloud"));
        assert_eq!(ini.get("defaults", "missing"), None);
    }

    #[test]
    fn configparser_details() {
        let ini = IniFile::parse(
            "\u{feff}# comment\n; other comment\n[defaults]\nGroup: rg2\nworkspace =\nmulti = a\n  b\n",
        )
        .unwrap();
        assert_eq!(
            ini.get("defaults", "group"),
            Some("rg2"),
            "keys are case-insensitive, ':' separates"
        );
        assert_eq!(ini.get("defaults", "workspace"), None, "empty means unset");
        assert_eq!(ini.get("defaults", "multi"), Some("a\nb"));
    }

    #[test]
    fn malformed_ini_names_the_line() {
        assert_eq!(
            IniFile::parse("[defaults\ngroup = x\n").unwrap_err(),
            "line 1: section header is missing its closing ']'"
        );
        assert_eq!(
            IniFile::parse("[defaults]\njust words\n").unwrap_err(),
            "line 2: expected '[section]' or 'key = value'"
        );
        assert_eq!(
            IniFile::parse("group = x\n").unwrap_err(),
            "line 1: 'key = value' appears before any '[section]' header"
        );
    }

    const PROFILE: &str = "\u{feff}{\"installationId\": \"x\", \"subscriptions\": [
        {\"id\": \"99999999-2222-3333-4444-555555555555\", \"name\": \"Other\", \"isDefault\": false, \"tenantId\": \"t0\"},
        {\"id\": \"11111111-2222-3333-4444-555555555555\", \"name\": \"My Sub\", \"state\": \"Enabled\",
         \"user\": {\"name\": \"me@contoso.com\", \"type\": \"user\"}, \"isDefault\": true,
         \"tenantId\": \"aaaaaaaa-0000-0000-0000-000000000000\", \"environmentName\": \"AzureCloud\",
         \"homeTenantId\": \"aaaaaaaa-0000-0000-0000-000000000000\", \"managedByTenants\": []}]}";

    #[test]
    fn profile_with_bom() {
        let sub = default_subscription(PROFILE).unwrap().unwrap();
        assert_eq!(sub.id, "11111111-2222-3333-4444-555555555555");
        assert_eq!(sub.name.as_deref(), Some("My Sub"));
        assert_eq!(sub.environment_name.as_deref(), Some("AzureCloud"));
    }

    #[test]
    fn profile_without_bom_or_default() {
        let no_bom = PROFILE.trim_start_matches('\u{feff}');
        assert!(default_subscription(no_bom).unwrap().is_some());
        assert_eq!(
            default_subscription("{\"subscriptions\": []}").unwrap(),
            None
        );
        assert_eq!(default_subscription("{}").unwrap(), None);
        assert_eq!(default_subscription("\u{feff}").unwrap(), None);
    }

    #[test]
    fn malformed_profile() {
        let err = default_subscription("\u{feff}{\"subscriptions\": [").unwrap_err();
        assert!(err.starts_with("invalid JSON at line 1"), "{err}");
        assert_eq!(
            default_subscription("{\"subscriptions\": 3}").unwrap_err(),
            "'subscriptions' is not a list"
        );
    }
}
