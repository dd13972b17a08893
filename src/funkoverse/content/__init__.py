"""The box contents as data, and the loaders that turn them into rules objects."""
