//! `gobo pack`: compiles a program into a program image for a classroom kit (see
//! `docs/program-image.md` and `docs/firmware.md`), checking the kit's flash and heap budgets
//! before writing anything.
//!
//! The heap estimate is measured, not guessed: the kit application (`gobo::kit::App`, the code
//! the firmware runs) boots the image here and plays it through while a counting allocator
//! records the peak (`crate::heap`). Pointers are twice as wide on the host as on the kits, so the figure errs
//! on the large side.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use gobo::drawing::judge;
use gobo::image::ProgramKind;
use gobo::kit::pack::{self, PackError, Packed};
use gobo::kit::{kit_by_id, App, Buttons, Kit, KITS};

use crate::draw::{load_task, load_ui, read_text, TaskArgs};
use crate::project_input::load_image;

/// Frames the heap estimate plays at most (five minutes at 30 fps).
const ESTIMATE_FRAMES: u32 = 9_000;

#[derive(Debug, Args)]
pub struct PackArgs {
    /// The program: an XLogo task (.json, with --code), a Scratch project (.sb3, project.json or
    /// its folder) or a drawing's action file (a model's raw text).
    program: PathBuf,
    /// The kit to pack for (lm3s6965, clue).
    #[arg(long)]
    kit: String,
    /// Where to write the program image.
    #[arg(short, long)]
    output: PathBuf,
    /// XLogo: the code to run on the task (JSON AST or Python-style text).
    #[arg(long)]
    code: Option<PathBuf>,
    /// Program kind; by default a task with --code is xlogo, actions with --task or
    /// --task-index are a drawing, an .sb3, a project.json or a folder holding one is scratch.
    #[arg(long, value_enum)]
    kind: Option<KindArg>,
    /// Drawings: the task (its drawingbench-1.0 score is shown at the end) and the UI layout.
    #[command(flatten)]
    drawing: TaskArgs,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum KindArg {
    Scratch,
    Xlogo,
    Drawing,
}

/// A display of the kit's size that keeps nothing (drawing allocates a little, as on the kit).
struct NullDisplay(Size);

impl OriginDimensions for NullDisplay {
    fn size(&self) -> Size {
        self.0
    }
}

impl DrawTarget for NullDisplay {
    type Color = Rgb888;
    type Error = core::convert::Infallible;

    fn draw_iter<I: IntoIterator<Item = Pixel<Rgb888>>>(
        &mut self,
        pixels: I,
    ) -> Result<(), Self::Error> {
        pixels.into_iter().for_each(drop);
        Ok(())
    }
}

/// Peak heap bytes used by the kit application booting `image` and playing it through (with no
/// key pressed), drawing every changed frame as the firmware does.
fn heap_estimate(kit: &'static Kit, image: &[u8]) -> usize {
    let ((), peak) = crate::heap::peak_of(|| {
        let mut app = App::boot(kit, image);
        let mut display = NullDisplay(Size::new(kit.display.width, kit.display.height));
        for _ in 0..ESTIMATE_FRAMES {
            if app.step(Buttons::NONE) {
                let Ok(()) = app.draw(&mut display);
            }
            if app.finished() {
                break;
            }
        }
    });
    peak
}

fn kind_of(args: &PackArgs) -> ProgramKind {
    match args.kind {
        Some(KindArg::Scratch) => ProgramKind::Scratch,
        Some(KindArg::Xlogo) => ProgramKind::XLogo,
        Some(KindArg::Drawing) => ProgramKind::Drawing,
        None if args.code.is_some() => ProgramKind::XLogo,
        None if args.drawing.task.is_some() || args.drawing.task_index.is_some() => {
            ProgramKind::Drawing
        }
        None if args.program.is_dir()
            || args.program.extension().is_some_and(|e| e == "sb3")
            || args.program.file_name().is_some_and(|n| n == "project.json") =>
        {
            ProgramKind::Scratch
        }
        None => ProgramKind::XLogo,
    }
}

fn read(path: &PathBuf) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Costume resolutions tried for a Scratch project, as divisors of the display's (1: a costume
/// pixel per display pixel at size 100 %), until the image fits the flash and heap budgets.
const COSTUME_DIVISORS: [u32; 4] = [1, 2, 4, 8];

/// A packed image that passed the budgets, with its heap estimate and a note on what was done
/// to fit.
struct Fitted {
    packed: Packed,
    estimate: usize,
    note: Option<String>,
}

fn fit(kit: &'static Kit, packed: Packed) -> Result<Fitted, PackError> {
    let estimate = heap_estimate(kit, &packed.image);
    pack::check_budgets(kit, &packed, estimate)?;
    Ok(Fitted { packed, estimate, note: None })
}

fn build(kit: &'static Kit, args: &PackArgs) -> Result<Fitted, String> {
    match kind_of(args) {
        ProgramKind::XLogo => {
            let Some(code) = &args.code else {
                return Err("an XLogo task needs --code FILE".into());
            };
            let packed = pack::pack_xlogo(&read(&args.program)?, &read(code)?);
            packed.and_then(|p| fit(kit, p)).map_err(|e| e.to_string())
        }
        ProgramKind::Scratch => {
            let image = load_image(&args.program)?;
            let mut error = String::new();
            for divisor in COSTUME_DIVISORS {
                let packed = pack::pack_scratch(image.clone(), kit, divisor);
                match packed.and_then(|p| fit(kit, p)) {
                    Ok(mut fitted) => {
                        if divisor > 1 {
                            fitted.note = Some(format!(
                                "costumes at 1/{divisor} of the display's resolution to fit"
                            ));
                        }
                        return Ok(fitted);
                    }
                    Err(e @ (PackError::TooLarge { .. } | PackError::HeapTooSmall { .. })) => {
                        error = format!(
                            "{e} (with costumes at 1/{divisor} of the display's resolution)"
                        );
                    }
                    Err(e) => return Err(e.to_string()),
                }
            }
            Err(error)
        }
        ProgramKind::Drawing => {
            let actions = read_text(&args.program)?;
            let ui_text = args.drawing.ui.as_deref().map(read_text).transpose()?;
            let score = match load_task(&args.drawing)? {
                Some(task) => {
                    let ui = load_ui(&args.drawing)?;
                    judge(actions.as_bytes(), &task.criteria, &ui)
                        .map_err(|e| e.to_string())?
                        .score()
                }
                None => None,
            };
            let packed = pack::pack_drawing(&actions, ui_text.as_deref(), score);
            packed.and_then(|p| fit(kit, p)).map_err(|e| e.to_string())
        }
    }
}

pub fn run(args: PackArgs) -> ExitCode {
    let Some(kit) = kit_by_id(&args.kit) else {
        let ids: Vec<&str> = KITS.iter().map(|k| k.id).collect();
        eprintln!("gobo pack: unknown kit {:?}; kits: {}", args.kit, ids.join(", "));
        return ExitCode::from(2);
    };
    let Fitted { packed, estimate, note } = match build(kit, &args) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("gobo pack: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = std::fs::write(&args.output, &packed.image) {
        eprintln!("gobo pack: {}: {e}", args.output.display());
        return ExitCode::FAILURE;
    }
    println!(
        "{}: {} bytes of {} for {} (heap estimate {} of {} bytes){}",
        args.output.display(),
        packed.image.len(),
        kit.image_budget(packed.kind),
        kit.id,
        estimate,
        kit.heap_bytes,
        note.map(|n| format!("; {n}")).unwrap_or_default()
    );
    ExitCode::SUCCESS
}
