//! The two wire models and the limits against hostile input (`fbe_limits`).
use fbe_sys as sys;

use crate::error::{check, raw, Result};

/// The wire model: `Standard` (versioned: sizes, type ids, offsets) or `Final`
/// (compact, everything inline).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Model {
    #[default]
    Standard,
    Final,
}

impl Model {
    pub(crate) fn raw(self) -> sys::fbe_model {
        match self {
            Model::Standard => sys::FBE_MODEL_STANDARD,
            Model::Final => sys::FBE_MODEL_FINAL,
        }
    }
}

impl std::str::FromStr for Model {
    type Err = crate::Error;
    /// `"standard"` or `"final"`; anything else is the core's `FBE_ERR_ARGUMENT`.
    fn from_str(name: &str) -> Result<Model> {
        let mut out = 0;
        let mut err = raw();
        let s = unsafe { sys::fbe_model_parse(name.as_ptr() as _, name.len(), &mut out, &mut err) };
        check(s, &err)?;
        Ok(if out == sys::FBE_MODEL_FINAL { Model::Final } else { Model::Standard })
    }
}

/// Limits of verify, decode, JSON reading and the receivers (docs/HARDENING.md). The
/// names, ranges and error texts are the core's (`fbe_limits_set`).
#[derive(Clone, Copy)]
pub struct Limits {
    pub(crate) raw: sys::fbe_limits,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { raw: unsafe { sys::fbe_limits_default() } }
    }
}

impl Limits {
    /// Sets `max_depth`, `max_model_size` or `max_memory` (0: the default).
    pub fn set(&mut self, name: &str, value: i64) -> Result<&mut Limits> {
        let c = crate::raw::cstring(name);
        let mut err = raw();
        let s = unsafe { sys::fbe_limits_set(&mut self.raw, c.as_ptr(), value, &mut err) };
        check(s, &err).map(|_| self)
    }
    pub fn max_depth(&self) -> u32 {
        self.raw.max_depth
    }
    pub fn max_model_size(&self) -> u64 {
        self.raw.max_model_size
    }
    pub fn max_memory(&self) -> u64 {
        self.raw.max_memory
    }
}
