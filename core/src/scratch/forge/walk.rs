//! Read-only helpers over a project's blocks shared by metadata extraction and the forge's
//! site search: a block's script top, literal inputs and menu values. No editing here.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::scratch::project::{
    Block, BlockIdx, Blocks, InputValue, Literal, Primitive, PrimitiveKind, Target,
};

/// The top block of every block's script, in one pass (each chain of parents is walked once:
/// a block's top is filled in for the whole path that reached it), so a million-block script
/// costs a million steps, not a million squared.
pub fn script_tops(blocks: &Blocks) -> Vec<BlockIdx> {
    const UNKNOWN: u32 = u32::MAX;
    let n = blocks.len();
    let mut top = alloc::vec![UNKNOWN; n];
    let mut path: Vec<usize> = Vec::new();
    for start in 0..n {
        if top[start] != UNKNOWN {
            continue;
        }
        path.clear();
        let mut cur = start;
        let found = loop {
            if top[cur] != UNKNOWN {
                break top[cur];
            }
            path.push(cur);
            match blocks.get(BlockIdx(cur as u32)).and_then(|b| b.parent) {
                // The loader guarantees a forest; the length bound guards anyway.
                Some(p) if path.len() <= n => cur = p.get(),
                _ => break cur as u32,
            }
        };
        for &i in &path {
            top[i] = found;
        }
    }
    top.into_iter().map(BlockIdx).collect()
}

/// The hat of the script whose top is `top`, when it is a hat.
pub fn hat_at(blocks: &Blocks, top: BlockIdx) -> Option<&Block> {
    blocks.get(top).filter(|b| is_hat(&b.opcode))
}

/// Hats a scenario template can fire (green flag, keys, clicks, broadcasts, clones, custom
/// block definitions reached from them, backdrop switches).
pub fn is_hat(opcode: &str) -> bool {
    matches!(
        opcode,
        "event_whenflagclicked"
            | "event_whenkeypressed"
            | "event_whenthisspriteclicked"
            | "event_whenstageclicked"
            | "event_whenbroadcastreceived"
            | "event_whenbackdropswitchesto"
            | "event_whengreaterthan"
            | "control_start_as_clone"
            | "procedures_definition"
    )
}

/// The literal text of a scalar.
pub fn literal_text(l: &Literal) -> String {
    match l {
        Literal::Number(n) => crate::scratch::value::number::js_number_to_string(n.as_f64()),
        Literal::Text(s) => s.clone(),
        Literal::Bool(b) => b.to_string(),
        Literal::Null => String::new(),
    }
}

/// What an input of `block` holds when it is a literal (its value, or the shadow under no
/// block): the primitive.
pub fn input_primitive<'a>(block: &'a Block, name: &str) -> Option<&'a Primitive> {
    let input = block.input(name)?;
    match (&input.value, &input.shadow) {
        (Some(InputValue::Primitive(p)), _) => Some(p),
        (None, Some(InputValue::Primitive(p))) => Some(p),
        _ => None,
    }
}

/// The block plugged into input `name` (not its shadow when a block obscures it).
pub fn input_block(block: &Block, name: &str) -> Option<BlockIdx> {
    match &block.input(name)?.value {
        Some(InputValue::Block(b)) => Some(*b),
        _ => None,
    }
}

/// A literal number input's value.
pub fn input_number(blocks: &Blocks, block: &Block, name: &str) -> Option<f64> {
    let text = input_text(blocks, block, name)?;
    let n = crate::scratch::value::number::parse_js_number(&text);
    (!text.trim().is_empty() && n.is_finite()).then_some(n)
}

/// A literal input's text: a literal primitive, or a shadow block's single field (a menu).
pub fn input_text(blocks: &Blocks, block: &Block, name: &str) -> Option<String> {
    if let Some(p) = input_primitive(block, name) {
        // A variable, list or broadcast reference is no literal.
        return match p {
            Primitive::Literal { value, .. } => Some(literal_text(value)),
            Primitive::Reference { .. } => None,
        };
    }
    let input = block.input(name)?;
    let shadow = match (&input.value, &input.shadow) {
        (Some(InputValue::Block(b)), _) => blocks.get(*b).filter(|b| b.shadow),
        _ => None,
    }?;
    shadow.fields.first().map(|f| literal_text(&f.value))
}

/// The message a broadcast block sends when it is a literal (`[11, name, id]` or a menu).
pub fn broadcast_name(blocks: &Blocks, block: &Block) -> Option<String> {
    match input_primitive(block, "BROADCAST_INPUT") {
        Some(Primitive::Reference { kind: PrimitiveKind::Broadcast, name, .. }) => {
            Some(name.clone())
        }
        Some(_) => None,
        None => {
            let b = blocks.get(input_block(block, "BROADCAST_INPUT")?)?;
            b.shadow.then(|| b.field("BROADCAST_OPTION").map(|f| literal_text(&f.value)))?
        }
    }
}

/// A field's text.
pub fn field_text(block: &Block, name: &str) -> Option<String> {
    block.field(name).map(|f| literal_text(&f.value))
}

/// Every non-shadow block of a target with its index.
pub fn code_blocks(t: &Target) -> impl Iterator<Item = (BlockIdx, &Block)> {
    t.blocks
        .iter()
        .filter(|(_, b)| !b.shadow && matches!(b.form, crate::scratch::project::BlockForm::Object))
}
