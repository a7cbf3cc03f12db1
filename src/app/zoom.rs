//! Pixel-exact zoom: whole screen pixels per picture pixel, or whole picture pixels per
//! screen pixel when a large picture is zoomed out.

/// A zoom level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zoom {
    /// Each picture pixel is an n x n block of screen pixels (n >= 1).
    In(u32),
    /// Each screen pixel shows one of n x n picture pixels (n >= 2).
    Out(u32),
}

impl Zoom {
    /// Screen pixels per picture pixel.
    pub fn factor(self) -> f32 {
        match self {
            Zoom::In(n) => n as f32,
            Zoom::Out(n) => 1.0 / n as f32,
        }
    }

    /// The largest zoom at which a `picture` fits an `area` (both in screen pixels).
    pub fn fit(picture: (u32, u32), area: (u32, u32)) -> Zoom {
        let (pw, ph) = (picture.0.max(1), picture.1.max(1));
        let (aw, ah) = (area.0.max(1), area.1.max(1));
        let n = (aw / pw).min(ah / ph);
        if n >= 1 { Zoom::In(n) } else { Zoom::Out(pw.div_ceil(aw).max(ph.div_ceil(ah)).max(2)) }
    }

    /// One step closer.
    pub fn closer(self) -> Zoom {
        match self {
            Zoom::In(n) => Zoom::In((n + 1).min(64)),
            Zoom::Out(2) => Zoom::In(1),
            Zoom::Out(n) => Zoom::Out(n - 1),
        }
    }

    /// One step further.
    pub fn further(self) -> Zoom {
        match self {
            Zoom::In(1) => Zoom::Out(2),
            Zoom::In(n) => Zoom::In(n - 1),
            Zoom::Out(n) => Zoom::Out((n + 1).min(256)),
        }
    }

    /// The size of a `picture` on screen, in screen pixels.
    pub fn size_on_screen(self, picture: (u32, u32)) -> (u32, u32) {
        match self {
            Zoom::In(n) => (picture.0 * n, picture.1 * n),
            Zoom::Out(n) => (picture.0.div_ceil(n), picture.1.div_ceil(n)),
        }
    }

    /// "3x" or "1/2x".
    pub fn label(self) -> String {
        match self {
            Zoom::In(n) => format!("{n}x"),
            Zoom::Out(n) => format!("1/{n}x"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_pictures_fit_at_the_largest_whole_zoom() {
        assert_eq!(Zoom::fit((1, 1), (800, 600)), Zoom::In(600));
        assert_eq!(Zoom::fit((100, 50), (800, 600)), Zoom::In(8));
        assert_eq!(Zoom::fit((600, 400), (800, 600)), Zoom::In(1));
    }

    #[test]
    fn large_pictures_are_zoomed_out_until_they_fit() {
        assert_eq!(Zoom::fit((1601, 100), (800, 600)), Zoom::Out(3));
        assert_eq!(Zoom::fit((16384, 16384), (1000, 700)), Zoom::Out(24));
        let z = Zoom::fit((16384, 16384), (1000, 700));
        let (w, h) = z.size_on_screen((16384, 16384));
        assert!(w <= 1000 && h <= 700);
    }

    #[test]
    fn zoom_steps_pass_through_one_to_one() {
        assert_eq!(Zoom::In(1).further(), Zoom::Out(2));
        assert_eq!(Zoom::Out(2).closer(), Zoom::In(1));
        assert_eq!(Zoom::In(3).closer(), Zoom::In(4));
        assert_eq!(Zoom::Out(5).further().label(), "1/6x");
    }
}
