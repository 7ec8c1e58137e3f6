//! Small numerical toolkit: 3-vectors, an N-body integrator, quadrature and statistics.

pub mod nbody;
pub mod quad;
pub mod stats;
pub mod vec3;

pub use nbody::{Body, System};
pub use quad::{gauss_legendre5, simpson, Integrand};
pub use stats::{moving_average, Summary};
pub use vec3::Vec3;
