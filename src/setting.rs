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
pub enum Origin {
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
    /// amldoctor's documented default.
    Default,
}

impl Origin {
    /// Stable kebab-case kind for json output.
    pub fn kind(&self) -> &'static str {
        match self {
            Origin::Flag(_) => "flag",
            Origin::Env(_) => "env",
            Origin::AzConfig { .. } => "az-config",
            Origin::AzProfile(_) => "az-profile",
            Origin::ProjectFile { .. } => "project-file",
            Origin::DeploymentFile { .. } => "deployment-file",
            Origin::Default => "default",
        }
    }

    pub fn is_default(&self) -> bool {
        matches!(self, Origin::Default)
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Flag(flag) => write!(f, "{flag}"),
            Origin::Env(var) => write!(f, "${var}"),
            Origin::AzConfig { path, key } => write!(f, "{key} in {}", path.display()),
            Origin::AzProfile(path) => write!(f, "default subscription in {}", path.display()),
            Origin::ProjectFile { path, key } => write!(f, "{key} in {}", path.display()),
            Origin::DeploymentFile { path, key } => write!(f, "{key} in {}", path.display()),
            Origin::Default => f.write_str("default"),
        }
    }
}

impl Serialize for Origin {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("kind", self.kind())?;
        match self {
            Origin::Flag(flag) => map.serialize_entry("flag", flag)?,
            Origin::Env(var) => map.serialize_entry("variable", var)?,
            Origin::AzConfig { path, key }
            | Origin::ProjectFile { path, key }
            | Origin::DeploymentFile { path, key } => {
                map.serialize_entry("path", path)?;
                map.serialize_entry("key", key)?;
            }
            Origin::AzProfile(path) => map.serialize_entry("path", path)?,
            Origin::Default => {}
        }
        map.end()
    }
}

/// A value and its origin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Setting<T> {
    pub value: T,
    pub origin: Origin,
}

impl<T> Setting<T> {
    pub fn new(value: T, origin: Origin) -> Self {
        Setting { value, origin }
    }

    pub fn default(value: T) -> Self {
        Setting {
            value,
            origin: Origin::Default,
        }
    }
}
