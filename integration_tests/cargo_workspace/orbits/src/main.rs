//! Integrates a small planetary system and runs a few numerical checks with numkit.

use numkit::quad::Polynomial;
use numkit::stats::log_sum_exp;
use numkit::{gauss_legendre5, moving_average, simpson, Body, Integrand, Summary, System, Vec3};

struct Planet {
    name: &'static str,
    mass: f64,
    radius: f64,
    phase: f64,
}

const PLANETS: [Planet; 4] = [
    Planet { name: "mercury", mass: 1.660_1e-7, radius: 0.387_1, phase: 0.3 },
    Planet { name: "venus", mass: 2.447_8e-6, radius: 0.723_3, phase: 1.9 },
    Planet { name: "earth", mass: 3.003_5e-6, radius: 1.0, phase: 4.1 },
    Planet { name: "jupiter", mass: 9.547_9e-4, radius: 5.202_9, phase: 2.7 },
];

fn build_system() -> System {
    let mut bodies = vec![Body { name: "sun".to_string(), mass: 1.0, pos: Vec3::default(), vel: Vec3::default() }];
    bodies.extend(PLANETS.iter().map(|p| {
        let speed = (numkit::nbody::GAUSS_K2 * (1.0 + p.mass) / p.radius).sqrt();
        Body {
            name: p.name.to_string(),
            mass: p.mass,
            pos: Vec3::from_polar(p.radius, p.phase),
            vel: Vec3::from_polar(speed, p.phase + std::f64::consts::FRAC_PI_2),
        }
    }));
    System::new(bodies, 1e-6)
}

struct Gaussian {
    mu: f64,
    sigma: f64,
}

impl Integrand for Gaussian {
    fn eval(&self, x: f64) -> f64 {
        let z = (x - self.mu) / self.sigma;
        (-0.5 * z.powi(2)).exp() / (self.sigma * (2.0 * std::f64::consts::PI).sqrt())
    }
}

fn main() {
    let mut system = build_system();
    let e0 = system.kinetic_energy() + system.potential_energy();
    println!("bodies={} total_mass={:e} E0={:e}", system.bodies.len(), system.total_mass(), e0);

    let dt = 0.5;
    let mut earth_distances = Vec::new();
    for step in 1..=4000 {
        system.step(dt);
        let sun = system.find("sun").expect("sun").pos;
        let earth = system.find("earth").expect("earth").pos;
        earth_distances.push((earth - sun).norm());
        if step % 800 == 0 {
            let e = system.kinetic_energy() + system.potential_energy();
            println!("t={:?} dE/E={:e} L={:?}", system.time, (e - e0) / e0, system.angular_momentum());
        }
    }
    for b in &system.bodies {
        println!("{:>8} r={:e} v={:e} pos={:?}", b.name, b.pos.norm(), b.vel.norm(), b.pos);
    }

    let summary = Summary::of(&earth_distances).expect("enough samples");
    println!("earth distance {:?}", summary);
    let smooth = moving_average(&earth_distances, 25);
    let wobble: Vec<f64> = earth_distances.iter().zip(&smooth).map(|(d, s)| d - s).collect();
    println!("wobble max={:e}", wobble.iter().copied().fold(0.0_f64, |a, w| a.max(w.abs())));

    let counts: Vec<u32> = (1..=40u32).map(|i| (i * i) % 17 + i / 3).collect();
    println!("integer summary {:?}", Summary::of(&counts));
    println!("short summary {:?}", Summary::of(&[1.5f32]));

    let g = Gaussian { mu: 0.3, sigma: 0.8 };
    println!("gauss mass simpson={:e} gl5={:e}", simpson(&g, -6.0, 6.6, 400), gauss_legendre5(&g, -6.0, 6.6, 20));
    let damped = |x: f64| (-x).exp() * (3.0 * x).sin() * x.sqrt();
    println!("damped simpson={:e} gl5={:e}", simpson(&damped, 0.0, 10.0, 1001), gauss_legendre5(&damped, 0.0, 10.0, 50));
    let poly = Polynomial(vec![1.0, -2.0, 0.5, 0.25]);
    println!("poly {:?} integral={:?} p(1.5)={:?}", poly, simpson(&poly, -1.0, 2.0, 10), poly.eval(1.5));
    let logits: Vec<f64> = (0..10).map(|i| (i as f64 * 0.7).tanh() * 30.0).collect();
    println!("logsumexp={:e} atan2={:?}", log_sum_exp(&logits), (logits[3]).atan2(logits[7]));
}
