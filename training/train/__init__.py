"""Training: the networks fitted and exported (Ultralytics, torch), offline, with their augmentations
and ONNX tools."""
