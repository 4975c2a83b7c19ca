"""One kernel (or helper) body: the walk in program order, the tiles in force at each op, moved
tensors, and the whole-kernel checks."""
