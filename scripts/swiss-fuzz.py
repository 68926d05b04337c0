#!/usr/bin/env python3
"""Pairs random tournament histories (not Swiss-paired: each round a random matching
with random colours and results, nobody meeting twice, the bye once at most) with
bbpPairings and with ours, and prints any history where they differ.

    BBP=/path/to/bbpPairings.exe python3 scripts/swiss-fuzz.py OURS OTHER COUNT

OURS and OTHER are two builds of `pair_trf` (the second may be a deliberately
broken one, to see whether a part of the rules is ever reached; pass OURS twice
otherwise). docs/tournaments.md has the runs.
"""
import random, subprocess, sys, os, tempfile
BBP=os.environ.get("BBP", "bbpPairings.exe"); GOOD=sys.argv[1]; MUT=sys.argv[2]; count=int(sys.argv[3])
WORK=tempfile.mkdtemp(prefix="swiss-fuzz-")
def trf(n, hist, total):
    lines=["012 fuzz","XXR %d"%total,"XXC white1"]
    for p in range(1,n+1):
        pts=0; s=""
        for rd in hist:
            opp,col,res=rd[p]
            pts+={"1":10,"=":5,"0":0,"U":10}[res]
            s+="  %4s %s %s"%(("%d"%opp) if opp else "0000",col,res)
        head=("001 %4d      Player%04d"%(p,p)).ljust(48)+str(2700-p*10).rjust(4)
        head=head.ljust(80)+("%d.%d"%(pts//10,pts%10)).rjust(4)
        lines.append((head.ljust(89)+s).rstrip())
    return "\n".join(lines)+"\n"
found=0; differs=0
for seed in range(count):
    rng=random.Random(seed)
    low,high=map(int,os.environ.get("PLAYERS","6-12").split("-"))
    n=rng.randint(low,high); k=rng.randint(2,min(4+n//8,n-2))
    hist=[]; met=set(); byes=set(); ok=True
    for r in range(k):
        for attempt in range(200):
            ps=list(range(1,n+1)); rng.shuffle(ps); rd={}; bye=None
            if n%2: 
                cand=[p for p in ps if p not in byes]
                if not cand: break
                bye=cand[0]; ps.remove(bye); rd[bye]=(0,"-","U")
            good=True
            for i in range(0,len(ps),2):
                a,b=ps[i],ps[i+1]
                if (min(a,b),max(a,b)) in met: good=False;break
                w=rng.choice([0,1]); res=rng.choice(["1","=","0"])
                inv={"1":"0","0":"1","=":"="}[res]
                rd[a]=(b,"w" if w else "b",res); rd[b]=(a,"b" if w else "w",inv)
            if good: break
        else: ok=False; break
        if not good: ok=False;break
        for p,(o,c,res) in rd.items():
            if o: met.add((min(p,o),max(p,o)))
        if bye: byes.add(bye)
        hist.append(rd)
    if not ok: continue
    f=os.path.join(WORK,"fz.trf"); open(f,"w").write(trf(n,hist,k+2))
    b=subprocess.run([BBP,"--dutch",f,"-p",os.path.join(WORK,"fz.out")],capture_output=True,text=True)
    if b.returncode: continue
    theirs=open(os.path.join(WORK,"fz.out")).read()
    g=subprocess.run([GOOD,f],capture_output=True,text=True).stdout
    m=subprocess.run([MUT,f],capture_output=True,text=True).stdout
    if g!=theirs: differs+=1; print("OURS DIFFERS seed",seed); os.system("cp %s %s/differs_%d.trf"%(f,WORK,seed))
    if m!=theirs and g==theirs:
        found+=1
        if found<=3: os.system("cp %s %s/other_differs_%d.trf"%(f,WORK,seed)); print("the other build differs at seed",seed)
print("histories %d; ours differs from bbpPairings: %d; only the other build differs: %d" % (count, differs, found))
