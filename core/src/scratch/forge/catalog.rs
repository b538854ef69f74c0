//! The Bug Forge's catalogue (SPEC §2.4, ScratchEval Table 1): the eight bug patterns with
//! their mechanism tags and the eighteen concrete operators, each one block edit (or one
//! subtree edit) with an exact inverse.

use serde::Serialize;

/// A bug pattern; its serialized name is the mechanism tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    MissingInitialization,
    Desynchronization,
    UntriggeredEvent,
    NonTerminating,
    IncorrectConditional,
    SpriteStateMismatch,
    CloneManagement,
    EventHandlerConflict,
}

impl Pattern {
    /// Catalogue order.
    pub const ALL: [Pattern; 8] = [
        Pattern::MissingInitialization,
        Pattern::Desynchronization,
        Pattern::UntriggeredEvent,
        Pattern::NonTerminating,
        Pattern::IncorrectConditional,
        Pattern::SpriteStateMismatch,
        Pattern::CloneManagement,
        Pattern::EventHandlerConflict,
    ];

    /// The mechanism tag (`missing_initialization`...).
    pub fn tag(self) -> &'static str {
        match self {
            Pattern::MissingInitialization => "missing_initialization",
            Pattern::Desynchronization => "desynchronization",
            Pattern::UntriggeredEvent => "untriggered_event",
            Pattern::NonTerminating => "non_terminating",
            Pattern::IncorrectConditional => "incorrect_conditional",
            Pattern::SpriteStateMismatch => "sprite_state_mismatch",
            Pattern::CloneManagement => "clone_management",
            Pattern::EventHandlerConflict => "event_handler_conflict",
        }
    }

    /// The pattern with this tag.
    pub fn from_tag(tag: &str) -> Option<Pattern> {
        Pattern::ALL.into_iter().find(|p| p.tag() == tag)
    }

    /// Its operators.
    pub fn operators(self) -> impl Iterator<Item = Operator> {
        Operator::ALL.into_iter().filter(move |o| o.pattern() == self)
    }
}

/// A concrete operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operator {
    InitRemove,
    InitMove,
    InitLiteral,
    SyncNowait,
    SyncDropwait,
    EventRename,
    EventDropemit,
    LoopFlip,
    LoopThreshold,
    CondFlip,
    CondSwap,
    CondVar,
    LookRemove,
    LookSwap,
    CloneNodelete,
    CloneNoinit,
    HandlerDup,
    HandlerUngate,
}

impl Serialize for Operator {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl Operator {
    /// Catalogue order.
    pub const ALL: [Operator; 18] = [
        Operator::InitRemove,
        Operator::InitMove,
        Operator::InitLiteral,
        Operator::SyncNowait,
        Operator::SyncDropwait,
        Operator::EventRename,
        Operator::EventDropemit,
        Operator::LoopFlip,
        Operator::LoopThreshold,
        Operator::CondFlip,
        Operator::CondSwap,
        Operator::CondVar,
        Operator::LookRemove,
        Operator::LookSwap,
        Operator::CloneNodelete,
        Operator::CloneNoinit,
        Operator::HandlerDup,
        Operator::HandlerUngate,
    ];

    /// Its id (`init.remove`...).
    pub fn id(self) -> &'static str {
        match self {
            Operator::InitRemove => "init.remove",
            Operator::InitMove => "init.move",
            Operator::InitLiteral => "init.literal",
            Operator::SyncNowait => "sync.nowait",
            Operator::SyncDropwait => "sync.dropwait",
            Operator::EventRename => "event.rename",
            Operator::EventDropemit => "event.dropemit",
            Operator::LoopFlip => "loop.flip",
            Operator::LoopThreshold => "loop.threshold",
            Operator::CondFlip => "cond.flip",
            Operator::CondSwap => "cond.swap",
            Operator::CondVar => "cond.var",
            Operator::LookRemove => "look.remove",
            Operator::LookSwap => "look.swap",
            Operator::CloneNodelete => "clone.nodelete",
            Operator::CloneNoinit => "clone.noinit",
            Operator::HandlerDup => "handler.dup",
            Operator::HandlerUngate => "handler.ungate",
        }
    }

    /// The operator with this id.
    pub fn from_id(id: &str) -> Option<Operator> {
        Operator::ALL.into_iter().find(|o| o.id() == id)
    }

    /// Its pattern.
    pub fn pattern(self) -> Pattern {
        use Operator::*;
        match self {
            InitRemove | InitMove | InitLiteral => Pattern::MissingInitialization,
            SyncNowait | SyncDropwait => Pattern::Desynchronization,
            EventRename | EventDropemit => Pattern::UntriggeredEvent,
            LoopFlip | LoopThreshold => Pattern::NonTerminating,
            CondFlip | CondSwap | CondVar => Pattern::IncorrectConditional,
            LookRemove | LookSwap => Pattern::SpriteStateMismatch,
            CloneNodelete | CloneNoinit => Pattern::CloneManagement,
            HandlerDup | HandlerUngate => Pattern::EventHandlerConflict,
        }
    }
}
