//! Benchmarks run as gobo test suites: the task manifests that name each task's suites, and
//! the benchmark's metrics over per-task verdicts. Running the suites is the hosts' job
//! (`gobo bench`); the suites themselves live in `benchmarks/` at the repository root.

pub mod scratchworld;
