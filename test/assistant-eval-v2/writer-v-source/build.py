#!/usr/bin/env python3
"""Builds writer-v.json from paraphrases-q.json and paraphrases-a.json and checks them.
Each paraphrase file maps an example's id to a list of new messages: {"a012": ["...", "..."]}.
paraphrases-q.json covers every example whose kind is query or refusal (one message each, or more);
paraphrases-a.json covers every example whose kind is action (two messages each, or more).
Usage: python3 build.py check <file> <id prefixes> <q|a>   (checks one writer's part)
       python3 build.py                                     (merges every paraphrases-*.json, builds writer-v.json)"""
import json, sys, os, difflib, re

ex = json.load(open("examples.json"))
by_id = {i["id"]: i for i in ex}
which = sys.argv[1] if len(sys.argv) > 1 else "build"
errors = []

def norm(s): return re.sub(r"\s+", " ", s.lower()).strip()

def load(name, kinds, least):
    if not os.path.exists(name):
        errors.append(f"{name} is missing"); return {}
    data = json.load(open(name))
    for i in ex:
        if i["kind"] not in kinds: continue
        msgs = data.get(i["id"])
        if not msgs: errors.append(f"{name}: {i['id']} has no paraphrase"); continue
        if len(msgs) < least: errors.append(f"{name}: {i['id']} needs {least} paraphrases")
        for m in msgs:
            if not isinstance(m, str) or not m.strip(): errors.append(f"{name}: {i['id']} has an empty message"); continue
            r = difflib.SequenceMatcher(None, norm(m), norm(i["message"])).ratio()
            if r > 0.7: errors.append(f"{name}: {i['id']} paraphrase too close to the original ({r:.2f}): {m!r}")
        if len(set(map(norm, msgs))) < len(msgs): errors.append(f"{name}: {i['id']} repeats a paraphrase")
    for k in data:
        if k not in by_id: errors.append(f"{name}: {k} is not an example's id")
        elif which == "check" and (by_id[k]["kind"] not in kinds or k[0] not in sys.argv[3]): errors.append(f"{name}: {k} is outside your part")
    return data

import glob
if which == "check":
    # python3 build.py check <file> <id prefixes, e.g. bc> <q|a>
    f, prefixes, k = sys.argv[2], sys.argv[3], sys.argv[4]
    kinds = ("query", "refusal") if k == "q" else ("action",)
    keep = [i for i in ex if i["id"][0] in prefixes]
    ex[:] = keep
    load(f, kinds, 1 if k == "q" else 2)
else:
    merged = {}
    for f in sorted(glob.glob("paraphrases-*.json")): merged.update(json.load(open(f)))
    json.dump(merged, open("/tmp/_merged.json", "w"))
    q = load("/tmp/_merged.json", ("query", "refusal"), 1)
    a = load("/tmp/_merged.json", ("action",), 2)
if errors:
    print("\n".join(errors[:60])); print(f"{len(errors)} problems"); sys.exit(1)
print("ok")
if which == "check": sys.exit(0)
para = merged
out, new_ids, n = [], {}, 0
for i in ex:
    ids = []
    for k, m in enumerate(para[i["id"]]):
        n += 1
        vid = f"v{n:03d}"
        ids.append(vid)
        after = None
        if i["after"]:
            prev = new_ids[i["after"]]
            after = prev[k] if k < len(prev) else prev[0]
        item = {"id": vid, "message": m, "after": after, "kind": i["kind"]}
        for key in ("query", "action", "refusal"):
            if key in i: item[key] = i[key]
        out.append(item)
    new_ids[i["id"]] = ids
json.dump(out, open("writer-v.json", "w"), indent=1, ensure_ascii=False)
print(f"writer-v.json: {len(out)} items")
