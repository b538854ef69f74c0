//! Targets and what they hold besides blocks: unique sprite names, layer order, costumes
//! (at least one, `currentCostume` in range) and sounds against the archive's assets,
//! comments and monitors.

use alloc::format;
use alloc::string::String;

use super::super::model::Project;
use super::{Context, Pointer, Report};

pub(super) fn check(project: &Project, cx: &Context<'_>, report: &mut Report) {
    let mut layers: alloc::vec::Vec<(f64, usize)> = alloc::vec::Vec::new();
    for (t, target) in project.targets.iter().enumerate() {
        let tp = || Pointer::target(t);
        if !target.is_stage {
            let dup = project.targets[..t].iter().any(|o| !o.is_stage && o.name == target.name);
            if dup {
                report.error(
                    "DUPLICATE_TARGET",
                    tp().key("name").into_string(),
                    format!("two targets are named {:?}", target.name),
                );
            }
            if target.name == "_stage_"
                || target.name == "Stage" && project.stage().is_some_and(|s| s.name == "Stage")
            {
                report.warn(
                    "RESERVED_NAME",
                    tp().key("name").into_string(),
                    format!("a sprite named {:?} is hard to tell from the stage", target.name),
                );
            }
        }
        if let Some(layer) = target.layer_order {
            let v = layer.as_f64();
            if target.is_stage && v != 0.0 {
                report.warn(
                    "LAYER_ORDER",
                    tp().key("layerOrder").into_string(),
                    "the stage's layerOrder should be 0".into(),
                );
            }
            if !target.is_stage {
                if let Some((_, other)) = layers.iter().find(|(l, _)| *l == v) {
                    report.warn(
                        "LAYER_ORDER",
                        tp().key("layerOrder").into_string(),
                        format!("layerOrder {v} is also {:?}'s", project.targets[*other].name),
                    );
                }
                layers.push((v, t));
            }
        }
        if target.costumes.is_empty() {
            report.error(
                "NO_COSTUMES",
                tp().key("costumes").into_string(),
                "a target needs at least one costume".into(),
            );
        } else if let Some(c) = target.current_costume {
            if c.as_f64() >= target.costumes.len() as f64 {
                let msg = format!(
                    "currentCostume {} is not an index of the {} costumes",
                    c.as_f64(),
                    target.costumes.len()
                );
                report.warn("COSTUME_INDEX", tp().key("currentCostume").into_string(), msg);
            }
        }
        let assets = target.costumes.iter().map(|c| {
            ("costumes", c.md5ext.as_deref(), c.asset_id.as_deref(), c.data_format.as_deref())
        });
        let sounds = target.sounds.iter().map(|s| {
            ("sounds", s.md5ext.as_deref(), s.asset_id.as_deref(), s.data_format.as_deref())
        });
        let mut counters = [0usize; 2];
        for (kind, md5ext, asset_id, format) in assets.chain(sounds) {
            let k = usize::from(kind == "sounds");
            let i = counters[k];
            counters[k] += 1;
            let name: Option<String> = match (md5ext, asset_id, format) {
                (Some(m), _, _) => Some(m.into()),
                (None, Some(a), Some(f)) => Some(format!("{a}.{f}")),
                _ => None,
            };
            let ptr = tp().key(kind).index(i).into_string();
            let Some(name) = name else {
                report.error(
                    "MISSING_ASSET",
                    ptr,
                    "names no asset (no md5ext, assetId or dataFormat)".into(),
                );
                continue;
            };
            if let Some(present) = cx.asset_present {
                if !present(&name) {
                    report.error(
                        "MISSING_ASSET",
                        ptr,
                        format!("asset {name:?} is not in the project"),
                    );
                }
            }
        }
        for c in &target.comments {
            if let Some(b) = &c.block_id {
                if target.blocks.index_of(b).is_none() {
                    let ptr = tp().key("comments").key(&c.id).key("blockId").into_string();
                    report.warn(
                        "DANGLING_COMMENT",
                        ptr,
                        format!("attached to block {b:?}, which does not exist"),
                    );
                }
            }
        }
        for b in target.blocks.as_slice() {
            if let Some(cid) = &b.comment {
                if !target.comments.iter().any(|c| &c.id == cid) {
                    let ptr = Pointer::block(t, &b.id).key("comment").into_string();
                    report.warn(
                        "DANGLING_COMMENT",
                        ptr,
                        format!("names comment {cid:?}, which does not exist"),
                    );
                }
            }
        }
    }
    for (i, m) in project.monitors.iter().enumerate() {
        let list = m.opcode == "data_listcontents";
        if m.opcode != "data_variable" && !list {
            continue;
        }
        let owner = match &m.sprite_name {
            Some(s) => project.targets.iter().find(|t| !t.is_stage && &t.name == s),
            None => project.stage(),
        };
        let known = owner.is_some_and(|t| {
            if list {
                t.lists.iter().any(|l| l.id == m.id)
            } else {
                t.variables.iter().any(|v| v.id == m.id)
            }
        });
        if !known {
            let ptr = Pointer::root().key("monitors").index(i).into_string();
            report.warn("DANGLING_MONITOR", ptr, format!("monitor of {:?}, which is not declared where the monitor says (scratch-vm creates it)", m.id));
        }
    }
}
