"""The scorer's tables, made and checked in the lab: the opponent model's fixed point and the
comparison of its crib averages with the published discard tables."""
