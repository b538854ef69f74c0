//! Value edits of one block: fields, input literals and shadows, opcode, mutation. Each
//! returns what it replaced, so a caller can undo it exactly.

use alloc::string::String;
use alloc::vec::Vec;

use super::super::blocks::{
    Block, BlockIdx, Blocks, Field, InputKind, InputValue, Mutation, Primitive,
};
use super::super::json::Json;
use super::super::model::Literal;
use super::error::EditError;
use super::ids::IdGen;
use super::new::NewChild;

impl Blocks {
    fn check_mut(&mut self, idx: BlockIdx) -> Result<&mut Block, EditError> {
        let id = self.id_of(idx);
        self.get_mut(idx).ok_or(EditError::UnknownBlock { id })
    }

    /// Sets a field, replacing the same-named one in place or appending it; returns the
    /// field it replaced.
    pub fn set_field(&mut self, idx: BlockIdx, field: Field) -> Result<Option<Field>, EditError> {
        let b = self.check_mut(idx)?;
        match b.fields.iter_mut().find(|f| f.name == field.name) {
            Some(f) => Ok(Some(core::mem::replace(f, field))),
            None => {
                b.fields.push(field);
                Ok(None)
            }
        }
    }

    /// Removes a field; returns it.
    pub fn remove_field(&mut self, idx: BlockIdx, name: &str) -> Result<Field, EditError> {
        let b = self.check_mut(idx)?;
        match b.fields.iter().position(|f| f.name == name) {
            Some(n) => Ok(b.fields.remove(n)),
            None => Err(EditError::UnknownField { id: b.id.clone(), field: name.into() }),
        }
    }

    /// The shadow of input `name`: the inline primitive or shadow block behind (or in) the slot.
    pub fn input_shadow(&self, idx: BlockIdx, name: &str) -> Result<Option<InputValue>, EditError> {
        let b = self.check(idx)?;
        let Some(input) = b.input(name) else {
            return Err(EditError::UnknownInput { id: b.id.clone(), input: name.into() });
        };
        Ok(match (&input.value, &input.shadow) {
            (_, Some(s)) => Some(s.clone()),
            (Some(InputValue::Primitive(p)), None) => Some(InputValue::Primitive(p.clone())),
            (Some(InputValue::Block(v)), None) if self.get(*v).is_some_and(|s| s.shadow) => {
                Some(InputValue::Block(*v))
            }
            _ => None,
        })
    }

    /// Sets the literal an input's shadow holds (`[4, "10"]` or a `math_number` shadow's
    /// `NUM`, a `text` shadow's `TEXT`...): an inline literal primitive gets the value, a
    /// shadow block with one field gets it in that field. Returns the old literal. The number
    /// or string type is the caller's (Scratch compares them alike).
    pub fn set_input_literal(
        &mut self,
        idx: BlockIdx,
        name: &str,
        value: Literal,
    ) -> Result<Literal, EditError> {
        let shadow = self.input_shadow(idx, name)?;
        let no_shadow = || EditError::NoShadow { id: self.id_of(idx), input: name.into() };
        match shadow {
            Some(InputValue::Primitive(Primitive::Literal { .. })) => {
                let b = self.check_mut(idx)?;
                let input = b.inputs.iter_mut().find(|i| i.name == name);
                let slot = input.and_then(|i| match (&mut i.value, &mut i.shadow) {
                    (_, Some(InputValue::Primitive(Primitive::Literal { value, .. }))) => {
                        Some(value)
                    }
                    (Some(InputValue::Primitive(Primitive::Literal { value, .. })), None) => {
                        Some(value)
                    }
                    _ => None,
                });
                match slot {
                    Some(v) => Ok(core::mem::replace(v, value)),
                    None => Err(EditError::NoShadow { id: String::new(), input: name.into() }),
                }
            }
            Some(InputValue::Block(s)) => {
                let err = no_shadow();
                let sb = self.check_mut(s)?;
                match sb.fields.as_mut_slice() {
                    [f] => Ok(core::mem::replace(&mut f.value, value)),
                    _ => Err(err),
                }
            }
            _ => Err(no_shadow()),
        }
    }

    /// Replaces the shadow of input `name` (created if the block lacks the input) with
    /// `shadow` (a new shadow block from the spec, or an inline primitive), or removes it
    /// (`None`). A block filling the slot stays. Returns the removed blocks. New blocks go at
    /// the end of the file order.
    pub fn set_input_shadow(
        &mut self,
        idx: BlockIdx,
        name: &str,
        shadow: Option<&NewChild>,
        ids: &mut IdGen,
    ) -> Result<Vec<Block>, EditError> {
        self.check(idx)?;
        let n = match self.check(idx)?.inputs.iter().position(|i| i.name == name) {
            Some(n) => n,
            None => {
                let b = self.check_mut(idx)?;
                b.inputs.push(super::super::blocks::Input {
                    name: name.into(),
                    kind: InputKind::Shadow,
                    value: None,
                    shadow: None,
                });
                b.inputs.len() - 1
            }
        };
        let new_value = match shadow {
            None => return Ok(self.drop_shadow(idx, n)),
            Some(NewChild::Primitive(p)) => InputValue::Primitive(p.clone()),
            Some(NewChild::Block(spec)) => {
                let mut spec = spec.clone();
                spec.shadow = true;
                let pos = self.free_spot();
                let s = self.create(&spec, pos, ids)?;
                self.set_child(s, idx);
                InputValue::Block(s)
            }
        };
        let old = self.input_shadow(idx, name)?;
        let b = self.check_mut(idx)?;
        let Some(input) = b.inputs.get_mut(n) else { return Ok(Vec::new()) };
        let covered = match (&input.value, &old) {
            (Some(v), Some(o)) => v != o,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if covered {
            input.shadow = Some(new_value);
            input.kind = InputKind::Obscured;
        } else {
            input.value = Some(new_value);
            input.shadow = None;
            input.kind = InputKind::Shadow;
        }
        match old {
            Some(InputValue::Block(o)) => {
                if let Some(ob) = self.get_mut(o) {
                    ob.parent = None;
                }
                let doomed = self.subtree(o, true);
                Ok(self.remove_set(&doomed))
            }
            _ => Ok(Vec::new()),
        }
    }

    /// Sets the opcode; returns the old one.
    pub fn set_opcode(&mut self, idx: BlockIdx, opcode: &str) -> Result<String, EditError> {
        let b = self.check_mut(idx)?;
        Ok(core::mem::replace(&mut b.opcode, opcode.into()))
    }

    /// Sets or removes (`None`) the whole mutation; returns the old one.
    pub fn set_mutation(
        &mut self,
        idx: BlockIdx,
        mutation: Option<Mutation>,
    ) -> Result<Option<Mutation>, EditError> {
        let b = self.check_mut(idx)?;
        Ok(core::mem::replace(&mut b.mutation, mutation))
    }

    /// Sets (or with `None` removes) one mutation attribute, replacing it in place or
    /// appending it, and re-parses the mutation (`argumentids` must stay a string holding a
    /// JSON array...). A block without a mutation gets one (`tagName: "mutation"`,
    /// `children: []` first, as scratch-vm writes them). Returns the old attribute value.
    pub fn set_mutation_attr(
        &mut self,
        idx: BlockIdx,
        key: &str,
        value: Option<Json>,
    ) -> Result<Option<Json>, EditError> {
        let b = self.check(idx)?;
        let mut raw = match &b.mutation {
            Some(m) => m.raw.clone(),
            None => alloc::vec![
                (String::from("tagName"), Json::String("mutation".into())),
                (String::from("children"), Json::Array(Vec::new())),
            ],
        };
        let pos = raw.iter().position(|(k, _)| k == key);
        let old = match (pos, value) {
            (Some(p), Some(v)) => Some(core::mem::replace(&mut raw[p].1, v)),
            (Some(p), None) => Some(raw.remove(p).1),
            (None, Some(v)) => {
                raw.push((key.into(), v));
                None
            }
            (None, None) => None,
        };
        let parsed = Mutation::from_raw(raw).map_err(|_| EditError::BadMutation {
            id: b.id.clone(),
            reason: "an attribute does not parse",
        })?;
        self.check_mut(idx)?.mutation = Some(parsed);
        Ok(old)
    }
}
