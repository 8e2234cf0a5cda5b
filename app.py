"""BPE Explorer (placeholder until the pages land)."""
