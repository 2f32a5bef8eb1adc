"""Where a benchmark ran, for the JSON it writes beside its table: the CPU, its threads, the load
when it began, the host, the git commit and the date; with mpi=True, the mpirun version too."""
import os
import platform
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def machine(mpi=False):
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "")
    except OSError:
        pass
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    info = {"cpu": model, "hardware_threads": os.cpu_count(), "load_at_start": os.getloadavg()[0],
            "host": platform.node(), "git_commit": commit, "date": time.strftime("%Y-%m-%d %H:%M:%S")}
    if mpi:
        version = subprocess.run(["mpirun", "--version"], capture_output=True, text=True).stdout.splitlines()
        info["mpi"] = version[0] if version else ""
    return info
