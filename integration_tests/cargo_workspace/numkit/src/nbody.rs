use crate::vec3::Vec3;

/// Gravitational constant in AU^3 / (solar mass day^2).
pub const GAUSS_K2: f64 = 2.959_122_082_855_911e-4;

#[derive(Clone, Debug)]
pub struct Body {
    pub name: String,
    pub mass: f64,
    pub pos: Vec3,
    pub vel: Vec3,
}

#[derive(Clone, Debug)]
pub struct System {
    pub bodies: Vec<Body>,
    pub time: f64,
    softening: f64,
}

impl System {
    pub fn new(bodies: Vec<Body>, softening: f64) -> Self {
        let mut s = System { bodies, time: 0.0, softening };
        s.move_to_barycentre();
        s
    }

    pub fn total_mass(&self) -> f64 {
        self.bodies.iter().map(|b| b.mass).sum()
    }

    fn move_to_barycentre(&mut self) {
        let m = self.total_mass();
        let com: Vec3 = self.bodies.iter().map(|b| b.pos * (b.mass / m)).sum();
        let vcom: Vec3 = self.bodies.iter().map(|b| b.vel * (b.mass / m)).sum();
        for b in &mut self.bodies {
            b.pos = b.pos - com;
            b.vel = b.vel - vcom;
        }
    }

    fn accelerations(&self) -> Vec<Vec3> {
        let n = self.bodies.len();
        let mut acc = vec![Vec3::default(); n];
        for i in 0..n {
            for j in (i + 1)..n {
                let d = self.bodies[j].pos - self.bodies[i].pos;
                let r2 = d.dot(d) + self.softening * self.softening;
                let inv_r3 = 1.0 / (r2 * r2.sqrt());
                acc[i] += d * (GAUSS_K2 * self.bodies[j].mass * inv_r3);
                acc[j] += -d * (GAUSS_K2 * self.bodies[i].mass * inv_r3);
            }
        }
        acc
    }

    /// Kick-drift-kick leapfrog.
    pub fn step(&mut self, dt: f64) {
        let acc = self.accelerations();
        for (b, a) in self.bodies.iter_mut().zip(&acc) {
            b.vel += *a * (0.5 * dt);
            b.pos += b.vel * dt;
        }
        let acc = self.accelerations();
        for (b, a) in self.bodies.iter_mut().zip(acc.iter()) {
            b.vel += *a * (0.5 * dt);
        }
        self.time += dt;
    }

    pub fn kinetic_energy(&self) -> f64 {
        self.bodies.iter().map(|b| 0.5 * b.mass * b.vel.dot(b.vel)).sum()
    }

    pub fn potential_energy(&self) -> f64 {
        let mut e = 0.0;
        for (i, a) in self.bodies.iter().enumerate() {
            for b in &self.bodies[i + 1..] {
                let r = ((b.pos - a.pos).norm().powi(2) + self.softening.powi(2)).sqrt();
                e -= GAUSS_K2 * a.mass * b.mass / r;
            }
        }
        e
    }

    pub fn angular_momentum(&self) -> Vec3 {
        self.bodies.iter().map(|b| b.pos.cross(b.vel) * b.mass).sum()
    }

    pub fn find(&self, name: &str) -> Option<&Body> {
        self.bodies.iter().find(|b| b.name == name)
    }
}
