//! The opcode table: which scratch-vm 5.0.300 opcodes gobo implements, as what operation, and
//! the names of their inputs in stored order.

use crate::scratch::image::ops::{MathFn, MusicOp, PenOp, StopKind};
use crate::scratch::image::{Rop, Slot, Sop};

/// What an opcode is.
pub(super) enum Kind {
    /// A stack block: operation (field-dependent parts filled in later) and input names.
    Stmt(Sop, &'static [&'static str]),
    /// A reporter: operation and input names.
    Reporter(Rop, &'static [&'static str]),
    /// A hat.
    Hat,
    /// No implementation.
    Unknown,
}

const Z: Slot = Slot::Local(0);

/// Classify an opcode.
pub(super) fn classify(opcode: &str) -> Kind {
    use Kind::{Reporter as R, Stmt as S};
    match opcode {
        // hats
        "event_whenflagclicked"
        | "event_whenkeypressed"
        | "event_whenthisspriteclicked"
        | "event_whenstageclicked"
        | "event_whenbroadcastreceived"
        | "event_whenbackdropswitchesto"
        | "event_whengreaterthan"
        | "event_whentouchingobject"
        | "control_start_as_clone"
        | "procedures_definition"
        | "makeymakey_whenMakeyKeyPressed"
        | "makeymakey_whenCodePressed"
        | "videoSensing_whenMotionGreaterThan" => Kind::Hat,
        // motion
        "motion_movesteps" => S(Sop::MoveSteps, &["STEPS"]),
        "motion_turnright" => S(Sop::TurnRight, &["DEGREES"]),
        "motion_turnleft" => S(Sop::TurnLeft, &["DEGREES"]),
        "motion_goto" => S(Sop::GoTo, &["TO"]),
        "motion_gotoxy" => S(Sop::GoToXY, &["X", "Y"]),
        "motion_glideto" => S(Sop::GlideTo, &["SECS", "TO"]),
        "motion_glidesecstoxy" => S(Sop::GlideSecsToXY, &["SECS", "X", "Y"]),
        "motion_pointindirection" => S(Sop::PointInDirection, &["DIRECTION"]),
        "motion_pointtowards" => S(Sop::PointTowards, &["TOWARDS"]),
        "motion_changexby" => S(Sop::ChangeX, &["DX"]),
        "motion_setx" => S(Sop::SetX, &["X"]),
        "motion_changeyby" => S(Sop::ChangeY, &["DY"]),
        "motion_sety" => S(Sop::SetY, &["Y"]),
        "motion_ifonedgebounce" => S(Sop::IfOnEdgeBounce, &[]),
        "motion_setrotationstyle" => S(Sop::SetRotationStyle(Default::default()), &[]),
        "motion_xposition" => R(Rop::XPos, &[]),
        "motion_yposition" => R(Rop::YPos, &[]),
        "motion_direction" => R(Rop::Direction, &[]),
        // looks
        "looks_say" => S(Sop::Say, &["MESSAGE"]),
        "looks_sayforsecs" => S(Sop::SayForSecs, &["MESSAGE", "SECS"]),
        "looks_think" => S(Sop::Think, &["MESSAGE"]),
        "looks_thinkforsecs" => S(Sop::ThinkForSecs, &["MESSAGE", "SECS"]),
        "looks_show" => S(Sop::Show, &[]),
        "looks_hide" => S(Sop::Hide, &[]),
        "looks_switchcostumeto" => S(Sop::SwitchCostume, &["COSTUME"]),
        "looks_nextcostume" => S(Sop::NextCostume, &[]),
        "looks_switchbackdropto" => S(Sop::SwitchBackdrop, &["BACKDROP"]),
        "looks_switchbackdroptoandwait" => S(Sop::SwitchBackdropAndWait, &["BACKDROP"]),
        "looks_nextbackdrop" => S(Sop::NextBackdrop, &[]),
        "looks_changeeffectby" => S(Sop::ChangeEffect(Default::default()), &["CHANGE"]),
        "looks_seteffectto" => S(Sop::SetEffect(Default::default()), &["VALUE"]),
        "looks_cleargraphiceffects" => S(Sop::ClearEffects, &[]),
        "looks_changesizeby" => S(Sop::ChangeSize, &["CHANGE"]),
        "looks_setsizeto" => S(Sop::SetSize, &["SIZE"]),
        "looks_gotofrontback" => S(Sop::GoToFrontBack(true), &[]),
        "looks_goforwardbackwardlayers" => S(Sop::GoForwardBackward(true), &["NUM"]),
        "looks_costumenumbername" => R(Rop::CostumeNumberName(true), &[]),
        "looks_backdropnumbername" => R(Rop::BackdropNumberName(true), &[]),
        "looks_size" => R(Rop::Size, &[]),
        // legacy blocks scratch-vm keeps as no-ops
        "looks_changestretchby"
        | "looks_setstretchto"
        | "looks_hideallsprites"
        | "motion_scroll_right"
        | "motion_scroll_up"
        | "motion_align_scene" => S(Sop::Nop, &["CHANGE", "STRETCH", "DISTANCE", "ALIGNMENT"]),
        "motion_xscroll" | "motion_yscroll" | "sensing_userid" => R(Rop::Nothing, &[]),
        // sound (see vm::sound)
        "sound_play" => S(Sop::PlaySound(false), &["SOUND_MENU"]),
        "sound_playuntildone" => S(Sop::PlaySound(true), &["SOUND_MENU"]),
        "sound_stopallsounds" => S(Sop::StopAllSounds, &[]),
        "sound_seteffectto" => S(Sop::SoundEffect { change: false, fx: None }, &["VALUE"]),
        "sound_changeeffectby" => S(Sop::SoundEffect { change: true, fx: None }, &["VALUE"]),
        "sound_cleareffects" => S(Sop::ClearSoundEffects, &[]),
        "sound_setvolumeto" => S(Sop::SetVolume, &["VOLUME"]),
        "sound_changevolumeby" => S(Sop::ChangeVolume, &["VOLUME"]),
        "sound_volume" => R(Rop::Volume, &[]),
        // events
        "event_broadcast" => S(Sop::Broadcast, &["BROADCAST_INPUT"]),
        "event_broadcastandwait" => S(Sop::BroadcastAndWait, &["BROADCAST_INPUT"]),
        // control
        "control_wait" => S(Sop::Wait, &["DURATION"]),
        "control_repeat" => S(Sop::Repeat, &["TIMES"]),
        "control_forever" => S(Sop::Forever, &[]),
        "control_if" => S(Sop::If, &["CONDITION"]),
        "control_if_else" => S(Sop::IfElse, &["CONDITION"]),
        "control_wait_until" => S(Sop::WaitUntil, &["CONDITION"]),
        "control_repeat_until" => S(Sop::RepeatUntil, &["CONDITION"]),
        "control_while" => S(Sop::While, &["CONDITION"]),
        "control_for_each" => S(Sop::ForEach(Z), &["VALUE"]),
        "control_stop" => S(Sop::Stop(StopKind::Nothing), &[]),
        "control_create_clone_of" => S(Sop::CreateClone, &["CLONE_OPTION"]),
        "control_delete_this_clone" => S(Sop::DeleteClone, &[]),
        "control_all_at_once" => S(Sop::AllAtOnce, &[]),
        "control_incr_counter" => S(Sop::IncrCounter, &[]),
        "control_clear_counter" => S(Sop::ClearCounter, &[]),
        "control_get_counter" => R(Rop::Counter, &[]),
        // sensing
        "sensing_askandwait" => S(Sop::AskAndWait, &["QUESTION"]),
        "sensing_resettimer" => S(Sop::ResetTimer, &[]),
        "sensing_setdragmode" => S(Sop::SetDragMode(false), &[]),
        "sensing_answer" => R(Rop::Answer, &[]),
        "sensing_keypressed" => R(Rop::KeyPressed, &["KEY_OPTION"]),
        "sensing_mousedown" => R(Rop::MouseDown, &[]),
        "sensing_mousex" => R(Rop::MouseX, &[]),
        "sensing_mousey" => R(Rop::MouseY, &[]),
        "sensing_timer" => R(Rop::Timer, &[]),
        "sensing_current" => R(Rop::Current(Default::default()), &[]),
        "sensing_dayssince2000" => R(Rop::DaysSince2000, &[]),
        "sensing_username" => R(Rop::Username, &[]),
        "sensing_loudness" => R(Rop::Loudness, &[]),
        "sensing_loud" => R(Rop::Loud, &[]),
        "sensing_of" => R(Rop::Of(Default::default()), &["OBJECT"]),
        "sensing_touchingobject" => R(Rop::TouchingObject, &["TOUCHINGOBJECTMENU"]),
        "sensing_touchingcolor" => R(Rop::TouchingColor, &["COLOR"]),
        "sensing_coloristouchingcolor" => R(Rop::ColorTouchingColor, &["COLOR", "COLOR2"]),
        "sensing_distanceto" => R(Rop::DistanceTo, &["DISTANCETOMENU"]),
        // operators
        "operator_add" => R(Rop::Add, &["NUM1", "NUM2"]),
        "operator_subtract" => R(Rop::Sub, &["NUM1", "NUM2"]),
        "operator_multiply" => R(Rop::Mul, &["NUM1", "NUM2"]),
        "operator_divide" => R(Rop::Div, &["NUM1", "NUM2"]),
        "operator_random" => R(Rop::Random, &["FROM", "TO"]),
        "operator_gt" => R(Rop::Gt, &["OPERAND1", "OPERAND2"]),
        "operator_lt" => R(Rop::Lt, &["OPERAND1", "OPERAND2"]),
        "operator_equals" => R(Rop::Eq, &["OPERAND1", "OPERAND2"]),
        "operator_and" => R(Rop::And, &["OPERAND1", "OPERAND2"]),
        "operator_or" => R(Rop::Or, &["OPERAND1", "OPERAND2"]),
        "operator_not" => R(Rop::Not, &["OPERAND"]),
        "operator_join" => R(Rop::Join, &["STRING1", "STRING2"]),
        "operator_letter_of" => R(Rop::LetterOf, &["LETTER", "STRING"]),
        "operator_length" => R(Rop::Length, &["STRING"]),
        "operator_contains" => R(Rop::Contains, &["STRING1", "STRING2"]),
        "operator_mod" => R(Rop::Mod, &["NUM1", "NUM2"]),
        "operator_round" => R(Rop::Round, &["NUM"]),
        "operator_mathop" => R(Rop::MathOp(MathFn::Unknown), &["NUM"]),
        // data
        "data_variable" => R(Rop::Unimplemented, &[]),
        "data_setvariableto" => S(Sop::SetVar(Z), &["VALUE"]),
        "data_changevariableby" => S(Sop::ChangeVar(Z), &["VALUE"]),
        "data_showvariable" | "data_hidevariable" | "data_showlist" | "data_hidelist" => {
            S(Sop::Nop, &[])
        }
        "data_listcontents" => R(Rop::ListContents(Z), &[]),
        "data_addtolist" => S(Sop::AddToList(Z), &["ITEM"]),
        "data_deleteoflist" => S(Sop::DeleteOfList(Z), &["INDEX"]),
        "data_deletealloflist" => S(Sop::DeleteAllOfList(Z), &[]),
        "data_insertatlist" => S(Sop::InsertAtList(Z), &["ITEM", "INDEX"]),
        "data_replaceitemoflist" => S(Sop::ReplaceItemOfList(Z), &["INDEX", "ITEM"]),
        "data_itemoflist" => R(Rop::ItemOfList(Z), &["INDEX"]),
        "data_itemnumoflist" => R(Rop::ItemNumOfList(Z), &["ITEM"]),
        "data_lengthoflist" => R(Rop::LengthOfList(Z), &[]),
        "data_listcontainsitem" => R(Rop::ListContains(Z), &["ITEM"]),
        // procedures
        "procedures_call" => {
            S(Sop::Call { proc: None, code: u32::MAX, present: alloc::vec::Vec::new() }, &[])
        }
        "argument_reporter_string_number" | "argument_reporter_boolean" => {
            R(Rop::Unimplemented, &[])
        }
        // pen
        "pen_clear" => S(Sop::Pen(PenOp::Clear), &[]),
        "pen_stamp" => S(Sop::Pen(PenOp::Stamp), &[]),
        "pen_penDown" => S(Sop::Pen(PenOp::Down), &[]),
        "pen_penUp" => S(Sop::Pen(PenOp::Up), &[]),
        "pen_setPenColorToColor" => S(Sop::Pen(PenOp::SetColor), &["COLOR"]),
        "pen_changePenColorParamBy" => S(Sop::Pen(PenOp::ChangeParam), &["COLOR_PARAM", "VALUE"]),
        "pen_setPenColorParamTo" => S(Sop::Pen(PenOp::SetParam), &["COLOR_PARAM", "VALUE"]),
        "pen_changePenSizeBy" => S(Sop::Pen(PenOp::ChangeSize), &["SIZE"]),
        "pen_setPenSizeTo" => S(Sop::Pen(PenOp::SetSize), &["SIZE"]),
        "pen_setPenShadeToNumber" => S(Sop::Pen(PenOp::SetShade), &["SHADE"]),
        "pen_changePenShadeBy" => S(Sop::Pen(PenOp::ChangeShade), &["SHADE"]),
        "pen_setPenHueToNumber" => S(Sop::Pen(PenOp::SetHue), &["HUE"]),
        "pen_changePenHueBy" => S(Sop::Pen(PenOp::ChangeHue), &["HUE"]),
        // music
        "music_playDrumForBeats" => S(Sop::Music(MusicOp::PlayDrum), &["DRUM", "BEATS"]),
        "music_midiPlayDrumForBeats" => S(Sop::Music(MusicOp::MidiPlayDrum), &["DRUM", "BEATS"]),
        "music_restForBeats" => S(Sop::Music(MusicOp::Rest), &["BEATS"]),
        "music_playNoteForBeats" => S(Sop::Music(MusicOp::PlayNote), &["NOTE", "BEATS"]),
        "music_setInstrument" => S(Sop::Music(MusicOp::SetInstrument), &["INSTRUMENT"]),
        "music_midiSetInstrument" => S(Sop::Music(MusicOp::MidiSetInstrument), &["INSTRUMENT"]),
        "music_setTempo" => S(Sop::Music(MusicOp::SetTempo), &["TEMPO"]),
        "music_changeTempo" => S(Sop::Music(MusicOp::ChangeTempo), &["TEMPO"]),
        "music_getTempo" => R(Rop::Tempo, &[]),
        // extensions that need a camera or a network service: what they do without one
        // (docs/scratch-blocks.md)
        "videoSensing_videoOn" => R(Rop::VideoOn, &["ATTRIBUTE", "SUBJECT"]),
        "videoSensing_videoToggle" => S(Sop::Nop, &["VIDEO_STATE"]),
        "videoSensing_setVideoTransparency" => S(Sop::Nop, &["TRANSPARENCY"]),
        "text2speech_speakAndWait" => S(Sop::Speak, &["WORDS"]),
        "text2speech_setVoice" => S(Sop::Nop, &["VOICE"]),
        "text2speech_setLanguage" => S(Sop::Nop, &["LANGUAGE"]),
        "translate_getTranslate" => R(Rop::Translate, &["WORDS", "LANGUAGE"]),
        "translate_getViewerLanguage" => R(Rop::ViewerLanguage, &[]),
        _ => Kind::Unknown,
    }
}

/// The `operator_mathop` function for a (lower-cased) menu option.
pub(super) fn math_fn(op: &str) -> MathFn {
    match op {
        "abs" => MathFn::Abs,
        "floor" => MathFn::Floor,
        "ceiling" => MathFn::Ceiling,
        "sqrt" => MathFn::Sqrt,
        "sin" => MathFn::Sin,
        "cos" => MathFn::Cos,
        "tan" => MathFn::Tan,
        "asin" => MathFn::Asin,
        "acos" => MathFn::Acos,
        "atan" => MathFn::Atan,
        "ln" => MathFn::Ln,
        "log" => MathFn::Log,
        "e ^" => MathFn::Exp,
        "10 ^" => MathFn::Pow10,
        _ => MathFn::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::{classify, Kind};

    /// docs/scratch-blocks.md lists every opcode of scratch-vm 5.0.300's core blocks and
    /// headless extensions: each row marked implemented is in the table, each menu row is not
    /// (it reports its field through the shadow rule).
    #[test]
    fn the_block_list_in_the_docs_matches_the_table() {
        let doc = include_str!("../../../../docs/scratch-blocks.md");
        let mut rows = 0;
        for line in doc.lines().filter(|l| l.starts_with("| ") && l.contains('`')) {
            let cells: alloc::vec::Vec<&str> = line.split('|').map(str::trim).collect();
            let (Some(op), Some(status)) = (cells.get(2), cells.get(3)) else { continue };
            let op = op.trim_matches('`');
            let known = !matches!(classify(op), Kind::Unknown);
            match *status {
                "implemented" => assert!(known, "{op} is listed as implemented"),
                "shadow rule" => assert!(!known, "{op} is listed as a menu"),
                other => panic!("{op}: unexpected status {other:?}"),
            }
            rows += 1;
        }
        assert_eq!(rows, 178);
    }
}
