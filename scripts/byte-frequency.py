#!/usr/bin/env python3
"""Counts the bytes of source trees and prints the background frequency table of
Sources/PatternEngine/ByteFrequency.swift (parts per million of all bytes counted).

Usage:
    scripts/byte-frequency.py [ROOT ...]      (default: the Python standard library and /usr/include)

Every regular file under each root whose name ends in a source extension is read whole; files
with a NUL byte in their first 8 KiB are skipped as binary. Each root counts with the same
weight (its counts are scaled to a million bytes before they are added), so one big tree does
not drown the other. A byte never seen gets 1, so that every byte has a finite rarity.
"""

import os
import sys
import sysconfig

EXTENSIONS = (".py", ".h", ".hpp", ".hh", ".c", ".cc", ".cpp", ".swift", ".def", ".inc", ".modulemap")


def count_tree(root):
    counts = [0] * 256
    for directory, _, names in os.walk(root):
        for name in names:
            if not name.endswith(EXTENSIONS):
                continue
            path = os.path.join(directory, name)
            if not os.path.isfile(path) or os.path.islink(path):
                continue
            try:
                with open(path, "rb") as handle:
                    data = handle.read()
            except OSError:
                continue
            if b"\0" in data[:8192]:
                continue
            for value, number in enumerate(bytes_histogram(data)):
                counts[value] += number
    return counts


def bytes_histogram(data):
    histogram = [0] * 256
    # bytes.count per value is far faster in CPython than a loop over the bytes.
    for value in range(256):
        histogram[value] = data.count(value)
    return histogram


def main():
    roots = sys.argv[1:] or [sysconfig.get_paths()["stdlib"], "/usr/include"]
    total = [0.0] * 256
    for root in roots:
        counts = count_tree(root)
        size = sum(counts)
        if size == 0:
            continue
        print(f"// {root}: {size:,} bytes", file=sys.stderr)
        for value in range(256):
            total[value] += counts[value] / size
    scale = sum(total)
    table = [max(1, round(share / scale * 1_000_000)) for share in total]
    print("    static let partsPerMillion: [UInt32] = [")
    for row in range(0, 256, 8):
        cells = ", ".join(f"{table[value]:>6}" for value in range(row, row + 8))
        print(f"        {cells},  // 0x{row:02X}")
    print("    ]")


if __name__ == "__main__":
    main()
