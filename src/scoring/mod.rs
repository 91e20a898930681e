//! `amldoctor score`: what a caller of an online endpoint sees, measured. The probe in
//! `source::scoring` sends the requests and records each answer as a [`sample::Sample`];
//! this module turns the samples into the report's scoring section ([`summary`]) and
//! into findings ([`computed`]), explained from the same HTTP status catalogue as
//! `amldoctor explain`.

pub(crate) mod bounds;
pub(crate) mod computed;
pub(crate) mod sample;
pub(crate) mod summary;
pub(crate) mod target;

pub(crate) use computed::COMPUTED_RULES;

/// The ids of the rules computed from a scoring probe.
pub(crate) fn computed_rule_ids() -> Vec<&'static str> {
    COMPUTED_RULES.to_vec()
}
