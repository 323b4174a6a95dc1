"""The rate command (rating issue)."""
