"""Tavola's bot: evaluation, search and play."""
