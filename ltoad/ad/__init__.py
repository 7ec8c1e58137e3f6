"""Automatic differentiation: requests, reverse and forward mode, derivative rules."""
