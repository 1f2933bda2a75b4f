//! Which function kinds may hold which ops (docs/dialect.md 1.1 and 4.x "only callable
//! in ...").

use super::OpCx;
use crate::collective::CollectiveKind;
use crate::enums::FuncKind::{self, Aic, Aiv, Chip, Host, InCore};
use crate::ops::ctx::GetCommCtx;
use crate::ops::host::{CommDomain, Dispatch};
use crate::ops::window::{AllocWindowBuffer, Window, WorldSize};

/// The function kinds that may hold `op`; `None` for any kind.
pub fn allowed_kinds(op: &str) -> Option<&'static [FuncKind]> {
    const HOST: &[FuncKind] = &[Host];
    const DEVICE: &[FuncKind] = &[InCore, Aiv, Aic];
    Some(match op {
        AllocWindowBuffer::NAME
        | Window::NAME
        | WorldSize::NAME
        | Dispatch::NAME
        | CommDomain::NAME => HOST,
        GetCommCtx::NAME => return None,
        _ if CollectiveKind::from_builtin_op(op).is_some() => HOST,
        _ => match CollectiveKind::from_op_name(op) {
            Some(kind) => collective_kinds(kind),
            None => DEVICE,
        },
    })
}

/// Where a collective may be called. One that only the CHIP rail lowers
/// belongs in a CHIP orchestrator; the others may be written in any
/// orchestrator or kernel, and a CHIP orchestrator's call of one its rail
/// does not lower is refused by `pld-lower-l2-tensor-collectives`, which
/// says what to write instead.
fn collective_kinds(kind: CollectiveKind) -> &'static [FuncKind] {
    let rails = kind.facts().rails;
    if rails.host || rails.incore {
        &[Host, Chip, InCore]
    } else {
        &[Chip]
    }
}

/// Reports an op placed in a function kind that may not hold it. Returns
/// whether the placement is valid.
pub fn check(cx: &mut OpCx) -> bool {
    let Some(allowed) = allowed_kinds(&cx.name) else {
        return true;
    };
    if allowed.contains(&cx.kind) {
        return true;
    }
    let list: Vec<String> = allowed.iter().map(|k| with_article(k.describe())).collect();
    let message = format!(
        "is only allowed in {} (pld.kind {}), not in {} @{}",
        list.join(" or "),
        allowed
            .iter()
            .map(|k| format!("\"{k}\""))
            .collect::<Vec<_>>()
            .join("/"),
        with_article(cx.kind.describe()),
        cx.function
    );
    cx.error(message);
    false
}

/// "a HOST orchestrator", "an InCore kernel".
fn with_article(noun: &str) -> String {
    let article = if noun.starts_with(['A', 'E', 'I', 'O', 'U']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {noun}")
}
