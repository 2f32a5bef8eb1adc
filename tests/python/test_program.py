import pytest

import gpusynth

SUM = "fn solve(xs: [int]) -> int { return sum(xs); }"


def test_compile_and_run():
    program = gpusynth.compile(SUM)
    assert program.functions == ["solve"]
    assert gpusynth.run(program, ([4, 5, -1],)) == 8
    assert gpusynth.run(SUM, ([],)) == 0
    assert "solve" in program.disassemble()


def test_bytecode_round_trips_and_bad_bytecode_is_refused():
    program = gpusynth.compile(SUM)
    again = gpusynth.Program.from_bytecode(program.bytecode)
    assert gpusynth.run(again, ([1, 2],)) == 3
    damaged = bytearray(program.bytecode)
    damaged[len(damaged) // 2] ^= 0xFF
    with pytest.raises(gpusynth.BytecodeError, match="invalid bytecode"):
        gpusynth.Program.from_bytecode(bytes(damaged))
    with pytest.raises(gpusynth.BytecodeError):
        gpusynth.Program.from_bytecode(b"")


def test_values_in_and_out():
    source = """
fn solve(s: str, f: float, b: bool, xs: [str]) -> (str, float, bool, [int], int) {
  return (s + "!", f * 2.0, !b, [len(xs), len(s)], len(xs[0]));
}
fn none(x: int) { }
"""
    assert gpusynth.run(source, ("h\u00e9", 1.25, False, ["abc"])) == ("h\u00e9!", 2.5, True, [1, 2], 3)
    assert gpusynth.run(source, (b"\xff", 1, True, ["x"])) == ("\xff!", 2.0, False, [1, 1], 1)
    assert gpusynth.run(source, (3,), entry="none") is None


def test_compile_errors_are_located():
    with pytest.raises(gpusynth.CompileError) as error:
        gpusynth.compile("fn solve(xs: [int]) -> int {\n  return totl;\n}\n", path="mine.syn")
    assert "mine.syn:2:10: error: unknown name 'totl'" in str(error.value)
    assert error.value.diagnostics == [(2, 10, "unknown name 'totl'")]


def test_traps_are_exceptions():
    with pytest.raises(gpusynth.Trap) as trap:
        gpusynth.run("fn solve(xs: [int]) -> int { return xs[3]; }", ([1],))
    assert trap.value.trap == "index_out_of_range"
    with pytest.raises(gpusynth.Trap, match="out_of_fuel"):
        gpusynth.run("fn solve(n: int) -> int { while true { n = n + 1; } return n; }", (0,), fuel=1000)


def test_bad_arguments_and_limits():
    with pytest.raises(TypeError, match="argument 1: element 1: expected int, found str"):
        gpusynth.run(SUM, ([1, "2"],))
    with pytest.raises(TypeError, match="expected 1 argument"):
        gpusynth.run(SUM, ([1], 2))
    with pytest.raises(TypeError, match="expected int, found bool"):
        gpusynth.run(SUM, ([True],))
    with pytest.raises(ValueError, match="beyond 64 bits"):
        gpusynth.run(SUM, ([2**63],))
    with pytest.raises(KeyError, match="no function named 'main'"):
        gpusynth.run(SUM, ([1],), entry="main")
    with pytest.raises(ValueError, match="fuel must be in"):
        gpusynth.run(SUM, ([1],), fuel=0)
    with pytest.raises(ValueError, match="call depth must be in"):
        gpusynth.run(SUM, ([1],), call_depth=5000)
    with pytest.raises(TypeError):
        gpusynth.run(SUM, ([1],), heap=-1)


def test_sources_with_bytes_that_are_not_utf8_round_trip():
    source = b'fn solve(x: int) -> str { return "\xff\x80"; }'
    program = gpusynth.compile(source)
    assert gpusynth.run(program, (1,)) == "\xff\x80"
    assert program.source.encode("utf-8", "surrogateescape") == source
    assert gpusynth.run(program.source, (1,)) == "\xff\x80"
