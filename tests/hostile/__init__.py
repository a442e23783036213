"""Hostile and broken input (issue 7): a generated bad-input corpus and the tests over it."""
