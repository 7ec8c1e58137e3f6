"""@response files, read as clang and ld.lld read them."""

import pytest

from conftest import run, write
from ltoad.diagnostics import LtoadError
from ltoad.drivers import response


@pytest.mark.parametrize("text, words", [
    ("-c a.c  -o 'out file.o'", ["-c", "a.c", "-o", "out file.o"]),
    ('-DMSG="hello world" -I\\ x', ["-DMSG=hello world", "-I x"]),
    ("one\ntwo\tthree", ["one", "two", "three"]),
    ("''", [""]),
])
def test_gnu_quoting(text, words):
    assert response.split_gnu(text) == words


def test_nested_and_missing_files(tmp_path):
    (tmp_path / "inner.rsp").write_text("-O2 -g")
    (tmp_path / "outer.rsp").write_text(f"-c @{tmp_path / 'inner.rsp'} a.c")
    assert response.expand([f"@{tmp_path / 'outer.rsp'}", "@not-a-file"]) == \
        ["-c", "-O2", "-g", "a.c", "@not-a-file"]


def test_self_including_file_is_an_error(tmp_path):
    loop = tmp_path / "loop.rsp"
    loop.write_text(f"@{loop}")
    with pytest.raises(LtoadError, match="nest too deeply"):
        response.expand([f"@{loop}"])


def test_compile_and_link_through_response_files(tmp_path):
    write(tmp_path, {"a.c": '#include <stdio.h>\nint main(void){puts(MSG); return 0;}\n',
                     "compile.rsp": "-c a.c -DMSG='\"from rsp\"' -o a.o",
                     "link.rsp": "a.o -o prog"})
    result = run(["ltoad-clang", "@compile.rsp"], tmp_path, LTOAD_VERBOSE="1")
    assert "compile:" in result.stderr
    run(["ltoad-clang", "@link.rsp"], tmp_path)
    assert run(["./prog"], tmp_path).stdout == "from rsp\n"
