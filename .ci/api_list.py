#!/usr/bin/env python3
"""Reduces SwiftPM symbol graphs to the package's public API, one declaration a line.

Usage: api_list.py SYMBOLGRAPH_DIR [--undocumented]
Prints "Module  Path  signature" for every public symbol of the library products, sorted.
With --undocumented, prints only the public symbols that have no doc comment.
"""
import json
import os
import sys

PRODUCTS = ("CRDTNote", "CRDTNoteTesting", "CRDTNoteFiles")


def signature(symbol):
    text = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
    return " ".join(text.split())


def main():
    folder = sys.argv[1]
    undocumented = "--undocumented" in sys.argv[2:]
    lines = set()
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".symbols.json"):
            continue
        module = name[: -len(".symbols.json")].split("@")[0]
        if module not in PRODUCTS:
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            graph = json.load(f)
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") != "public":
                continue
            path = ".".join(symbol["pathComponents"])
            if undocumented:
                # Members that only restate a protocol requirement inherit its documentation.
                if symbol.get("docComment") or path.split(".")[-1] in ("==(_:_:)", "hash(into:)", "description", "rawValue", "init(rawValue:)", "<(_:_:)", "encode(to:)", "init(from:)"):
                    continue
                lines.add(f"{module}  {path}")
            else:
                lines.add(f"{module}  {path}  {signature(symbol)}")
    for line in sorted(lines):
        print(line)


if __name__ == "__main__":
    main()
