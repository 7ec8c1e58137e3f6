"""ltoad: link-time automatic differentiation for native projects."""
