"""Front ends that speak each tool's command line: ltoad-clang, ltoad-ld, ltoad."""
