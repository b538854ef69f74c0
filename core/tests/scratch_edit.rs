//! The mutation API (`gobo::scratch::project::edit`): each structural and value edit on a
//! small hand-written project, the invariants after every edit (checked by `validate`), the
//! exact undo of each move, and the errors that leave the model unchanged.

use gobo::scratch::project::edit::{
    Decl, DeclKind, EditError, IdGen, NewBlock, NewChild, NewInput, Owner, RemoveMode, ShadowPolicy,
};
use gobo::scratch::project::{
    self, BlockForm, BlockIdx, Blocks, InputKind, InputValue, Literal, Num, Primitive,
    PrimitiveKind, Project, Variable,
};

const BASE: &[u8] = include_bytes!("fixtures/edit/base.json");

fn base() -> Project {
    project::load(BASE).expect("fixture loads")
}

fn cat(p: &mut Project) -> &mut Blocks {
    &mut p.targets[1].blocks
}

fn ix(b: &Blocks, id: &str) -> BlockIdx {
    b.index_of(id).unwrap_or_else(|| panic!("no block {id}"))
}

/// The ids of the chain starting at `id`.
fn chain(b: &Blocks, id: &str) -> Vec<String> {
    b.chain(ix(b, id)).into_iter().map(|i| b.id_of(i)).collect()
}

/// The block id filling input `name` of block `id`, and the input kind.
fn input(b: &Blocks, id: &str, name: &str) -> (InputKind, Option<String>, Option<String>) {
    let blk = b.get(ix(b, id)).expect("block");
    let i = blk.input(name).unwrap_or_else(|| panic!("{id} has no input {name}"));
    let show = |v: &Option<InputValue>| match v {
        None => None,
        Some(InputValue::Block(c)) => Some(b.id_of(*c)),
        Some(InputValue::Primitive(p)) => Some(format!("{p:?}")),
    };
    (i.kind, show(&i.value), show(&i.shadow))
}

/// Structural invariants plus a save → load round trip to an equal model.
fn check(p: &Project) {
    let findings = project::validate::validate(p);
    let errors: Vec<_> =
        findings.iter().filter(|f| f.severity == project::validate::Severity::Error).collect();
    assert!(errors.is_empty(), "invariants broken: {errors:#?}");
    let saved = project::save(p);
    let back = project::load(&saved).expect("saved project loads");
    assert_eq!(&back, p, "save → load changed the model");
}

fn roots(b: &Blocks) -> Vec<String> {
    b.top_level().map(|(_, blk)| blk.id.clone()).collect()
}

#[test]
fn fixture_is_valid() {
    check(&base());
}

#[test]
fn detach_takes_the_tail_and_undo_is_exact() {
    let mut p = base();
    let b = cat(&mut p);
    let pos = b.free_spot();
    b.detach(ix(b, "c"), pos).unwrap();
    assert_eq!(chain(b, "h"), ["h", "a"]);
    assert_eq!(chain(b, "c"), ["c", "e", "g", "sv"]);
    assert_eq!(b.owner(ix(b, "c")), Owner::Root);
    assert!(roots(b).contains(&"c".to_string()));
    check(&p);
    let b = cat(&mut p);
    b.attach_after(ix(b, "c"), ix(b, "a")).unwrap();
    assert_eq!(project::save(&p), project::save(&base()));
}

#[test]
fn detach_a_reporter_restores_the_obscured_shadow() {
    let mut p = base();
    let b = cat(&mut p);
    b.detach(ix(b, "r"), (Num::Int(10), Num::Int(20))).unwrap();
    let (kind, value, shadow) = input(b, "e", "MESSAGE");
    assert_eq!(kind, InputKind::Shadow);
    assert!(value.unwrap().contains("Hello"));
    assert_eq!(shadow, None);
    check(&p);
    let b = cat(&mut p);
    b.put_value(ix(b, "r"), ix(b, "e"), "MESSAGE", ShadowPolicy::Keep).unwrap();
    assert_eq!(project::save(&p), project::save(&base()));
}

#[test]
fn extract_heals_the_gap() {
    let mut p = base();
    let b = cat(&mut p);
    b.extract(ix(b, "c"), (Num::Int(0), Num::Int(400))).unwrap();
    assert_eq!(chain(b, "h"), ["h", "a", "e", "g", "sv"]);
    assert_eq!(chain(b, "c"), ["c"]);
    assert_eq!(input(b, "c", "SUBSTACK").1.as_deref(), Some("d"));
    check(&p);
    // The first block of a C-slot: its next moves up into the slot.
    let b = cat(&mut p);
    b.extract(ix(b, "d"), (Num::Int(0), Num::Int(600))).unwrap();
    assert_eq!(input(b, "c", "SUBSTACK"), (InputKind::NoShadow, Some("d2".into()), None));
    check(&p);
    // A script head: the next block becomes the head at its position.
    let b = cat(&mut p);
    b.extract(ix(b, "h"), (Num::Int(0), Num::Int(800))).unwrap();
    let a = b.get(ix(b, "a")).unwrap();
    assert!(a.top_level);
    assert_eq!((a.x, a.y), (Some(Num::Int(0)), Some(Num::Int(0))));
    check(&p);
}

#[test]
fn attach_after_inserts_the_whole_stack() {
    let mut p = base();
    let b = cat(&mut p);
    b.attach_after(ix(b, "l"), ix(b, "a")).unwrap();
    assert_eq!(chain(b, "h"), ["h", "a", "l", "l2", "c", "e", "g", "sv"]);
    assert!(!b.get(ix(b, "l")).unwrap().top_level);
    assert_eq!(b.get(ix(b, "l")).unwrap().x, None);
    check(&p);
}

#[test]
fn attach_before_a_head_a_middle_block_and_a_slot_start() {
    let mut p = base();
    let b = cat(&mut p);
    b.detach(ix(b, "l2"), (Num::Int(300), Num::Int(500))).unwrap();
    b.attach_before(ix(b, "l2"), ix(b, "l")).unwrap();
    assert_eq!(chain(b, "l2"), ["l2", "l"]);
    let l2 = b.get(ix(b, "l2")).unwrap();
    assert_eq!((l2.x, l2.y), (Some(Num::Int(300)), Some(Num::Int(0))));
    check(&p);

    let mut p = base();
    let b = cat(&mut p);
    b.attach_before(ix(b, "l"), ix(b, "c")).unwrap();
    assert_eq!(chain(b, "h"), ["h", "a", "l", "l2", "c", "e", "g", "sv"]);
    check(&p);

    let mut p = base();
    let b = cat(&mut p);
    b.attach_before(ix(b, "l"), ix(b, "d")).unwrap();
    assert_eq!(input(b, "c", "SUBSTACK").1.as_deref(), Some("l"));
    assert_eq!(chain(b, "l"), ["l", "l2", "d", "d2"]);
    check(&p);
}

#[test]
fn put_value_keeps_or_disposes_the_shadow() {
    let mut p = base();
    let b = cat(&mut p);
    b.put_value(ix(b, "rep"), ix(b, "a"), "STEPS", ShadowPolicy::Keep).unwrap();
    let (kind, value, shadow) = input(b, "a", "STEPS");
    assert_eq!((kind, value.as_deref()), (InputKind::Obscured, Some("rep")));
    assert!(shadow.unwrap().contains("10"));
    check(&p);
    // Deleting the reporter brings the shadow back.
    let b = cat(&mut p);
    b.delete(ix(b, "rep"), RemoveMode::Heal).unwrap();
    assert_eq!(input(b, "a", "STEPS").0, InputKind::Shadow);
    check(&p);

    let mut p = base();
    let b = cat(&mut p);
    let before = b.len();
    b.put_value(ix(b, "rep"), ix(b, "g"), "TO", ShadowPolicy::Dispose).unwrap();
    assert_eq!(input(b, "g", "TO"), (InputKind::NoShadow, Some("rep".into()), None));
    assert_eq!(b.len(), before - 1, "the shadow block gm is gone");
    assert!(b.index_of("gm").is_none());
    check(&p);
    let b = cat(&mut p);
    b.delete(ix(b, "rep"), RemoveMode::Heal).unwrap();
    assert_eq!(input(b, "g", "TO"), (InputKind::Shadow, None, None));
    check(&p);
}

#[test]
fn put_value_refuses_an_occupied_slot_and_stacks() {
    let mut p = base();
    let b = cat(&mut p);
    let e = b.put_value(ix(b, "rep"), ix(b, "e"), "MESSAGE", ShadowPolicy::Keep).unwrap_err();
    assert_eq!(e, EditError::Occupied { id: "e".into(), input: "MESSAGE".into() });
    let e = b.put_value(ix(b, "l"), ix(b, "a"), "STEPS", ShadowPolicy::Keep).unwrap_err();
    assert!(matches!(e, EditError::BadLink { .. }), "{e}");
    assert_eq!(project::save(&p), project::save(&base()));
}

#[test]
fn put_statement_pushes_old_content_down() {
    let mut p = base();
    let b = cat(&mut p);
    b.put_statement(ix(b, "l"), ix(b, "c"), "SUBSTACK").unwrap();
    assert_eq!(input(b, "c", "SUBSTACK").1.as_deref(), Some("l"));
    assert_eq!(chain(b, "l"), ["l", "l2", "d", "d2"]);
    check(&p);
    // Into an absent input: created as `[2, block]`.
    let b = cat(&mut p);
    b.detach(ix(b, "d"), (Num::Int(0), Num::Int(900))).unwrap();
    b.put_statement(ix(b, "d"), ix(b, "f"), "SUBSTACK").unwrap();
    assert_eq!(input(b, "f", "SUBSTACK"), (InputKind::NoShadow, Some("d".into()), None));
    check(&p);
}

#[test]
fn wrap_a_run_in_a_c_block() {
    let mut p = base();
    let b = cat(&mut p);
    b.wrap(ix(b, "f"), "SUBSTACK", ix(b, "a"), ix(b, "c")).unwrap();
    assert_eq!(chain(b, "h"), ["h", "f", "e", "g", "sv"]);
    assert_eq!(input(b, "f", "SUBSTACK").1.as_deref(), Some("a"));
    assert_eq!(chain(b, "a"), ["a", "c"]);
    check(&p);

    // A whole script from its head: the C-block takes the head's place and position.
    let mut p = base();
    let b = cat(&mut p);
    b.wrap(ix(b, "f"), "SUBSTACK", ix(b, "l"), ix(b, "l2")).unwrap();
    let f = b.get(ix(b, "f")).unwrap();
    assert_eq!((f.top_level, f.x), (true, Some(Num::Int(300))));
    assert_eq!(chain(b, "l"), ["l", "l2"]);
    check(&p);

    let mut p = base();
    let b = cat(&mut p);
    let e = b.wrap(ix(b, "f"), "SUBSTACK", ix(b, "c"), ix(b, "a")).unwrap_err();
    assert!(matches!(e, EditError::BadLink { .. }), "{e}");
}

#[test]
fn delete_heal_stack_unwrap() {
    let mut p = base();
    let b = cat(&mut p);
    let gone = b.delete(ix(b, "c"), RemoveMode::Heal).unwrap();
    let ids: Vec<_> = gone.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(ids, ["c", "d", "d2"]);
    assert_eq!(chain(b, "h"), ["h", "a", "e", "g", "sv"]);
    check(&p);

    let mut p = base();
    let b = cat(&mut p);
    let gone = b.delete(ix(b, "c"), RemoveMode::Stack).unwrap();
    assert_eq!(gone.len(), 8, "c d d2 e r g gm sv");
    assert_eq!(chain(b, "h"), ["h", "a"]);
    check(&p);

    let mut p = base();
    let b = cat(&mut p);
    b.delete(ix(b, "c"), RemoveMode::Unwrap).unwrap();
    assert_eq!(chain(b, "h"), ["h", "a", "d", "d2", "e", "g", "sv"]);
    check(&p);

    // A head with heal: the next block becomes the head.
    let mut p = base();
    let b = cat(&mut p);
    b.delete(ix(b, "l"), RemoveMode::Heal).unwrap();
    assert!(b.get(ix(b, "l2")).unwrap().top_level);
    check(&p);

    // A shadow: the input becomes empty.
    let mut p = base();
    let b = cat(&mut p);
    b.delete(ix(b, "gm"), RemoveMode::Heal).unwrap();
    assert_eq!(input(b, "g", "TO"), (InputKind::Shadow, None, None));
    check(&p);
}

#[test]
fn cycles_and_non_roots_are_refused_without_change() {
    let mut p = base();
    let b = cat(&mut p);
    let e = b.attach_after(ix(b, "l"), ix(b, "l2")).unwrap_err();
    assert_eq!(e, EditError::Cycle { id: "l".into(), anchor: "l2".into() });
    let e = b.attach_after(ix(b, "c"), ix(b, "l")).unwrap_err();
    assert_eq!(e, EditError::NotRoot { id: "c".into() });
    let e = b.put_statement(ix(b, "h"), ix(b, "c"), "SUBSTACK").unwrap_err();
    assert!(matches!(e, EditError::Cycle { .. }), "{e}");
    let e = b.attach_before(ix(b, "rep"), ix(b, "gm")).unwrap_err();
    assert!(matches!(e, EditError::BadLink { .. }), "{e}");
    assert_eq!(project::save(&p), project::save(&base()));
}

fn say(text: &str) -> NewBlock {
    let mut b = NewBlock::new("looks_say");
    b.inputs.push(NewInput {
        name: "MESSAGE".into(),
        value: None,
        shadow: Some(NewChild::Primitive(Primitive::Literal {
            kind: PrimitiveKind::Text,
            value: Literal::Text(text.into()),
        })),
    });
    b
}

#[test]
fn create_gives_fresh_deterministic_ids() {
    let mut p = base();
    let b = cat(&mut p);
    let mut spec = say("hi");
    let mut join = NewBlock::new("operator_join");
    join.inputs.push(NewInput {
        name: "STRING1".into(),
        value: None,
        shadow: Some(NewChild::Block({
            let mut t = NewBlock::new("text");
            t.shadow = true;
            t.fields.push(project::Field {
                name: "TEXT".into(),
                value: Literal::Text("a".into()),
                id: None,
                has_id_slot: false,
            });
            t
        })),
    });
    spec.inputs[0].value = Some(NewChild::Block(join));
    spec.next = vec![NewBlock::new("looks_hide")];
    let mut ids = IdGen::new(7);
    let root = b.create(&spec, (Num::Int(0), Num::Int(1000)), &mut ids).unwrap();
    let new_ids: Vec<String> = b.subtree(root, true).into_iter().map(|i| b.id_of(i)).collect();
    assert_eq!(new_ids.len(), 4);
    assert!(new_ids.iter().all(|i| i.len() == 20));
    let (kind, value, _) = input(b, &new_ids[0], "MESSAGE");
    assert_eq!(kind, InputKind::Obscured);
    assert_eq!(value.as_deref(), Some(new_ids[1].as_str()));
    check(&p);

    // Same seed, same project: same ids.
    let mut q = base();
    let mut ids2 = IdGen::new(7);
    let b2 = cat(&mut q);
    let root2 = b2.create(&spec, (Num::Int(0), Num::Int(1000)), &mut ids2).unwrap();
    let again: Vec<String> = b2.subtree(root2, true).into_iter().map(|i| b2.id_of(i)).collect();
    assert_eq!(new_ids, again);
    assert_eq!(ids, ids2);

    // A given id that exists is refused.
    let mut dup = NewBlock::new("looks_show");
    dup.id = Some("a".into());
    let b = cat(&mut p);
    let len = b.len();
    assert_eq!(
        b.create(&dup, (Num::Int(0), Num::Int(0)), &mut ids),
        Err(EditError::DuplicateId { id: "a".into() })
    );
    assert_eq!(b.len(), len);
}

#[test]
fn id_gen_skips_taken_ids() {
    let mut g = IdGen::new(1);
    let first = g.next_id(|_| false);
    let mut h = IdGen::new(1);
    let skipped = h.next_id(|c| c == first);
    assert_ne!(first, skipped);
    assert_eq!(h.counter, 2);
}

#[test]
fn set_values_and_their_undo() {
    let mut p = base();
    let b = cat(&mut p);
    let old = b.set_input_literal(ix(b, "a"), "STEPS", Literal::Number(Num::Int(25))).unwrap();
    assert_eq!(old, Literal::Text("10".into()));
    let old_menu = b.set_input_literal(ix(b, "g"), "TO", Literal::Text("_mouse_".into())).unwrap();
    assert_eq!(old_menu, Literal::Text("_random_".into()));
    let e = b.set_input_literal(ix(b, "c"), "SUBSTACK", Literal::Null).unwrap_err();
    assert_eq!(e, EditError::NoShadow { id: "c".into(), input: "SUBSTACK".into() });
    // Under a reporter: the obscured shadow.
    let old_msg = b.set_input_literal(ix(b, "e"), "MESSAGE", Literal::Text("Bye".into())).unwrap();
    assert_eq!(old_msg, Literal::Text("Hello".into()));
    let old_op = b.set_opcode(ix(b, "e"), "looks_think").unwrap();
    check(&p);
    let b = cat(&mut p);
    b.set_input_literal(ix(b, "a"), "STEPS", old).unwrap();
    b.set_input_literal(ix(b, "g"), "TO", old_menu).unwrap();
    b.set_input_literal(ix(b, "e"), "MESSAGE", old_msg).unwrap();
    b.set_opcode(ix(b, "e"), &old_op).unwrap();
    assert_eq!(project::save(&p), project::save(&base()));
}

#[test]
fn set_input_shadow_replaces_and_removes() {
    let mut p = base();
    let mut ids = IdGen::new(3);
    let b = cat(&mut p);
    let mut menu = NewBlock::new("motion_goto_menu");
    menu.fields.push(project::Field {
        name: "TO".into(),
        value: Literal::Text("_mouse_".into()),
        id: None,
        has_id_slot: true,
    });
    let gone =
        b.set_input_shadow(ix(b, "g"), "TO", Some(&NewChild::Block(menu)), &mut ids).unwrap();
    assert_eq!(gone.len(), 1);
    assert!(b.index_of("gm").is_none());
    check(&p);
    let b = cat(&mut p);
    b.set_input_shadow(ix(b, "e"), "MESSAGE", None, &mut ids).unwrap();
    assert_eq!(input(b, "e", "MESSAGE"), (InputKind::NoShadow, Some("r".into()), None));
    check(&p);
    let b = cat(&mut p);
    let lit = Primitive::Literal { kind: PrimitiveKind::Text, value: Literal::Text("x".into()) };
    b.set_input_shadow(ix(b, "e"), "MESSAGE", Some(&NewChild::Primitive(lit)), &mut ids).unwrap();
    assert_eq!(input(b, "e", "MESSAGE").0, InputKind::Obscured);
    check(&p);
}

#[test]
fn mutation_attributes_reparse() {
    let mut p = base();
    let b = cat(&mut p);
    let a = ix(b, "a");
    assert_eq!(
        b.set_mutation_attr(a, "proccode", Some(project::Json::String("jump %s".into()))).unwrap(),
        None
    );
    assert_eq!(b.get(a).unwrap().mutation.as_ref().unwrap().proccode.as_deref(), Some("jump %s"));
    let e = b
        .set_mutation_attr(a, "argumentids", Some(project::Json::String("nope".into())))
        .unwrap_err();
    assert!(matches!(e, EditError::BadMutation { .. }));
    b.set_mutation_attr(a, "argumentids", Some(project::Json::String("[\"x\"]".into()))).unwrap();
    assert_eq!(
        b.get(a).unwrap().mutation.as_ref().unwrap().argument_ids,
        Some(vec!["x".to_string()])
    );
}

#[test]
fn declarations_add_rename_remove() {
    let mut p = base();
    let var = |id: &str, name: &str| {
        Decl::Variable(Variable {
            id: id.into(),
            name: name.into(),
            value: Literal::Number(Num::Int(0)),
            is_cloud: None,
        })
    };
    // A second variable of one name in one target is refused; a sprite variable may shadow a
    // global one (files hold such projects; an inverse must be able to restore them).
    assert_eq!(
        p.add_decl(0, var("n0", "score"), None),
        Err(EditError::NameTaken { kind: DeclKind::Variable, name: "score".into() })
    );
    let mut shadowed = p.clone();
    shadowed.add_decl(1, var("n1", "score"), None).unwrap();
    check(&shadowed);
    p.add_decl(1, var("n1", "lives"), Some(0)).unwrap();
    assert_eq!(p.targets[1].variables[0].name, "lives");
    check(&p);
    // Renaming the global renames the inline primitive, the top-level reporter and the monitor.
    let old = p.rename_decl(0, DeclKind::Variable, "vs", "points").unwrap();
    assert_eq!(old, "score");
    let b = &p.targets[1].blocks;
    let r = b.get(ix(b, "r")).unwrap();
    assert!(
        matches!(&r.input("NUM2").unwrap().value, Some(InputValue::Primitive(Primitive::Reference { name, .. })) if name == "points")
    );
    let pv = b.get(ix(b, "pv")).unwrap();
    assert_eq!(pv.form, BlockForm::Primitive(PrimitiveKind::Variable));
    assert_eq!(pv.fields[0].value, Literal::Text("points".into()));
    assert_eq!(p.monitors[0].params[0].1, project::Json::String("points".into()));
    check(&p);
    p.rename_decl(0, DeclKind::Variable, "vs", "score").unwrap();
    // In use: refused.
    let e = p.remove_decl(1, DeclKind::Variable, "vl").unwrap_err();
    assert!(matches!(e, EditError::InUse { ref block, .. } if block == "sv"), "{e}");
    // Unused: removed with its position; re-adding there restores the bytes.
    let gone = p.remove_decl(1, DeclKind::Variable, "n1").unwrap();
    assert_eq!(gone.position, 0);
    assert_eq!(project::save(&p), project::save(&base()));
    // A global with a monitor: the monitor goes too.
    let b = cat(&mut p);
    b.delete(ix(b, "r"), RemoveMode::Heal).unwrap();
    b.delete(ix(b, "pv"), RemoveMode::Heal).unwrap();
    let gone = p.remove_decl(0, DeclKind::Variable, "vs").unwrap();
    assert_eq!(gone.monitors.len(), 1);
    assert!(p.monitors.is_empty());
    check(&p);
}

#[test]
fn reorder_moves_a_script_in_file_order() {
    let mut p = base();
    let b = cat(&mut p);
    let l = ix(b, "l");
    let to = b.reorder(l, 0);
    assert_eq!(to, BlockIdx(0));
    assert_eq!(b.id_of(BlockIdx(0)), "l");
    assert_eq!(chain(b, "h"), ["h", "a", "c", "e", "g", "sv"]);
    check(&p);
    let b = cat(&mut p);
    b.reorder(BlockIdx(0), 10);
    assert_eq!(project::save(&p), project::save(&base()));
}

#[test]
fn moving_a_compressed_reporter_writes_it_as_an_object() {
    let mut p = base();
    let b = cat(&mut p);
    b.put_value(ix(b, "pv"), ix(b, "a"), "STEPS", ShadowPolicy::Keep).unwrap();
    assert_eq!(b.get(ix(b, "pv")).unwrap().form, BlockForm::Object);
    check(&p);
}
