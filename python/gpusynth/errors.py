"""The exceptions gpusynth raises; each carries the located message the command line prints."""


class GpusynthError(Exception):
    """Base class of gpusynth's own errors."""


class ProblemError(GpusynthError, ValueError):
    """A problem file or problem value that does not fit the format (docs/problems.md)."""


class CompileError(GpusynthError, ValueError):
    """Syn source that does not compile. ``diagnostics``: (line, column, message) tuples."""

    def __init__(self, message, diagnostics=()):
        super().__init__(message)
        self.diagnostics = list(diagnostics)


class BytecodeError(GpusynthError, ValueError):
    """A bytecode container the verifier rejects."""


class Trap(GpusynthError, RuntimeError):
    """A run that trapped: ``trap`` names it (out_of_fuel, index_out_of_range, ...)."""

    def __init__(self, message, trap="", instructions=0):
        super().__init__(message)
        self.trap = trap
        self.instructions = instructions


class RecordsError(GpusynthError, OSError):
    """A records file that cannot be read, or a problem it does not hold."""
