//! A chain of particles held by Morse bonds, with a soft-core repulsion, an external field and
//! a bending stiffness.

use crate::potential::{bonded, bonded_zipped, distance, nonbonded, Harmonic, Morse, SoftCore};

/// Parameters of the chain energy.
#[derive(Clone, Debug)]
pub struct Chain {
    pub bond: Morse,
    pub repulsion: SoftCore,
    /// Strength of the field `sin(x) * cos(y)` felt by each particle.
    pub field: Vec<f64>,
    /// Weight of the bending term.
    pub bending: f64,
}

/// Total energy of the chain at positions `xy` (`[x0, y0, x1, y1, ...]`).
pub fn energy(xy: &[f64], chain: &Chain) -> f64 {
    let bonds = bonded(&chain.bond, xy);
    let contacts = nonbonded(&chain.repulsion, xy);
    let field: f64 = xy
        .chunks_exact(2)
        .zip(chain.field.iter())
        .map(|(p, strength)| strength * p[0].sin() * p[1].cos())
        .sum();
    bonds + contacts + field + chain.bending * bending(xy)
}

/// Sum over the inner points of `1 - cos(angle)` between the two bonds that meet there.
fn bending(xy: &[f64]) -> f64 {
    xy.windows(6)
        .step_by(2)
        .map(|w| {
            let u = (w[2] - w[0], w[3] - w[1]);
            let v = (w[4] - w[2], w[5] - w[3]);
            let lengths = ((u.0.powi(2) + u.1.powi(2)) * (v.0.powi(2) + v.1.powi(2))).sqrt();
            1.0 - (u.0 * v.0 + u.1 * v.1) / lengths
        })
        .sum()
}

/// Mean squared difference between consecutive bond lengths. The lengths are first collected
/// into a `Vec`, so the active values pass through heap memory from Rust's allocator.
pub fn smoothness(xy: &[f64]) -> f64 {
    let lengths: Vec<f64> = xy
        .windows(4)
        .step_by(2)
        .map(|w| distance((w[0], w[1]), (w[2], w[3])))
        .collect();
    let steps = lengths
        .windows(2)
        .map(|w| (w[1] - w[0]).powi(2))
        .sum::<f64>();
    steps / lengths.len().max(1) as f64
}

/// [`energy`] with the bonds summed by [`bonded_zipped`], plus weak harmonic springs summed the
/// same way (two instances of `bonded_zipped` share the iterator code).
pub fn zipped_energy(xy: &[f64], chain: &Chain) -> f64 {
    let springs = bonded_zipped(
        &Harmonic {
            k: 0.1,
            r0: chain.bond.r0,
        },
        xy,
    );
    bonded_zipped(&chain.bond, xy) + springs + energy(xy, chain) - bonded(&chain.bond, xy)
}
