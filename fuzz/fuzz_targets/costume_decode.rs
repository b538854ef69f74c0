//! Costume decoding: PNG, JPEG and SVG bytes never panic, overflow the stack or allocate past
//! the pixel limit; what decodes has a buffer of width × height × 4 bytes.
#![no_main]

use gobo::scratch::project::Costume;
use gobo_host::costume::decode_costume;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let format = ["png", "jpg", "svg"][usize::from(selector % 3)];
    let costume = Costume {
        name: "c".into(),
        asset_id: None,
        md5ext: None,
        data_format: Some(format.into()),
        bitmap_resolution: None,
        rotation_center_x: None,
        rotation_center_y: None,
        extra: Vec::new(),
    };
    if let Ok(img) = decode_costume(&costume, bytes, 1.0) {
        assert_eq!(img.rgba.len() as u64, u64::from(img.width) * u64::from(img.height) * 4);
    }
});
