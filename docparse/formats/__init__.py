"""Structured-twin parsers, one module per source format."""
