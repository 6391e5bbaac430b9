"""Bridges from the engine's one door to other frameworks (OpenSpiel)."""
