/// Descriptive statistics over a slice of anything convertible to f64.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub count: usize,
    pub mean: f64,
    pub std_dev: f64,
    pub min: f64,
    pub max: f64,
    pub skewness: f64,
}

impl Summary {
    pub fn of<T: Copy + Into<f64>>(values: &[T]) -> Option<Summary> {
        if values.len() < 2 {
            return None;
        }
        let xs: Vec<f64> = values.iter().map(|&v| v.into()).collect();
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let m2 = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
        let m3 = xs.iter().map(|x| (x - mean).powi(3)).sum::<f64>() / n;
        let min = xs.iter().copied().fold(f64::INFINITY, f64::min);
        let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Some(Summary {
            count: xs.len(),
            mean,
            std_dev: (m2 * n / (n - 1.0)).sqrt(),
            min,
            max,
            skewness: m3 / m2.powf(1.5),
        })
    }
}

/// Centred moving average using a window of `2 * half + 1` samples, truncated at the ends.
pub fn moving_average(xs: &[f64], half: usize) -> Vec<f64> {
    (0..xs.len())
        .map(|i| {
            let lo = i.saturating_sub(half);
            let hi = (i + half + 1).min(xs.len());
            let window = &xs[lo..hi];
            window.iter().sum::<f64>() / window.len() as f64
        })
        .collect()
}

/// Log-sum-exp computed stably.
pub fn log_sum_exp(xs: &[f64]) -> f64 {
    let m = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    m + xs.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
}
