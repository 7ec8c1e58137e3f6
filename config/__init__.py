"""Data ltoad ships: default knowledge about library functions, schemas, examples."""
