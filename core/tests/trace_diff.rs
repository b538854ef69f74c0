//! `gobo::scratch::diff`: first divergence, per-signal discrepancy and drift on small traces.

use gobo::scratch::diff::{diff_traces, DiffOptions, Signal, TraceError};

const META: &str = r#"{"meta":{"frames":3}}"#;

fn frame(f: u64, score: i64, x: f64, broadcasts: &str, costume: u32) -> String {
    format!(
        r#"{{"f":{f},"t":{t},"broadcasts":[{broadcasts}],"says":[],"stage":{{"costume":0}},"globals":{{"vars":{{"score":{score},"name":"a"}},"lists":{{"l":[1,2]}}}},"sprites":[{{"name":"Cat","clone":0,"x":{x},"y":0,"dir":90,"size":100,"costume":{costume},"visible":true,"vars":{{}},"lists":{{}}}}]}}"#,
        t = f * 33
    )
}

fn trace(frames: &[String]) -> String {
    let mut s = String::from(META);
    for f in frames {
        s.push('\n');
        s.push_str(f);
    }
    s.push_str("\n{\"end\":{\"frames\":3}}\n");
    s
}

#[test]
fn identical_traces_have_zero_drift() {
    let t = trace(&[frame(0, 0, 0.0, "", 0), frame(1, 1, 10.0, "\"go\"", 0)]);
    let r = diff_traces(&t, &t, &DiffOptions::default()).unwrap();
    assert!(r.identical());
    assert_eq!(r.drift, 0.0);
    assert_eq!(r.checkpoints, 2);
    assert!(r.signals.iter().all(|s| s.discrepancy == 0.0 && s.first_frame.is_none()));
}

#[test]
fn first_divergence_names_frame_and_field() {
    let a = trace(&[frame(0, 0, 0.0, "", 0), frame(1, 1, 10.0, "", 0), frame(2, 2, 20.0, "", 0)]);
    let b = trace(&[frame(0, 0, 0.0, "", 0), frame(1, 1, 12.5, "", 0), frame(2, 5, 20.0, "", 0)]);
    let r = diff_traces(&a, &b, &DiffOptions::default()).unwrap();
    let first = r.first.unwrap();
    assert_eq!((first.frame, first.path.as_str()), (1, "sprites[Cat#0].x"));
    assert_eq!((first.a.as_str(), first.b.as_str()), ("10", "12.5"));

    let pose = r.signals.iter().find(|s| s.signal == Signal::Pose).unwrap();
    // One of four pose fields differs at one of three checkpoints.
    assert!((pose.discrepancy - 0.25 / 3.0).abs() < 1e-12, "{}", pose.discrepancy);
    assert_eq!(pose.first_frame, Some(1));
    let vars = r.signals.iter().find(|s| s.signal == Signal::Vars).unwrap();
    // One of two variables differs at frame 2.
    assert!((vars.discrepancy - 0.5 / 3.0).abs() < 1e-12);
    assert_eq!(vars.frames_differing, 1);
    let mean = r.signals.iter().map(|s| s.discrepancy).sum::<f64>() / 8.0;
    assert!((r.drift - mean).abs() < 1e-15);
}

#[test]
fn restricting_signals_moves_the_first_divergence() {
    let a = trace(&[frame(0, 0, 0.0, "", 0), frame(1, 1, 10.0, "", 0), frame(2, 2, 20.0, "", 0)]);
    let b = trace(&[frame(0, 0, 0.0, "", 0), frame(1, 1, 12.5, "", 0), frame(2, 5, 20.0, "", 0)]);
    let opts =
        DiffOptions { signals: vec![Signal::Vars], restrict_first: true, ..DiffOptions::default() };
    let r = diff_traces(&a, &b, &opts).unwrap();
    let first = r.first.unwrap();
    assert_eq!((first.frame, first.path.as_str()), (2, "globals.vars.score"));
    assert_eq!(r.signals.len(), 1);
    assert!((r.drift - 0.5 / 3.0).abs() < 1e-12);
}

#[test]
fn tolerance_absorbs_small_numeric_differences() {
    let a = trace(&[frame(0, 0, 10.0, "", 0)]);
    let b = trace(&[frame(0, 0, 10.000001, "", 0)]);
    assert!(!diff_traces(&a, &b, &DiffOptions::default()).unwrap().identical());
    let opts = DiffOptions { tolerance: 1e-3, ..DiffOptions::default() };
    assert!(diff_traces(&a, &b, &opts).unwrap().identical());
}

#[test]
fn broadcasts_compare_as_multisets() {
    let a = trace(&[frame(0, 0, 0.0, "\"x\",\"y\"", 0)]);
    let b = trace(&[frame(0, 0, 0.0, "\"y\",\"z\"", 0)]);
    let r = diff_traces(&a, &b, &DiffOptions::default()).unwrap();
    let s = r.signals.iter().find(|s| s.signal == Signal::Broadcasts).unwrap();
    // Common {y}; union {x, y, z}.
    assert!((s.discrepancy - 2.0 / 3.0).abs() < 1e-12);
}

#[test]
fn a_missing_frame_counts_fully_and_is_the_first_divergence() {
    let a = trace(&[frame(0, 0, 0.0, "", 0), frame(1, 0, 0.0, "", 0)]);
    let b = trace(&[frame(0, 0, 0.0, "", 0)]);
    let r = diff_traces(&a, &b, &DiffOptions::default()).unwrap();
    assert_eq!(r.first.as_ref().map(|d| (d.frame, d.path.as_str())), Some((1, "(frame)")));
    assert!((r.drift - 0.5).abs() < 1e-12);
    assert!(!r.identical());
}

#[test]
fn clones_are_matched_by_name_and_serial() {
    let sprite = |clone: u32, x: i32| {
        format!(
            r#"{{"name":"Ball","clone":{clone},"x":{x},"y":0,"dir":90,"size":100,"costume":0,"visible":true}}"#
        )
    };
    let a = format!(r#"{{"f":0,"sprites":[{},{}]}}"#, sprite(0, 1), sprite(1, 2));
    let b = format!(r#"{{"f":0,"sprites":[{},{}]}}"#, sprite(1, 2), sprite(0, 1));
    let r = diff_traces(&a, &b, &DiffOptions::default()).unwrap();
    assert_eq!(r.drift, 0.0);
    assert_eq!(r.first.unwrap().path, "sprites(order)");
    let c = format!(r#"{{"f":0,"sprites":[{}]}}"#, sprite(0, 1));
    let r = diff_traces(&a, &c, &DiffOptions::default()).unwrap();
    let first = r.first.unwrap();
    assert_eq!((first.path.as_str(), first.b.as_str()), ("sprites[Ball#1]", "(absent)"));
    let pose = r.signals.iter().find(|s| s.signal == Signal::Pose).unwrap();
    assert!((pose.discrepancy - 0.5).abs() < 1e-12);
}

#[test]
fn malformed_traces_name_the_trace_and_line() {
    let good = trace(&[frame(0, 0, 0.0, "", 0)]);
    let cases: [(&str, TraceError); 4] = [
        ("{\"f\":0}\n{oops", TraceError::InvalidJson { line: 2, message: String::new() }),
        ("[1,2]", TraceError::NotAnObject { line: 1 }),
        ("{\"f\":-1}", TraceError::MissingFrameNumber { line: 1 }),
        ("{\"f\":0}\n\n{\"f\":0}", TraceError::DuplicateFrame { line: 3, frame: 0 }),
    ];
    for (text, want) in cases {
        let err = diff_traces(&good, text, &DiffOptions::default()).unwrap_err();
        assert_eq!(err.trace, 'B');
        match (&err.error, &want) {
            (TraceError::InvalidJson { line: a, .. }, TraceError::InvalidJson { line: b, .. }) => {
                assert_eq!(a, b)
            }
            (got, want) => assert_eq!(got, want),
        }
        assert!(err.to_string().starts_with("trace B: line "), "{err}");
    }
}

#[test]
fn signal_names_parse_and_reject_unknown_ones() {
    for s in Signal::ALL {
        assert_eq!(s.name().parse::<Signal>().unwrap(), s);
    }
    assert!("pos".parse::<Signal>().unwrap_err().contains("unknown signal 'pos'"));
}

#[test]
fn the_scratcheval_set_is_every_signal_but_says() {
    let set = Signal::parse_list(&["scratcheval"]).unwrap();
    assert_eq!(set.len(), 7);
    assert!(!set.contains(&Signal::Says));
    assert_eq!(set, Signal::SCRATCHEVAL);
    // Sets expand in place; repeats count once.
    let mixed = Signal::parse_list(&["says", "scratcheval", "vars"]).unwrap();
    assert_eq!(mixed[0], Signal::Says);
    assert_eq!(mixed.len(), 8);
    assert!(Signal::parse_list(&["scratcheval", "nope"]).unwrap_err().contains("scratcheval"));
    assert!(Signal::parse_list::<&str>(&[]).is_err());
    // A difference only in `says` is no scratcheval drift, but is drift over all signals.
    let says = |text: &str| {
        frame(0, 0, 0.0, "", 0).replace(r#""says":[]"#, &format!(r#""says":["{text}"]"#))
    };
    let (a, b) = (trace(&[says("hi")]), trace(&[says("bye")]));
    let opts = DiffOptions { signals: set, restrict_first: true, ..DiffOptions::default() };
    let r = diff_traces(&a, &b, &opts).unwrap();
    assert_eq!((r.drift, r.first.is_none()), (0.0, true));
    assert!(diff_traces(&a, &b, &DiffOptions::default()).unwrap().drift > 0.0);
}

#[test]
fn every_scores_checkpoints_every_n_frames_plus_the_last() {
    // Frames 0..=12: score differs only at frame 5, x only at the last frame (12).
    let a: Vec<String> = (0..=12).map(|f| frame(f, 0, 0.0, "", 0)).collect();
    let mut b = a.clone();
    b[5] = frame(5, 9, 0.0, "", 0);
    b[12] = frame(12, 0, 7.0, "", 0);
    let (a, b) = (trace(&a), trace(&b));
    let opts = DiffOptions {
        signals: vec![Signal::Vars, Signal::Pose],
        every: 10,
        ..DiffOptions::default()
    };
    let r = diff_traces(&a, &b, &opts).unwrap();
    assert_eq!(r.checkpoints, 3, "frames 0, 10 and the last, 12");
    assert_eq!(r.first.unwrap().frame, 5, "the first divergence still looks at every frame");
    assert_eq!(r.signals[0].frames_differing, 0, "frame 5 is not a checkpoint");
    assert_eq!((r.signals[1].frames_differing, r.signals[1].first_frame), (1, Some(12)));
    let every = diff_traces(&a, &b, &DiffOptions { every: 0, ..opts }).unwrap();
    assert_eq!(every.checkpoints, 13);
}
