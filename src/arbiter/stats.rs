//! Match statistics (placeholder).
