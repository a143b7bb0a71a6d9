//! A value of a tournament file with the line it is written on
//! ([`Placed`]), so an error about it can name the line.

/// A value of the file with the line it is written on, to name in errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    pub text: String,
    pub line: usize,
}
