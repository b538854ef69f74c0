//! The Python package `gobo`'s native module `gobo._gobo`: thin PyO3 bindings over the core
//! (`gobo`) and the shared host library (`gobo-host`), one submodule per engine — `scratch`,
//! `xlogo`, `draw` — re-exported by the pure-Python modules `gobo.scratch`, `gobo.xlogo` and
//! `gobo.draw` (`python/gobo/`). Every binding calls the functions the CLI calls and returns the
//! CLI's `--json` shape as dicts and lists; work runs with the GIL released. Layout and API:
//! `docs/python.md`.

mod agent;
mod convert;
mod draw;
mod patch;
mod repair;
mod scratch;
mod signals;
mod xlogo;
mod xlogo_analysis;

use pyo3::prelude::*;

/// gobo's native module (use `gobo.scratch`, `gobo.xlogo`, `gobo.draw`).
#[pymodule]
fn _gobo(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("IMAGE_FORMAT_VERSION", gobo::image::FORMAT_VERSION)?;
    scratch::register(m)?;
    xlogo::register(m)?;
    draw::register(m)?;
    Ok(())
}
