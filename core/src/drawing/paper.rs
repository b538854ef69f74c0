//! Profile `paper`: the paper's eight weighted criteria.
