//! The command line's names of the core's choices (algorithm, key, axis, scope, interval mode,
//! pass kind), one list per choice: the browser page parses its controls by them, and natively
//! a test checks that clap's names for the same choices are these.

use crate::algorithms::Algorithm;
use crate::algorithms::odd_even::PassKind;
use crate::intervals::IntervalMode;
use crate::keys::SortKey;
use crate::keys::options::{Axis, Scope};

/// A choice of a fixed set of values, each with its command-line name.
pub trait Named: Copy + Sized + 'static {
    /// Every value, in the order they are offered.
    const ALL: &'static [Self];

    /// The value's name.
    fn name(self) -> &'static str;

    /// The value named `name`, ASCII case ignored.
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name().eq_ignore_ascii_case(name))
    }

    /// Every value's name, in order (for a message that lists them).
    fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|v| v.name()).collect()
    }
}

/// Implements [`Named`] from each type's own `name` and the list of its values.
macro_rules! named {
    ($($choice:ty => $all:expr),* $(,)?) => {
        $(impl Named for $choice {
            const ALL: &'static [Self] = $all;

            fn name(self) -> &'static str {
                <$choice>::name(self)
            }
        })*
    };
}

named! {
    Algorithm => &Algorithm::ALL,
    SortKey => &SortKey::ALL,
    IntervalMode => &IntervalMode::ALL,
    Axis => &[Axis::Rows, Axis::Columns],
    Scope => &[Scope::Rows, Scope::Image],
    PassKind => &[PassKind::Compute, PassKind::Fragment],
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Natively clap derives the command line's names from the same enums: both lists agree,
    /// value for value, so the page and the command line take the same words.
    #[test]
    fn clap_names_every_choice_as_named_does() {
        fn same<T: Named + clap::ValueEnum + PartialEq + std::fmt::Debug>() {
            let clap: Vec<(T, String)> = T::value_variants()
                .iter()
                .map(|v| (*v, v.to_possible_value().unwrap().get_name().to_string()))
                .collect();
            let named: Vec<(T, String)> = T::ALL.iter().map(|v| (*v, v.name().to_string())).collect();
            assert_eq!(clap, named);
            for (value, name) in &named {
                assert_eq!(T::from_name(&name.to_uppercase()), Some(*value));
            }
            assert_eq!(T::from_name("no such value"), None);
        }
        same::<Algorithm>();
        same::<SortKey>();
        same::<IntervalMode>();
        same::<Axis>();
        same::<Scope>();
        same::<PassKind>();
    }
}
