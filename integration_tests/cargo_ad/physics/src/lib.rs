//! Energies of a chain of particles in the plane: pair potentials behind a trait, bond
//! lengths with `hypot`, an external field, written with iterators over slices.

pub mod chain;
pub mod loss;
pub mod potential;

pub use chain::Chain;
pub use loss::{physics_loss, LossParams};
pub use potential::{Harmonic, Morse, Potential, SoftCore};
