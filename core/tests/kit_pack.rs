//! Packing programs for classroom kits: XLogo images round-trip, invalid programs are typed
//! errors (Scratch: `kit_scratch.rs`, drawings: `kit_drawing.rs`), and budgets fail with sizes and the large parts.

use gobo::image::{self, ProgramKind};
use gobo::kit::pack::{self, PackError};
use gobo::kit::xlogo::XLogoProgram;
use gobo::kit::{FirmwareFlash, Kit, CLUE, LM3S6965};

const TASK: &str = include_str!("fixtures/kit/square-task.json");
const CODE: &str = include_str!("fixtures/kit/square-code.py");

#[test]
fn xlogo_pack_round_trips() {
    let packed = pack::pack_xlogo(TASK, CODE).unwrap();
    let img = image::decode(&packed.image).unwrap();
    let program: XLogoProgram = img.payload_as(ProgramKind::XLogo).unwrap();
    assert_eq!(program, XLogoProgram { task: TASK.into(), code: CODE.into() });
    let total: usize = packed.parts.iter().map(|p| p.1).sum();
    assert_eq!(total, packed.image.len());
    assert_eq!(packed.parts[0].0, "task JSON");
    pack::check_budgets(&LM3S6965, &packed, 0).unwrap();
    pack::check_budgets(&CLUE, &packed, 0).unwrap();
}

#[test]
fn invalid_xlogo_programs_are_refused() {
    assert!(matches!(pack::pack_xlogo("{", CODE), Err(PackError::Task(_))));
    let bad_code = "def run():\n    jump()\n";
    let err = pack::pack_xlogo(TASK, bad_code).unwrap_err();
    assert!(matches!(err, PackError::Code(_)), "{err}");
}

#[test]
fn over_budget_images_say_by_how_much_and_what_is_large() {
    let packed = pack::pack_xlogo(TASK, CODE).unwrap();
    let firmware_flash =
        FirmwareFlash { xlogo: LM3S6965.flash_bytes - 1000, scratch: 0, drawing: 0 };
    let tiny = Kit { firmware_flash, ..LM3S6965 };
    let err = pack::check_budgets(&tiny, &packed, 0).unwrap_err();
    let over = packed.image.len() - 1000;
    let text = err.to_string();
    assert!(
        text.starts_with(&format!(
            "image is {} bytes, {over} bytes over the lm3s6965 kit's budget of 1000 bytes; \
             largest parts: task JSON {} bytes",
            packed.image.len(),
            TASK.len()
        )),
        "{text}"
    );
    let err = pack::check_budgets(&LM3S6965, &packed, 50_000).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "program needs about 50000 bytes of heap, {} bytes more than the lm3s6965 kit's {}",
            50_000 - LM3S6965.heap_bytes,
            LM3S6965.heap_bytes
        )
    );
}
