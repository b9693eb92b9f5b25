#!/usr/bin/env python3
"""Validate a dreamd golden set (spec §12) and print what it covers.

Usage: python3 eval/check_golden.py [eval/golden.jsonl] [--quiet]

Checks every line: JSON object; required fields and types; kinds (§2) and
scopes (§3); RFC 3339 UTC times; ids unique (case ids, user ids across cases,
conversation ids, message ids per conversation); every conversation is idle
(newest message >= 6 h before) at one of the case's runs and its messages lie
within the 7-day lookback of that run (unless the case is tagged `window`);
each expected slip's `quote_contains` (3-12 characters) occurs verbatim in a
user message that a run extracts, in a conversation whose allowed scopes hold
the slip's scope; memory, suggestion and explicit scopes are allowed for the
user; auto memories respect min evidence (presentation: expected slips from 2
conversations); terminology/query_default are never auto memories; every
explicit memory is expected unchanged; `absent` strings occur in no expected
text or explicit memory; recall checks have valid scopes and, when they aim
at explicit memories, a reachable, unambiguous target that is not simply the
newest one. Prints counts per lang, tag and kind, and the number of recall
checks. Exit status 1 when any error is found.
"""

import collections
import datetime as dt
import json
import re
import sys
import unicodedata

KINDS = {"presentation", "background", "recent_focus", "terminology", "query_default"}
AUTO_KINDS = {"presentation", "background", "recent_focus"}
MIN_EVIDENCE = {"presentation": 2, "background": 1, "recent_focus": 1}
SHAPING = {"presentation", "terminology", "query_default"}
DOMAINS = {"recipe", "raw_material", "standard", "report"}
ROLES = {"user", "assistant", "system", "tool"}
LANGS = {"zh", "en"}
IDLE = dt.timedelta(hours=6)
LOOKBACK = dt.timedelta(days=7)
RECALL_LIMIT = 5
ONE_OFF_MARKERS = ["这次", "这一次", "本次", "this time", "just this once", "for now"]
TIME_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
SCOPE_RE = re.compile(r"^(global|(domain|project):[^\s:]{1,64})$")


def parse_time(s):
    if not isinstance(s, str) or not TIME_RE.match(s):
        raise ValueError(f"not an RFC 3339 time: {s!r}")
    return dt.datetime.fromisoformat(s.replace("Z", "+00:00"))


def squash(s):
    """Roughly §2's detection view: NFKC, Chinese numerals as digits, common
    e-mail obfuscations undone, whitespace and separators between digits gone."""
    s = unicodedata.normalize("NFKC", s).lower()
    s = s.translate(str.maketrans("〇一二三四五六七八九", "0123456789"))
    s = re.sub(r"\s*(\(at\)|\[at\]|\sat\s)\s*", "@", s)
    s = re.sub(r"\s*(\(dot\)|\[dot\]|\sdot\s)\s*", ".", s)
    s = re.sub(r"(?<=\d)[\-./_—,]+(?=\d)", "", s)
    return re.sub(r"\s+", "", s)


def valid_scope(s):
    return isinstance(s, str) and bool(SCOPE_RE.match(s))


class Checker:
    def __init__(self):
        self.errors = []
        self.warnings = []
        self.case_ids = set()
        self.user_ids = {}
        self.conv_ids = {}
        self.stats = collections.Counter()
        self.per_lang = collections.Counter()
        self.per_tag = collections.Counter()
        self.per_tag_lang = collections.Counter()
        self.slips_by_kind = collections.Counter()
        self.mems_by_kind = collections.Counter()
        self.sugs_by_kind = collections.Counter()
        self.cases_by_kind = collections.Counter()
        self.recall_checks = 0
        self.recall_by_lang = collections.Counter()

    def err(self, where, msg):
        self.errors.append(f"{where}: {msg}")

    def warn(self, where, msg):
        self.warnings.append(f"{where}: {msg}")

    def check_line(self, lineno, line):
        where = f"line {lineno}"
        try:
            c = json.loads(line)
        except json.JSONDecodeError as e:
            self.err(where, f"not JSON ({e})")
            return
        if not isinstance(c, dict):
            self.err(where, "not a JSON object")
            return
        cid = c.get("case_id")
        if not isinstance(cid, str) or not cid:
            self.err(where, "case_id missing")
            return
        where = f"line {lineno} ({cid})"
        if cid in self.case_ids:
            self.err(where, "duplicate case_id")
        self.case_ids.add(cid)
        for key in ("lang", "messages", "expect", "now"):
            if key not in c:
                self.err(where, f"{key} missing")
                return
        lang = c["lang"]
        if lang not in LANGS:
            self.err(where, f"lang {lang!r} is not zh or en")
        tags = c.get("tags", [])
        if not isinstance(tags, list) or not all(isinstance(t, str) and t for t in tags):
            self.err(where, "tags must be a list of strings")
            tags = []
        window = "window" in tags

        # now
        nows_raw = c["now"] if isinstance(c["now"], list) else [c["now"]]
        nows = []
        try:
            nows = [parse_time(n) for n in nows_raw]
        except ValueError as e:
            self.err(where, f"now: {e}")
            return
        if not nows:
            self.err(where, "now is an empty list")
            return
        if any(b <= a for a, b in zip(nows, nows[1:])):
            self.err(where, "now times must increase")

        # explicit
        explicit = c.get("explicit", [])
        if not isinstance(explicit, list):
            self.err(where, "explicit must be a list")
            explicit = []
        exp_scopes = set()
        for i, e in enumerate(explicit):
            w = f"{where} explicit[{i}]"
            if not isinstance(e, dict):
                self.err(w, "not an object")
                continue
            if e.get("kind") not in KINDS:
                self.err(w, f"kind {e.get('kind')!r}")
            if not valid_scope(e.get("scope")):
                self.err(w, f"scope {e.get('scope')!r}")
            else:
                exp_scopes.add(e["scope"])
            if not isinstance(e.get("text"), str) or not e["text"].strip():
                self.err(w, "text missing")
            if "at" in e:
                try:
                    at = parse_time(e["at"])
                    if at > nows[0]:
                        self.err(w, "at is after the first now")
                except ValueError as ex:
                    self.err(w, str(ex))
        ats = [e.get("at") for e in explicit if isinstance(e, dict)]
        if len([a for a in ats if a]) != len(set(a for a in ats if a)):
            self.warn(where, "explicit memories share an `at` time")

        # messages
        msgs = c["messages"]
        if not isinstance(msgs, list):
            self.err(where, "messages must be a list")
            return
        if not msgs and not explicit:
            self.err(where, "no messages and no explicit memories")
        users = set()
        convs = collections.OrderedDict()
        conv_scopes = collections.defaultdict(set)
        for i, m in enumerate(msgs):
            w = f"{where} messages[{i}]"
            if not isinstance(m, dict):
                self.err(w, "not an object")
                continue
            for key in ("user_id", "conversation_id", "role", "content", "created_at"):
                if key not in m:
                    self.err(w, f"{key} missing")
            if not all(isinstance(m.get(k), str) and m.get(k) for k in
                       ("user_id", "conversation_id", "role", "content", "created_at")):
                self.err(w, "user_id, conversation_id, role, content, created_at must be non-empty strings")
                continue
            if m["role"] not in ROLES:
                self.err(w, f"role {m['role']!r}")
            try:
                m["_t"] = parse_time(m["created_at"])
            except ValueError as ex:
                self.err(w, str(ex))
                continue
            users.add(m["user_id"])
            convs.setdefault(m["conversation_id"], []).append(m)
            for s in m.get("scopes", []) or []:
                if not valid_scope(s):
                    self.err(w, f"scope {s!r}")
                else:
                    conv_scopes[m["conversation_id"]].add(s)
        if len(users) > 1:
            self.err(where, f"more than one user_id: {sorted(users)}")
        for u in users:
            if u in self.user_ids and self.user_ids[u] != cid:
                self.err(where, f"user_id {u} also used by {self.user_ids[u]}")
            self.user_ids[u] = cid
        for conv_id, cm in convs.items():
            if conv_id in self.conv_ids and self.conv_ids[conv_id] != cid:
                self.err(where, f"conversation_id {conv_id} also used by {self.conv_ids[conv_id]}")
            self.conv_ids[conv_id] = cid
            ids = [m.get("message_id") for m in cm if m.get("message_id") is not None]
            if len(ids) != len(set(ids)):
                self.err(where, f"duplicate message_id in {conv_id}")
            ts = [m["_t"] for m in cm]
            if ts != sorted(ts):
                self.warn(where, f"messages of {conv_id} are not in time order")

        # simulate selection (§4): which user messages a run extracts
        extracted = set()  # ids (conv, index)
        for conv_id, cm in convs.items():
            newest = max(m["_t"] for m in cm)
            run = next((n for n in nows if newest <= n - IDLE), None)
            if run is None:
                if not window:
                    self.err(where, f"{conv_id} is not idle 6 h before any run")
                continue
            for i, m in enumerate(cm):
                if m["_t"] >= run - LOOKBACK:
                    extracted.add((conv_id, i))
                elif not window:
                    self.err(where, f"{conv_id}: message {m.get('message_id')} is older than 7 days at its run")

        def allowed_for(conv_id):
            return {"global"} | {f"domain:{d}" for d in DOMAINS} | conv_scopes[conv_id] | exp_scopes

        user_allowed = {"global"} | {f"domain:{d}" for d in DOMAINS} | exp_scopes
        for s in conv_scopes.values():
            user_allowed |= s

        # expect
        exp = c["expect"]
        if not isinstance(exp, dict):
            self.err(where, "expect must be an object")
            return
        for key in exp:
            if key not in ("slips", "memories", "suggestions", "absent"):
                self.err(where, f"unknown expect key {key!r}")
        slips = exp.get("slips", [])
        mems = exp.get("memories", [])
        sugs = exp.get("suggestions", [])
        absent = exp.get("absent", [])
        for name, val in (("slips", slips), ("memories", mems), ("suggestions", sugs), ("absent", absent)):
            if not isinstance(val, list):
                self.err(where, f"expect.{name} must be a list")
                return

        slip_convs = collections.defaultdict(set)  # (kind, scope) -> conversations
        kinds_in_case = set()
        for i, s in enumerate(slips):
            w = f"{where} expect.slips[{i}]"
            kind, scope, q = s.get("kind"), s.get("scope"), s.get("quote_contains")
            if kind not in KINDS:
                self.err(w, f"kind {kind!r}")
                continue
            kinds_in_case.add(kind)
            self.slips_by_kind[kind] += 1
            if not valid_scope(scope):
                self.err(w, f"scope {scope!r}")
                continue
            if not isinstance(q, str) or not (3 <= len(q) <= 12):
                self.err(w, f"quote_contains must be 3-12 characters: {q!r}")
                continue
            if any(mk in q.lower() for mk in ONE_OFF_MARKERS):
                self.err(w, f"quote_contains holds a one-off marker: {q!r}")
            hits = []
            for conv_id, cm in convs.items():
                for j, m in enumerate(cm):
                    if m["role"] == "user" and q in m["content"]:
                        hits.append((conv_id, j))
            if not hits:
                self.err(w, f"quote_contains {q!r} is in no user message")
                continue
            good = [h for h in hits if h in extracted and scope in allowed_for(h[0])]
            if not good:
                self.err(w, f"{q!r}: no extracted user message in a conversation allowing {scope}")
                continue
            loose = [(cv, j) for cv, cm in convs.items() for j, m in enumerate(cm)
                     if m["role"] == "user" and q.lower() in m["content"].lower()]
            if len(loose) > 1:
                self.warn(w, f"{q!r} occurs in {len(loose)} user messages (ignoring case); pick a fragment of one statement")
            for h in good:
                slip_convs[(kind, scope)].add(h[0])

        exp_by_key = collections.defaultdict(list)
        for e in explicit:
            if isinstance(e, dict):
                exp_by_key[(e.get("kind"), e.get("scope"))].append(e.get("text", ""))
        explicit_found = collections.Counter()
        for i, m in enumerate(mems):
            w = f"{where} expect.memories[{i}]"
            kind, scope, alts, origin = m.get("kind"), m.get("scope"), m.get("content_contains"), m.get("origin")
            if kind not in KINDS:
                self.err(w, f"kind {kind!r}")
                continue
            kinds_in_case.add(kind)
            self.mems_by_kind[(kind, origin)] += 1
            if not valid_scope(scope) or scope not in user_allowed:
                self.err(w, f"scope {scope!r} not valid or not allowed for this user")
            if not isinstance(alts, list) or not alts or not all(isinstance(a, str) and a.strip() for a in alts):
                self.err(w, "content_contains must be a non-empty list of strings")
                continue
            if origin not in ("auto", "explicit"):
                self.err(w, f"origin {origin!r}")
            elif origin == "explicit":
                texts = exp_by_key.get((kind, scope), [])
                match = [t for t in texts if any(a.lower() in t.lower() for a in alts)]
                if not match:
                    self.err(w, "explicit memory expected but none given in `explicit` matches")
                for t in match:
                    explicit_found[(kind, scope, t)] += 1
            else:
                if kind not in AUTO_KINDS:
                    self.err(w, f"{kind} is never an auto memory (it becomes a suggestion)")
                else:
                    n = len(slip_convs.get((kind, scope), ()))
                    if n < MIN_EVIDENCE[kind]:
                        self.err(w, f"auto {kind} memory in {scope} needs {MIN_EVIDENCE[kind]} conversation(s) of expected slips, has {n}")
        for e in explicit:
            if isinstance(e, dict) and explicit_found[(e.get("kind"), e.get("scope"), e.get("text"))] == 0:
                self.err(where, f"explicit memory {e.get('text')!r} is not in expect.memories")

        # presentation slips from 2+ conversations should make a memory
        for (kind, scope), cs in slip_convs.items():
            if kind in AUTO_KINDS and len(cs) >= MIN_EVIDENCE[kind]:
                has_mem = any(m.get("kind") == kind and m.get("scope") == scope for m in mems)
                if not has_mem and "expiry" not in tags:
                    self.warn(where, f"slips of {kind}/{scope} from {len(cs)} conversation(s) but no memory expected")

        for i, s in enumerate(sugs):
            w = f"{where} expect.suggestions[{i}]"
            kind, scope = s.get("kind"), s.get("scope")
            if kind not in KINDS:
                self.err(w, f"kind {kind!r}")
                continue
            kinds_in_case.add(kind)
            self.sugs_by_kind[kind] += 1
            if not valid_scope(scope) or scope not in user_allowed:
                self.err(w, f"scope {scope!r} not valid or not allowed")
            if kind in AUTO_KINDS and (kind, scope) not in exp_by_key:
                self.err(w, f"a {kind} suggestion must aim at an explicit memory of the same kind and scope")
            if (kind, scope) not in slip_convs:
                self.err(w, "no expected slip of this kind and scope backs the suggestion")
        for (kind, scope) in slip_convs:
            if kind in ("terminology", "query_default") and (kind, scope) not in exp_by_key:
                if not any(s.get("kind") == kind and s.get("scope") == scope for s in sugs):
                    self.warn(where, f"{kind} slip in {scope} but no suggestion expected")

        texts = [t for ts in exp_by_key.values() for t in ts]
        for m in mems:
            texts.extend(m.get("content_contains", []) or [])
        for i, a in enumerate(absent):
            w = f"{where} expect.absent[{i}]"
            if not isinstance(a, str) or len(a) < 2:
                self.err(w, "absent entries must be strings of 2+ characters")
                continue
            contents = [m["content"] for m in msgs if isinstance(m, dict) and isinstance(m.get("content"), str)]
            if not any(a in t for t in contents) and not any(squash(a) in squash(t) for t in contents):
                self.warn(w, f"{a!r} occurs in no message (not even without separators)")
            for t in texts:
                if a.lower() in t.lower():
                    self.err(w, f"{a!r} occurs in an expected memory text {t!r}")
            for s in slips:
                if a.lower() in str(s.get("quote_contains", "")).lower():
                    self.err(w, f"{a!r} occurs in an expected quote fragment")

        # recall
        recall = c.get("recall", [])
        if not isinstance(recall, list):
            self.err(where, "recall must be a list")
            recall = []
        for i, r in enumerate(recall):
            w = f"{where} recall[{i}]"
            if not isinstance(r, dict):
                self.err(w, "not an object")
                continue
            scopes, query, alts = r.get("scopes"), r.get("query"), r.get("expect_memory_contains")
            if not isinstance(scopes, list) or not all(valid_scope(s) for s in scopes):
                self.err(w, f"scopes {scopes!r}")
                continue
            if not isinstance(query, str) or not query.strip():
                self.err(w, "query missing")
            if not isinstance(alts, list) or not alts or not all(isinstance(a, str) and a for a in alts):
                self.err(w, "expect_memory_contains must be a non-empty list of strings")
                continue
            self.recall_checks += 1
            self.recall_by_lang[lang] += 1
            in_scope = lambda sc: sc == "global" or sc in scopes  # noqa: E731
            exp_in = [e for e in explicit if isinstance(e, dict) and in_scope(e.get("scope"))]
            shaping = [e for e in exp_in if e.get("kind") in SHAPING]
            auto_in = [m for m in mems if m.get("origin") == "auto" and in_scope(m.get("scope"))]
            targets = [e for e in exp_in if any(a.lower() in e["text"].lower() for a in alts)]
            if targets:
                tgt = targets[0]
                if len(targets) > 1:
                    self.err(w, f"{alts!r} is in {len(targets)} in-scope explicit memories (ambiguous)")
                if tgt["kind"] not in SHAPING:
                    slots = RECALL_LIMIT - len(shaping) - len([m for m in auto_in if m["kind"] in SHAPING])
                    if slots < 1:
                        self.err(w, "no slot left for background/recent_focus after the shaping memories")
                    ranked = [e for e in exp_in if e.get("kind") not in SHAPING]
                    if len(ranked) > slots:
                        newest = max(ranked, key=lambda e: e.get("at", ""))
                        if newest is tgt:
                            self.err(w, "the target is the newest in-scope memory (recency alone would pass)")
                    else:
                        self.warn(w, "every in-scope background/recent_focus memory fits in the limit (no ranking needed)")
                else:
                    if len(shaping) > RECALL_LIMIT:
                        self.warn(w, "more shaping memories than the limit")
            elif not auto_in:
                self.err(w, f"{alts!r} is in no in-scope explicit memory and no auto memory is expected in scope")

        # stats
        self.per_lang[lang] += 1
        for t in tags:
            self.per_tag[t] += 1
            self.per_tag_lang[(t, lang)] += 1
        for k in kinds_in_case:
            self.cases_by_kind[k] += 1
        self.stats["messages"] += len(msgs)
        self.stats["user messages"] += sum(1 for m in msgs if isinstance(m, dict) and m.get("role") == "user")
        self.stats["explicit memories"] += len(explicit)
        self.stats["expected slips"] += len(slips)
        self.stats["expected memories"] += len(mems)
        self.stats["expected suggestions"] += len(sugs)
        self.stats["absent strings"] += len(absent)
        if not slips and not mems and not sugs:
            self.stats["cases expecting nothing learned"] += 1
        if len(nows) > 1:
            self.stats["multi-run cases"] += 1


def main(argv):
    quiet = "--quiet" in argv
    paths = [a for a in argv[1:] if not a.startswith("--")]
    path = paths[0] if paths else "eval/golden.jsonl"
    ck = Checker()
    n = 0
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                ck.err(f"line {lineno}", "empty line")
                continue
            n += 1
            ck.check_line(lineno, line)
    if not quiet:
        print(f"{path}: {n} cases")
        print("per lang:", ", ".join(f"{k} {v}" for k, v in sorted(ck.per_lang.items())))
        print("per tag (total / zh / en):")
        for t, v in sorted(ck.per_tag.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {t:<16} {v:>4}  {ck.per_tag_lang[(t, 'zh')]:>4} {ck.per_tag_lang[(t, 'en')]:>4}")
        print("cases per kind expected (slip, memory or suggestion):")
        for k in sorted(KINDS):
            print(f"  {k:<14} {ck.cases_by_kind[k]:>4}")
        print("expected slips per kind:", ", ".join(f"{k} {ck.slips_by_kind[k]}" for k in sorted(KINDS)))
        print("expected memories per kind/origin:",
              ", ".join(f"{k}/{o} {v}" for (k, o), v in sorted(ck.mems_by_kind.items())))
        print("expected suggestions per kind:", ", ".join(f"{k} {ck.sugs_by_kind[k]}" for k in sorted(KINDS)))
        for k, v in ck.stats.items():
            print(f"{k}: {v}")
        print(f"recall checks: {ck.recall_checks} (" +
              ", ".join(f"{k} {v}" for k, v in sorted(ck.recall_by_lang.items())) + ")")
    for w in ck.warnings:
        print("warning:", w)
    for e in ck.errors:
        print("error:", e)
    print(f"{len(ck.errors)} error(s), {len(ck.warnings)} warning(s)")
    return 1 if ck.errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
