"""``--backend local|ray [--address ADDR]``: the options every distributing tool takes.

The work itself is spread by :mod:`engine.execution`; this module only reads the
command line and checks, before any work starts, that the backend asked for can
run (Ray installed, the cluster reachable), so a user gets one clear error line.
"""

from __future__ import annotations

import argparse

from engine.execution import Backend, ExecutionError, ray_module


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="where the work runs: local processes (default) or a Ray cluster")
    parser.add_argument("--address", metavar="ADDR",
                        help="--backend ray: the cluster (HOST:PORT, or auto for the one started on this "
                             "machine); none starts a local Ray listening on loopback only")


def from_args(args) -> Backend:
    """The backend of parsed arguments, connected if it is Ray; raises
    :class:`ExecutionError` (or ``ValueError``) with a one-line reason."""
    backend = Backend(args.backend, args.address)
    if backend.is_ray:
        ray_module(backend)
    return backend


__all__ = ["add_arguments", "from_args", "Backend", "ExecutionError"]
