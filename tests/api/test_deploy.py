"""docs/deploy.md's command, run as written (on loopback): two server processes answer photos.

The command is read from the document, so the document cannot drift from what is tested: its
``cribcount serve ... --workers 2`` line is started with the host set to 127.0.0.1 and a free
port, a sample photo is counted, and both server processes are seen serving.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psutil
import pytest
from support import ROOT, free_port, load_samples, real_models_reason

sys.path.insert(0, str(ROOT))
from benchmarks.loadgen import stop_group

DEPLOY = ROOT / "docs" / "deploy.md"


def deploy_command() -> list[str]:
    """The ``cribcount serve`` line of the document's first shell block that has one."""
    for block in re.findall(r"```(?:sh|bash|shell)\n(.*?)```", DEPLOY.read_text(), re.DOTALL):
        for line in block.splitlines():
            if line.startswith("cribcount serve"):
                return shlex.split(line)
    raise AssertionError("docs/deploy.md has no `cribcount serve` line in a shell block")


def test_the_deploy_command_names_two_workers():
    command = deploy_command()
    assert command[command.index("--workers") + 1] == "2"


@pytest.mark.skipif(real_models_reason() is not None, reason=str(real_models_reason()))
def test_the_deploy_command_serves_photos_from_two_processes():
    command = deploy_command()
    port = free_port()
    command[command.index("--host") + 1] = "127.0.0.1"  # loopback only, in a test
    command[command.index("--port") + 1] = str(port)
    script = Path(sys.executable).parent / "cribcount"
    argv = ([str(script)] if script.exists() else [sys.executable, "-m", "api.cli"]) + command[1:]
    env = {k: v for k, v in os.environ.items() if not k.startswith("CRIBCOUNT_")}
    server = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert server.poll() is None, server.stderr.read().decode()[-2000:]
            try:
                if httpx.get(f"{base}/api/ready", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not get ready in 90 s"
            time.sleep(0.5)
        sample = load_samples()[0]
        starter = {"starter": str(sample.starter)} if sample.starter else {}
        fields = {"crib": str(sample.crib).lower()} | starter
        res = httpx.post(f"{base}/api/count", timeout=60, data=fields,
                         files={"photo": (sample.path.name, sample.path.read_bytes(), "image/jpeg")})
        assert res.status_code == 200 and res.json()["show"]["total"] == sample.total
        servers = [p for p in psutil.Process(server.pid).children() if "spawn_main" in " ".join(p.cmdline())]
        assert len(servers) == 2  # uvicorn's two server processes, each with its photo workers below
        assert all(s.children() for s in servers)
    finally:
        stop_group(server)
