//! zstd frames, as the opening's solution and the packed solution keep their values: written at
//! level 19 through the C library when built with the feature `strong-compression` (the
//! default), else at ruzstd's only level (about zstd's level 1); read by the C library in such a
//! build, else by ruzstd, so a build without default features never needs the C library.

use crate::box_error::BoxError;

/// Why a frame does not give back its bytes.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    /// The C library gave no decompression context.
    #[error("does not unpack: no zstd context: {0}")]
    NoContext(std::io::Error),
    /// The frame decodes, to another length than its bytes'.
    #[error("unpacks to {got} bytes, not {want}")]
    Length {
        /// The bytes it decodes to.
        got: usize,
        /// The bytes it must give.
        want: usize,
    },
    /// The frame does not decode: the decoder's error.
    #[error("does not unpack: {0}")]
    Undecodable(BoxError),
    /// The pure decoder panicked on the frame.
    #[error("does not unpack: the decoder failed")]
    DecoderFailed,
}

/// The four bytes every zstd frame starts with (a packed table of format 3 leaves them out of its
/// frames, `packed_table`).
pub const MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// How hard a frame is packed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effort {
    /// The strongest level this build has (zstd's 19): what a packed set ships.
    Strong,
    /// zstd's level 3, about 50 times faster than 19 for about a quarter more bytes of a moving
    /// table's values: what a build keeps its finished tables in until they are packed.
    Fast,
}

/// `bytes` as one zstd frame (the strongest level this build has).
pub fn compress(bytes: &[u8]) -> Vec<u8> {
    compress_with(bytes, Effort::Strong)
}

/// `bytes` as one zstd frame, packed with `effort` (a build without the C library has one
/// level only, about zstd's 1).
pub fn compress_with(bytes: &[u8], effort: Effort) -> Vec<u8> {
    #[cfg(feature = "strong-compression")]
    {
        let level = match effort {
            Effort::Strong => 19,
            Effort::Fast => 3,
        };
        if let Ok(frame) = zstd::bulk::compress(bytes, level) {
            return frame;
        }
    }
    let _ = effort;
    ruzstd::encoding::compress_to_vec(bytes, ruzstd::encoding::CompressionLevel::Fastest)
}

/// Whether this build writes frames at zstd's level 19 (`strong-compression`).
pub fn strong() -> bool {
    cfg!(feature = "strong-compression")
}

/// The bytes of the zstd frame `frame`, which must come to `want` bytes: a frame that does not
/// decode, or decodes to another length, is an error saying so (a decoder that panics on a frame
/// it does not expect costs the frame, not the engine).
pub fn decompress(frame: &[u8], want: usize) -> Result<Vec<u8>, FrameError> {
    let out = decompress_up_to(frame, want)?;
    if out.len() != want {
        return Err(FrameError::Length {
            got: out.len(),
            want,
        });
    }
    Ok(out)
}

/// The bytes of the zstd frame `frame`, at most `most` of them: a frame that does not decode,
/// or to more bytes, is an error saying so.
pub fn decompress_up_to(frame: &[u8], most: usize) -> Result<Vec<u8>, FrameError> {
    // The C library unpacks about 2.4 times faster: a build that has it uses it.
    #[cfg(feature = "strong-compression")]
    let out = decompress_c(frame, most);
    #[cfg(not(feature = "strong-compression"))]
    let out = decompress_pure(frame, most);
    out
}

/// `decompress_up_to` through the C library, with the calling thread's own decompression context: a
/// context is about a hundred kilobytes to allocate and clear, which cost more than unpacking a
/// block of 4 KiB did when each frame had a new one.
#[cfg(feature = "strong-compression")]
fn decompress_c(frame: &[u8], most: usize) -> Result<Vec<u8>, FrameError> {
    use std::cell::RefCell;
    thread_local! {
        static CONTEXT: RefCell<Option<zstd::bulk::Decompressor<'static>>> =
            const { RefCell::new(None) };
    }
    CONTEXT.with(|cell| {
        let mut context = cell.borrow_mut();
        if context.is_none() {
            *context = Some(zstd::bulk::Decompressor::new().map_err(FrameError::NoContext)?);
        }
        let context = context.as_mut().expect("made above");
        // One byte of room more than allowed, so that a frame too long is told from a whole one.
        match context.decompress(frame, most + 1) {
            Ok(out) if out.len() <= most => Ok(out),
            Ok(out) => Err(FrameError::Length {
                got: out.len(),
                want: most,
            }),
            Err(e) => Err(FrameError::Undecodable(Box::new(e))),
        }
    })
}

/// `decompress_up_to` in pure Rust (ruzstd), with the calling thread's own decoder (made again after
/// a frame it failed on).
#[cfg_attr(feature = "strong-compression", allow(dead_code))]
fn decompress_pure(frame: &[u8], most: usize) -> Result<Vec<u8>, FrameError> {
    use ruzstd::decoding::FrameDecoder;
    use std::cell::RefCell;
    thread_local! {
        static DECODER: RefCell<Option<FrameDecoder>> = const { RefCell::new(None) };
    }
    DECODER.with(|cell| {
        let mut decoder = cell.borrow_mut();
        let d = decoder.get_or_insert_with(FrameDecoder::new);
        let mut out = Vec::with_capacity(most);
        let decoded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            d.decode_all_to_vec(frame, &mut out)
        }));
        let result = match decoded {
            Ok(Ok(())) if out.len() <= most => return Ok(out),
            Ok(Ok(())) => Err(FrameError::Length {
                got: out.len(),
                want: most,
            }),
            Ok(Err(e)) => Err(FrameError::Undecodable(Box::new(e))),
            Err(_) => Err(FrameError::DecoderFailed),
        };
        *decoder = None;
        result
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_unpacks_to_its_bytes_and_a_damaged_one_is_an_error() {
        let bytes: Vec<u8> = (0..70_000u32).map(|i| (i % 251 / 50) as u8).collect();
        let frame = compress(&bytes);
        assert!(frame.len() < bytes.len() / 4, "{} bytes", frame.len());
        assert_eq!(decompress(&frame, bytes.len()).unwrap(), bytes);
        let e = decompress(&frame, bytes.len() + 1).unwrap_err().to_string();
        assert!(e.contains("not 70001"), "{e}");
        let e = decompress(&frame[..frame.len() / 2], bytes.len())
            .unwrap_err()
            .to_string();
        assert!(e.contains("does not unpack"), "{e}");
        // The thread's context unpacks the next frame as well after one that failed.
        assert_eq!(decompress(&frame, bytes.len()).unwrap(), bytes);
        // The pure reader, whichever this build uses.
        assert_eq!(decompress_pure(&frame, bytes.len()).unwrap(), bytes);
        let e = decompress_pure(&frame[..frame.len() / 2], bytes.len())
            .unwrap_err()
            .to_string();
        assert!(e.contains("does not unpack"), "{e}");
        assert_eq!(decompress_pure(&frame, bytes.len()).unwrap(), bytes);
    }
}
