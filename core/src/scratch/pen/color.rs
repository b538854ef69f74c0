//! scratch-vm's colour utilities (`util/color.js`, `Cast.toRgbColorObject`): HSV ⇄ RGB with
//! its flooring and wrapping rules, mixing, and the colour argument of pen and sensing blocks.

use crate::clamp::clamp;
use crate::scratch::value::cast::to_number;
use crate::scratch::value::Value;

/// An RGB colour with components 0..=255 (fractional after [`mix_rgb`], as in scratch-vm).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rgb {
    /// Red.
    pub r: f64,
    /// Green.
    pub g: f64,
    /// Blue.
    pub b: f64,
    /// Alpha 0..=255 when the value carried one (`decimalToRgb`), else `None` (`hexToRgb`).
    pub a: Option<f64>,
}

impl Rgb {
    /// Opaque colour without an alpha key.
    pub const fn new(r: f64, g: f64, b: f64) -> Rgb {
        Rgb { r, g, b, a: None }
    }
}

/// An HSV colour: hue in degrees, saturation and value 0..=1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hsv {
    /// Hue in degrees.
    pub h: f64,
    /// Saturation.
    pub s: f64,
    /// Value.
    pub v: f64,
}

/// JavaScript `ToInt32`.
pub(crate) fn to_int32(n: f64) -> i32 {
    if !n.is_finite() {
        return 0;
    }
    let t = libm::trunc(n);
    let m = t - libm::floor(t / 4_294_967_296.0) * 4_294_967_296.0;
    (m as u32) as i32
}

/// `Color.decimalToRgb`.
pub fn decimal_to_rgb(decimal: f64) -> Rgb {
    let d = to_int32(decimal);
    let a = (d >> 24) & 0xff;
    let r = (d >> 16) & 0xff;
    let g = (d >> 8) & 0xff;
    let b = d & 0xff;
    Rgb {
        r: f64::from(r),
        g: f64::from(g),
        b: f64::from(b),
        a: Some(if a > 0 { f64::from(a) } else { 255.0 }),
    }
}

/// `Color.hexToRgb`: `#rgb` or `#rrggbb` (the `#` optional), case-insensitive.
pub fn hex_to_rgb(hex: &str) -> Option<Rgb> {
    let h = hex.strip_prefix('#').unwrap_or(hex);
    let digit = |c: u8| (c as char).to_digit(16).map(f64::from);
    let b = h.as_bytes();
    match b.len() {
        3 => {
            let r = digit(b[0])?;
            let g = digit(b[1])?;
            let bl = digit(b[2])?;
            Some(Rgb::new(r * 17.0, g * 17.0, bl * 17.0))
        }
        6 => {
            let mut c = [0.0; 3];
            for (k, v) in c.iter_mut().enumerate() {
                *v = digit(b[2 * k])? * 16.0 + digit(b[2 * k + 1])?;
            }
            Some(Rgb::new(c[0], c[1], c[2]))
        }
        _ => None,
    }
}

/// `Cast.toRgbColorObject`.
pub fn to_rgb_color(v: &Value) -> Rgb {
    if let Value::Str(s) = v {
        if s.starts_with('#') {
            return hex_to_rgb(s).unwrap_or(Rgb { r: 0.0, g: 0.0, b: 0.0, a: Some(255.0) });
        }
    }
    decimal_to_rgb(to_number(v))
}

/// `Color.hsvToRgb` (components floored to integers).
pub fn hsv_to_rgb(hsv: Hsv) -> Rgb {
    let mut h = hsv.h % 360.0;
    if h < 0.0 {
        h += 360.0;
    }
    let s = clamp(hsv.s, 0.0, 1.0);
    let v = clamp(hsv.v, 0.0, 1.0);
    let i = libm::floor(h / 60.0);
    let f = h / 60.0 - i;
    let p = v * (1.0 - s);
    let q = v * (1.0 - s * f);
    let t = v * (1.0 - s * (1.0 - f));
    let (r, g, b) = match i as i32 {
        1 => (q, v, p),
        2 => (p, v, t),
        3 => (p, q, v),
        4 => (t, p, v),
        5 => (v, p, q),
        _ => (v, t, p),
    };
    Rgb::new(libm::floor(r * 255.0), libm::floor(g * 255.0), libm::floor(b * 255.0))
}

/// `Color.rgbToHsv`.
pub fn rgb_to_hsv(rgb: Rgb) -> Hsv {
    let r = rgb.r / 255.0;
    let g = rgb.g / 255.0;
    let b = rgb.b / 255.0;
    let x = r.min(g).min(b);
    let v = r.max(g).max(b);
    let mut h = 0.0;
    let mut s = 0.0;
    if x != v {
        let f = if r == x {
            g - b
        } else if g == x {
            b - r
        } else {
            r - g
        };
        let i = if r == x {
            3.0
        } else if g == x {
            5.0
        } else {
            1.0
        };
        h = ((i - f / (v - x)) * 60.0) % 360.0;
        s = (v - x) / v;
    }
    Hsv { h, s, v }
}

/// `Color.mixRgb`.
pub fn mix_rgb(c0: Rgb, c1: Rgb, f1: f64) -> Rgb {
    if f1 <= 0.0 {
        return c0;
    }
    if f1 >= 1.0 {
        return c1;
    }
    let f0 = 1.0 - f1;
    Rgb::new(f0 * c0.r + f1 * c1.r, f0 * c0.g + f1 * c1.g, f0 * c0.b + f1 * c1.b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hsv_round_trip_matches_scratch() {
        // Default pen colour: color 66.66 → hue 239.976°, full saturation and value.
        let c = hsv_to_rgb(Hsv { h: 66.66 * 360.0 / 100.0, s: 1.0, v: 1.0 });
        assert_eq!((c.r, c.g, c.b), (0.0, 0.0, 255.0));
        let h = rgb_to_hsv(Rgb::new(255.0, 0.0, 0.0));
        assert_eq!((h.h, h.s, h.v), (0.0, 1.0, 1.0));
        let h = rgb_to_hsv(Rgb::new(0.0, 128.0, 255.0));
        assert!((h.h - 209.882_352_941_176_47).abs() < 1e-9);
    }

    #[test]
    fn colour_arguments() {
        assert_eq!(to_rgb_color(&Value::str("#f80")), Rgb::new(255.0, 136.0, 0.0));
        assert_eq!(to_rgb_color(&Value::str("#zz")).a, Some(255.0));
        let c = to_rgb_color(&Value::Num(-1.0));
        assert_eq!((c.r, c.g, c.b, c.a), (255.0, 255.0, 255.0, Some(255.0)));
        let c = to_rgb_color(&Value::Num(f64::from(0x8000_ff00_u32)));
        assert_eq!((c.r, c.g, c.b, c.a), (0.0, 255.0, 0.0, Some(128.0)));
    }
}
