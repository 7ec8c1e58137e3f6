"""ltoad's model of LLVM textual IR: lexer, parser, objects with use lists, printer."""
