import sys

from protocol.cli import main

sys.exit(main())
