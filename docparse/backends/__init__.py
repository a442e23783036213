"""PDF backends, one module per library, sharing the layout assembly in ``layout``."""
