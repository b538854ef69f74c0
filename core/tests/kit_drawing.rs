//! Drawings on classroom kits: the payload round trip and typed refusals, the display-size
//! rasterizer against the full-size raster (on the raster goldens' action files) and per tool,
//! the player's stepping and keys, and hostile payloads.

use std::path::{Path, PathBuf};

use gobo::drawing::actions::{Actions, ActionsError};
use gobo::drawing::palette::{PaletteCanvas, ERASED};
use gobo::drawing::raster::{Canvas, Painter, FILL_LIMIT};
use gobo::drawing::replay::{replay, Op, Pen};
use gobo::drawing::ui::UiConfig;
use gobo::image::{self, ProgramKind};
use gobo::kit::drawing::{self, layout, DrawingProgram, MAX_PLAYBACK_STEPS, START_HOLD_FRAMES};
use gobo::kit::pack::{self, PackError};
use gobo::kit::{AnyProgram, App, Buttons, Kit, Shown, CLUE, LM3S6965};

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/drawing");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 5);
    files
}

fn house() -> String {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../firmware/images/src/house-actions.json");
    std::fs::read_to_string(path).unwrap()
}

/// The actions painted directly at `kit`'s display scale, as the player paints them.
fn paint_direct(actions: &Actions, ui: &UiConfig, kit: &Kit, steps: usize) -> PaletteCanvas {
    let l = layout(kit.display, embedded_graphics::prelude::Size::new(1000, 700));
    let mut c = PaletteCanvas::new(l.picture.size.width, l.picture.size.height);
    let painter = Painter::at_scale(l.scale);
    replay(actions, ui, |i, op, pen| {
        if i < steps {
            c.paint(&painter, op, pen);
        }
    });
    c
}

#[test]
fn payload_round_trips_and_names_its_parts() {
    let text = house();
    let packed = pack::pack_drawing(&text, None, Some(0.5)).unwrap();
    let img = image::decode(&packed.image).unwrap();
    assert_eq!(img.kind, ProgramKind::Drawing);
    let program: DrawingProgram<'_> = img.payload_as(ProgramKind::Drawing).unwrap();
    assert_eq!(program, DrawingProgram { actions: &text, ui: None, score: Some(0.5) });
    assert_eq!(packed.parts.iter().map(|p| p.1).sum::<usize>(), packed.image.len());
    assert_eq!(packed.parts[0], ("actions".to_string(), text.len()));
    pack::check_budgets(&LM3S6965, &packed, 0).unwrap();

    let ui = r#"{"canvas": {"width": 200, "height": 100, "offset_x": 0, "offset_y": 0}}"#;
    let packed = pack::pack_drawing("[]", Some(ui), None).unwrap();
    let img = image::decode(&packed.image).unwrap();
    let program: DrawingProgram<'_> = img.payload_as(ProgramKind::Drawing).unwrap();
    assert_eq!(program.ui, Some(ui));
}

#[test]
fn malformed_actions_and_ui_configs_are_refused_with_typed_errors() {
    let err = pack::pack_drawing("[{\"action\": ", None, None).unwrap_err();
    assert!(matches!(err, PackError::Actions(ActionsError::Json(_))), "{err}");
    assert!(err.to_string().starts_with("actions: actions are not JSON: "), "{err}");
    let err = pack::pack_drawing("{\"action\": \"click\"}", None, None).unwrap_err();
    assert!(matches!(err, PackError::Actions(ActionsError::NotAList("dict"))), "{err}");
    let err = pack::pack_drawing("[1]", None, None).unwrap_err();
    assert!(matches!(err, PackError::Actions(ActionsError::Exception(_))), "{err}");
    let err = pack::pack_drawing("[]", Some("{\"canvas\": {}}"), None).unwrap_err();
    assert!(matches!(err, PackError::Ui(_)), "{err}");
}

/// Pixels of the display-size canvas whose colour does not occur in the full-size raster
/// within one display pixel of where they are (a window of about 33x33 canvas pixels on the
/// emulated kit).
fn misplaced(full: &Canvas, small: &PaletteCanvas, scale: f64) -> usize {
    let mut bad = 0;
    for y in 0..small.height() as i32 {
        for x in 0..small.width() as i32 {
            let px = small.pixel(x, y).unwrap();
            let lo = |v: i32| (f64::from(v - 1) / scale).floor().max(0.0) as i32;
            let hi = |v: i32| (f64::from(v + 2) / scale).ceil() as i32;
            let found =
                (lo(y)..hi(y)).any(|sy| (lo(x)..hi(x)).any(|sx| full.pixel(sx, sy) == Some(px)));
            bad += usize::from(!found);
        }
    }
    bad
}

#[test]
fn display_size_raster_matches_the_full_size_raster_downscaled() {
    let ui = UiConfig::drawingbench_default();
    let mut files = fixtures();
    files.push(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../firmware/images/src/house-actions.json"),
    );
    for kit in [&LM3S6965, &CLUE] {
        let l = layout(kit.display, embedded_graphics::prelude::Size::new(1000, 700));
        for path in &files {
            let actions = Actions::parse(&std::fs::read(path).unwrap()).unwrap();
            let full = Canvas::render(&actions, &ui);
            let small = paint_direct(&actions, &ui, kit, usize::MAX);
            let drawn = small.indices().iter().filter(|&&i| i != 1).count();
            assert!(drawn > 0, "{}: nothing drawn at display size", path.display());
            let bad = misplaced(&full, &small, l.scale);
            let total = small.indices().len();
            let colors = |px: &mut dyn Iterator<Item = [u8; 4]>| {
                let mut v: Vec<[u8; 4]> = px.collect();
                v.sort_unstable();
                v.dedup();
                v
            };
            let full_colors = colors(&mut full.rgba().chunks(4).map(|p| [p[0], p[1], p[2], p[3]]));
            let (w, h) = (small.width() as i32, small.height() as i32);
            let small_colors = colors(
                &mut (0..h)
                    .flat_map(|y| (0..w).map(move |x| (x, y)))
                    .filter_map(|(x, y)| small.pixel(x, y)),
            );
            assert_eq!(small_colors, full_colors, "{}: every colour and no other", path.display());
            // Measured: 0 on every file; the bound leaves room for a pixel's rounding here and there.
            assert!(
                bad * 500 <= total,
                "{} on {}: {bad} of {total} pixels have a colour the full-size raster lacks there",
                path.display(),
                kit.id
            );
        }
    }
}

const BLACK: Pen = Pen { rgb: [0, 0, 0], size: 10.0, erase: false };

/// A 100x70 canvas at scale 0.1 (a 1000x700 canvas on a 100x70 display).
fn small() -> (PaletteCanvas, Painter) {
    (PaletteCanvas::new(100, 70), Painter::at_scale(0.1))
}

fn count(c: &PaletteCanvas, rgba: [u8; 4]) -> usize {
    (0..70)
        .flat_map(|y| (0..100).map(move |x| (x, y)))
        .filter(|&(x, y)| c.pixel(x, y) == Some(rgba))
        .count()
}

#[test]
fn pen_and_eraser_strokes_scale_their_width() {
    let (mut c, p) = small();
    // A 10 px pen is 1 display pixel wide: the segment from (100, 300) to (900, 300) is the
    // row y = 30 from x = 10 to 90.
    c.paint(&p, Op::Segment { from: (100.0, 300.0), to: (900.0, 300.0), stroke: 0 }, BLACK);
    assert_eq!(count(&c, [0, 0, 0, 255]), 81);
    assert!((10..=90).all(|x| c.pixel(x, 30) == Some([0, 0, 0, 255])));
    // A 50 px eraser is 5 display pixels wide, across the line.
    let eraser = Pen { size: 50.0, erase: true, ..BLACK };
    c.paint(&p, Op::Segment { from: (500.0, 0.0), to: (500.0, 690.0), stroke: 1 }, eraser);
    assert_eq!(c.pixel(50, 30), Some([0, 0, 0, 0]));
    assert_eq!(c.pixel(50, 60), Some([0, 0, 0, 0]));
    assert_eq!(c.pixel(44, 30), Some([0, 0, 0, 255]));
    assert!(c.indices().iter().filter(|&&i| i == ERASED).count() >= 5 * 69);
}

#[test]
fn shapes_are_outlines_at_display_scale() {
    let red = Pen { rgb: [255, 0, 0], ..BLACK };
    let (mut c, p) = small();
    c.paint(&p, Op::Rect((100.0, 100.0), (500.0, 400.0)), red);
    assert_eq!(c.pixel(10, 10), Some([255, 0, 0, 255]));
    assert_eq!(c.pixel(50, 40), Some([255, 0, 0, 255]));
    assert_eq!(c.pixel(30, 25), Some([255, 255, 255, 255]), "an outline, not filled");
    assert_eq!(count(&c, [255, 0, 0, 255]), 2 * 41 + 2 * 29);

    let (mut c, p) = small();
    c.paint(&p, Op::Circle((500.0, 350.0), 200.0), red);
    for (x, y) in [(70, 35), (30, 35), (50, 15), (50, 55)] {
        assert_eq!(c.pixel(x, y), Some([255, 0, 0, 255]), "({x}, {y}) is on the circle");
    }
    assert_eq!(c.pixel(50, 35), Some([255, 255, 255, 255]));
    let ring = count(&c, [255, 0, 0, 255]);
    assert!((100..=140).contains(&ring), "a one-pixel ring of radius 20: {ring} pixels");

    let (mut c, p) = small();
    c.paint(&p, Op::Line((0.0, 0.0), (990.0, 690.0)), red);
    assert_eq!(c.pixel(0, 0), Some([255, 0, 0, 255]));
    assert_eq!(c.pixel(99, 69), Some([255, 0, 0, 255]));
    assert_eq!(count(&c, [255, 0, 0, 255]), 100);
}

#[test]
fn fills_stop_at_outlines_and_at_the_scaled_limit() {
    let green = Pen { rgb: [0, 255, 0], ..BLACK };
    let (mut c, p) = small();
    c.paint(&p, Op::Rect((100.0, 100.0), (400.0, 300.0)), BLACK);
    c.paint(&p, Op::Fill((300.0, 250.0)), green);
    assert_eq!(count(&c, [0, 255, 0, 255]), 29 * 19, "the inside of the rectangle");
    assert_eq!(c.pixel(5, 5), Some([255, 255, 255, 255]));

    // An empty canvas: the app fills at most 100,001 of its 700,000 pixels; at scale 0.1 that
    // is ceil(100,001 / 100) of 7,000.
    assert_eq!(p.fill_limit, FILL_LIMIT.div_ceil(100));
    let (mut c, p) = small();
    c.paint(&p, Op::Fill((500.0, 350.0)), green);
    assert_eq!(count(&c, [0, 255, 0, 255]), 1001);
    // Filling the colour a region already has changes nothing; fills are never erasing.
    c.paint(&p, Op::Fill((500.0, 350.0)), Pen { erase: true, ..green });
    assert_eq!(count(&c, [0, 255, 0, 255]), 1001);
}

fn drawing_player<'a>(app: &'a App<'_>) -> &'a drawing::Player {
    match app.program() {
        Some(AnyProgram::Drawing(p)) => p,
        _ => panic!("not playing a drawing: {}", app.shown()),
    }
}

fn state(app: &App<'_>) -> (u16, u16, bool, bool) {
    match app.shown() {
        Shown::Drawing(s) => (s.step, s.steps, s.playing, s.done),
        other => panic!("not a drawing: {other}"),
    }
}

#[test]
fn the_player_plays_one_action_at_a_time_and_obeys_the_keys() {
    let text = house();
    let actions = Actions::parse(text.as_bytes()).unwrap();
    let ui = UiConfig::drawingbench_default();
    let n = actions.len() as u16;
    let image = pack::pack_drawing(&text, None, Some(0.75)).unwrap().image;
    let mut app = App::boot(&LM3S6965, &image);
    assert!(app.step(Buttons::NONE));
    assert_eq!(state(&app), (0, n, true, false));
    assert_eq!(app.shown().to_string(), format!("drawing step=0/{n} playing"));
    for _ in 1..START_HOLD_FRAMES {
        app.step(Buttons::NONE);
    }
    assert_eq!(state(&app).0, 1, "the blank canvas is held for 30 frames");
    for _ in 0..4 {
        app.step(Buttons::NONE);
    }
    assert_eq!(state(&app).0, 2, "then one action every 4 frames");
    let mut frames = 0;
    while !app.finished() && frames < 1000 {
        app.step(Buttons::NONE);
        frames += 1;
    }
    assert_eq!(state(&app), (n, n, false, true));
    let end = drawing_player(&app).canvas().clone();
    assert!(end == paint_direct(&actions, &ui, &LM3S6965, usize::MAX));

    // Left twice repaints the first n - 2 actions (before the eraser stroke; the last action,
    // mouseUp, draws nothing); right paints the next action on top.
    app.step(Buttons::LEFT);
    app.step(Buttons::NONE);
    app.step(Buttons::LEFT);
    assert_eq!(state(&app), (n - 2, n, false, false));
    let back = drawing_player(&app).canvas().clone();
    assert!(back == paint_direct(&actions, &ui, &LM3S6965, n as usize - 2));
    assert!(back != end, "the eraser stroke is gone");
    app.step(Buttons::NONE);
    assert!(app.step(Buttons::RIGHT));
    assert!(drawing_player(&app).canvas() == &end);
    app.step(Buttons::NONE);
    app.step(Buttons::RIGHT);
    assert!(app.finished());
    app.step(Buttons::NONE);
    assert!(!app.step(Buttons::RIGHT), "nothing after the end");

    // Holding select for a second is the green flag: back to the blank canvas, playing.
    for _ in 0..30 {
        app.step(Buttons::SELECT);
    }
    assert_eq!(state(&app), (0, n, true, false));
    assert!(drawing_player(&app).canvas().indices().iter().all(|&i| i == 1));
}

#[test]
fn space_pauses_and_replays_and_the_end_shows_the_score() {
    let text = house();
    let image = pack::pack_drawing(&text, None, Some(0.75)).unwrap().image;
    let mut app = App::boot(&CLUE, &image);
    for _ in 0..40 {
        app.step(Buttons::NONE);
    }
    let at = state(&app).0;
    app.step(Buttons::A);
    for _ in 0..40 {
        app.step(Buttons::NONE);
    }
    assert_eq!(state(&app), (at, state(&app).1, false, false), "paused");
    app.step(Buttons::A);
    while !app.finished() {
        app.step(Buttons::NONE);
    }
    assert_eq!(app.shown().to_string(), format!("drawing step={0}/{0} done", state(&app).1));
    assert_eq!(drawing_player(&app).end_text(), "score 0.75");
    let unscored = pack::pack_drawing(&text, None, None).unwrap().image;
    let other = App::boot(&CLUE, &unscored);
    let n = Actions::parse(text.as_bytes()).unwrap().len();
    assert_eq!(drawing_player(&other).end_text().as_str(), format!("{n} actions"));
    app.step(Buttons::NONE);
    app.step(Buttons::A);
    assert_eq!(state(&app).0, 0, "space at the end replays");
    assert!(state(&app).2);
}

#[test]
fn a_million_actions_play_the_first_thousand() {
    let one = r#"{"action": "click", "x": 500, "y": 400},"#;
    let mut text = String::with_capacity(one.len() * 1_000_000 + 2);
    text.push('[');
    for _ in 0..1_000_000 {
        text.push_str(one);
    }
    text.pop();
    text.push(']');
    let image = pack::pack_drawing(&text, None, None).unwrap().image;
    let mut app = App::boot(&LM3S6965, &image);
    assert_eq!(drawing_player(&app).total_actions(), 1_000_000);
    assert_eq!(state(&app).1 as usize, MAX_PLAYBACK_STEPS);
    assert_eq!(drawing_player(&app).end_text(), "1000000 actions");
    let frames = START_HOLD_FRAMES + 4 * MAX_PLAYBACK_STEPS as u32;
    for _ in 0..frames {
        app.step(Buttons::NONE);
    }
    assert!(app.finished());
    app.step(Buttons::LEFT);
    assert_eq!(state(&app).0 as usize, MAX_PLAYBACK_STEPS - 1);
}

#[test]
fn hostile_geometry_and_layouts_play_without_panicking() {
    let ui = r##"{"canvas": {"width": 1e9, "height": -5, "offset_x": 0, "offset_y": 0},
        "tools": {"fill": {"x": -100, "y": -100}, "circle": {"x": -100, "y": 100},
                  "eraser": {"x": 100, "y": -100}, "pen": {"x": -300, "y": -300}},
        "sizes": {"huge": {"x": -300, "y": 300, "value": 1e300}},
        "colors": {"red": {"x": 300, "y": -300, "hex": "#F00", "name": "Red"}}}"##;
    let text = r#"[
        {"action": "click", "x": -300, "y": 300}, {"action": "click", "x": 300, "y": -300},
        {"action": "mouseDown", "x": 5, "y": 0}, {"action": "moveTo", "x": 1e308, "y": -1e308},
        {"action": "moveTo", "x": NaN, "y": 3}, {"action": "moveTo", "x": "a", "y": 3},
        {"action": "mouseUp"}, {"action": "click", "x": -100, "y": 100},
        {"action": "mouseDown", "x": 0, "y": 0}, {"action": "mouseUp", "x": 1e300, "y": 1e300},
        {"action": "mouseDown", "x": 1, "y": 0}, {"action": "mouseUp", "x": Infinity, "y": 0},
        {"action": "click", "x": -100, "y": -100}, {"action": "click", "x": 2, "y": 0},
        {"action": "click", "x": 100, "y": -100}, {"action": "click", "x": 3, "y": 0},
        {"action": 7}, {"x": 1}, {"action": "click", "x": 123456789012345678901234567890, "y": 0}
    ]"#;
    for kit in [&LM3S6965, &CLUE] {
        for ui in [Some(ui), None] {
            let image = pack::pack_drawing(text, ui, Some(f64::NAN)).unwrap().image;
            let mut app = App::boot(kit, &image);
            let mut display = NullDisplay(kit.display.width, kit.display.height);
            while !app.finished() {
                if app.step(Buttons::NONE) {
                    app.draw(&mut display).unwrap();
                }
            }
            app.step(Buttons::LEFT);
            app.draw(&mut display).unwrap();
        }
    }
}

#[test]
fn damaged_payloads_show_the_error_screen() {
    let junk = image::encode(ProgramKind::Drawing, b"\xff\xff\xff").unwrap();
    let app = App::boot(&LM3S6965, &junk);
    assert!(
        app.error_message().is_some_and(|m| m.contains("payload")),
        "{:?}",
        app.error_message()
    );
    let cases: [(&str, Option<&str>, &str); 3] = [
        ("{}", None, "actions: actions must be a JSON list, found dict"),
        ("[", None, "actions: actions are not JSON: "),
        ("[]", Some("{"), "UI config: "),
    ];
    for (actions, ui, message) in cases {
        let program = DrawingProgram { actions, ui, score: None };
        let bytes = image::encode_payload(ProgramKind::Drawing, &program).unwrap();
        let app = App::boot(&LM3S6965, &bytes);
        let shown = app.error_message().unwrap_or_default();
        assert!(shown.starts_with(message), "{shown:?} should start with {message:?}");
        assert_eq!(app.shown(), Shown::Error);
    }
}

#[test]
fn the_player_alone_plays_only_drawings() {
    let drawing = pack::pack_drawing("[]", None, None).unwrap().image;
    let task = include_str!("fixtures/kit/square-task.json");
    let code = include_str!("fixtures/kit/square-code.py");
    let xlogo = pack::pack_xlogo(task, code).unwrap().image;
    let app = App::<drawing::Player>::boot_as(&LM3S6965, &xlogo);
    assert_eq!(app.error_message(), Some("xlogo programs cannot be played by this build"));
    let mut app = App::<drawing::Player>::boot_as(&LM3S6965, &drawing);
    app.step(Buttons::NONE);
    assert_eq!(app.shown().to_string(), "drawing step=0/0 done");
    let app = App::<gobo::kit::xlogo::Player>::boot_as(&LM3S6965, &drawing);
    assert_eq!(app.error_message(), Some("drawing programs cannot be played by this build"));
}

/// A display of a kit's size that keeps nothing.
struct NullDisplay(u32, u32);

impl embedded_graphics::prelude::OriginDimensions for NullDisplay {
    fn size(&self) -> embedded_graphics::prelude::Size {
        embedded_graphics::prelude::Size::new(self.0, self.1)
    }
}

impl embedded_graphics::prelude::DrawTarget for NullDisplay {
    type Color = embedded_graphics::pixelcolor::Rgb888;
    type Error = core::convert::Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = embedded_graphics::Pixel<Self::Color>>,
    {
        pixels.into_iter().for_each(drop);
        Ok(())
    }
}
