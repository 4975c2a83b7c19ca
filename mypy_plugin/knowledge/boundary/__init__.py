"""The kernel boundary: what a call must pass (specs from annotations) and the checks on the
tensors given, shared by the host evaluator and the runtime guard."""
