//! The init() retry limits the ParallelRunStep documentation describes, as plain
//! functions so each limit is tested at and around its boundary.

/// The init() retry limits the ParallelRunStep documentation describes, for reasoning
/// and tests: (per-node failures before that node starts no new workers, job-wide
/// failures that stop retrying once the job has run two minutes, seconds all agents may
/// stay in init before the job fails for lack of progress).
pub(crate) fn init_retry_limits(
    process_count_per_node: u64,
    node_count: u64,
    run_invocation_timeout: u64,
) -> (u64, u64, u64) {
    (
        3u64.saturating_mul(process_count_per_node),
        2u64.saturating_mul(node_count)
            .saturating_mul(process_count_per_node),
        3u64.saturating_mul(run_invocation_timeout)
            .saturating_add(30),
    )
}

/// Whether a job whose agents have all been in init() for `seconds` fails for lack of
/// progress (more than 3 × run_invocation_timeout + 30 s).
pub(crate) fn stuck_in_init_fails(seconds: u64, run_invocation_timeout: u64) -> bool {
    seconds > init_retry_limits(0, 0, run_invocation_timeout).2
}

/// Whether init() retries stop, given failures so far and how long the job has run.
pub(crate) fn init_retries_exhausted(
    node_failures: u64,
    job_failures: u64,
    job_seconds: u64,
    process_count_per_node: u64,
    node_count: u64,
) -> (bool, bool) {
    let (per_node, job, _) = init_retry_limits(process_count_per_node, node_count, 0);
    (
        node_failures >= per_node,
        job_seconds > 120 && job_failures >= job,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_budget_arithmetic_at_and_around_each_limit() {
        assert_eq!(init_retry_limits(2, 4, 60), (6, 16, 210));
        assert_eq!(init_retry_limits(1, 1, 60), (3, 2, 210));
        // Per node: 3 × process_count_per_node failures.
        assert!(!init_retries_exhausted(5, 5, 0, 2, 4).0);
        assert!(init_retries_exhausted(6, 6, 0, 2, 4).0);
        assert!(init_retries_exhausted(7, 7, 0, 2, 4).0);
        // Job-wide: 2 × node_count × process_count_per_node, only after two minutes.
        assert!(
            !init_retries_exhausted(0, 16, 120, 2, 4).1,
            "exactly two minutes is not more than two"
        );
        assert!(init_retries_exhausted(0, 16, 121, 2, 4).1);
        assert!(!init_retries_exhausted(0, 15, 600, 2, 4).1);
        assert!(init_retries_exhausted(0, 17, 600, 2, 4).1);
    }

    #[test]
    fn stuck_in_init_limit() {
        // 3 × 60 + 30 = 210 s.
        assert!(!stuck_in_init_fails(209, 60));
        assert!(
            !stuck_in_init_fails(210, 60),
            "exactly the limit is not more than it"
        );
        assert!(stuck_in_init_fails(211, 60));
        assert!(stuck_in_init_fails(31, 0));
    }
}
