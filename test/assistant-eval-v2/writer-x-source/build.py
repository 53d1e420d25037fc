#!/usr/bin/env python3
"""Checks one writer's rewordings, or builds writer-x.json from every paraphrases-*.json.
Each paraphrase file maps an example's id to a list of one new message: {"a012": ["..."]}.
Usage: python3 build.py check <file> <id prefix>   (checks your part: every example whose id starts with the prefix)
       python3 build.py                            (merges every paraphrases-*.json, builds writer-x.json)"""
import json, sys, os, difflib, re, glob

ex = json.load(open("examples.json"))
by_id = {i["id"]: i for i in ex}
errors = []

def norm(s): return re.sub(r"\s+", " ", s.lower()).strip()

def load(data, part):
    for i in part:
        msgs = data.get(i["id"])
        if not msgs: errors.append(f"{i['id']} has no paraphrase"); continue
        for m in msgs:
            if not isinstance(m, str) or not m.strip(): errors.append(f"{i['id']} has an empty message"); continue
            r = difflib.SequenceMatcher(None, norm(m), norm(i["message"])).ratio()
            if r > 0.7: errors.append(f"{i['id']} paraphrase too close to the original ({r:.2f}): {m!r}")
            if len(m) > 2000: errors.append(f"{i['id']} is over 2,000 characters")
    for k in data:
        if k not in by_id: errors.append(f"{k} is not an example's id")

if len(sys.argv) > 1 and sys.argv[1] == "check":
    f, prefix = sys.argv[2], sys.argv[3]
    part = [i for i in ex if i["id"].startswith(prefix)]
    data = json.load(open(f)) if os.path.exists(f) else {}
    load(data, part)
    for k in data:
        if not k.startswith(prefix): errors.append(f"{k} is outside your part")
    if errors: print("\n".join(errors[:60])); print(f"{len(errors)} problems"); sys.exit(1)
    print(f"ok: {len(part)} examples covered"); sys.exit(0)

merged = {}
for f in sorted(glob.glob("paraphrases-*.json")): merged.update(json.load(open(f)))
load(merged, ex)
if errors: print("\n".join(errors[:60])); print(f"{len(errors)} problems"); sys.exit(1)
out, new_ids, n = [], {}, 0
for i in ex:
    ids = []
    for k, m in enumerate(merged[i["id"]]):
        n += 1
        vid = f"x{n:03d}"
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
json.dump(out, open("writer-x.json", "w"), indent=1, ensure_ascii=False)
print(f"writer-x.json: {len(out)} items")
