# Drops any rewording more than 0.85 similar (character bigrams, Dice) to a held-out message, with what follows it; prints only counts.
# Usage: python3 drop-near-held-out.py writer-x.json writer-x.filtered.json (run from the repository root's test/assistant-eval-v2/writer-x-source).
import json,sys
base='../'
ev=[]
for f in ['writer-a.json','writer-b.json','writer-c.json']: ev+=json.load(open(base+f))
by={i['id']:i for i in ev}
def root(i):
    while i.get('after'): i=by[i['after']]
    return i['id']
def held(i):
    h=2166136261
    for ch in root(i):
        h=((h ^ ord(ch))*16777619) & 0xffffffff
    return h%100<40
held_msgs=[i['message'].lower() for i in ev if held(i)]
train=[i for i in ev if not held(i)]
print('held', len(held_msgs), 'training', len(train))
def bigrams(s):
    s=' '.join(s.split())
    return [s[k:k+2] for k in range(len(s)-1)]
from collections import Counter
def dice(a,b):
    A,B=Counter(bigrams(a)),Counter(bigrams(b))
    inter=sum((A&B).values()); tot=sum(A.values())+sum(B.values())
    return 2*inter/tot if tot else 0
hb=[(m) for m in held_msgs]
x=json.load(open(sys.argv[1]))
drop=set()
for it in x:
    if it.get('after') in drop: drop.add(it['id']); continue
    m=it['message'].lower()
    if any(dice(m,h)>0.85 for h in hb): drop.add(it['id'])
out=[it for it in x if it['id'] not in drop]
json.dump(out, open(sys.argv[2],'w'), indent=1, ensure_ascii=False)
print('dropped', len(drop), 'kept', len(out))
