//! The Russian strings (until translated, the English table stands in).

pub use super::en::EN as RU;
