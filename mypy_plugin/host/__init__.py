"""Host code (the code that calls jit kernels with torch tensors), read from the source alone."""
