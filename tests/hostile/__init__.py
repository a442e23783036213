"""Hostile and broken input: a generated bad-input corpus and the tests over it."""
