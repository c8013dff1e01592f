//! The interpreter.
