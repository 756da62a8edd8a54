"""Train the ``learned`` bot: the same as ``python -m unoarena.train`` (see its ``--help``).

    pip install 'unoarena[train,fast]'
    python examples/train_learned.py --out runs/learned --minutes 30 --seed 1
    python examples/train_learned.py --out runs/learned --resume --minutes 60
"""

from __future__ import annotations

from unoarena.train.__main__ import main

if __name__ == "__main__":
    raise SystemExit(main())
