//! DrawingBench: UI model, action parsing, the evaluator profiles, feedback and the canvas rasterizer.
