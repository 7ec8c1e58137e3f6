//! Pair potentials as functions of a distance, and sums of them over a chain.

/// A potential energy as a function of the distance between two particles.
pub trait Potential {
    fn energy(&self, r: f64) -> f64;
}

/// Morse bond: `depth * (1 - exp(-width * (r - r0)))^2`.
#[derive(Clone, Copy, Debug)]
pub struct Morse {
    pub depth: f64,
    pub width: f64,
    pub r0: f64,
}

impl Potential for Morse {
    fn energy(&self, r: f64) -> f64 {
        self.depth * (1.0 - (-self.width * (r - self.r0)).exp()).powi(2)
    }
}

/// Harmonic spring `k / 2 * (r - r0)^2`.
#[derive(Clone, Copy, Debug)]
pub struct Harmonic {
    pub k: f64,
    pub r0: f64,
}

impl Potential for Harmonic {
    fn energy(&self, r: f64) -> f64 {
        0.5 * self.k * (r - self.r0).powi(2)
    }
}

/// A repulsion that stays finite at contact: `strength * ln(1 + (sigma / r)^6)`.
#[derive(Clone, Copy, Debug)]
pub struct SoftCore {
    pub strength: f64,
    pub sigma: f64,
}

impl Potential for SoftCore {
    fn energy(&self, r: f64) -> f64 {
        self.strength * (1.0 + (self.sigma / r).powi(6)).ln()
    }
}

/// Points of the plane stored as `[x0, y0, x1, y1, ...]`.
pub fn points(xy: &[f64]) -> impl Iterator<Item = (f64, f64)> + Clone + '_ {
    xy.chunks_exact(2).map(|p| (p[0], p[1]))
}

/// Distance between two points.
pub fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    (b.0 - a.0).hypot(b.1 - a.1)
}

/// Sum of `potential` over the bonds between consecutive points.
pub fn bonded<P: Potential>(potential: &P, xy: &[f64]) -> f64 {
    xy.windows(4)
        .step_by(2)
        .map(|w| potential.energy(distance((w[0], w[1]), (w[2], w[3]))))
        .sum()
}

/// [`bonded`] written as `points(xy)` zipped with `points(xy).skip(1)`: a `Zip` of mapped
/// `ChunksExact` iterators, which reads its items through `get_unchecked` from an iterator struct
/// the optimizer fills with pointers stored as integers.
pub fn bonded_zipped<P: Potential>(potential: &P, xy: &[f64]) -> f64 {
    points(xy)
        .zip(points(xy).skip(1))
        .map(|(a, b)| potential.energy(distance(a, b)))
        .sum()
}

/// Sum of `potential` over the pairs of points two bonds or more apart.
pub fn nonbonded<P: Potential>(potential: &P, xy: &[f64]) -> f64 {
    let n = xy.len() / 2;
    let mut total = 0.0;
    for i in 0..n {
        for j in i + 2..n {
            let a = (xy[2 * i], xy[2 * i + 1]);
            let b = (xy[2 * j], xy[2 * j + 1]);
            total += potential.energy(distance(a, b));
        }
    }
    total
}
