"""The evidence table of docs/kalah-graphs.md ("Table 4: branching
factors"): the published figures next to six counting conventions, from the
CSV files `table4.py --csv` writes.

    python3 benches/kalah2000/table4_summary.py main.csv [all.csv ...]
"""

import csv, sys
rows=[]
for f in sys.argv[1:]:
    rows+=list(csv.DictReader(open(f)))
D={}
for r in rows:
    D[(int(r['m']),int(r['n']),r['terminals'],r['decided'],r['count'],r['set'])]=r
order=[(3,1),(4,1),(3,2),(5,1),(3,3),(6,1),(3,4),(4,2),(3,5),(3,6),(4,3)]
convs=[('as-played','leaves','moves','all'),('as-played','leaves','moves','nondec'),('as-played','expanded','moves','all'),('as-played','leaves','moves','ts'),('as-played','leaves','moves','expanded'),('swept','leaves','moves','all')]
print('| Kalah | published | '+' | '.join('%s/%s %s %s'%c for c in convs)+' |')
for (m,n) in order:
    cells=[]
    pub=None
    for c in convs:
        r=D.get((m,n)+c)
        if r is None: cells.append('-'); continue
        pub='%.2f ± %.2f'%(float(r['pub_mean']),float(r['pub_sd']))
        cells.append('%.3f ± %.3f'%(float(r['mean']),float(r['sd_pop'])))
    print('| (%d,%d) | %s | '%(m,n,pub)+' | '.join(cells)+' |')
