//! tool-result-pruner: prunes the tool results coding agents keep in context.
//!
//! The core works on text as UTF-16 code units (as JavaScript holds it) and
//! knows nothing of Node: [`head_tail`] is upstream's transform, [`lines`],
//! [`markers`], [`signals`] and [`select`] make the failure-aware line plan,
//! [`strategy`] picks one, and [`session`] prunes a whole session log through
//! a trait. The Node-API binding (feature `napi`, on by default) is glue over
//! these modules.

pub mod config;
pub mod content;
#[cfg(any(test, feature = "guarantees"))]
pub mod guarantees;
pub mod head_tail;
pub mod lines;
pub mod markers;
pub mod parallel;
pub mod select;
pub mod session;
pub mod signals;
pub mod strategy;
pub mod text;

#[cfg(feature = "napi")]
mod binding;
