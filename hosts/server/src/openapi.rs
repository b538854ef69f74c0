//! The OpenAPI 3.1 document of the server, generated from the handlers' annotations and the
//! request/response types (utoipa), served at `/v1/openapi.json`.

use std::sync::OnceLock;

use utoipa::OpenApi;

use crate::routes::{batch, blobs, draw, health, scratch, traces, xlogo};

#[derive(OpenApi)]
#[openapi(
    info(title = "gobo", description = "Run, edit and judge Scratch, XLogo-Mini and DrawingBench programs (docs/server.md)"),
    paths(
        health::healthz, health::readyz,
        blobs::upload, blobs::download,
        scratch::tests_run, scratch::render_handler, scratch::run_handler,
        traces::traces_diff,
        xlogo::xlogo_eval, xlogo::xlogo_prompt,
        draw::draw_eval,
        batch::submit, batch::list, batch::status, batch::delete, batch::results,
    ),
    components(schemas(crate::error::ErrorBody, crate::input::ProjectInput, crate::input::BlobRef)),
    tags((name = "service"), (name = "blobs"), (name = "scratch"), (name = "xlogo"),
        (name = "drawing"), (name = "batch"))
)]
struct Doc;

/// The document as JSON text.
pub fn document() -> &'static str {
    static DOC: OnceLock<String> = OnceLock::new();
    DOC.get_or_init(|| {
        Doc::openapi().to_json().unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    })
}
