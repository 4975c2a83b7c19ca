"""The op-call checks (tiles, matmul, elementwise, dynamic dims, writes) and their registry."""
