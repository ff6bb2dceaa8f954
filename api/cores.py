"""CPU cores a photo worker holds alone: an advisory lock file per core, in a folder no other user can
write.

Every photo worker on the machine (several server processes may share it) holds ``n`` cores no other
worker holds, so onnxruntime sizes its thread pool to them and workers x threads = cores. The locks
are files because a lock file is released by the kernel when its process dies, however it dies.
Another local user must not be able to turn them against the service: the old folder,
``TMPDIR/cribcount-cores``, could be made first by anyone, its ``core-N.lock`` planted as symlinks to
the service user's files, which the service then opened for writing and truncated (issue 79). Now
the folder is the service user's own, mode 0700 (made so, or refused when it is anyone else's or
open to others), and a lock file is opened without following a symlink and never truncated. When no
such folder can be had, the worker runs on every core: slower under load, never unsafe.
"""

from __future__ import annotations

import fcntl
import os
import stat
import tempfile
from pathlib import Path

_held: list[int] = []
"""File descriptors of the locks this process holds, open for its life (closing one frees its core)."""


def cores_folder() -> Path:
    """Where the lock files live: the user's runtime folder (``XDG_RUNTIME_DIR``, private by design)
    where there is one, else a folder named for the user in the temp folder."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    base = Path(runtime) if runtime and Path(runtime).is_dir() else Path(tempfile.gettempdir())
    return base / f"cribcount-cores-{os.getuid()}"


def private_folder(folder: Path) -> bool:
    """Whether ``folder`` is (or was just made) a real folder of this user's that only it may enter:
    not a symlink, owned by this user, no permission for group or others."""
    try:
        folder.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError:
        return False
    try:
        info = folder.lstat()
    except OSError:
        return False
    return (stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()
            and stat.S_IMODE(info.st_mode) & 0o077 == 0)


def open_lock(path: Path) -> int | None:
    """A descriptor of the lock file ``path`` (made if missing), never through a symlink and never
    truncated; None when it cannot be opened so."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError:
        return None


def claim_cores(n: int) -> set[int]:
    """Hold ``n`` CPU cores that no other worker on this machine holds and run on them alone; with
    fewer free (more workers than cores) hold those. Returns the cores this process now runs on
    (all of them when none could be claimed, or ``n`` covers them all)."""
    cores = sorted(os.sched_getaffinity(0))
    folder = cores_folder()
    if n >= len(cores) or not private_folder(folder):
        return set(cores)
    held: dict[int, int] = {}
    for core in cores:
        fd = open_lock(folder / f"core-{core}.lock")
        if fd is None:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        held[core] = fd
        if len(held) == n:
            break
    if not held:
        return set(cores)
    _held.extend(held.values())
    os.sched_setaffinity(0, set(held))
    return set(held)
