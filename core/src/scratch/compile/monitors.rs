//! Monitors: each visible monitor of `project.json` becomes a reporter compiled on the target
//! it watches. scratch-vm runs one monitor thread per visible monitor every frame
//! (`runtime._step` → `_pushMonitors` → `Blocks.runAllMonitored`), on the monitor's sprite or,
//! for a global monitor, on the editing target (the first sprite, else the stage). Like any
//! `data_variable` block, a variable monitor whose variable exists nowhere creates it on that
//! target (`lookupOrCreateVariable`), which is visible in the trace.

use alloc::vec::Vec;

use super::{CompileError, Compiler, Ctx};
use crate::scratch::image::MonitorImage;
use crate::scratch::project::{Block, BlockForm, Field, Json, Literal, Monitor, Project};

/// The block a monitor runs (`sb3.deserializeMonitor`): its opcode with the params as fields;
/// variable and list monitors carry the monitor id as the field's id.
fn monitor_block(m: &Monitor) -> Block {
    let fields = m
        .params
        .iter()
        .map(|(name, value)| {
            let value = match value {
                Json::String(s) => Literal::Text(s.clone()),
                Json::Number(n) => Literal::Number(*n),
                Json::Bool(b) => Literal::Bool(*b),
                _ => Literal::Null,
            };
            let refers = matches!(
                (m.opcode.as_str(), name.as_str()),
                ("data_variable", "VARIABLE") | ("data_listcontents", "LIST")
            );
            Field { name: name.clone(), value, id: refers.then(|| m.id.clone()), has_id_slot: true }
        })
        .collect();
    Block {
        id: m.id.clone(),
        opcode: m.opcode.clone(),
        next: None,
        parent: None,
        inputs: Vec::new(),
        fields,
        shadow: false,
        top_level: true,
        x: None,
        y: None,
        comment: None,
        mutation: None,
        form: BlockForm::Object,
        extra: Default::default(),
    }
}

impl Compiler {
    /// Compile the visible monitors into [`crate::scratch::image::Image::monitors`].
    pub(super) fn compile_monitors(&mut self, project: &Project) -> Result<(), CompileError> {
        let sprites = || project.targets.iter().enumerate().filter(|(_, t)| !t.is_stage);
        // vm.installTargets: the editing target is targets[1] (else targets[0]).
        let editing = if project.targets.len() > 1 { 1 } else { 0 };
        for m in project.monitors.iter().filter(|m| m.visible == Some(true)) {
            let ti = m
                .sprite_name
                .as_ref()
                .and_then(|name| sprites().find(|(_, t)| t.name == *name).map(|(i, _)| i))
                .unwrap_or(editing);
            let Some(t) = project.targets.get(ti) else { continue };
            let mut cx = Ctx {
                ti,
                t,
                stmt_of: Vec::new(),
                work: Vec::new(),
                proc_base: self.img.procs.len(),
            };
            let expr = self.reporter(&mut cx, &monitor_block(m), None, 0)?;
            self.img.monitors.push(MonitorImage { id: m.id.clone(), target: ti as u32, expr });
        }
        Ok(())
    }
}
