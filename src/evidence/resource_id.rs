//! An Azure Resource Manager id (`/subscriptions/S/resourceGroups/G/providers/
//! Microsoft.X/type/name/subtype/name`) read in one place: the names it carries, its
//! resource type, the value after a segment, its last name. Segment names compare
//! without regard to case, as ARM treats them.

/// A borrowed ARM id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ResourceId<'a> {
    text: &'a str,
}

impl<'a> ResourceId<'a> {
    /// The id as written; an `azureml:` prefix (as az ml prints some ids) is taken off.
    pub(crate) fn new(text: &'a str) -> ResourceId<'a> {
        ResourceId {
            text: text.strip_prefix("azureml:").unwrap_or(text),
        }
    }

    fn segments(&self) -> impl Iterator<Item = &'a str> + 'a {
        self.text.trim_matches('/').split('/')
    }

    /// The value after the first segment named `segment` (`resourceGroups` → `G`).
    pub(crate) fn value_of(&self, segment: &str) -> Option<&'a str> {
        let parts: Vec<&str> = self.text.split('/').collect();
        parts
            .windows(2)
            .find(|w| w[0].eq_ignore_ascii_case(segment))
            .map(|w| w[1])
    }

    /// The last name of the id (`…/registries/acr1` → `acr1`), if it has one.
    pub(crate) fn name(&self) -> Option<&'a str> {
        self.text
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .filter(|s| !s.is_empty())
    }

    /// Every `(segment, value)` pair from the start, in order.
    pub(crate) fn pairs(&self) -> Vec<(&'a str, &'a str)> {
        let parts: Vec<&str> = self.segments().collect();
        parts
            .chunks(2)
            .filter_map(|p| match p {
                [segment, value] => Some((*segment, *value)),
                _ => None,
            })
            .collect()
    }

    /// The names commands are filled with, by placeholder: `subscription`, `group`,
    /// `workspace`, `endpoint`, `deployment`, `vault`, `registry`, …
    pub(crate) fn names(&self) -> Vec<(&'static str, &'a str)> {
        self.pairs()
            .into_iter()
            .filter_map(|(segment, value)| {
                let name = match segment.to_ascii_lowercase().as_str() {
                    "subscriptions" => "subscription",
                    "resourcegroups" => "group",
                    "workspaces" => "workspace",
                    "onlineendpoints" => "endpoint",
                    "deployments" => "deployment",
                    "vaults" => "vault",
                    "registries" => "registry",
                    "storageaccounts" => "storage_account",
                    "privateendpointconnections" => "connection",
                    "privatednszones" => "dns_zone",
                    "computes" => "compute",
                    _ => return None,
                };
                Some((name, value))
            })
            .collect()
    }

    /// The resource type: `Microsoft.X/type/subtype`.
    pub(crate) fn arm_type(&self) -> Option<String> {
        let parts: Vec<&str> = self.segments().collect();
        let at = parts
            .iter()
            .rposition(|p| p.eq_ignore_ascii_case("providers"))?;
        let rest = &parts[at + 1..];
        let (namespace, types) = rest.split_first()?;
        if types.is_empty() {
            return None;
        }
        let mut t = (*namespace).to_owned();
        for pair in types.chunks(2) {
            t.push('/');
            t.push_str(pair[0]);
        }
        Some(t)
    }
}

#[cfg(test)]
mod tests {
    use super::ResourceId;

    const DEPLOYMENT: &str = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws/onlineEndpoints/ep/deployments/blue";

    #[test]
    fn names_type_and_values() {
        let id = ResourceId::new(DEPLOYMENT);
        assert_eq!(
            id.names(),
            [
                ("subscription", "s"),
                ("group", "rg"),
                ("workspace", "ws"),
                ("endpoint", "ep"),
                ("deployment", "blue")
            ]
        );
        assert_eq!(
            id.arm_type().as_deref(),
            Some("Microsoft.MachineLearningServices/workspaces/onlineEndpoints/deployments")
        );
        assert_eq!(id.value_of("ONLINEENDPOINTS"), Some("ep"));
        assert_eq!(id.name(), Some("blue"));
        assert_eq!(ResourceId::new("/subscriptions/s/").name(), Some("s"));
        assert_eq!(ResourceId::new("/subscriptions/s").arm_type(), None);
        assert_eq!(
            ResourceId::new("azureml:/subscriptions/s/resourceGroups/rg")
                .value_of("resourcegroups"),
            Some("rg")
        );
    }
}
