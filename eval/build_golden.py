#!/usr/bin/env python3
"""Regenerate eval/golden.jsonl from the hand-written cases in eval/cases/.

Usage: python3 eval/build_golden.py [OUT]   (default: eval/golden.jsonl)
       python3 eval/build_golden.py --check  (exit 1 when eval/golden.jsonl is not
                                              what the sources in eval/cases/ give)

Modules are read in file-name order; each appends its cases through the
notation in eval/cases/_dsl.py. Output is deterministic (same input, same
bytes), one JSON object per line, UTF-8, Chinese kept as is.
"""

import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "cases")


def main():
    check = "--check" in sys.argv[1:]
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    out = args[0] if args else os.path.join(HERE, "golden.jsonl")
    sys.path.insert(0, CASES_DIR)
    import _dsl  # noqa: E402

    for name in sorted(os.listdir(CASES_DIR)):
        if not name.endswith(".py") or name.startswith("_"):
            continue
        spec = importlib.util.spec_from_file_location(name[:-3], os.path.join(CASES_DIR, name))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    text = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in _dsl.CASES)
    if check:
        try:
            with open(out, encoding="utf-8") as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current != text:
            print(f"{os.path.relpath(out)} is out of date: run python3 eval/build_golden.py")
            sys.exit(1)
        print(f"{os.path.relpath(out)} is up to date ({len(_dsl.CASES)} cases)")
        return
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {len(_dsl.CASES)} cases to {os.path.relpath(out)}")


if __name__ == "__main__":
    main()
