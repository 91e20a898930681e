//! The entry point the diagnose command calls for each tree, kept at its old path so
//! callers do not follow the split into `summary`, `aggregate` and `computed`.

pub use super::aggregate::analyze;
pub use super::summary::*;
