"""The shipped default knowledge about library functions loads and answers as documented."""

from ltoad.ad import knowledge


def test_io_and_strings_are_inactive_math_is_not():
    known = knowledge.default()
    for name in ("printf", "__printf_chk", "__isoc99_sscanf", "puts", "strlen", "_ZNSo3putEc"):
        assert known.is_inactive(name), name
    for name in ("sin", "malloc", "memcpy", "energy"):
        assert not known.is_inactive(name), name


def test_allocators_pair_with_their_deallocators():
    known = knowledge.default()
    assert known.allocators["calloc"].size_args == (0, 1) and known.allocators["calloc"].zeroed
    assert known.allocators["realloc"].reallocates == 0
    for allocator in known.allocators.values():
        assert allocator.free in known.deallocators
