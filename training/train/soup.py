"""A model soup: the weights of several fine-tunes of one network, averaged (training only).

Fine-tunes that start from the same checkpoint stay in one basin of the loss, so the average
of their weights is itself a good network, often better than any one of them on data none of
them saw (Wortsman et al., "Model soups", 2022): each fine-tune overfits its own data and seed a
little differently, and the average keeps what they agree on. Here a soup of four fine-tunes
read more cards of unseen deck designs than any of them (docs/experiments, Model soups). Unlike
an ensemble it costs nothing at run time: one network, one pass.

Every tensor of the checkpoints' networks is averaged, BatchNorm running statistics too (the
ingredients' statistics are near one another; measuring the soup's own on training crops read
worse). The checkpoints must be one architecture: same parameter names and shapes, same classes.

    python -m training.train.soup runs/a/weights/best.pt runs/b/weights/best.pt \\
        --out runs/export/classifier-soup.onnx
"""

from __future__ import annotations

import argparse
import copy
from pathlib import Path

from training.train.offline import prepare_offline


def _network(checkpoint: dict):
    """The network an Ultralytics checkpoint holds (its EMA when it kept one), in float32."""
    return (checkpoint.get("ema") or checkpoint["model"]).float()


def average_checkpoints(paths: list[Path]) -> dict:
    """One checkpoint whose network is the mean of the given checkpoints' networks.

    Raises ``ValueError`` when they are not one architecture with the same classes."""
    import torch

    if len(paths) < 2:
        raise ValueError("a soup needs at least two checkpoints")
    checkpoints = [torch.load(p, map_location="cpu", weights_only=False) for p in paths]
    nets = [_network(c) for c in checkpoints]
    states = [n.state_dict() for n in nets]
    first = states[0]
    for path, net, state in zip(paths[1:], nets[1:], states[1:], strict=True):
        if state.keys() != first.keys() or any(state[k].shape != first[k].shape for k in first):
            raise ValueError(f"{path} is not the same network as {paths[0]}")
        if net.names != nets[0].names:
            raise ValueError(f"{path} has other classes than {paths[0]}")
    mean = {k: (sum(s[k] for s in states) / len(states)) if first[k].is_floating_point() else first[k]
            for k in first}
    soup = copy.deepcopy(nets[0])
    soup.load_state_dict(mean)
    out = {k: v for k, v in checkpoints[0].items() if k not in ("optimizer", "ema", "updates")}
    out.update(model=soup.half(), ema=None, optimizer=None, soup=[str(p) for p in paths])
    return out


def architecture(checkpoint: dict) -> dict:
    """Task, depth and width of a checkpoint's network, for the sidecar (``training.train.onnx_init``
    reads them)."""
    from ultralytics.nn.tasks import guess_model_task

    net = checkpoint["model"]
    (depth, width, _max_channels), = net.yaml["scales"].values()
    return {"task": guess_model_task(net), "depth": depth, "width": width}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.train.soup", description=__doc__.split("\n\n")[0])
    p.add_argument("checkpoints", nargs="+", type=Path, help="Ultralytics .pt checkpoints of one network")
    p.add_argument("--out", required=True, type=Path,
                   help="the ONNX model to write (its .json sidecar beside it)")
    p.add_argument("--checkpoint", type=Path, default=None,
                   help="where to keep the soup as a checkpoint, to fine-tune or export again "
                        "(default: runs/soup/<out's name>.pt)")
    a = p.parse_args(argv)
    missing = [str(c) for c in a.checkpoints if not c.is_file()]
    if missing:
        p.error(f"no such checkpoint: {', '.join(missing)}")
    prepare_offline()
    import torch

    from training.train.common import export_onnx

    try:
        soup = average_checkpoints(a.checkpoints)
    except ValueError as e:
        p.error(str(e))
    pt = a.checkpoint or Path("runs") / "soup" / f"{a.out.stem}.pt"
    pt.parent.mkdir(parents=True, exist_ok=True)
    torch.save(soup, pt)
    imgsz = int((soup.get("train_args") or {}).get("imgsz", 96))
    export_onnx(pt, a.out, imgsz, {**architecture(soup), "soup": soup["soup"]})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
