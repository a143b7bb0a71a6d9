//! The embedded offline model (built in its own change).
