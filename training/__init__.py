"""The lab: synthetic scenes, training data, training, evaluation studies.

Nothing in ``scorer``, ``vision`` or ``api`` imports this package; it imports them.
Run its tools as ``python -m training COMMAND`` (or ``cribcount-lab COMMAND``).
"""
