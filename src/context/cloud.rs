//! The Azure clouds amldoctor knows, named as the az CLI names them.

use std::fmt;

// The variants are named exactly as the az CLI names the clouds.
#[allow(clippy::enum_variant_names)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cloud {
    AzureCloud,
    AzureChinaCloud,
    AzureUSGovernment,
    /// A cloud registered with `az cloud register` (Azure Stack and the like). It is
    /// accepted from the az CLI's own config so offline commands keep working; commands
    /// that call Azure reject it.
    Custom(String),
}

pub(crate) const KNOWN: &str = "AzureCloud, AzureChinaCloud or AzureUSGovernment";

impl Cloud {
    /// Parses a known cloud name, case-insensitively.
    pub fn parse_known(name: &str) -> Result<Cloud, String> {
        match name.trim().to_ascii_lowercase().as_str() {
            "azurecloud" => Ok(Cloud::AzureCloud),
            "azurechinacloud" => Ok(Cloud::AzureChinaCloud),
            "azureusgovernment" => Ok(Cloud::AzureUSGovernment),
            _ => Err(format!("expected {KNOWN}")),
        }
    }

    /// The Resource Manager endpoint and its token scope; `None` for a custom cloud,
    /// whose endpoints amldoctor does not know.
    pub fn arm(&self) -> Option<(&'static str, &'static str)> {
        Some(match self {
            Cloud::AzureCloud => (
                "https://management.azure.com",
                "https://management.azure.com/.default",
            ),
            Cloud::AzureChinaCloud => (
                "https://management.chinacloudapi.cn",
                "https://management.chinacloudapi.cn/.default",
            ),
            Cloud::AzureUSGovernment => (
                "https://management.usgovcloudapi.net",
                "https://management.usgovcloudapi.net/.default",
            ),
            Cloud::Custom(_) => return None,
        })
    }

    /// Where its identities sign in (the Entra authority host); `None` for a custom cloud.
    pub fn authority_host(&self) -> Option<&'static str> {
        Some(match self {
            Cloud::AzureCloud => "https://login.microsoftonline.com",
            Cloud::AzureChinaCloud => "https://login.chinacloudapi.cn",
            Cloud::AzureUSGovernment => "https://login.microsoftonline.us",
            Cloud::Custom(_) => return None,
        })
    }

    /// The token scope of the AML data plane (run history, artifacts).
    pub fn ml_scope(&self) -> Option<&'static str> {
        Some(match self {
            Cloud::AzureCloud => "https://ml.azure.com/.default",
            Cloud::AzureChinaCloud => "https://ml.azure.cn/.default",
            Cloud::AzureUSGovernment => "https://ml.azure.us/.default",
            Cloud::Custom(_) => return None,
        })
    }

    /// The Log Analytics query API and its token scope.
    pub fn log_analytics(&self) -> Option<(&'static str, &'static str)> {
        Some(match self {
            Cloud::AzureCloud => (
                "https://api.loganalytics.io",
                "https://api.loganalytics.io/.default",
            ),
            Cloud::AzureChinaCloud => (
                "https://api.loganalytics.azure.cn",
                "https://api.loganalytics.azure.cn/.default",
            ),
            Cloud::AzureUSGovernment => (
                "https://api.loganalytics.us",
                "https://api.loganalytics.us/.default",
            ),
            Cloud::Custom(_) => return None,
        })
    }

    pub fn name(&self) -> &str {
        match self {
            Cloud::AzureCloud => "AzureCloud",
            Cloud::AzureChinaCloud => "AzureChinaCloud",
            Cloud::AzureUSGovernment => "AzureUSGovernment",
            Cloud::Custom(name) => name,
        }
    }
}

impl fmt::Display for Cloud {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_names_any_case() {
        assert_eq!(Cloud::parse_known("azurecloud"), Ok(Cloud::AzureCloud));
        assert_eq!(
            Cloud::parse_known("AzureChinaCloud"),
            Ok(Cloud::AzureChinaCloud)
        );
        assert_eq!(
            Cloud::parse_known("AZUREUSGOVERNMENT"),
            Ok(Cloud::AzureUSGovernment)
        );
        assert!(
            Cloud::parse_known("AzureGermanCloud")
                .unwrap_err()
                .contains("AzureCloud")
        );
    }
}
