//! Expanding compressed primitives (`[4, "10"]`, `[12, name, id]`... inside inputs) into
//! blocks of their own, as scratch-vm does when it loads a project: the block gets the opcode
//! and field scratch-vm gives it, is a shadow unless it fills the block slot of a `[2, ..]` or
//! `[3, ..]` input, and keeps the input's kind. Editors that address every block by id (agent
//! sessions) expand once and then see only blocks.

use alloc::string::String;
use alloc::vec::Vec;

use super::super::blocks::{
    Block, BlockForm, BlockIdx, Blocks, Field, InputKind, InputValue, Primitive,
};
use super::super::model::{Extra, Literal};

impl Blocks {
    /// Replaces every inline primitive of this target by a block. `name(blocks, parent, input,
    /// shadow_slot)` gives each new block's id (an id already taken gets `~1`, `~2`... added).
    /// New blocks go at the end of the file order; returns how many were made.
    pub fn expand_primitives(
        &mut self,
        mut name: impl FnMut(&Blocks, BlockIdx, usize, bool) -> String,
    ) -> usize {
        let mut sites: Vec<(BlockIdx, usize, bool)> = Vec::new();
        for (i, b) in self.iter() {
            for (n, input) in b.inputs.iter().enumerate() {
                if matches!(input.value, Some(InputValue::Primitive(_))) {
                    sites.push((i, n, false));
                }
                if matches!(input.shadow, Some(InputValue::Primitive(_))) {
                    sites.push((i, n, true));
                }
            }
        }
        for &(parent, n, shadow_slot) in &sites {
            let Some(input) = self.get(parent).and_then(|b| b.inputs.get(n)) else { continue };
            let slot = if shadow_slot { &input.shadow } else { &input.value };
            let Some(InputValue::Primitive(prim)) = slot.clone() else { continue };
            let is_shadow = shadow_slot || input.kind == InputKind::Shadow;
            let base = name(self, parent, n, shadow_slot);
            let id = if self.index_of(&base).is_none() {
                base
            } else {
                (1u32..)
                    .map(|k| alloc::format!("{base}~{k}"))
                    .find(|c| self.index_of(c).is_none())
                    .unwrap_or(base)
            };
            let kind = prim.kind();
            let field = match prim {
                Primitive::Literal { value, .. } => {
                    Field { name: kind.field_name().into(), value, id: None, has_id_slot: false }
                }
                Primitive::Reference { name, id, .. } => Field {
                    name: kind.field_name().into(),
                    value: Literal::Text(name),
                    id: Some(id),
                    has_id_slot: true,
                },
            };
            let idx = self.push_block(Block {
                id,
                opcode: kind.opcode().into(),
                next: None,
                parent: Some(parent),
                inputs: Vec::new(),
                fields: alloc::vec![field],
                shadow: is_shadow,
                top_level: false,
                x: None,
                y: None,
                comment: None,
                mutation: None,
                form: BlockForm::Object,
                extra: Extra::new(),
            });
            if let Some(input) = self.get_mut(parent).and_then(|b| b.inputs.get_mut(n)) {
                let slot = if shadow_slot { &mut input.shadow } else { &mut input.value };
                *slot = Some(InputValue::Block(idx));
            }
        }
        sites.len()
    }
}
