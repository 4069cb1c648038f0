"""Test utilities shipped with the library (a scripted perfect-model server for glue tests)."""
