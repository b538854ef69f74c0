//! XLogo-Mini: task model and loader, code parsers (JSON AST and Python style), the emulator and checker, prompts and renders.
