#!/usr/bin/env python3
"""Branching factors in the full game graphs of Kalah(m,n) under many counting
conventions, against Table 4 of Irving, Donkers & Uiterwijk, "Solving Kalah" (2000).
Stdlib only, one process.

Rules (docs/RULES.md, default): sow counter-clockwise skipping the
opponent's store (origin pit not skipped); last seed in own store = extra turn;
last seed in an own empty pit captures it and the opposite pit (even if empty);
the game ends right after any move that leaves either row empty, each side
keeping its own row.  Optional variants (--rules): capture-needs-opposite,
end-when-mover-empty, skip-origin.

GRAPH conventions (node = all cells + side to move; edge = one sowing; BFS from the start):
  terminals  as-played (node = board as the move left it, side = the player the
             turn passes to) | swept (row seeds moved to stores, side = mover)
  decided    leaves (a store > m*n: counted, not expanded) | expanded
  ('terminals omitted' = the 'nonterm' node set below.)
COUNT per node (what a node contributes):
  moves    legal moves if the node is expanded, else 0
  kids     distinct child positions if expanded, else 0
  raw      non-empty pits of the side to move, whatever the node's status
  turnseq  whole turns: distinct move sequences of the mover's turn (an extra-turn
           chain followed until the turn passes or it reaches a terminal/leaf)
  turnend  whole turns: distinct positions at the end of those sequences
NODE SET over which mean and sd are taken:
  all | nondec (all but decided leaves) | nonterm (all but terminals) |
  expanded (neither) | ts (turn-start nodes: the start or reached by a
  turn-passing move, i.e. the nodes of a graph of whole turns) | ts-exp
SD: population (pop) and sample (smp).

Usage:
  python3 table4.py                    # all Table 4 instances it can do (see --max)
  python3 table4.py 3,1 4,1            # chosen instances
  options: --rules R   --graphs all|main   --csv FILE
"""
import sys, time, math
from array import array
from collections import deque

PUBLISHED = {  # Table 4 of the paper: mean +- sd
    (3, 1): (1.18, 0.90), (3, 2): (1.36, 0.85), (3, 3): (1.72, 0.85),
    (3, 4): (2.02, 0.81), (3, 5): (2.16, 0.78), (3, 6): (2.23, 0.76),
    (4, 1): (1.29, 0.96), (4, 2): (2.13, 0.95), (4, 3): (2.62, 0.89),
    (5, 1): (1.63, 0.96), (6, 1): (2.04, 1.03),
}
ORDER = [(3, 1), (4, 1), (3, 2), (5, 1), (3, 3), (6, 1), (3, 4), (4, 2), (3, 5), (3, 6), (4, 3)]

COUNTS = ('moves', 'kids', 'raw', 'turnseq', 'turnend')
SETS = ('all', 'nondec', 'nonterm', 'expanded', 'ts', 'ts-exp')


def make_game(m, n, rules='default'):
    half = m * n
    SS, NS, L = m, 2 * m + 1, 2 * m + 2
    B = 2 * m * n + 1

    def sow(c, side, pit):
        c = list(c)
        start = pit if side == 0 else m + 1 + pit
        skip = NS if side == 0 else SS
        own = SS if side == 0 else NS
        s = c[start]; c[start] = 0; i = start
        while s:
            i += 1
            if i == L:
                i = 0
            if i == skip or (rules == 'skip-origin' and i == start):
                continue
            c[i] += 1; s -= 1
        nxt = 1 - side
        if i == own:
            nxt = side
        else:
            lo = 0 if side == 0 else m + 1
            if lo <= i < lo + m and c[i] == 1 and not (
                    rules == 'capture-needs-opposite' and c[2 * m - i] == 0):
                o = 2 * m - i
                c[own] += 1 + c[o]; c[i] = 0; c[o] = 0
        if rules == 'end-when-mover-empty':
            ended = not any(c[0:m] if nxt == 0 else c[m + 1:2 * m + 1])
        else:
            ended = not any(c[0:m]) or not any(c[m + 1:2 * m + 1])
        return tuple(c), nxt, ended

    def sweep(c):
        c = list(c)
        c[SS] += sum(c[0:m]); c[NS] += sum(c[m + 1:2 * m + 1])
        for k in range(m):
            c[k] = 0; c[m + 1 + k] = 0
        return tuple(c)

    def pits(c, side):
        off = 0 if side == 0 else m + 1
        return [p for p in range(m) if c[off + p]]

    def decided(c):
        return c[SS] > half or c[NS] > half

    def enc(c, side):
        k = side
        for x in c:
            k = k * B + x
        return k

    def dec(k):
        c = []
        for _ in range(L):
            k, x = divmod(k, B)
            c.append(x)
        return tuple(reversed(c)), k

    start = tuple(([n] * m + [0]) * 2)
    return start, sow, sweep, pits, decided, enc, dec


def analyse(m, n, terminals='as-played', expand_decided=False, rules='default'):
    """Enumerate the graph; return summary and {(count,set): (k, sum, sumsq)}."""
    start, sow, sweep, pits, decided, enc, dec = make_game(m, n, rules)
    X, T, D = 0, 1, 2
    index = {}
    keys = []
    status = bytearray()
    ts = bytearray()

    def children(c, side):
        out = []
        for p in pits(c, side):
            cc, nxt, ended = sow(c, side, p)
            if ended:
                if terminals == 'as-played':
                    out.append((enc(cc, nxt), nxt != side, T))
                else:
                    out.append((enc(sweep(cc), side), False, T))
            else:
                out.append((enc(cc, nxt), nxt != side,
                            D if (decided(cc) and not expand_decided) else X))
        return out

    def add(k, st):
        i = index.get(k)
        if i is None:
            i = len(keys); index[k] = i; keys.append(k); status.append(st); ts.append(0)
            return i, True
        return i, False

    add(enc(start, 0), X); ts[0] = 1
    q = deque([0])
    edges = 0
    vmoves = array('H'); vkids = array('H'); vseq = array('L'); vend = array('L')
    expanded_ids = array('L')
    while q:
        i = q.popleft()
        c, side = dec(keys[i])
        ch = children(c, side)
        edges += len(ch)
        for k, passes, st in ch:
            j, new = add(k, st)
            if passes:
                ts[j] = 1
            if new and st == X:
                q.append(j)
        # per-node counts of this expanded node
        expanded_ids.append(i)
        vmoves.append(len(ch))
        vkids.append(len(set(k for k, _, _ in ch)))
        seqs = 0; ends = set(); stack = [ch]
        while stack:
            for k, passes, st in stack.pop():
                if passes or st != X:
                    seqs += 1; ends.add(k)
                else:
                    cc, s2 = dec(k)
                    stack.append(children(cc, s2))
        vseq.append(seqs); vend.append(len(ends))
    N = len(keys)
    # aggregate
    acc = {(cn, sn): [0, 0, 0] for cn in COUNTS for sn in SETS}

    def put(i, vals):
        st = status[i]; t = ts[i]
        member = ('all',)
        if st != D: member += ('nondec',)
        if st != T: member += ('nonterm',)
        if st == X: member += ('expanded',)
        if t: member += ('ts',)
        if t and st == X: member += ('ts-exp',)
        for cn, v in zip(COUNTS, vals):
            for sn in member:
                a = acc[(cn, sn)]
                a[0] += 1; a[1] += v; a[2] += v * v

    isexp = bytearray(N)
    for r, i in enumerate(expanded_ids):
        isexp[i] = 1
        c, side = dec(keys[i])
        put(i, (vmoves[r], vkids[r], len(pits(c, side)), vseq[r], vend[r]))
    for i in range(N):
        if not isexp[i]:
            c, side = dec(keys[i])
            put(i, (0, 0, len(pits(c, side)), 0, 0))
    summary = dict(N=N, edges=edges, terminal=status.count(T), decided=status.count(D))
    return summary, acc


def msd(k, s, ss):
    if k == 0:
        return float('nan'), float('nan'), float('nan')
    mean = s / k
    var = max(ss / k - mean * mean, 0.0)
    return mean, math.sqrt(var), (math.sqrt(var * k / (k - 1)) if k > 1 else float('nan'))


GRAPHS_ALL = [('as-played', False), ('swept', False), ('as-played', True), ('swept', True)]


def main():
    args = sys.argv[1:]
    rules = 'default'; graphs = GRAPHS_ALL; csvf = None; insts = []
    while args:
        a = args.pop(0)
        if a == '--rules': rules = args.pop(0)
        elif a == '--graphs':
            graphs = GRAPHS_ALL if args.pop(0) == 'all' else GRAPHS_ALL[:1]
        elif a == '--csv': csvf = open(args.pop(0), 'w')
        else: insts.append(tuple(map(int, a.split(','))))
    insts = insts or ORDER
    if csvf:
        csvf.write('m,n,rules,terminals,decided,count,set,k,mean,sd_pop,sd_sample,pub_mean,pub_sd\n')
    score = {}
    T0 = time.time()
    for (m, n) in insts:
        pub = PUBLISHED.get((m, n), (float('nan'), float('nan')))
        print('== Kalah(%d,%d)  published %.2f +- %.2f' % (m, n, pub[0], pub[1]), flush=True)
        for (term, expd) in graphs:
            t0 = time.time()
            summ, acc = analyse(m, n, term, expd, rules)
            gname = '%s/%s' % (term, 'expand-decided' if expd else 'decided-leaves')
            print('  graph %-26s rules=%s nodes=%d edges=%d terminal=%d decided-leaves=%d (%.1f s)' % (
                gname, rules, summ['N'], summ['edges'], summ['terminal'], summ['decided'],
                time.time() - t0), flush=True)
            for cn in COUNTS:
                line = []
                for sn in SETS:
                    k, s, ss = acc[(cn, sn)]
                    mean, sdp, sds = msd(k, s, ss)
                    hitm = round(mean, 2) == pub[0]
                    hitp = round(sdp, 2) == pub[1]; hits = round(sds, 2) == pub[1]
                    mark = ('*' if hitm else ' ') + ('*' if (hitp or hits) else ' ')
                    line.append('%s %.3f+-%.3f%s' % (sn, mean, sdp, mark))
                    if csvf:
                        csvf.write('%d,%d,%s,%s,%s,%s,%s,%d,%.6f,%.6f,%.6f,%s,%s\n' % (
                            m, n, rules, term, 'expanded' if expd else 'leaves', cn, sn, k,
                            mean, sdp, sds, pub[0], pub[1]))
                    if (m, n) in PUBLISHED:
                        e = score.setdefault((gname, cn, sn), [0, 0, 0, 0.0, 0.0])
                        e[0] += 1; e[1] += hitm; e[2] += (hitp or hits)
                        e[3] = max(e[3], abs(mean - pub[0]))
                        e[4] = max(e[4], min(abs(sdp - pub[1]), abs(sds - pub[1])))
                print('    %-8s ' % cn + ' | '.join(line), flush=True)
    print('\n(* after a figure: mean / sd equal to the published one after rounding to 2 decimals;'
          ' sd column shows the population sd, a * also counts the sample sd)')
    print('\n== conventions ranked (instances with mean AND sd matched, then worst |mean diff|):')
    ranked = sorted(score.items(), key=lambda kv: (-min(kv[1][1], kv[1][2]) - kv[1][1] - kv[1][2], kv[1][3]))
    for (g, cn, sn), (k, hm, hs, wm, ws) in ranked[:12]:
        print('  %-26s %-8s %-9s means %d/%d  sds %d/%d  max|dmean| %.3f  max|dsd| %.3f' % (
            g, cn, sn, hm, k, hs, k, wm, ws))
    print('total %.1f s' % (time.time() - T0))


if __name__ == '__main__':
    main()
