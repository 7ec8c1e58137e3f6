"""ltoad's model of LLVM textual IR: lexer, parser, objects with use lists, printer."""

from ltoad.ir.builder import Builder
from ltoad.ir.function import Argument, Block, Function
from ltoad.ir.function_parser import parse_function
from ltoad.ir.lexer import IRParseError
from ltoad.ir.module import Module, parse_module
from ltoad.ir.printer import print_function, print_instruction

__all__ = [
    "Argument",
    "Block",
    "Builder",
    "Function",
    "IRParseError",
    "Module",
    "parse_function",
    "parse_module",
    "print_function",
    "print_instruction",
]
