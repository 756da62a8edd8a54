"""Train the ``learned`` bot's networks: the same as ``python -m unoarena.train`` (see its
``--help``; one sub-command per network and method).

    pip install 'unoarena[train,fast]'
    python examples/train_learned.py distill --out runs/learned --workers 2   # the shipped recipe
    python examples/train_learned.py ppo --out runs/ppo --init runs/learned/learned.npz \
        --iterations 677 --eval-rounds 1000 --lr 1e-4   # then this
    python examples/train_learned.py ppo --out runs/ppo --resume --minutes 60
"""

from __future__ import annotations

from unoarena.train.__main__ import main

if __name__ == "__main__":
    raise SystemExit(main())
