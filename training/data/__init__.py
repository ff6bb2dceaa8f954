"""Training data: crop sets and detector scenes from renders and real photos, mixes, packs, the YOLO label format."""
