"""The serve command (API issue)."""
