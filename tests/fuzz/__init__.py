"""Atheris fuzz targets, one per parser; ``python -m tests.fuzz.run --seconds N`` runs them all."""
