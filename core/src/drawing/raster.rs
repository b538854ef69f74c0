//! The canvas rasterizer.
