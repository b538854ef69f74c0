//! Wall and CPU time of a call (SPEC §3.8, `docs/signals.md`): the core returns
//! deterministic work counters; this is the one place the hosts read the clocks that go
//! beside them. Wall time is `std::time::Instant`; CPU time is the calling thread's
//! (`CLOCK_THREAD_CPUTIME_ID` through the `cpu-time` crate), so rows of a parallel batch each
//! get their own.

use std::time::Instant;

use serde::Serialize;

/// Time a call took. Not deterministic: reported apart from the work counters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Timing {
    /// Elapsed wall-clock time, in milliseconds.
    pub wall_ms: f64,
    /// CPU time of the calling thread, in milliseconds (0 where the platform has no thread
    /// clock).
    pub cpu_ms: f64,
}

/// A started measurement.
#[derive(Debug, Clone, Copy)]
pub struct Stopwatch {
    wall: Instant,
    cpu: Option<cpu_time::ThreadTime>,
}

impl Stopwatch {
    /// Starts measuring on the calling thread.
    pub fn start() -> Stopwatch {
        Stopwatch { wall: Instant::now(), cpu: cpu_time::ThreadTime::try_now().ok() }
    }

    /// Time since [`Stopwatch::start`] (CPU time of the thread that started it; read it on
    /// that thread).
    pub fn timing(&self) -> Timing {
        let cpu_ms = self.cpu.map_or(0.0, |c| c.elapsed().as_secs_f64() * 1e3);
        Timing { wall_ms: self.wall.elapsed().as_secs_f64() * 1e3, cpu_ms }
    }
}

/// A result with the time it took: the result's fields, then `time`.
#[derive(Debug, Clone, Serialize)]
pub struct Timed<T> {
    /// The result.
    #[serde(flatten)]
    pub result: T,
    /// Its time.
    pub time: Timing,
}

/// Runs `f` and measures it.
pub fn timed<T>(f: impl FnOnce() -> T) -> Timed<T> {
    let watch = Stopwatch::start();
    let result = f();
    Timed { result, time: watch.timing() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_work_takes_cpu_time_and_wall_time() {
        let t = timed(|| (0..2_000_000u64).fold(0u64, |a, x| a.wrapping_add(x * x)));
        std::hint::black_box(t.result);
        assert!(t.time.wall_ms > 0.0);
        assert!(t.time.cpu_ms >= 0.0);
        let v = serde_json::to_value(timed(|| serde_json::json!({"a": 1}))).unwrap();
        assert_eq!(v["a"], 1);
        assert!(v["time"]["wall_ms"].is_number() && v["time"]["cpu_ms"].is_number());
    }
}
