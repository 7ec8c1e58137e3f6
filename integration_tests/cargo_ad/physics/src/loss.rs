//! A fitting loss with a C interface: harmonic springs and a soft-core repulsion (the generic
//! sums of `potential` instantiated for two more potentials) and an end-to-end distance target.

use crate::potential::{bonded, distance, nonbonded, points, Harmonic, SoftCore};

/// Parameters of [`physics_loss`], laid out as a C struct.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct LossParams {
    pub spring: f64,
    pub rest: f64,
    pub repulsion: f64,
    pub sigma: f64,
    pub target: f64,
}

/// Loss of the points `x[0..2n]`: springs, repulsion and `sqrt(1 + (d_end - target)^2)` on the
/// end-to-end distance, scaled by `exp` of the mean squared coordinate.
#[no_mangle]
pub extern "C" fn physics_loss(x: *const f64, n: usize, params: *const LossParams) -> f64 {
    let xy = unsafe { std::slice::from_raw_parts(x, 2 * n) };
    let p = unsafe { &*params };
    let springs = bonded(
        &Harmonic {
            k: p.spring,
            r0: p.rest,
        },
        xy,
    );
    let repulsion = nonbonded(
        &SoftCore {
            strength: p.repulsion,
            sigma: p.sigma,
        },
        xy,
    );
    let first = points(xy).next().unwrap_or((0.0, 0.0));
    let last = points(xy).last().unwrap_or((0.0, 0.0));
    let stretch = (1.0 + (distance(first, last) - p.target).powi(2)).sqrt();
    let spread = xy.iter().map(|c| c * c).sum::<f64>() / xy.len().max(1) as f64;
    (springs + repulsion + stretch) * (0.01 * spread).exp()
}
