//! The OpenAPI 3.1 document of the server, generated from the handlers' annotations and the
//! request/response types (utoipa), served at `/v1/openapi.json`.

use std::sync::OnceLock;

use utoipa::OpenApi;

use crate::routes::{
    batch, blobs, checks, draw, evidence, health, patches, projects, repair, scratch, scratchworld,
    sessions, traces, xlogo,
};

#[derive(OpenApi)]
#[openapi(
    info(title = "gobo", description = "Run, edit and judge Scratch, XLogo-Mini and DrawingBench programs (docs/server.md)"),
    paths(
        health::healthz, health::readyz,
        blobs::upload, blobs::download,
        scratch::tests_run, scratch::render_handler, scratch::run_handler,
        traces::traces_diff, traces::metrics_drift,
        xlogo::xlogo_eval, xlogo::xlogo_prompt, xlogo::xlogo_classify, xlogo::xlogo_perturb,
        xlogo::xlogo_resample, xlogo::xlogo_report,
        draw::draw_eval, draw::draw_episode, draw::draw_report,
        projects::validate_handler, projects::edit_distance_handler,
        patches::patch_handler, patches::invert_handler, patches::diff_handler,
        patches::session_patch,
        repair::scenarios_handler, repair::oracle_handler, repair::inject_handler,
        repair::sites_handler, repair::probe_handler, repair::verify_handler,
        evidence::hooks_handler, evidence::record_handler, checks::lint_handler,
        checks::suite_check_handler,
        batch::submit, batch::list, batch::status, batch::delete, batch::results,
        sessions::create, sessions::list, sessions::info, sessions::observation, sessions::act,
        sessions::run, sessions::stage, sessions::gold, sessions::log, sessions::project, sessions::evaluate, sessions::fork,
        sessions::delete,
        scratchworld::create, scratchworld::list, scratchworld::info, scratchworld::delete,
        scratchworld::load_project, scratchworld::composite_execute, scratchworld::evaluate,
        scratchworld::screenshot,
    ),
    components(schemas(crate::error::ErrorBody, crate::input::ProjectInput, crate::input::BlobRef)),
    tags((name = "service"), (name = "blobs"), (name = "scratch"), (name = "xlogo"),
        (name = "drawing"), (name = "projects"),
        (name = "repair", description = "Scenarios, oracles and the Bug Forge (docs/bug-forge.md)"), (name = "batch"), (name = "sessions"),
        (name = "scratchworld", description = "ScratchWorld's own session routes (docs/server.md)"))
)]
struct Doc;

/// The document as JSON text.
pub fn document() -> &'static str {
    static DOC: OnceLock<String> = OnceLock::new();
    DOC.get_or_init(|| {
        Doc::openapi().to_json().unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    })
}
