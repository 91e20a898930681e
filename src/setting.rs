//! A resolved value together with where it came from.
//!
//! Every default amldoctor applies is visible: `--debug` prints the origin of each
//! context value and json output carries the origin of each `replicas` input, so a
//! surprising number can always be traced to the flag, variable or file behind it.

use std::fmt;
use std::path::PathBuf;

use serde::Serialize;

/// Where a resolved value came from, in precedence order (earlier wins).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueSource {
    /// A command-line flag, e.g. `--rps`.
    Flag(&'static str),
    /// An environment variable, e.g. `AMLDOCTOR_WORKSPACE` or `AZURE_DEFAULTS_GROUP`.
    Env(String),
    /// A key in the az CLI config file (`[defaults] group`).
    AzConfig { path: PathBuf, key: String },
    /// The `isDefault` subscription of az CLI's `azureProfile.json`.
    AzProfile(PathBuf),
    /// A key of the project file `.amldoctor.yaml`.
    ProjectFile { path: PathBuf, key: String },
    /// A key of an `az ml online-deployment` YAML file.
    DeploymentFile { path: PathBuf, key: String },
    /// A setting of a live deployment read from Azure (`endpoint/deployment`).
    Deployment { name: String, key: String },
    /// amldoctor's documented default.
    Default,
}

impl ValueSource {
    /// Stable kebab-case kind for json output.
    pub fn kind(&self) -> &'static str {
        match self {
            ValueSource::Flag(_) => "flag",
            ValueSource::Env(_) => "env",
            ValueSource::AzConfig { .. } => "az-config",
            ValueSource::AzProfile(_) => "az-profile",
            ValueSource::ProjectFile { .. } => "project-file",
            ValueSource::DeploymentFile { .. } => "deployment-file",
            ValueSource::Deployment { .. } => "deployment",
            ValueSource::Default => "default",
        }
    }

    pub fn is_default(&self) -> bool {
        matches!(self, ValueSource::Default)
    }
}

impl fmt::Display for ValueSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueSource::Flag(flag) => write!(f, "{flag}"),
            ValueSource::Env(var) => write!(f, "${var}"),
            ValueSource::AzConfig { path, key } => write!(f, "{key} in {}", path.display()),
            ValueSource::AzProfile(path) => write!(f, "default subscription in {}", path.display()),
            ValueSource::ProjectFile { path, key } => write!(f, "{key} in {}", path.display()),
            ValueSource::DeploymentFile { path, key } => write!(f, "{key} in {}", path.display()),
            ValueSource::Deployment { name, key } => write!(f, "{key} of deployment {name}"),
            ValueSource::Default => f.write_str("default"),
        }
    }
}

impl Serialize for ValueSource {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("kind", self.kind())?;
        match self {
            ValueSource::Flag(flag) => map.serialize_entry("flag", flag)?,
            ValueSource::Env(var) => map.serialize_entry("variable", var)?,
            ValueSource::AzConfig { path, key }
            | ValueSource::ProjectFile { path, key }
            | ValueSource::DeploymentFile { path, key } => {
                map.serialize_entry("path", path)?;
                map.serialize_entry("key", key)?;
            }
            ValueSource::AzProfile(path) => map.serialize_entry("path", path)?,
            ValueSource::Deployment { name, key } => {
                map.serialize_entry("deployment", name)?;
                map.serialize_entry("key", key)?;
            }
            ValueSource::Default => {}
        }
        map.end()
    }
}

/// A value and its origin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Setting<T> {
    pub value: T,
    pub origin: ValueSource,
}

impl<T> Setting<T> {
    pub fn new(value: T, origin: ValueSource) -> Self {
        Setting { value, origin }
    }

    pub fn default(value: T) -> Self {
        Setting {
            value,
            origin: ValueSource::Default,
        }
    }
}
