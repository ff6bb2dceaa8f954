"""The research evaluation: the recognizer measured with other settings, models and photos made over."""
