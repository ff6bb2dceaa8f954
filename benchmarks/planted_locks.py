"""Row 6 of issue 79's probes: core lock files planted, before the service starts, where another local
user could plant them.

The service claims CPU cores through ``core-N.lock`` files in ``cribcount-cores-<uid>`` under
``$XDG_RUNTIME_DIR``, or else under the temp folder (``api/cores.py``). Each :class:`Layout` here is
one way another user (``nobody``) could have been there first: the folder made as theirs, the folder
a symlink to theirs, the service's own folder left open to all, a lock symlinked inside the service's
private one. Each planted lock is a symlink to a file of the service user's, the file the service
would truncate if it followed it. The baseline layout plants nothing, so that the probe shows where
the service really keeps its locks (a probe aimed at a folder the service no longer uses passes
whatever it does: the first version of this row did).

Planting as another user takes root (``os.chown``); without it those layouts are skipped.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

OTHER_UID = 65534
"""``nobody``: the other local user whose folder and symlinks are planted."""
VICTIM_TEXT = b"the service user's own file: never to be written through a planted symlink\n"


@dataclass(frozen=True)
class Victim:
    """A file a planted symlink points to, and what it held before the service started."""

    path: Path
    mtime_ns: int

    @classmethod
    def make(cls, path: Path) -> Victim:
        path.write_bytes(VICTIM_TEXT)
        return cls(path, path.stat().st_mtime_ns)

    def untouched(self) -> bool:
        """Same bytes and never opened for writing (a write or a truncation moves the mtime)."""
        return self.path.read_bytes() == VICTIM_TEXT and self.path.stat().st_mtime_ns == self.mtime_ns


@dataclass(frozen=True)
class Planted:
    """One layout planted in a folder: the environment to start the service with, the files its
    symlinks point to, and the lock folder the service would use there."""

    env: dict[str, str | None]
    """``TMPDIR`` and ``XDG_RUNTIME_DIR`` for the service (None: unset)."""
    victims: tuple[Victim, ...]
    lock_folder: Path


@dataclass(frozen=True)
class Layout:
    """A way to find the lock folder taken; ``plant`` lays it out in an empty folder."""

    name: str
    as_other_user: bool
    plant: Callable[[Path], Planted]
    claims_cores: bool = False
    """The service should claim cores here, its lock files in its private folder (the baseline)."""


def lock_folder_name() -> str:
    """The service's lock folder's name for this user (as ``api.cores.cores_folder`` names it)."""
    return f"cribcount-cores-{os.getuid()}"


def _own(path: Path, uid: int) -> None:
    """Make ``path`` (a symlink itself, not what it points to) belong to ``uid``."""
    if uid != os.getuid():
        os.lchown(path, uid, uid)


def _plant_links(folder: Path, victims_dir: Path, uid: int) -> tuple[Victim, ...]:
    """``core-N.lock`` in ``folder`` for each core, symlinks owned by ``uid`` to fresh victims."""
    victims_dir.mkdir(parents=True, exist_ok=True)
    victims = []
    for core in sorted(os.sched_getaffinity(0)):
        victim = Victim.make(victims_dir / f"core-{core}.txt")
        link = folder / f"core-{core}.lock"
        link.symlink_to(victim.path)
        _own(link, uid)
        victims.append(victim)
    return tuple(victims)


def _folder_of(path: Path, uid: int, mode: int) -> Path:
    path.mkdir(parents=True)
    path.chmod(mode)  # mkdir's mode is masked by the umask
    _own(path, uid)
    return path


def _tmp_env(root: Path) -> tuple[Path, dict[str, str | None]]:
    """A world-writable temp folder (sticky, like /tmp) and the service's environment using it."""
    tmp = _folder_of(root / "tmp", os.getuid(), 0o1777)
    return tmp, {"TMPDIR": str(tmp), "XDG_RUNTIME_DIR": None}


def others_folder(root: Path) -> Planted:
    """``TMPDIR/cribcount-cores-<uid>`` made first by another user, open to all, locks symlinked."""
    tmp, env = _tmp_env(root)
    folder = _folder_of(tmp / lock_folder_name(), OTHER_UID, 0o777)
    return Planted(env, _plant_links(folder, root / "victims", OTHER_UID), folder)


def symlink_to_others_folder(root: Path) -> Planted:
    """``TMPDIR/cribcount-cores-<uid>`` a symlink, by another user, to a folder of theirs."""
    tmp, env = _tmp_env(root)
    theirs = _folder_of(tmp / "theirs", OTHER_UID, 0o777)
    victims = _plant_links(theirs, root / "victims", OTHER_UID)
    link = tmp / lock_folder_name()
    link.symlink_to(theirs, target_is_directory=True)
    _own(link, OTHER_UID)
    return Planted(env, victims, link)


def own_folder_left_open(root: Path) -> Planted:
    """The service user's own folder, but mode 0777: another user planted the symlinks in it."""
    tmp, env = _tmp_env(root)
    folder = _folder_of(tmp / lock_folder_name(), os.getuid(), 0o777)
    return Planted(env, _plant_links(folder, root / "victims", OTHER_UID), folder)


def link_in_private_folder(root: Path) -> Planted:
    """The private 0700 folder under ``XDG_RUNTIME_DIR``, its locks symlinks (left from a time it was
    open): only ``O_NOFOLLOW`` stands between them and the files."""
    runtime = _folder_of(root / "runtime", os.getuid(), 0o700)
    folder = _folder_of(runtime / lock_folder_name(), os.getuid(), 0o700)
    env: dict[str, str | None] = {"TMPDIR": str(_folder_of(root / "tmp", os.getuid(), 0o700)),
                                  "XDG_RUNTIME_DIR": str(runtime)}
    return Planted(env, _plant_links(folder, root / "victims", os.getuid()), folder)


def runtime_dir_clean(root: Path) -> Planted:
    """The baseline: ``XDG_RUNTIME_DIR`` private and empty, another user's folder planted in TMPDIR
    (which the service must not use while it has a runtime folder)."""
    planted = others_folder(root)
    runtime = _folder_of(root / "runtime", os.getuid(), 0o700)
    env = {**planted.env, "XDG_RUNTIME_DIR": str(runtime)}
    return Planted(env, planted.victims, runtime / lock_folder_name())


LAYOUTS = (
    Layout("XDG_RUNTIME_DIR private, another user's folder in TMPDIR", True, runtime_dir_clean, True),
    Layout("another user's folder in TMPDIR", True, others_folder),
    Layout("a symlink in TMPDIR to another user's folder", True, symlink_to_others_folder),
    Layout("the service's own folder left 0777", True, own_folder_left_open),
    Layout("symlinked locks in the private folder", False, link_in_private_folder),
)
"""The layouts row 6 starts the service on, one at a time."""


def private_locks(folder: Path) -> int:
    """How many regular ``core-N.lock`` files ``folder`` holds, if it is a real 0700 folder of this
    user's (what the service makes where it claims cores); 0 otherwise."""
    try:
        info = folder.lstat()
    except FileNotFoundError:
        return 0
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return 0
    return sum(1 for p in folder.glob("core-*.lock") if stat.S_ISREG(p.lstat().st_mode))
