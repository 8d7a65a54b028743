//! Veil's fuzz targets share these: the checks each target runs on one input, and a slow,
//! independent model of the move rules to check the engine's move generator against.

pub mod checks;
pub mod data;
pub mod slow;
