#!/usr/bin/env python3
"""Trains a learned second opinion of the never-store detectors
(src/detect/learned.rs): on permission claims or on live business facts,
and writes its weights to claims.tsv or live_facts.tsv beside this file.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install scikit-learn numpy
    /tmp/venv/bin/python src/detect/learned/train.py claims [--memorybank LINES.txt]
    /tmp/venv/bin/python src/detect/learned/train.py live_facts [--memorybank LINES.txt]

Data: the labelled corpus tests/data/never_store.jsonl (the category's
lines are the positives, every other line a negative), and optionally
everyday user messages (one per line, e.g. the MemoryBank lines of
../shared/data) as more negatives.

Features: the character 2- to 4-grams of the text as learned.rs reads it
(NFKC, lower case, whitespace runs as one space, a space at each end), present
or not, the vector scaled to unit length. An L2-regularised logistic
regression (C = 4), class-balanced; then only the KEEP n-grams that weigh
most are kept, and it is fitted again on those alone, so that the weights
file is the whole model. Its threshold (MODELS) is the probability above which
learned.rs calls a text one of the category; the script prints the five-fold
cross-validated false-positive rate on the corpus's harmless lines at it
(kept at or under 0.5 %). Single characters are no features: one (还, of
还剩 and 还没) outweighed everything else in a short text.
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
# What each model is trained on, the file it writes, and its threshold.
MODELS = {
    "claims": ("permission_claim", "claims.tsv", 0.92),
    "live_facts": ("live_business_fact", "live_facts.tsv", 0.8),
}
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


def fit(A, labels, category):
    clf = LogisticRegression(C=C, max_iter=3000, class_weight="balanced")
    return clf.fit(A, (labels == category).astype(int))


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in MODELS:
        sys.exit(f"usage: train.py {{{'|'.join(MODELS)}}} [--memorybank LINES.txt]")
    category, out, threshold = MODELS[sys.argv[1]]
    texts, labels = [], []
    for line in open(ROOT / "tests/data/never_store.jsonl", encoding="utf-8"):
        if line.strip():
            row = json.loads(line)
            label = row.get("category")
            texts.append(row["text"])
            labels.append(label if label == category else ("other" if label else "harmless"))
    if "--memorybank" in sys.argv:
        path = sys.argv[sys.argv.index("--memorybank") + 1]
        for line in open(path, encoding="utf-8"):
            if line.strip():
                texts.append(line.rstrip("\n"))
                labels.append("harmless")
    labels = np.array(labels)
    vec = model()
    weight = np.abs(fit(normalize(vec.fit_transform(texts)), labels, category).coef_[0])
    names = vec.get_feature_names_out()
    kept = sorted(names[np.argsort(weight)[::-1][:KEEP]])
    vec = model(kept)
    A = normalize(vec.fit_transform(texts))
    clf = fit(A, labels, category)
    harmless = labels == "harmless"
    positive = labels == category
    out_of_fold = np.zeros(len(labels))
    for train, test in StratifiedKFold(5, shuffle=True, random_state=0).split(A, labels):
        out_of_fold[test] = fit(A[train], labels[train], category).predict_proba(A[test])[:, 1]
    fp = int((out_of_fold[harmless] >= threshold).sum())
    print(f"{len(kept)} n-grams; cross-validated at {threshold}: harmless flagged {fp}/{int(harmless.sum())} "
          f"({100 * fp / harmless.sum():.2f} %), {category} flagged "
          f"{100 * (out_of_fold[positive] >= threshold).mean():.1f} %")
    with open(HERE / out, "w", encoding="utf-8") as f:
        f.write("# learned.rs weights: written by train.py from tests/data/never_store.jsonl; do not edit\n")
        f.write(f"threshold\t{threshold}\n")
        f.write(f"bias\t{clf.intercept_[0]:.5f}\n")
        for gram, w in zip(vec.get_feature_names_out(), clf.coef_[0]):
            f.write(f"{gram}\t{w:.5f}\n")


if __name__ == "__main__":
    main()
