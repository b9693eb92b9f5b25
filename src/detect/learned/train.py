#!/usr/bin/env python3
"""Trains the learned second opinion on permission claims of the never-store
detectors (src/detect/learned.rs) and writes its weights to weights.tsv
beside this file.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install scikit-learn numpy
    /tmp/venv/bin/python src/detect/learned/train.py [--memorybank LINES.txt]

Data: the labelled corpus tests/data/never_store.jsonl (permission_claim
lines are the positives, every other line a negative), and optionally
everyday user messages (one per line, e.g. the MemoryBank lines of
../shared/data) as more negatives.

Features: the character 2- to 4-grams of the text as learned.rs reads it
(NFKC, lower case, whitespace runs as one space, a space at each end), present
or not, the vector scaled to unit length. An L2-regularised logistic
regression (C = 4), class-balanced; then only the KEEP n-grams that weigh
most are kept, and it is fitted again on those alone, so that the weights
file is the whole model. THRESHOLD is the probability above which
learned.rs calls a text a claim; the script prints the five-fold
cross-validated false-positive rate on the corpus's harmless lines at it
(kept at or under 0.5 %). A model of live facts, trained the same way, was
tried and left out: it refused 3 of 25 ordinary "currently working on"
statements (现在在做燕麦饮项目), the recent focus dreamd exists to keep. Single characters are no features: one
(还, of 还剩 and 还没) outweighed everything else in a short text.
"""
import json, re, sys, unicodedata
from pathlib import Path
import numpy as np
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import normalize

KEEP = 20000
NMIN = 2
C = 4.0
THRESHOLD = 0.92
CATEGORY = "permission_claim"
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
WHITESPACE = re.compile(r"\s+")


def view(text):
    return " " + WHITESPACE.sub(" ", unicodedata.normalize("NFKC", text).lower()).strip() + " "


def grams(text):
    t = view(text)
    return list({t[i:i + n] for n in range(NMIN, 5) for i in range(len(t) - n + 1) if t[i:i + n].strip()})


def model(vocabulary=None):
    vec = CountVectorizer(analyzer=grams, binary=True, min_df=2 if vocabulary is None else 1,
                          vocabulary=vocabulary)
    return vec


def fit(A, labels):
    clf = LogisticRegression(C=C, max_iter=3000, class_weight="balanced")
    return clf.fit(A, (labels == CATEGORY).astype(int))


def main():
    texts, labels = [], []
    for line in open(ROOT / "tests/data/never_store.jsonl", encoding="utf-8"):
        if line.strip():
            row = json.loads(line)
            category = row.get("category")
            texts.append(row["text"])
            labels.append(category if category == CATEGORY else ("other" if category else "harmless"))
    if "--memorybank" in sys.argv:
        path = sys.argv[sys.argv.index("--memorybank") + 1]
        for line in open(path, encoding="utf-8"):
            if line.strip():
                texts.append(line.rstrip("\n"))
                labels.append("harmless")
    labels = np.array(labels)
    vec = model()
    weight = np.abs(fit(normalize(vec.fit_transform(texts)), labels).coef_[0])
    names = vec.get_feature_names_out()
    kept = sorted(names[np.argsort(weight)[::-1][:KEEP]])
    vec = model(kept)
    A = normalize(vec.fit_transform(texts))
    clf = fit(A, labels)
    harmless = labels == "harmless"
    positive = labels == CATEGORY
    out_of_fold = np.zeros(len(labels))
    for train, test in StratifiedKFold(5, shuffle=True, random_state=0).split(A, labels):
        out_of_fold[test] = fit(A[train], labels[train]).predict_proba(A[test])[:, 1]
    fp = int((out_of_fold[harmless] >= THRESHOLD).sum())
    print(f"{len(kept)} n-grams; cross-validated at {THRESHOLD}: harmless flagged {fp}/{int(harmless.sum())} "
          f"({100 * fp / harmless.sum():.2f} %), claims flagged "
          f"{100 * (out_of_fold[positive] >= THRESHOLD).mean():.1f} %")
    with open(HERE / "weights.tsv", "w", encoding="utf-8") as f:
        f.write("# learned.rs weights: written by train.py from tests/data/never_store.jsonl; do not edit\n")
        f.write(f"threshold\t{THRESHOLD}\n")
        f.write(f"bias\t{clf.intercept_[0]:.5f}\n")
        for gram, w in zip(vec.get_feature_names_out(), clf.coef_[0]):
            f.write(f"{gram}\t{w:.5f}\n")


if __name__ == "__main__":
    main()
