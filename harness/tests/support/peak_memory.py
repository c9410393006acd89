#!/usr/bin/env python3
"""Runs a command and writes the peak resident memory of the largest
process among it and its descendants, in KiB (`ru_maxrss` of
RUSAGE_CHILDREN, as Linux reports it), to the file OUT. The command's
output passes through; the exit status is the command's.

Usage: peak_memory.py OUT COMMAND [ARG...]
"""

import resource
import subprocess
import sys


def main():
    out, command = sys.argv[1], sys.argv[2:]
    status = subprocess.run(command).returncode
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    with open(out, "w", encoding="utf-8") as handle:
        handle.write("%d\n" % peak)
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(main())
