"""Calls into kernels: host calls evaluated to tensors, each kernel checked again with them
(specialization), helpers entered with the caller's tiles and tensors, and coverage."""
