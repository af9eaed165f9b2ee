"""Training Tavola's networks (needs PyTorch: ``pip install 'tavola[train]'``)."""
