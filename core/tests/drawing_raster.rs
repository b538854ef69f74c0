//! Raster goldens: every action file in `tests/fixtures/drawing/` is rendered and compared pixel
//! for pixel with `tests/golden/drawing/<name>.png`. Regenerate after an intended change with
//! `GOBO_BLESS=1 cargo test -p gobo --test drawing_raster` (and say why in the commit).
//! Also pins the flood-fill rules on small canvases.

use std::path::{Path, PathBuf};

use gobo::drawing::actions::Actions;
use gobo::drawing::raster::{Canvas, FILL_LIMIT};
use gobo::drawing::replay::{Op, Pen};
use gobo::drawing::ui::UiConfig;

fn dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(sub).join("drawing")
}

fn decode(path: &Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba, "{}", path.display());
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn encode(path: &Path, c: &Canvas) {
    let file = std::fs::File::create(path).unwrap();
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), c.width(), c.height());
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header().unwrap().write_image_data(c.rgba()).unwrap();
}

#[test]
fn goldens() {
    let bless = std::env::var_os("GOBO_BLESS").is_some();
    let ui = UiConfig::drawingbench_default();
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir("fixtures"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    assert!(names.len() >= 5);
    let mut failed = Vec::new();
    for path in names {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let actions = Actions::parse(&std::fs::read(&path).unwrap()).unwrap();
        let canvas = Canvas::render(&actions, &ui);
        let golden = dir("golden").join(format!("{stem}.png"));
        if bless {
            encode(&golden, &canvas);
            continue;
        }
        let (w, h, pixels) = decode(&golden);
        if (w, h) != (canvas.width(), canvas.height()) || pixels != canvas.rgba() {
            let differ =
                pixels.chunks(4).zip(canvas.rgba().chunks(4)).filter(|(a, b)| a != b).count();
            failed.push(format!("{stem}: {differ} pixels differ"));
        }
    }
    assert!(failed.is_empty(), "goldens differ: {failed:?}");
}

const BLACK: Pen = Pen { rgb: [0, 0, 0], size: 2.0, erase: false };
const RED: Pen = Pen { rgb: [255, 0, 0], size: 2.0, erase: false };

#[test]
fn fill_stops_at_exact_colour_edges_and_ignores_alpha() {
    let mut c = Canvas::new(20, 10);
    c.paint(Op::Line((10.0, -5.0), (10.0, 15.0)), BLACK);
    c.paint(Op::Fill((2.0, 5.0)), RED);
    assert_eq!(c.pixel(0, 0), Some([255, 0, 0, 255]));
    assert_eq!(c.pixel(19, 9), Some([255, 255, 255, 255]), "the wall stops the fill");
    // An erased (transparent black) pixel reads as black: filling black from it is a no-op,
    // and filling red from it recolours it opaque.
    let mut c = Canvas::new(8, 8);
    c.paint(Op::Dot((4.0, 4.0)), Pen { erase: true, size: 4.0, ..BLACK });
    assert_eq!(c.pixel(4, 4), Some([0, 0, 0, 0]));
    c.paint(Op::Fill((4.0, 4.0)), BLACK);
    assert_eq!(c.pixel(4, 4), Some([0, 0, 0, 0]));
    c.paint(Op::Fill((4.0, 4.0)), RED);
    assert_eq!(c.pixel(4, 4), Some([255, 0, 0, 255]));
    assert_eq!(c.pixel(0, 0), Some([255, 255, 255, 255]), "white is a different colour");
}

#[test]
fn fill_paints_at_most_the_limit() {
    let mut c = Canvas::new(1000, 700);
    c.paint(Op::Fill((500.0, 350.0)), RED);
    let red = c.rgba().chunks(4).filter(|p| *p == [255, 0, 0, 255]).count();
    assert_eq!(red, FILL_LIMIT);
}

#[test]
fn off_canvas_clicks_and_mousedowns_draw_nothing() {
    let ui = UiConfig::drawingbench_default();
    let a = Actions::parse(br#"[{"action":"mouseDown","x":50,"y":300},{"action":"moveTo","x":600,"y":300},{"action":"mouseUp"},{"action":"click","x":1200,"y":300}]"#).unwrap();
    let c = Canvas::render(&a, &ui);
    assert!(c.rgba().iter().all(|&b| b == 255));
}
