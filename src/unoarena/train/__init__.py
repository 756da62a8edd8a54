"""Training the ``learned`` bot: ``python -m unoarena.train`` (or ``examples/train_learned.py``).

Needs the ``train`` extra (PyTorch, CPU is enough) and the ``fast`` extra (the compiled
kernel whose vector tables it plays on). Playing against the trained bot needs neither.
"""
