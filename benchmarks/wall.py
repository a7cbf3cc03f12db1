"""Wall-clock timing of one whole process, shared by the benchmark scripts beside it."""
import os, subprocess, sys, time


def timed(cmd, env):
    """Seconds `cmd` took with `env` added to the environment; exits with its error if it failed."""
    started = time.perf_counter()
    r = subprocess.run(cmd, env=dict(os.environ, **env), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - started
    if r.returncode != 0:
        sys.exit(f"{cmd} failed: {r.stderr.decode()[-800:]}")
    return took
