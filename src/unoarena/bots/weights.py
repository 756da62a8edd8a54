"""Reading the ``.npz`` weights files the trained networks ship in (numpy only)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt


def read_weights(path: str | Path, what: str, train: str
                 ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
    """The arrays and the JSON metadata (``meta``) of a weights file; a ``ValueError`` that
    names ``what`` was looked for and the command that trains it (``train``) when the file is
    missing or unreadable. Pickles are refused: a weights file is data, never code."""
    try:
        with np.load(path, allow_pickle=False) as z:
            params = {k: z[k] for k in z.files}
    except FileNotFoundError:
        raise ValueError(f"no {what} at {path}: train one with '{train}'") from None
    except (OSError, ValueError) as e:
        raise ValueError(f"cannot read {what} {path}: {e}") from None
    meta = json.loads(str(params.pop("meta"))) if "meta" in params else {}
    return params, meta
