//! Program-image envelope: round trips, and every way a damaged image is rejected with a typed
//! error (no panic, no allocation sized by a claimed length).

// A counting global allocator needs `unsafe impl GlobalAlloc`; it only forwards to `System`.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use gobo::image::{self, crc32, ImageError, ProgramKind, FORMAT_VERSION, HEADER_LEN, MAGIC};
use serde::{Deserialize, Serialize};

/// Tracks the largest single allocation, to prove claimed lengths are not trusted.
struct LargestAlloc;
static LARGEST: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for LargestAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: LargestAlloc = LargestAlloc;

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Sample {
    name: String,
    steps: Vec<u32>,
}

fn sample_image() -> Vec<u8> {
    let value = Sample { name: "square".into(), steps: vec![1, 2, 3, 400_000] };
    image::encode_payload(ProgramKind::XLogo, &value).unwrap()
}

#[test]
fn crc32_matches_the_standard_check_value() {
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    assert_eq!(crc32(b""), 0);
}

#[test]
fn round_trip_keeps_kind_and_payload() {
    let bytes = sample_image();
    assert_eq!(&bytes[..4], &MAGIC);
    assert_eq!(u16::from_le_bytes([bytes[4], bytes[5]]), FORMAT_VERSION);
    let img = image::decode(&bytes).unwrap();
    assert_eq!(img.kind, ProgramKind::XLogo);
    assert_eq!(img.payload.len(), bytes.len() - HEADER_LEN);
    let back: Sample = img.payload_as(ProgramKind::XLogo).unwrap();
    assert_eq!(back, Sample { name: "square".into(), steps: vec![1, 2, 3, 400_000] });
}

#[test]
fn every_truncation_is_rejected() {
    let bytes = sample_image();
    for len in 0..bytes.len() {
        let err = image::decode(&bytes[..len]).unwrap_err();
        assert!(matches!(err, ImageError::Truncated { .. }), "len {len}: {err}");
    }
}

#[test]
fn every_single_byte_corruption_is_rejected() {
    let bytes = sample_image();
    for at in 0..bytes.len() {
        for flip in [0x01u8, 0x80, 0xFF] {
            let mut bad = bytes.clone();
            bad[at] ^= flip;
            assert!(image::decode(&bad).is_err(), "byte {at} ^ {flip:#x} accepted");
        }
    }
}

#[test]
fn header_fields_give_their_own_errors() {
    let bytes = sample_image();
    let mut other = bytes.clone();
    other[4] = 2;
    assert_eq!(
        image::decode(&other),
        Err(ImageError::UnsupportedVersion { found: 2, supported: FORMAT_VERSION })
    );
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert!(matches!(image::decode(&magic), Err(ImageError::BadMagic { .. })));
    let mut kind = bytes.clone();
    kind[6] = 9;
    assert_eq!(image::decode(&kind), Err(ImageError::UnknownKind { found: 9 }));
    let mut reserved = bytes.clone();
    reserved[7] = 1;
    assert_eq!(image::decode(&reserved), Err(ImageError::ReservedByte { found: 1 }));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(image::decode(&longer), Err(ImageError::TrailingBytes { .. })));
    let mut crc = bytes.clone();
    crc[12] ^= 1;
    assert!(matches!(image::decode(&crc), Err(ImageError::Checksum { .. })));
}

#[test]
fn huge_claimed_lengths_are_not_trusted() {
    // Header announcing a 4 GiB payload over 3 bytes.
    let mut bytes = image::encode(ProgramKind::Scratch, &[1, 2, 3]).unwrap();
    bytes[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(image::decode(&bytes), Err(ImageError::Truncated { .. })));

    // A valid envelope whose postcard payload claims a 2^28-element vector.
    let payload = [0x80, 0x80, 0x80, 0x80, 0x01, 7, 7];
    let bytes = image::encode(ProgramKind::XLogo, &payload).unwrap();
    let img = image::decode(&bytes).unwrap();
    LARGEST.store(0, Ordering::Relaxed);
    let err = img.payload_as::<Vec<u64>>(ProgramKind::XLogo).unwrap_err();
    assert!(matches!(err, ImageError::Payload { .. }), "{err}");
    assert!(
        LARGEST.load(Ordering::Relaxed) < 4096,
        "allocated {}",
        LARGEST.load(Ordering::Relaxed)
    );
}

#[test]
fn payload_checks_kind_and_leftovers() {
    let bytes = sample_image();
    let img = image::decode(&bytes).unwrap();
    assert_eq!(
        img.payload_as::<Sample>(ProgramKind::Scratch),
        Err(ImageError::WrongKind { expected: ProgramKind::Scratch, found: ProgramKind::XLogo })
    );
    let bytes = image::encode(ProgramKind::Drawing, &[3, 0, 0]).unwrap();
    let img = image::decode(&bytes).unwrap();
    assert_eq!(
        img.payload_as::<u8>(ProgramKind::Drawing),
        Err(ImageError::PayloadTrailing { unused: 2 })
    );
}

#[test]
fn errors_display_what_and_where() {
    let e = image::decode(b"GO").unwrap_err();
    assert_eq!(e.to_string(), "image truncated: needs 16 bytes, has 2");
    let e = ImageError::UnsupportedVersion { found: 7, supported: 1 };
    assert_eq!(e.to_string(), "image format version 7, this build reads version 1");
}
