//! `toolgate ci`'s steps, in the order they run: gather the inputs (base, catalog, lock,
//! lint, tasks), measure (evaluate with the belt, curve and ablation, or join the shards),
//! decide (compare with the base, ask the gate), keep what a measured run leaves behind
//! (baseline, badge), and publish (ci.json, JUnit, the comment, the summary, step outputs).
//! Each step hands the next plain data; none reads back what an earlier one wrote.

mod decide;
mod gather;
mod keep;
mod measure;
mod publish;
mod trail;

pub(super) use decide::{Verdict, decide};
pub(crate) use gather::{Inputs, Source, gather};
pub(super) use keep::keep;
pub(super) use measure::{Measured, measure};
pub(super) use publish::{Publish, publish};
pub(super) use trail::Trail;
