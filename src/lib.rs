//! tool-result-pruner: prunes the tool results coding agents keep in context.
//!
//! The core works on text as UTF-16 code units (as JavaScript holds it) and
//! knows nothing of Node. [`strategy`] holds the two transforms: upstream's
//! [`head_tail`](strategy::head_tail) and the failure-aware
//! [`lines`](strategy::lines) plan, which reads [`signals`] and writes
//! [`markers`] named by [`hash`]es. [`session`] prunes and searches a whole
//! session log through a trait. The Node-API binding (feature `napi`, on by
//! default) is glue over these modules.
#![deny(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks, unsafe_op_in_unsafe_fn)]

pub mod command_kind;
pub mod config;
pub mod content;
pub mod explain;
#[cfg(any(test, feature = "guarantees"))]
pub mod guarantees;
pub mod hash;
pub mod kernels;
pub mod markers;
pub mod pages;
pub mod parallel;
pub mod policy;
pub mod session;
pub mod signals;
pub mod strategy;
pub mod substring;
pub mod text;
pub mod text_plan;
mod words;
#[cfg(feature = "zstd")]
pub mod zstd;

#[cfg(feature = "napi")]
mod binding;
