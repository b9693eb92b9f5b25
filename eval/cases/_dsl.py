"""A small authoring notation for the golden set (eval/golden.jsonl).

The cases themselves are written by hand in the other modules of this
directory; this file only turns the notation into the JSON Lines format of
spec §12 (ids, times, scopes on each message). `python3 eval/build_golden.py`
regenerates eval/golden.jsonl from them; `python3 eval/check_golden.py`
validates the result.

Notation
--------
case(case_id, tags, convs=[...], slips=[...], mems=[...], sugs=[...],
     absent=[...], recall=[...], explicit=[...], now=None)

  now      a time "2026-11-29T12:00:00Z" or a list of increasing times (one
           run at each); when omitted one of NOWS is taken, in turn.
  convs    C(days, "HH:MM", [U(...), A(...), ...], scopes=[...], base=0)
           a conversation that starts `days` days before now (now[base] for
           multi-run cases) at HH:MM UTC; messages follow each other
           `gap` minutes apart (default 2, per message with U(text, gap=N)).
  slips    (kind, scope, quote_contains)
  mems     (kind, scope, [alternatives], origin="auto")
  sugs     (kind, scope)
  explicit E(kind, scope, text, days, "HH:MM") — set `days` before now[0];
           it is added to expect.memories (origin explicit, its own text),
           since an explicit memory must come through unchanged.
  recall   R([scopes], query, [alternatives])
"""

import datetime as dt

CASES = []

NOWS = [
    "2026-11-29T12:00:00Z",
    "2026-10-15T10:30:00Z",
    "2026-12-09T08:00:00Z",
    "2027-01-20T15:00:00Z",
    "2026-09-03T12:00:00Z",
    "2027-03-11T09:00:00Z",
    "2026-07-22T13:00:00Z",
]

KINDS = ("presentation", "background", "recent_focus", "terminology", "query_default")


def _t(s):
    return dt.datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)


def _s(t):
    return t.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def U(text, gap=None):
    return ("user", text, gap)


def A(text, gap=None):
    return ("assistant", text, gap)


def T(text, gap=None):
    return ("tool", text, gap)


def S(text, gap=None):
    return ("system", text, gap)


def C(days, clock, msgs, scopes=(), base=0, gap=2):
    return {"days": days, "clock": clock, "msgs": msgs, "scopes": list(scopes),
            "base": base, "gap": gap}


def E(kind, scope, text, days, clock="08:00"):
    return {"kind": kind, "scope": scope, "text": text, "days": days, "clock": clock}


def R(scopes, query, alts):
    return {"scopes": list(scopes), "query": query, "expect_memory_contains": list(alts)}


def case(case_id, tags, convs, slips=(), mems=(), sugs=(), absent=(), recall=(),
         explicit=(), now=None, lang=None):
    if now is None:
        now = NOWS[len(CASES) % len(NOWS)]
    nows = [now] if isinstance(now, str) else list(now)
    lang = lang or case_id.split("-")[0]
    user = "u-" + case_id
    messages = []
    for ci, conv in enumerate(convs, 1):
        cid = f"{case_id}-c{ci}"
        hh, mm = (int(x) for x in conv["clock"].split(":"))
        base = _t(nows[conv["base"]])
        day = base.date() - dt.timedelta(days=conv["days"])
        t = dt.datetime(day.year, day.month, day.day, hh, mm, tzinfo=dt.timezone.utc)
        for mi, (role, text, gap) in enumerate(conv["msgs"], 1):
            if mi > 1:
                t += dt.timedelta(minutes=conv["gap"] if gap is None else gap)
            m = {"user_id": user, "conversation_id": cid, "message_id": f"{cid}-m{mi}",
                 "role": role, "content": text, "created_at": _s(t)}
            if conv["scopes"]:
                m["scopes"] = conv["scopes"]
            messages.append(m)
    exp_list = []
    exp_mems = []
    for e in explicit:
        hh, mm = (int(x) for x in e["clock"].split(":"))
        day = _t(nows[0]).date() - dt.timedelta(days=e["days"])
        at = dt.datetime(day.year, day.month, day.day, hh, mm, tzinfo=dt.timezone.utc)
        exp_list.append({"kind": e["kind"], "scope": e["scope"], "text": e["text"], "at": _s(at)})
        exp_mems.append({"kind": e["kind"], "scope": e["scope"],
                         "content_contains": [e["text"]], "origin": "explicit"})
    for m in mems:
        kind, scope, alts = m[0], m[1], m[2]
        origin = m[3] if len(m) > 3 else "auto"
        exp_mems.append({"kind": kind, "scope": scope, "content_contains": list(alts),
                         "origin": origin})
    obj = {
        "case_id": case_id,
        "lang": lang,
        "tags": list(tags),
        "now": now,
    }
    if exp_list:
        obj["explicit"] = exp_list
    obj["messages"] = messages
    obj["expect"] = {
        "slips": [{"kind": k, "scope": s, "quote_contains": q} for (k, s, q) in slips],
        "memories": exp_mems,
        "suggestions": [{"kind": k, "scope": s} for (k, s) in sugs],
        "absent": list(absent),
    }
    if recall:
        obj["recall"] = list(recall)
    CASES.append(obj)
    return obj
