"""``python -m bpe``: the command line (:mod:`bpe.cli`).

Left out: everything else; this file only starts :func:`bpe.cli.main`.
"""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
