"""The PEP 517 build backend behind `pip install .` (docs/python.md "Installing").

CMake builds the extension module gpusynth._core and copies the package's Python files beside it
(python/CMakeLists.txt); this backend runs that build and packs the result into a wheel. It needs
nothing from the network and no Python build packages: CMake (3.25+), a C++20 compiler, Ninja or
make, and the libraries the project builds against (scripts/install-deps.sh: pybind11-dev,
python3-dev, libhdf5-dev, libboost-program-options-dev, nlohmann-json3-dev).

Settings (pip install . --config-settings KEY=VALUE, or the environment variable beside each):
  build-dir   GPUSYNTH_BUILD_DIR   the CMake build folder (default build/python-<abi> in the
                                   checkout, kept, so a re-install rebuilds only what changed); an
                                   already configured one (build/release, say) is reused as it is
  cmake-args  GPUSYNTH_CMAKE_ARGS  more -D options for a new build folder (they come last, so
                                   they win), e.g. "-DGPUSYNTH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90"
CUDA is built when the machine has a GPU (nvidia-smi answers) and nvcc, for that GPU only.
  jobs        GPUSYNTH_JOBS        parallel compile jobs (default: the usable CPUs)
"""

import base64
import hashlib
import io
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
NAME = "gpusynth"
SUMMARY = "GPU-native program synthesis: problems, the Syn compiler and VM, batch evaluation, search"


def _version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(gpusynth VERSION ([0-9.]+)", text).group(1)


def _tag():
    """cp311-cp311-linux_x86_64: the interpreter this backend runs under, which the module is built for."""
    impl = "cp" if sys.implementation.name == "cpython" else sys.implementation.name
    version = f"{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{impl}{version}-{impl}{version}-{platform}"


def _setting(settings, key, env, default=None):
    value = (settings or {}).get(key) or os.environ.get(env)
    return value if value else default


def _metadata():
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\nSummary: {SUMMARY}\n"
            f"License: Apache-2.0\nRequires-Python: >=3.9\n")


def _run(command):
    print("gpusynth_build: " + " ".join(shlex.quote(str(c)) for c in command), file=sys.stderr, flush=True)
    subprocess.run([str(c) for c in command], check=True)


def _cuda_args():
    """CUDA for the GPU this machine has (nvidia-smi answers): its architecture only; none without one."""
    try:
        found = subprocess.run(["nvidia-smi", "-L"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        found = False
    if found and (shutil.which("nvcc") or pathlib.Path("/usr/local/cuda/bin/nvcc").exists()):
        return ["-DGPUSYNTH_CUDA=ON", "-DCMAKE_CUDA_ARCHITECTURES=native"]
    return ["-DGPUSYNTH_CUDA=OFF"]


def _build(settings):
    """Builds the package with CMake; returns the folder holding gpusynth/."""
    tag = _tag().split("-")[0]
    build = pathlib.Path(_setting(settings, "build-dir", "GPUSYNTH_BUILD_DIR", ROOT / "build" / f"python-{tag}"))
    if not build.is_absolute():
        build = ROOT / build
    if not (build / "CMakeCache.txt").exists():
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        extra = shlex.split(_setting(settings, "cmake-args", "GPUSYNTH_CMAKE_ARGS", ""))
        _run(["cmake", "-S", ROOT, "-B", build, *generator, "-DCMAKE_BUILD_TYPE=Release", "-DGPUSYNTH_PYTHON=ON",
              "-DGPUSYNTH_TESTS=OFF", "-DGPUSYNTH_BENCH=OFF", "-DGPUSYNTH_MPI=OFF", "-DGPUSYNTH_TORCH=OFF",
              f"-DPYTHON_EXECUTABLE={sys.executable}", *_cuda_args(), *extra])
    jobs = _setting(settings, "jobs", "GPUSYNTH_JOBS", str(len(os.sched_getaffinity(0))))
    _run(["cmake", "--build", build, "--target", "gpusynth_python", "--parallel", jobs])
    package = build / "python" / NAME
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    if not (package / f"_core{suffix}").exists():
        built = sorted(p.name for p in package.glob("_core*"))
        raise RuntimeError(f"{build}: built {built or 'no module'}, not _core{suffix} for {sys.executable}: "
                           f"that build folder is configured for another Python (set PYTHON_EXECUTABLE there, "
                           f"or give another build-dir)")
    return package.parent


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = pathlib.Path(metadata_directory) / f"{NAME}-{_version()}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(_metadata())
    return info.name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    root = _build(config_settings)
    tag = _tag()
    info = f"{NAME}-{_version()}.dist-info"
    files = [(p.relative_to(root).as_posix(), p.read_bytes())
             for p in sorted((root / NAME).iterdir()) if p.is_file() and (p.suffix in (".py", ".so"))]
    files.append((f"{info}/METADATA", _metadata().encode()))
    files.append((f"{info}/WHEEL", (f"Wheel-Version: 1.0\nGenerator: gpusynth_build\nRoot-Is-Purelib: false\n"
                                    f"Tag: {tag}\n").encode()))
    name = f"{NAME}-{_version()}-{tag}.whl"
    with zipfile.ZipFile(pathlib.Path(wheel_directory) / name, "w", zipfile.ZIP_DEFLATED) as wheel:
        record = []
        for path, data in files:
            wheel.writestr(path, data)
            record.append(_record_line(path, data))
        record.append(f"{info}/RECORD,,")
        wheel.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    print(f"gpusynth_build: wrote {name}", file=sys.stderr)
    return name


def build_sdist(sdist_directory, config_settings=None):
    """The tracked files of the checkout (git ls-files), with PKG-INFO."""
    listed = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], check=True, capture_output=True).stdout
    base = f"{NAME}-{_version()}"
    name = f"{base}.tar.gz"
    with tarfile.open(pathlib.Path(sdist_directory) / name, "w:gz") as tar:
        for path in sorted(p for p in listed.decode().split("\0") if p):
            tar.add(ROOT / path, arcname=f"{base}/{path}", recursive=False)
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return name
