"""Photo -> cards: detector, classifier, synthetic data, training, evaluation.

``vision.recognize(photo)`` is the entry point; :mod:`vision.recognizer` holds the models.
"""

from vision.detections import Detection, Detections

__all__ = ["Detection", "Detections", "recognize"]


def recognize(image):  # noqa: ANN001, ANN201 - keeps onnxruntime out of `import vision`
    """Cards in a photo (path, bytes, BGR array or Pillow image) with the shipped models; see :mod:`vision.recognizer`."""
    from vision.recognizer import recognize as _recognize

    return _recognize(image)
