//! `amldoctor rehearse`: what running the scoring script under the real inference
//! server, or the entry script under the ParallelRunStep harness, showed. The runs
//! themselves are `source::rehearsal`'s; this module holds what they measured
//! ([`summary`]) and the findings only a run can give ([`computed`]): a server that never
//! answered its liveness route, a start-up longer than the deployment's probes wait, the
//! status a caller of a managed endpoint would get, a script that needs Azure to start.
//! The server's log and the job's log tree go through the ordinary catalogue.

pub(crate) mod computed;
pub(crate) mod harness_report;
pub(crate) mod job_settings;
pub(crate) mod probe_budget;
pub(crate) mod summary;

pub(crate) use computed::COMPUTED_RULES;
