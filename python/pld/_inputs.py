"""How ``pld.run`` and ``pld.explore`` read their ``inputs``.

The extension module loads the source first, then calls :func:`normalize`
with what it found to fill (a kernel's parameters, or a program's window
buffers), and copies the bytes this returns. An array is taken as it is
when its dtype converts to the buffer's without loss (numpy's "safe"
casting: ``float16`` into an ``f32`` buffer, ``int8`` into ``i32``), and
refused otherwise, so no value is silently rounded or wrapped. Python
numbers (nested lists) are read as numpy reads them and kept when the
buffer holds their values (floats round to the nearest, as literals do).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ._errors import InputError, InputTypeError

#: numpy's dtype of each element type pld simulates.
DTYPES: dict[str, type[np.generic]] = {
    "f16": np.float16,
    "f32": np.float32,
    "i32": np.int32,
    "i8": np.int8,
}

#: pld-run's generators (``--input P=NAME``).
GENERATORS = ("zeros", "ones", "ramp", "rank")


def _what(described: Mapping[str, Any], slot: Mapping[str, Any]) -> str:
    if described["kind"] == "kernel":
        return f"parameter %{slot['name']} of @{described['name']}"
    return f"window buffer '{slot['key']}'"


def _resolve(described: Mapping[str, Any], key: object) -> int:
    name = str(key)
    for index, slot in enumerate(described["slots"]):
        if name in slot["aliases"]:
            return index
    names = ", ".join(slot["shown"] for slot in described["slots"]) or "none"
    if described["kind"] == "kernel":
        raise InputError(f"@{described['name']} has no parameter '{name}'; its parameters are {names}")
    if name in described.get("refusals", {}):
        # Allocated, but no task takes it: said as pld-run says it.
        raise InputError(described["refusals"][name])
    raise InputError(f"the program has no window buffer '{name}' (its buffers: {names})")


def _flat(array: np.ndarray, dtype: type[np.generic]) -> np.ndarray:
    """The array's bytes in the buffer's dtype, little-endian, as a flat
    ``uint8`` view (no copy when it is already contiguous and of that
    dtype)."""
    contiguous = np.ascontiguousarray(array, dtype=np.dtype(dtype).newbyteorder("<"))
    return contiguous.view(np.uint8).reshape(-1)


def _array(value: object, dtype: type[np.generic], what: str, key: str) -> np.ndarray:
    if isinstance(value, np.ndarray):
        if not np.can_cast(value.dtype, dtype, casting="safe"):
            name = np.dtype(dtype).name
            raise InputTypeError(
                f"input '{key}' is {value.dtype}, but the {what} holds {name}: convert it "
                f"first (array.astype(np.{name})) if its values fit"
            )
        return value
    return _from_python(value, dtype, what, key)


def _from_python(value: object, dtype: type[np.generic], what: str, key: str) -> np.ndarray:
    """Python numbers (a nested list, a scalar) in the buffer's dtype.
    Floats round to the nearest value of a float buffer, as a literal
    would; a value the buffer cannot hold (past its range, an integer a
    float buffer cannot hold exactly, a float or an out-of-range integer
    for an integer buffer) is refused rather than made inf, rounded or
    wrapped."""
    name = np.dtype(dtype).name
    try:
        natural = np.asarray(value)
    except (TypeError, ValueError, OverflowError) as e:
        raise InputTypeError(f"input '{key}' is not an array of {name}: {e}") from None
    if natural.dtype == object:
        # numpy keeps integers past 64 bits as Python objects.
        flat = natural.reshape(-1)
        huge = next((v for v in flat if isinstance(v, int) and not -2**63 <= v < 2**64), None)
        if huge is not None and all(isinstance(v, (int, float)) for v in flat):
            raise InputError(
                f"input '{key}' holds {huge!r}, which the {what} ({name}) cannot hold: it "
                "would be rounded, wrapped or made infinite")
    if natural.dtype.kind not in "biuf":
        raise InputTypeError(
            f"input '{key}' is not an array of {name}: its values are {natural.dtype}")
    into_float = np.dtype(dtype).kind == "f"
    if not into_float and natural.dtype.kind == "f":
        raise InputTypeError(
            f"input '{key}' holds floats, but the {what} holds {name}: give integers")
    with np.errstate(over="ignore", invalid="ignore"):
        converted = natural.astype(dtype)
        if natural.dtype.kind == "f":
            lost = np.isfinite(natural) & ~np.isfinite(converted)
        elif into_float:
            lost = ~np.isfinite(converted) | (converted.astype(np.float64) != natural)
        else:
            lost = converted.astype(np.int64) != natural
    if np.any(lost):
        first = natural[lost].reshape(-1)[0]
        raise InputError(
            f"input '{key}' holds {first.item()!r}, which the {what} ({name}) cannot hold: it "
            "would be rounded, wrapped or made infinite")
    return converted


def _entry(described: Mapping[str, Any], slot: Mapping[str, Any], key: str, value: object,
           ranks: int) -> object:
    what = _what(described, slot)
    shape = tuple(slot["shape"])
    dtype = DTYPES[slot["dtype"]]
    if isinstance(value, str):
        if value not in GENERATORS:
            raise InputError(
                f"input '{key}' = '{value}' is no generator ({', '.join(GENERATORS)}); "
                "give an array"
            )
        return value
    if value is None:
        raise InputError(
            f"input '{key}' is None: give an array, a list of one per rank or a generator's "
            f"name ({', '.join(GENERATORS)}), or leave '{key}' out for pld-run's fill"
        )
    devices = slot.get("devices")
    arrays = isinstance(value, (list, tuple)) and any(isinstance(v, np.ndarray) for v in value)
    if arrays:
        odd = next((v for v in value if v is not None and not isinstance(v, np.ndarray)), None)
        if odd is not None:
            raise InputError(
                f"input '{key}' mixes arrays with a {type(odd).__name__}: a list gives one array "
                "per rank (None for a device that does not hold the buffer)"
            )
    if arrays and all(v is None or isinstance(v, np.ndarray) for v in value):
        if len(value) != ranks:
            raise InputError(f"input '{key}' gives {len(value)} arrays for {ranks} ranks")
        per_rank: list[np.ndarray | None] = []
        for rank, item in enumerate(value):
            held = devices is None or rank in devices
            if not held:
                # A device outside the buffer's comm domain: nothing to fill
                # (an array for it is refused, as the C API refuses it).
                if item is not None:
                    raise InputError(
                        f"input '{key}' names rank {rank} of '{slot['key']}', which is not in "
                        "that buffer's comm domain (None stands for such a device)"
                    )
                per_rank.append(None)
                continue
            if item is None:
                on = ", ".join(str(d) for d in devices or range(ranks))
                raise InputError(
                    f"input '{key}' gives no array for rank {rank}, which holds the {what} "
                    f"(held on devices {on}; None stands only for a device that does not hold it)"
                )
            array = _array(item, dtype, what, key)
            if array.shape != shape:
                raise InputError(
                    f"input '{key}' for rank {rank} has shape {array.shape}; the {what} has "
                    f"shape {shape}"
                )
            per_rank.append(_flat(array, dtype))
        return per_rank
    array = _array(value, dtype, what, key)
    if array.shape == shape:
        return _flat(array, dtype)
    if array.shape == (ranks, *shape):
        if devices is not None and set(devices) != set(range(ranks)):
            on = ", ".join(str(d) for d in devices)
            raise InputError(
                f"input '{key}' has one row per rank, but the {what} is held on devices {on} "
                "only, so the other rows would be ignored: give a list of one array per rank "
                "with None for a device that does not hold it"
            )
        return [_flat(array[rank], dtype) for rank in range(ranks)]
    raise InputError(
        f"input '{key}' has shape {array.shape}; the {what} has shape {shape} (the same on "
        f"every rank) or give {(ranks, *shape)} (one per rank)"
    )


def normalize(described: Mapping[str, Any], inputs: Mapping[str, object] | None,
              ranks: int) -> list[object]:
    """One entry per slot of ``described``: ``None`` (pld-run's default:
    zeros for a signal, its ramp otherwise), a generator's name, the flat
    ``uint8`` bytes for every rank, or a list of them, one per rank
    (``None`` for a device that does not hold a program's buffer: the slot's
    ``devices``, its comm domain's, are the only ones filled)."""
    slots = described["slots"]
    entries: list[object] = [None] * len(slots)
    if inputs is None:
        return entries
    if not isinstance(inputs, Mapping):
        raise TypeError("inputs maps parameter (or buffer) names to arrays, not "
                        f"{type(inputs).__name__}")
    given: list[str | None] = [None] * len(slots)
    for key, value in inputs.items():
        index = _resolve(described, key)
        if given[index] is not None:
            raise InputError(
                f"inputs fill the {_what(described, slots[index])} twice, with '{given[index]}' "
                f"and with '{key}'; keep one of them"
            )
        given[index] = str(key)
        entries[index] = _entry(described, slots[index], str(key), value, ranks)
    return entries
