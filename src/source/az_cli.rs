//! Locates and reads the az CLI's configuration folder, so defaults set with
//! `az configure --defaults` and `az account set` apply to amldoctor too.

use std::path::PathBuf;

use super::Environment;
use crate::error::Result;

use super::LoadedFile;
use super::local::read_config_file;

/// `$AZURE_CONFIG_DIR`, else `~/.azure`; `None` when neither can be determined.
pub(crate) fn config_dir(env: &Environment) -> Option<PathBuf> {
    if let Some(dir) = env.var("AZURE_CONFIG_DIR") {
        return Some(PathBuf::from(dir));
    }
    env.var("HOME")
        .or_else(|| env.var("USERPROFILE"))
        .map(|home| PathBuf::from(home).join(".azure"))
}

/// The az CLI `config` INI file and `azureProfile.json`; either may be absent, which is
/// normal on machines where az was never used.
pub(crate) fn load(env: &Environment) -> Result<(Option<LoadedFile>, Option<LoadedFile>)> {
    let Some(dir) = config_dir(env) else {
        return Ok((None, None));
    };
    let config = read_config_file(&dir.join("config"), true)?;
    let profile = read_config_file(&dir.join("azureProfile.json"), true)?;
    Ok((config, profile))
}
