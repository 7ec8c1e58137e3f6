// Iterators, closures, panics (unwinding), trait objects, Option/Result, i128, strings.
// ir-corpus-variant: -C panic=unwind -C debuginfo=2
use std::collections::HashMap;
use std::fmt::Write;

pub fn sum_squares(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum()
}

pub fn make(n: usize) -> Vec<f64> {
    (0..n).map(|i| (i as f64).sin() * 0.5).collect()
}

pub fn zip_update(a: &mut [f32], b: &[f32], k: f32) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = x.mul_add(k, *y);
    }
}

pub fn filtered_max(v: &[i64]) -> Option<i64> {
    v.iter().copied().filter(|x| x % 3 != 0).max()
}

pub fn checked_div(a: i32, b: i32) -> Result<i32, String> {
    if b == 0 {
        return Err(format!("division of {} by zero", a));
    }
    a.checked_div(b).ok_or_else(|| "overflow".to_string())
}

pub fn panics(v: &[u32], i: usize) -> u32 {
    let total: u32 = v.iter().sum();
    total / v[i]
}

pub trait Shape {
    fn area(&self) -> f64;
}

pub struct Circle(pub f64);
pub struct Rect(pub f64, pub f64);

impl Shape for Circle {
    fn area(&self) -> f64 {
        std::f64::consts::PI * self.0 * self.0
    }
}

impl Shape for Rect {
    fn area(&self) -> f64 {
        self.0 * self.1
    }
}

pub fn areas(shapes: &[Box<dyn Shape>]) -> f64 {
    shapes.iter().map(|s| s.area()).fold(0.0, |a, b| a + b)
}

pub fn wide(a: i128, b: u128) -> i128 {
    a.wrapping_mul(b as i128) ^ (a >> 3)
}

pub fn word_counts(text: &str) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for word in text.split_whitespace() {
        *counts.entry(word.to_lowercase()).or_insert(0) += 1;
    }
    counts
}

pub fn describe(v: &[f64]) -> String {
    let mut s = String::new();
    for (i, x) in v.iter().enumerate() {
        let _ = write!(s, "{}={:.3};", i, x);
    }
    s
}

pub fn catch(v: Vec<u32>) -> u32 {
    std::panic::catch_unwind(|| panics(&v, 3)).unwrap_or(0)
}

pub fn windows(v: &[f64]) -> Vec<f64> {
    v.windows(3).map(|w| (w[0] + w[1] + w[2]) / 3.0).rev().collect()
}
