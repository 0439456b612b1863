//! A reusable output for encode: the core writes the bytes straight into its buffer
//! (no copy into a `Vec`), and the capacity stays for the next encode.
use crate::raw::Buffer;

/// Where [`Message::encode_to`](crate::Message::encode_to) writes: reuse one in a loop.
pub struct EncodeBuffer(pub(crate) Buffer);

// A plain byte buffer of the core's allocator: no thread affinity.
unsafe impl Send for EncodeBuffer {}
unsafe impl Sync for EncodeBuffer {}

impl EncodeBuffer {
    pub fn new() -> EncodeBuffer {
        EncodeBuffer(Buffer::new())
    }
    /// The bytes of the last encode.
    pub fn as_bytes(&self) -> &[u8] {
        self.0.as_slice()
    }
    pub fn len(&self) -> usize {
        self.0 .0.size
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Empties it, keeping the capacity.
    pub fn clear(&mut self) {
        unsafe { fbe_sys::fbe_buffer_reset(&mut self.0 .0) }
    }
}

impl Default for EncodeBuffer {
    fn default() -> EncodeBuffer {
        EncodeBuffer::new()
    }
}

impl std::fmt::Debug for EncodeBuffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EncodeBuffer({} bytes)", self.len())
    }
}
