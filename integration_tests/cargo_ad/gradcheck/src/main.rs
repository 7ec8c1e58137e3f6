//! Gradients of `physics` functions, generated at link time from `ltoad.yaml` (in the workspace
//! root), checked against central finite differences of the functions themselves.
//!
//! In `ltoad.yaml` each derivative lists one activity per parameter of the function as LLVM sees
//! it: a `&[f64]` parameter is two parameters there, the data pointer (`dup`) and the length
//! (`const`); a reference or raw pointer is one pointer. The generated function takes each
//! `dup` pointer followed by its shadow, into which the gradient is added, and returns nothing
//! when no argument is `out`. So `physics::chain::energy(xy: &[f64], chain: &Chain) -> f64` with
//! `args: [dup, const, const]` is declared here as `grad_energy(xy, dxy, len, chain)`.

use std::process::ExitCode;

use physics::{chain, physics_loss, Chain, LossParams, Morse, SoftCore};

// `Chain` is only passed by reference, so its Rust layout is never relied on from outside.
#[allow(improper_ctypes)]
extern "C" {
    /// Adds d physics_loss / dx to `dx` (`args: [dup, const, const]`).
    fn grad_loss(x: *const f64, dx: *mut f64, n: usize, params: *const LossParams);
    /// Adds d physics::chain::energy / dxy to `dxy` (`args: [dup, const, const]`).
    fn grad_energy(xy: *const f64, dxy: *mut f64, len: usize, chain: *const Chain);
    /// Adds d physics::chain::smoothness / dxy to `dxy` (`args: [dup, const]`).
    #[cfg(feature = "heap")]
    fn grad_smoothness(xy: *const f64, dxy: *mut f64, len: usize);
    /// Adds d physics::chain::zipped_energy / dxy to `dxy` (`args: [dup, const, const]`).
    #[cfg(feature = "zipped")]
    fn grad_zipped_energy(xy: *const f64, dxy: *mut f64, len: usize, chain: *const Chain);
}

const TOLERANCE: f64 = 1e-6;

/// Central differences of `f` at `x`, one coordinate at a time.
fn finite_differences(x: &[f64], f: impl Fn(&[f64]) -> f64) -> Vec<f64> {
    let mut probe = x.to_vec();
    (0..x.len())
        .map(|i| {
            let h = 1e-6 * x[i].abs().max(1.0);
            probe[i] = x[i] + h;
            let up = f(&probe);
            probe[i] = x[i] - h;
            let down = f(&probe);
            probe[i] = x[i];
            (up - down) / (2.0 * h)
        })
        .collect()
}

/// Largest `|ad - fd| / max(1, |fd|)` over the components.
fn max_relative_error(ad: &[f64], fd: &[f64]) -> f64 {
    ad.iter()
        .zip(fd)
        .map(|(a, f)| (a - f).abs() / f.abs().max(1.0))
        .fold(0.0, f64::max)
}

/// Prints both gradients and the error; true when the gradient is nonzero and within tolerance.
fn check(what: &str, value: f64, ad: &[f64], fd: &[f64]) -> bool {
    let error = max_relative_error(ad, fd);
    println!("{what}: value={value:.12e} n={}", ad.len());
    for (i, (a, f)) in ad.iter().zip(fd).enumerate() {
        println!("  d[{i}] ad={a:+.12e} fd={f:+.12e}");
    }
    println!("{what}: max_rel_error={error:.3e}");
    let nonzero = ad.iter().all(|a| a.is_finite()) && ad.iter().any(|a| *a != 0.0);
    nonzero && error <= TOLERANCE
}

/// A zigzag of `n` points with some irregularity.
fn zigzag(n: usize) -> Vec<f64> {
    (0..n)
        .flat_map(|i| {
            let t = i as f64;
            [
                1.1 * t + 0.1 * (1.7 * t).sin(),
                0.4 * (-1f64).powi(i as i32) + 0.05 * t,
            ]
        })
        .collect()
}

fn main() -> ExitCode {
    let n = 7;
    let x = zigzag(n);
    let mut ok = true;

    let params = LossParams {
        spring: 3.0,
        rest: 1.0,
        repulsion: 0.5,
        sigma: 0.8,
        target: 5.0,
    };
    let mut dx = vec![0.0; x.len()];
    unsafe { grad_loss(x.as_ptr(), dx.as_mut_ptr(), n, &params) };
    let loss = |x: &[f64]| physics_loss(x.as_ptr(), x.len() / 2, &params);
    ok &= check("physics_loss", loss(&x), &dx, &finite_differences(&x, loss));

    let chain = Chain {
        bond: Morse {
            depth: 2.0,
            width: 1.3,
            r0: 1.0,
        },
        repulsion: SoftCore {
            strength: 0.3,
            sigma: 0.9,
        },
        field: (0..n).map(|i| 0.2 + 0.05 * i as f64).collect(),
        bending: 0.7,
    };
    let mut dxy = vec![0.0; x.len()];
    unsafe { grad_energy(x.as_ptr(), dxy.as_mut_ptr(), x.len(), &chain) };
    let energy = |x: &[f64]| chain::energy(x, &chain);
    ok &= check(
        "physics::chain::energy",
        energy(&x),
        &dxy,
        &finite_differences(&x, energy),
    );

    #[cfg(feature = "heap")]
    {
        let mut ds = vec![0.0; x.len()];
        unsafe { grad_smoothness(x.as_ptr(), ds.as_mut_ptr(), x.len()) };
        let smoothness = |x: &[f64]| chain::smoothness(x);
        ok &= check(
            "physics::chain::smoothness",
            smoothness(&x),
            &ds,
            &finite_differences(&x, smoothness),
        );
    }

    #[cfg(feature = "zipped")]
    {
        let mut dz = vec![0.0; x.len()];
        unsafe { grad_zipped_energy(x.as_ptr(), dz.as_mut_ptr(), x.len(), &chain) };
        let zipped = |x: &[f64]| chain::zipped_energy(x, &chain);
        ok &= check(
            "physics::chain::zipped_energy",
            zipped(&x),
            &dz,
            &finite_differences(&x, zipped),
        );
    }

    if ok {
        println!("gradients match finite differences (tolerance {TOLERANCE:e})");
        ExitCode::SUCCESS
    } else {
        println!("gradient check FAILED (tolerance {TOLERANCE:e})");
        ExitCode::FAILURE
    }
}
