/// Anything that can be evaluated at a point.
pub trait Integrand {
    fn eval(&self, x: f64) -> f64;
}

impl<F: Fn(f64) -> f64> Integrand for F {
    fn eval(&self, x: f64) -> f64 {
        self(x)
    }
}

/// A polynomial with coefficients in increasing degree, evaluated with Horner's rule.
#[derive(Debug, Clone)]
pub struct Polynomial(pub Vec<f64>);

impl Integrand for Polynomial {
    fn eval(&self, x: f64) -> f64 {
        self.0.iter().rev().fold(0.0, |acc, c| acc * x + c)
    }
}

/// Composite Simpson rule with n (rounded up to even) intervals.
pub fn simpson<I: Integrand + ?Sized>(f: &I, a: f64, b: f64, n: usize) -> f64 {
    let n = if n % 2 == 1 { n + 1 } else { n.max(2) };
    let h = (b - a) / n as f64;
    let inner: f64 = (1..n)
        .map(|i| {
            let w = if i % 2 == 1 { 4.0 } else { 2.0 };
            w * f.eval(a + i as f64 * h)
        })
        .sum();
    (f.eval(a) + inner + f.eval(b)) * h / 3.0
}

const GL5_NODES: [f64; 5] = [
    -0.906_179_845_938_664,
    -0.538_469_310_105_683,
    0.0,
    0.538_469_310_105_683,
    0.906_179_845_938_664,
];
const GL5_WEIGHTS: [f64; 5] = [
    0.236_926_885_056_189,
    0.478_628_670_499_366,
    0.568_888_888_888_889,
    0.478_628_670_499_366,
    0.236_926_885_056_189,
];

/// Five-point Gauss-Legendre rule on each of `panels` sub-intervals.
pub fn gauss_legendre5(f: &dyn Integrand, a: f64, b: f64, panels: usize) -> f64 {
    let width = (b - a) / panels as f64;
    (0..panels)
        .map(|p| {
            let lo = a + p as f64 * width;
            let mid = lo + 0.5 * width;
            GL5_NODES
                .iter()
                .zip(GL5_WEIGHTS.iter())
                .map(|(x, w)| w * f.eval(mid + 0.5 * width * x))
                .sum::<f64>()
                * 0.5
                * width
        })
        .sum()
}
