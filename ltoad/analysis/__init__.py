"""Analyses over ltoad's IR model: control flow, types of memory, activity."""
