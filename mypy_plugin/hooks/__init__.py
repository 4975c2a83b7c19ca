"""What mypy calls: the type-analyze hook for tensor annotations, the op-call, method and
attribute hooks generated from the op table, the jit decorator and per-module options."""
