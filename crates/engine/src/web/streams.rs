//! The bytes a hashing job hashes in the browser, read one slice at a time on the coordinator: from
//! the `File` the UI posted beside the request, or from the generated stream.

use super::describe;
use crate::driver::SliceSource;
use crate::kernels::hashing::hash_parameters;
use experiments::protocol::{Failure, FailureKind};
use experiments::{HashSource, Job};
use workloads::hashing::fill_generated;

/// Read bytes `offset..offset + length` of the attached file (the coordinator is a worker, so it
/// may read synchronously).
fn read_file_slice(file: &web_sys::File, offset: u64, length: usize) -> Result<Vec<u8>, Failure> {
    let unreadable = |e| Failure::new(FailureKind::FileUnreadable, format!("reading the file: {}", describe(e)));
    let blob = file.slice_with_f64_and_f64(offset as f64, (offset + length as u64) as f64).map_err(unreadable)?;
    let reader = web_sys::FileReaderSync::new().map_err(|e| Failure::from(describe(e)))?;
    let buffer = reader.read_as_array_buffer(&blob).map_err(unreadable)?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Where a hashing job's bytes come from: the attached file, or the generator.
pub(super) struct HashInput {
    file: Option<web_sys::File>,
    source: HashSource,
    #[cfg_attr(target_feature = "atomics", allow(dead_code, reason = "read by message workers only"))]
    pub slice_bytes: u32,
    #[cfg_attr(target_feature = "atomics", allow(dead_code, reason = "read by message workers only"))]
    pub total: u64,
}

impl HashInput {
    /// The bytes of `job`, a hashing job; `file` is the one sent with its request, if any.
    pub fn of(job: &Job, file: Option<&web_sys::File>) -> Result<HashInput, String> {
        let (source, slice_bytes) = hash_parameters(job).ok_or("not a hashing job")?;
        let file = match source {
            HashSource::File { .. } => Some(file.cloned().ok_or("no file was sent with the request")?),
            HashSource::Generated { .. } => None,
        };
        let total = match source {
            HashSource::Generated { bytes, .. } | HashSource::File { bytes, .. } => *bytes,
        };
        Ok(HashInput { file, source: source.clone(), slice_bytes, total })
    }

    /// Bytes `offset..offset + length`: read from the file, or generated.
    pub fn slice(&self, offset: u64, length: usize) -> Result<Vec<u8>, Failure> {
        match (&self.file, &self.source) {
            (Some(file), _) => read_file_slice(file, offset, length),
            (None, HashSource::Generated { seed, .. }) => {
                let mut slice = vec![0u8; length];
                fill_generated(&mut slice, offset, *seed);
                Ok(slice)
            }
            (None, HashSource::File { .. }) => unreachable!("attached in HashInput::of"),
        }
    }
}

impl SliceSource for HashInput {
    fn slice(&mut self, offset: u64, length: usize) -> Result<Vec<u8>, Failure> {
        HashInput::slice(self, offset, length)
    }
}
