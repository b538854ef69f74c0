//! DrawingBench canvases for hosts: the PNG of what the drawing app shows for one turn's
//! actions (`gobo draw episode --png-dir`, `render: true` on `POST /v1/draw/episode`,
//! `gobo.draw.episode(render=True)`). The replay and the rasterizer are the core's.

use gobo::drawing::actions::Actions;
use gobo::drawing::raster::Canvas;
use gobo::drawing::ui::UiConfig;

use crate::png::{encode_png, PixelFormat};

/// The canvas PNG (RGBA) of a turn's raw action text on a fresh canvas, or `None` when the
/// text is not an action list the app could replay.
pub fn canvas_png(raw: &[u8], ui: &UiConfig) -> Option<Vec<u8>> {
    let actions = Actions::parse(raw).ok()?;
    let canvas = Canvas::render(&actions, ui);
    encode_png(canvas.width(), canvas.height(), PixelFormat::Rgba8, canvas.rgba()).ok()
}
