"""The daily pipeline: secret seeds, generation, storage and the scheduler."""
