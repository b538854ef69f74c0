//! The seven graphic effects as scratch-render's sprite shader applies them (`sprite.frag`,
//! uniforms from `ShaderManager.EFFECT_INFO`): the texture-coordinate effects (mosaic,
//! pixelate, whirl, fisheye) and the colour effects (color, brightness, ghost).

use crate::clamp::{clamp, clampf};

/// Effect bits (`ShaderManager.EFFECT_INFO[..].mask`), in scratch-vm's effect order.
pub const COLOR: u8 = 1;
/// fisheye
pub const FISHEYE: u8 = 1 << 1;
/// whirl
pub const WHIRL: u8 = 1 << 2;
/// pixelate
pub const PIXELATE: u8 = 1 << 3;
/// mosaic
pub const MOSAIC: u8 = 1 << 4;
/// brightness
pub const BRIGHTNESS: u8 = 1 << 5;
/// ghost
pub const GHOST: u8 = 1 << 6;
/// Effects that move texture coordinates (they also disable nearest-neighbour sampling).
pub const SHAPE: u8 = FISHEYE | WHIRL | PIXELATE | MOSAIC;

const EPSILON: f32 = 1e-3;

/// A drawable's effect uniforms.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Effects {
    /// Enabled effect bits (an effect is enabled when its value is nonzero).
    pub bits: u8,
    /// `u_color`.
    pub color: f64,
    /// `u_fisheye`.
    pub fisheye: f64,
    /// `u_whirl` (radians).
    pub whirl: f64,
    /// `u_pixelate`.
    pub pixelate: f64,
    /// `u_mosaic`.
    pub mosaic: f64,
    /// `u_brightness`.
    pub brightness: f64,
    /// `u_ghost` (1 = opaque).
    pub ghost: f64,
}

impl Effects {
    /// Uniforms from scratch-vm's effect values (`color, fisheye, whirl, pixelate, mosaic,
    /// brightness, ghost`), with `EFFECT_INFO`'s converters.
    pub fn from_values(v: &[f64; 7]) -> Effects {
        let mut bits = 0;
        for (k, x) in v.iter().enumerate() {
            // JavaScript truthiness: 0 and NaN disable an effect.
            if *x != 0.0 && !x.is_nan() {
                bits |= 1 << k;
            }
        }
        let mosaic = clamp(js_round((libm::fabs(v[4]) + 10.0) / 10.0), 1.0, 512.0);
        Effects {
            bits,
            color: (v[0] / 200.0) % 1.0,
            fisheye: ((v[1] + 100.0) / 100.0).max(0.0),
            whirl: -v[2] * core::f64::consts::PI / 180.0,
            pixelate: libm::fabs(v[3]) / 10.0,
            mosaic,
            brightness: clamp(v[5], -100.0, 100.0) / 100.0,
            ghost: 1.0 - clamp(v[6], 0.0, 100.0) / 100.0,
        }
    }

    /// The texture-coordinate effects on (`u`, `v`) (`EffectTransform.transformPoint`, the
    /// shader's arithmetic); `skin_size` is the skin's size in stage units (`u_skinSize`).
    pub fn transform_point(&self, mut u: f64, mut v: f64, skin_size: [f64; 2]) -> (f64, f64) {
        if self.bits & MOSAIC != 0 {
            u = fract(self.mosaic * u);
            v = fract(self.mosaic * v);
        }
        if self.bits & PIXELATE != 0 {
            let tx = skin_size[0] / self.pixelate;
            let ty = skin_size[1] / self.pixelate;
            u = (libm::floor(u * tx) + 0.5) / tx;
            v = (libm::floor(v * ty) + 0.5) / ty;
        }
        if self.bits & WHIRL != 0 {
            let (ox, oy) = (u - 0.5, v - 0.5);
            let mag = libm::sqrt(ox * ox + oy * oy);
            let f = (1.0 - mag / 0.5).max(0.0);
            let a = self.whirl * f * f;
            let (s, c) = (libm::sin(a), libm::cos(a));
            // GLSL mat2(c, -s, s, c) * offset: columns (c, -s) and (s, c).
            u = c * ox + s * oy + 0.5;
            v = -s * ox + c * oy + 0.5;
        }
        if self.bits & FISHEYE != 0 {
            let (vx, vy) = ((u - 0.5) / 0.5, (v - 0.5) / 0.5);
            let len = libm::sqrt(vx * vx + vy * vy);
            let r = libm::pow(len.min(1.0), self.fisheye) * len.max(1.0);
            // At the exact centre the shader divides 0 by 0; keep the centre instead.
            if len > 0.0 {
                u = 0.5 + r * (vx / len) * 0.5;
                v = 0.5 + r * (vy / len) * 0.5;
            }
        }
        (u, v)
    }

    /// `EffectTransform.transformPoint`: the CPU's version of the texture-coordinate effects,
    /// which touching (`getLocalPosition`) and the convex hull use. JavaScript arithmetic in
    /// `f64`, every coordinate stored into a `Float32Array` (so rounded to `f32`) after each
    /// effect; `Math.sin`/`Math.cos` as Chromium computes them.
    pub fn transform_point_cpu(&self, p: [f64; 2], skin_size: [f64; 2]) -> [f64; 2] {
        use crate::scratch::geom::f32r;
        let [mut u, mut v] = p;
        if self.bits & SHAPE == 0 {
            return p;
        }
        if self.bits & MOSAIC != 0 {
            // `u_mosaic * dst[0] % 1`: the operand is never negative here.
            u = f32r(libm::fmod(self.mosaic * u, 1.0));
            v = f32r(libm::fmod(self.mosaic * v, 1.0));
        }
        if self.bits & PIXELATE != 0 {
            let tx = skin_size[0] / self.pixelate;
            let ty = skin_size[1] / self.pixelate;
            u = f32r((libm::floor(u * tx) + 0.5) / tx);
            v = f32r((libm::floor(v * ty) + 0.5) / ty);
        }
        if self.bits & WHIRL != 0 {
            let (ox, oy) = (u - 0.5, v - 0.5);
            let mag = libm::sqrt(ox * ox + oy * oy);
            let f = (1.0 - mag / 0.5).max(0.0);
            let a = self.whirl * f * f;
            let (s, c) = crate::scratch::value::jsmath::sin_and_cos(a);
            u = f32r((c * ox) + (s * oy) + 0.5);
            v = f32r((-s * ox) + (c * oy) + 0.5);
        }
        if self.bits & FISHEYE != 0 {
            let (vx, vy) = ((u - 0.5) / 0.5, (v - 0.5) / 0.5);
            let len = libm::sqrt((vx * vx) + (vy * vy));
            let r = libm::pow(len.min(1.0), self.fisheye) * len.max(1.0);
            // At the centre JavaScript divides 0 by 0: NaN, which no texel test accepts.
            u = f32r(0.5 + (r * (vx / len) * 0.5));
            v = f32r(0.5 + (r * (vy / len) * 0.5));
        }
        [u, v]
    }

    /// The shader's colour effects on a premultiplied colour (components 0..1).
    pub fn transform_color(&self, mut c: [f32; 4]) -> [f32; 4] {
        if self.bits & (COLOR | BRIGHTNESS) != 0 {
            let a = c[3] + EPSILON;
            let mut rgb = [
                clampf(c[0] / a, 0.0, 1.0),
                clampf(c[1] / a, 0.0, 1.0),
                clampf(c[2] / a, 0.0, 1.0),
            ];
            if self.bits & COLOR != 0 {
                let mut hsv = rgb_to_hsv(rgb);
                const MIN_LIGHTNESS: f32 = 0.11 / 2.0;
                const MIN_SATURATION: f32 = 0.09;
                if hsv[2] < MIN_LIGHTNESS {
                    hsv = [0.0, 1.0, MIN_LIGHTNESS];
                } else if hsv[1] < MIN_SATURATION {
                    hsv = [0.0, MIN_SATURATION, hsv[2]];
                }
                let mut h = glsl_mod(hsv[0] + self.color as f32, 1.0);
                if h < 0.0 {
                    h += 1.0;
                }
                hsv[0] = h;
                rgb = hsv_to_rgb(hsv);
            }
            if self.bits & BRIGHTNESS != 0 {
                let b = self.brightness as f32;
                rgb = [
                    clampf(rgb[0] + b, 0.0, 1.0),
                    clampf(rgb[1] + b, 0.0, 1.0),
                    clampf(rgb[2] + b, 0.0, 1.0),
                ];
            }
            c = [rgb[0] * a, rgb[1] * a, rgb[2] * a, c[3]];
        }
        if self.bits & GHOST != 0 {
            let g = self.ghost as f32;
            c = [c[0] * g, c[1] * g, c[2] * g, c[3] * g];
        }
        c
    }
}

/// JavaScript `Math.round`.
pub(crate) fn js_round(x: f64) -> f64 {
    libm::floor(x + 0.5)
}

/// GLSL `fract`.
fn fract(x: f64) -> f64 {
    x - libm::floor(x)
}

/// GLSL `mod`.
fn glsl_mod(x: f32, y: f32) -> f32 {
    x - y * libm::floorf(x / y)
}

/// The shader's branchless `convertRGB2HSV`.
fn rgb_to_hsv(c: [f32; 3]) -> [f32; 3] {
    let (r, g, b) = (c[0], c[1], c[2]);
    // temp1 = b > g ? (b, g, -1, 2/3) : (g, b, 0, -1/3)
    let t1 = if b > g { [b, g, -1.0, 2.0 / 3.0] } else { [g, b, 0.0, -1.0 / 3.0] };
    // temp2 = r > t1.x ? (r, t1.y, t1.z, t1.x) : (t1.x, t1.y, t1.w, r)
    let t2 = if r > t1[0] { [r, t1[1], t1[2], t1[0]] } else { [t1[0], t1[1], t1[3], r] };
    let m = t2[1].min(t2[3]);
    let chroma = t2[0] - m;
    let h = libm::fabsf(t2[2] + (t2[3] - t2[1]) / (6.0 * chroma + EPSILON));
    [h, chroma / (t2[0] + EPSILON), t2[0]]
}

/// The shader's `convertHSV2RGB`.
fn hsv_to_rgb(hsv: [f32; 3]) -> [f32; 3] {
    let h = hsv[0];
    let r = clampf(libm::fabsf(h * 6.0 - 3.0) - 1.0, 0.0, 1.0);
    let g = clampf(2.0 - libm::fabsf(h * 6.0 - 2.0), 0.0, 1.0);
    let b = clampf(2.0 - libm::fabsf(h * 6.0 - 4.0), 0.0, 1.0);
    let c = hsv[2] * hsv[1];
    [r * c + hsv[2] - c, g * c + hsv[2] - c, b * c + hsv[2] - c]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniforms_follow_the_converters() {
        let e = Effects::from_values(&[50.0, 0.0, 90.0, 0.0, 25.0, -150.0, 30.0]);
        assert_eq!(e.bits, COLOR | WHIRL | MOSAIC | BRIGHTNESS | GHOST);
        assert_eq!(e.color, 0.25);
        assert_eq!(e.mosaic, 4.0);
        assert_eq!(e.brightness, -1.0);
        assert!((e.ghost - 0.7).abs() < 1e-12);
    }

    #[test]
    fn colour_effect_turns_red_to_green_at_a_third() {
        let e = Effects::from_values(&[200.0 / 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        let c = e.transform_color([1.0, 0.0, 0.0, 1.0]);
        assert!(c[0] < 0.01 && c[1] > 0.99 && c[2] < 0.01, "{c:?}");
        let ghost = Effects::from_values(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 50.0]);
        assert_eq!(ghost.transform_color([1.0, 0.5, 0.0, 1.0]), [0.5, 0.25, 0.0, 0.5]);
    }
}
