"""Answers ``isready`` but never ``go`` (and ignores ``stop``)."""
from fakeengine import run

run(lambda ctx: None)
