//! Which function kinds may hold which ops (docs/dialect.md 1.1 and 4.x "only callable
//! in ...").

use super::OpCx;
use crate::enums::FuncKind::{self, Aic, Aiv, Chip, Host, InCore};
use crate::ops::collective::IndexedAllToAllV;
use crate::ops::ctx::GetCommCtx;
use crate::ops::host::{CommDomain, Dispatch};
use crate::ops::window::{AllocWindowBuffer, Window, WorldSize};

/// The function kinds that may hold `op`; `None` for any kind.
pub fn allowed_kinds(op: &str) -> Option<&'static [FuncKind]> {
    const HOST: &[FuncKind] = &[Host];
    const DEVICE: &[FuncKind] = &[InCore, Aiv, Aic];
    const COLLECTIVE: &[FuncKind] = &[Host, Chip, InCore];
    const CHIP: &[FuncKind] = &[Chip];
    Some(match op {
        AllocWindowBuffer::NAME
        | Window::NAME
        | WorldSize::NAME
        | Dispatch::NAME
        | CommDomain::NAME => HOST,
        GetCommCtx::NAME => return None,
        IndexedAllToAllV::NAME => CHIP,
        _ if op.starts_with("pld.builtin_") => HOST,
        _ if op.starts_with("pld.tensor_") && crate::ops::collective::COLLECTIVES.contains(&op) => {
            COLLECTIVE
        }
        _ => DEVICE,
    })
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
