//! `Heat`: how hot a round is argued, always within 0.3–1.0. Its one clamp
//! is the only way to make one, deserialising included, so a stored log
//! with a heat out of range (or NaN, written as `null`) loads safe; it is
//! written back as the plain number.

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A heat within [`Heat::MIN`]..=[`Heat::MAX`].
#[derive(Clone, Copy, PartialEq, PartialOrd)]
#[must_use]
pub struct Heat(f32);

impl Heat {
    /// The lowest heat the judge may set.
    pub const MIN: Heat = Heat(0.3);
    /// The highest heat the judge may set.
    pub const MAX: Heat = Heat(1.0);
    /// How far one key press moves a heat in the studio.
    pub const STEP: f32 = 0.05;

    /// The heat nearest `raw` within the range; NaN is the minimum.
    pub fn new(raw: f32) -> Self {
        if raw.is_nan() {
            return Self::MIN;
        }
        Heat(raw.clamp(Self::MIN.0, Self::MAX.0))
    }

    /// The heat nearest `raw` on the grid of [`Heat::STEP`]s, within the range.
    pub fn on_grid(raw: f32) -> Self {
        Self::new((raw * 20.0).round() / 20.0)
    }

    /// One [`Heat::STEP`] up or down from this heat, on the grid.
    pub fn step(self, up: bool) -> Self {
        Self::on_grid(if up { self.0 + Self::STEP } else { self.0 - Self::STEP })
    }

    pub const fn get(self) -> f32 {
        self.0
    }

    /// Where the heat lies in its range: 0 at the minimum, 1 at the maximum.
    pub fn share(self) -> f32 {
        (self.0 - Self::MIN.0) / (Self::MAX.0 - Self::MIN.0)
    }
}

/// Before a debate starts, its state's heat is the lowest.
impl Default for Heat {
    fn default() -> Self {
        Self::MIN
    }
}

/// As the number, so `{:.2}` reads `0.90`.
impl fmt::Display for Heat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for Heat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl Serialize for Heat {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f32(self.0)
    }
}

impl<'de> Deserialize<'de> for Heat {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(HeatVisitor)
    }
}

/// Reads any number through the clamp, and `null` (a NaN as JSON writes
/// it) as the minimum.
struct HeatVisitor;

impl Visitor<'_> for HeatVisitor {
    type Value = Heat;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a heat (a number)")
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Heat, E> {
        Ok(Heat::new(v as f32))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Heat, E> {
        Ok(Heat::new(v as f32))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Heat, E> {
        Ok(Heat::new(v as f32))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Heat, E> {
        Ok(Heat::new(f32::NAN))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::Heat;

    fn load(json: &str) -> Heat {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn making_one_clamps_it() {
        assert!((Heat::new(0.65).get() - 0.65).abs() < f32::EPSILON);
        assert_eq!(Heat::new(7.0), Heat::MAX);
        assert_eq!(Heat::new(-1.0), Heat::MIN);
        assert_eq!(Heat::new(0.0), Heat::MIN);
        assert_eq!(Heat::new(f32::NAN), Heat::MIN);
        assert_eq!(Heat::new(f32::INFINITY), Heat::MAX);
        assert_eq!(Heat::default(), Heat::MIN);
    }

    #[test]
    fn loading_one_clamps_it() {
        assert_eq!(load("7.0"), Heat::MAX);
        assert_eq!(load("2017"), Heat::MAX);
        assert_eq!(load("-0.5"), Heat::MIN);
        assert_eq!(load("-1"), Heat::MIN);
        assert_eq!(load("0"), Heat::MIN);
        // A NaN heat is written as `null`.
        assert_eq!(serde_json::to_string(&f32::NAN).unwrap(), "null");
        assert_eq!(load("null"), Heat::MIN);
        assert!((load("0.65").get() - 0.65).abs() < f32::EPSILON);
        assert!(serde_json::from_str::<Heat>("\"0.5\"").is_err());
        assert!(serde_json::from_str::<Heat>("true").is_err());
    }

    #[test]
    fn an_absent_heat_is_still_missing() {
        #[derive(serde::Deserialize)]
        struct Holder {
            #[allow(dead_code)]
            heat: Heat,
        }
        #[derive(serde::Deserialize)]
        struct Maybe {
            heat: Option<Heat>,
        }
        assert!(serde_json::from_str::<Holder>("{}").is_err());
        assert_eq!(serde_json::from_str::<Maybe>(r#"{"heat":null}"#).unwrap().heat, None);
        assert_eq!(serde_json::from_str::<Maybe>(r#"{"heat":9}"#).unwrap().heat, Some(Heat::MAX));
    }

    #[test]
    fn it_is_written_as_the_plain_number() {
        for (heat, text) in [(0.9, "0.9"), (0.35, "0.35"), (0.3, "0.3"), (1.0, "1.0"), (0.65, "0.65")] {
            let written = serde_json::to_string(&Heat::new(heat)).unwrap();
            assert_eq!(written, serde_json::to_string(&heat).unwrap());
            assert_eq!(written, text);
            assert_eq!(load(&written), Heat::new(heat), "{text} reads back");
            assert_eq!(serde_json::to_string(&load(&written)).unwrap(), text, "{text} writes back the same");
        }
    }

    #[test]
    fn it_shows_as_the_number() {
        assert_eq!(format!("{:.2}", Heat::new(0.9)), "0.90");
        assert_eq!(format!("{}", Heat::new(0.35)), "0.35");
        assert_eq!(format!("{:?}", Heat::new(0.35)), "0.35");
    }

    #[test]
    fn steps_land_on_the_grid_within_the_range() {
        assert_eq!(Heat::on_grid(0.72), Heat::new(0.7));
        assert_eq!(Heat::on_grid(0.73), Heat::new(0.75));
        assert_eq!(Heat::new(0.72).step(true), Heat::new(0.75));
        assert_eq!(Heat::new(0.72).step(false), Heat::new(0.65));
        assert_eq!(Heat::MAX.step(true), Heat::MAX);
        assert_eq!(Heat::MIN.step(false), Heat::MIN);
        assert!(Heat::MIN.share().abs() < f32::EPSILON);
        assert!((Heat::MAX.share() - 1.0).abs() < f32::EPSILON);
    }
}
