//! The entry point the diagnose command calls for each tree, kept at its old path so
//! callers do not follow the split into `summary`, `aggregate` and `computed`.

pub(crate) use super::aggregate::analyze;
pub(crate) use super::summary::*;
