"""Plays legal moves but ignores ``quit`` and SIGTERM, and keeps a child
process (its pid is announced as ``info string child PID``)."""
import signal
import subprocess
import sys

from fakeengine import random_move, run, say

signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])


def choose(ctx):
    say(f"info string child {child.pid}")
    return random_move(ctx)


run(choose, on_quit=lambda: False)
