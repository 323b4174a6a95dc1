"""The generate and schedule commands (pipeline issue)."""
