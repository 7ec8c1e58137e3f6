// Atomics, inline assembly, SIMD-friendly loops, overflow checks and u128 arithmetic.
// ir-corpus-variant: -C target-cpu=x86-64-v3
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

static COUNTER: AtomicU64 = AtomicU64::new(0);
static READY: AtomicBool = AtomicBool::new(false);

pub fn bump(n: u64) -> u64 {
    COUNTER.fetch_add(n, Ordering::Relaxed) + COUNTER.fetch_sub(1, Ordering::SeqCst)
}

pub fn publish(x: &AtomicUsize, v: usize) -> bool {
    let old = x.swap(v, Ordering::AcqRel);
    let ok = x.compare_exchange(v, old, Ordering::AcqRel, Ordering::Acquire).is_ok();
    let weak = x.compare_exchange_weak(old, v, Ordering::Release, Ordering::Relaxed).is_ok();
    READY.store(ok, Ordering::Release);
    std::sync::atomic::fence(Ordering::SeqCst);
    ok && weak && READY.load(Ordering::Acquire) && x.fetch_max(3, Ordering::Relaxed) > 0
}

pub fn asm_add(a: u64, b: u64) -> u64 {
    let mut r = a;
    unsafe {
        std::arch::asm!("add {0}, {1}", inout(reg) r, in(reg) b);
    }
    r
}

pub fn scale(out: &mut [f32], a: &[f32], k: f32) {
    for (o, x) in out.iter_mut().zip(a.iter()) {
        *o = x * k + 1.0;
    }
}

pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..a.len().min(b.len()) {
        s += a[i] * b[i];
    }
    s
}

pub fn checked(a: u32, b: u32) -> u32 {
    a.checked_mul(b).unwrap_or(u32::MAX).saturating_add(a.wrapping_sub(b)) + a.pow(3)
}

pub fn mix(a: u128, b: u128) -> u128 {
    (a.rotate_left(17) ^ b).wrapping_mul(0x9E37_79B9_7F4A_7C15) / (b | 1)
}

pub fn bits(x: u32) -> u32 {
    x.count_ones() + x.leading_zeros() + x.trailing_zeros() + x.swap_bytes()
}

#[repr(C)]
pub struct Particle {
    pub pos: [f64; 3],
    pub vel: [f64; 3],
}

pub fn step(ps: &mut [Particle], dt: f64) {
    for p in ps.iter_mut() {
        for k in 0..3 {
            p.pos[k] += p.vel[k] * dt;
        }
    }
}
