//! The program-image envelope: the one container every compiled program travels in (to a
//! classroom kit's flash, between hosts). A 16-byte header (magic, format version, program kind,
//! payload length, CRC-32) followed by a postcard payload whose shape depends on the kind.
//!
//! What lives here: encoding and checked decoding of the envelope, and the CRC-32. What does not:
//! the payload types themselves (each subsystem owns its own; see `docs/program-image.md`).
//!
//! Decoding never panics and never allocates: [`decode`] borrows the payload from the input after
//! checking every header field against the bytes actually present.

use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

/// The four bytes every program image starts with.
pub const MAGIC: [u8; 4] = *b"GOBO";

/// The envelope format version this crate writes and the only one it reads.
pub const FORMAT_VERSION: u16 = 1;

/// Length of the fixed header in bytes.
pub const HEADER_LEN: usize = 16;

/// Which subsystem's payload an image carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum ProgramKind {
    /// A compiled Scratch 3 project.
    Scratch = 1,
    /// An XLogo-Mini task with the code to run on it.
    XLogo = 2,
    /// A DrawingBench canvas with an action sequence.
    Drawing = 3,
}

impl ProgramKind {
    /// The kind for a header byte, if it names one.
    pub fn from_byte(byte: u8) -> Option<Self> {
        match byte {
            1 => Some(Self::Scratch),
            2 => Some(Self::XLogo),
            3 => Some(Self::Drawing),
            _ => None,
        }
    }

    /// The lower-case name used in messages and documentation.
    pub fn name(self) -> &'static str {
        match self {
            Self::Scratch => "scratch",
            Self::XLogo => "xlogo",
            Self::Drawing => "drawing",
        }
    }
}

impl fmt::Display for ProgramKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why an image could not be written or read. Offsets are byte offsets into the image.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ImageError {
    /// The image ends before the header or the payload it announces is complete.
    Truncated {
        /// Bytes the header (or header + announced payload) needs.
        needed: usize,
        /// Bytes present.
        found: usize,
    },
    /// The first four bytes are not [`MAGIC`]: not a gobo program image.
    BadMagic {
        /// The bytes found at offset 0.
        found: [u8; 4],
    },
    /// The image was written by another format version.
    UnsupportedVersion {
        /// Version in the header (offset 4).
        found: u16,
        /// The version this build reads.
        supported: u16,
    },
    /// The kind byte (offset 6) names no known program kind.
    UnknownKind {
        /// The byte found.
        found: u8,
    },
    /// The reserved byte (offset 7) is not zero.
    ReservedByte {
        /// The byte found.
        found: u8,
    },
    /// More bytes follow the announced payload.
    TrailingBytes {
        /// Header + announced payload length.
        expected: usize,
        /// Bytes present.
        found: usize,
    },
    /// The CRC-32 over header and payload does not match: the image is corrupted.
    Checksum {
        /// CRC stored at offset 12.
        stored: u32,
        /// CRC computed over the bytes present.
        computed: u32,
    },
    /// The payload is longer than a 32-bit length can announce.
    PayloadTooLarge {
        /// Payload length in bytes.
        len: usize,
    },
    /// The image carries another kind of program than the caller expects.
    WrongKind {
        /// The kind the caller asked for.
        expected: ProgramKind,
        /// The kind in the header.
        found: ProgramKind,
    },
    /// The payload does not decode as the kind's payload type.
    Payload {
        /// What postcard reported.
        error: postcard::Error,
    },
    /// The payload decoded but bytes are left over after it.
    PayloadTrailing {
        /// Number of unused bytes at the end of the payload.
        unused: usize,
    },
}

impl fmt::Display for ImageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Truncated { needed, found } => {
                write!(f, "image truncated: needs {needed} bytes, has {found}")
            }
            Self::BadMagic { found } => write!(f, "not a gobo image: magic {found:02x?}"),
            Self::UnsupportedVersion { found, supported } => {
                write!(f, "image format version {found}, this build reads version {supported}")
            }
            Self::UnknownKind { found } => write!(f, "unknown program kind {found} at byte 6"),
            Self::ReservedByte { found } => write!(f, "reserved byte 7 is {found}, not 0"),
            Self::TrailingBytes { expected, found } => {
                write!(f, "image has {found} bytes, header announces {expected}")
            }
            Self::Checksum { stored, computed } => {
                write!(f, "image corrupted: CRC-32 {computed:08x}, header says {stored:08x}")
            }
            Self::PayloadTooLarge { len } => write!(f, "payload of {len} bytes exceeds 4 GiB"),
            Self::WrongKind { expected, found } => {
                write!(f, "image holds a {found} program, expected {expected}")
            }
            Self::Payload { error } => write!(f, "payload does not decode: {error}"),
            Self::PayloadTrailing { unused } => {
                write!(f, "payload has {unused} unused bytes at its end")
            }
        }
    }
}

impl core::error::Error for ImageError {}

/// A checked, borrowed view of a decoded image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Image<'a> {
    /// The program kind from the header.
    pub kind: ProgramKind,
    /// The payload bytes (not yet decoded).
    pub payload: &'a [u8],
}

impl<'a> Image<'a> {
    /// Decodes the payload as `T`, checking the kind first and that no bytes are left over.
    pub fn payload_as<T: Deserialize<'a>>(&self, expected: ProgramKind) -> Result<T, ImageError> {
        if self.kind != expected {
            return Err(ImageError::WrongKind { expected, found: self.kind });
        }
        let (value, rest) = postcard::take_from_bytes(self.payload)
            .map_err(|error| ImageError::Payload { error })?;
        if !rest.is_empty() {
            return Err(ImageError::PayloadTrailing { unused: rest.len() });
        }
        Ok(value)
    }
}

/// Wraps already-serialized payload bytes in an envelope.
pub fn encode(kind: ProgramKind, payload: &[u8]) -> Result<Vec<u8>, ImageError> {
    let len = u32::try_from(payload.len())
        .map_err(|_| ImageError::PayloadTooLarge { len: payload.len() })?;
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(kind as u8);
    out.push(0);
    out.extend_from_slice(&len.to_le_bytes());
    let crc = Crc32::new().update(&out).update(payload).finish();
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(payload);
    Ok(out)
}

/// Serializes `value` with postcard and wraps it in an envelope of `kind`.
pub fn encode_payload<T: Serialize>(kind: ProgramKind, value: &T) -> Result<Vec<u8>, ImageError> {
    let payload = postcard::to_allocvec(value).map_err(|error| ImageError::Payload { error })?;
    encode(kind, &payload)
}

/// Checks an image's header and checksum and borrows its payload. Checks run in header order
/// (length, magic, version, kind, reserved byte, payload length, CRC), so the first problem
/// found is the one reported.
pub fn decode(bytes: &[u8]) -> Result<Image<'_>, ImageError> {
    let Some((header, payload)) = bytes.split_first_chunk::<HEADER_LEN>() else {
        return Err(ImageError::Truncated { needed: HEADER_LEN, found: bytes.len() });
    };
    let field = |at: usize| [header[at], header[at + 1], header[at + 2], header[at + 3]];
    let magic = field(0);
    if magic != MAGIC {
        return Err(ImageError::BadMagic { found: magic });
    }
    let version = u16::from_le_bytes([header[4], header[5]]);
    if version != FORMAT_VERSION {
        return Err(ImageError::UnsupportedVersion { found: version, supported: FORMAT_VERSION });
    }
    let kind =
        ProgramKind::from_byte(header[6]).ok_or(ImageError::UnknownKind { found: header[6] })?;
    if header[7] != 0 {
        return Err(ImageError::ReservedByte { found: header[7] });
    }
    // A u32 always fits the usize of the targets gobo supports (32 and 64 bit); saturate anyway.
    let announced = usize::try_from(u32::from_le_bytes(field(8))).unwrap_or(usize::MAX);
    let needed = HEADER_LEN.saturating_add(announced);
    if payload.len() < announced {
        return Err(ImageError::Truncated { needed, found: bytes.len() });
    }
    if payload.len() > announced {
        return Err(ImageError::TrailingBytes { expected: needed, found: bytes.len() });
    }
    let stored = u32::from_le_bytes(field(12));
    let computed = Crc32::new().update(&header[..12]).update(payload).finish();
    if stored != computed {
        return Err(ImageError::Checksum { stored, computed });
    }
    Ok(Image { kind, payload })
}

/// Incremental CRC-32 (IEEE 802.3: reflected polynomial 0xEDB88320, initial value and final
/// XOR 0xFFFFFFFF), the checksum of zlib, PNG and Ethernet. `crc32(b"123456789") == 0xCBF43926`.
#[derive(Debug, Clone, Copy)]
pub struct Crc32 {
    state: u32,
}

const CRC_TABLE: [u32; 256] = crc_table();

const fn crc_table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut n = 0;
    while n < 256 {
        let mut c = n as u32;
        let mut bit = 0;
        while bit < 8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
            bit += 1;
        }
        table[n] = c;
        n += 1;
    }
    table
}

impl Default for Crc32 {
    fn default() -> Self {
        Self::new()
    }
}

impl Crc32 {
    /// A CRC over no bytes yet.
    pub const fn new() -> Self {
        Self { state: 0xFFFF_FFFF }
    }

    /// Feeds `bytes` into the CRC.
    #[must_use]
    pub fn update(mut self, bytes: &[u8]) -> Self {
        for &b in bytes {
            let index = usize::from((self.state as u8) ^ b);
            self.state = CRC_TABLE[index] ^ (self.state >> 8);
        }
        self
    }

    /// The CRC of all bytes fed so far.
    pub fn finish(self) -> u32 {
        !self.state
    }
}

/// CRC-32 of `bytes` (see [`Crc32`]).
pub fn crc32(bytes: &[u8]) -> u32 {
    Crc32::new().update(bytes).finish()
}
