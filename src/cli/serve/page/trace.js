// Where a move's last seed landed and what it captured, for the board to
// show. The back end says only what a move leads to (its position after);
// this module sows the move again by the rules of docs/RULES.md and keeps
// its account only when it leads to exactly the position the engine gave.
// Otherwise, and when the move ends the game (the seeds left are swept,
// which hides where they went), it says nothing: the board never shows a
// landing the engine did not confirm.
//
// Cells are {side: "south"|"north", pit: i} or {side, store: true}.

/** The sowing ring of a move by `mover`: every cell that receives seeds,
 *  counter-clockwise from the mover's pit 0. */
function ring(game, before, mover, pits) {
  const other = mover === "south" ? "north" : "south";
  const cells = [];
  for (let i = 0; i < pits; i++) cells.push({ side: mover, pit: i });
  if (game === "kalah" || game === "ohvalhu") cells.push({ side: mover, store: true });
  for (let i = 0; i < pits; i++) cells.push({ side: other, pit: i });
  const count = (c) => (c.store ? before.stores[c.side === "south" ? 0 : 1] : before[c.side][c.pit]);
  return { cells, seeds: cells.map(count) };
}

/** Sow the seeds of `seeds[origin]` (in place); the index of the last. */
function sow(seeds, origin, skipOrigin) {
  let n = seeds[origin];
  seeds[origin] = 0;
  let at = origin;
  while (n > 0) {
    at = (at + 1) % seeds.length;
    if (skipOrigin && at === origin) continue;
    seeds[at] += 1;
    n -= 1;
  }
  return at;
}

/** The move `pit` of the side to move in `before` (a PositionReport),
 *  sown by the rules of `before.game`: {landed, captured: [{cell, seeds}],
 *  board: {south, north, stores}}, or null for a game it does not know. */
export function sowMove(before, pit) {
  const game = before.game, rules = before.rules || "default", m = before.pits;
  const mover = before.to_move;
  const { cells, seeds } = ring(game, before, mover, m);
  const store = m; // the mover's store in Kalah's and Ohvalhu's rings
  const opposite = (i) => 2 * m - i; // the opponent's pit facing own pit i, in those rings
  const captured = [];
  const take = (i) => { captured.push({ cell: cells[i], seeds: seeds[i] }); const s = seeds[i]; seeds[i] = 0; return s; };
  const score = [...before.stores];
  const mine = mover === "south" ? 0 : 1;
  let last;
  if (game === "kalah") {
    last = sow(seeds, pit, false);
    if (last < m && seeds[last] === 1) {
      const opp = opposite(last);
      if (rules !== "capture-needs-opposite" || seeds[opp] > 0) {
        const got = take(opp) + take(last);
        seeds[store] += got;
      }
    }
  } else if (game === "ohvalhu") {
    last = sow(seeds, pit, false);
    // Relay: a last seed in a pit that held seeds lifts them and sows on.
    for (let guard = 0; last !== store && seeds[last] > 1; guard++) {
      if (guard > 100000) return null;
      last = sow(seeds, last, false);
    }
    if (last < m && seeds[last] === 1 && seeds[opposite(last)] > 0) {
      const got = take(opposite(last)) + take(last);
      seeds[store] += got;
    }
  } else if (game === "awari" || game === "oware" || game === "awale") {
    last = sow(seeds, pit, true);
    const most = game === "oware" ? 4 : 3;
    const chain = [];
    for (let i = last; i >= m && seeds[i] >= 2 && seeds[i] <= most; i--) chain.push(i);
    const theirs = seeds.slice(m).reduce((a, b) => a + b, 0);
    const taking = chain.reduce((a, i) => a + seeds[i], 0);
    const grandSlam = chain.length > 0 && taking === theirs;
    if (grandSlam && rules === "grand-slam-captures-nothing") {
      // Legal, and captures nothing.
    } else {
      for (const i of chain) score[mine] += take(i);
    }
  } else if (game === "vai-lung-thlan") {
    // The readings (docs/RULES.md): skip-origin skips the emptied pit on a
    // lap; chain-own-row stops the chain at the start of its row.
    last = sow(seeds, pit, rules === "skip-origin");
    if (seeds[last] === 1) {
      const rowStart = last < m ? 0 : m;
      score[mine] += take(last);
      // Back against the sowing, every pit of exactly one seed, never
      // round to the pit it started from.
      for (let k = 1, i = last; k < 2 * m; k++) {
        if (rules === "chain-own-row" && i === rowStart) break;
        i = (i - 1 + 2 * m) % (2 * m);
        if (seeds[i] !== 1) break;
        score[mine] += take(i);
      }
    }
  } else {
    return null;
  }
  const board = { south: [...before.south], north: [...before.north], stores: score };
  cells.forEach((c, i) => {
    if (c.store) board.stores[c.side === "south" ? 0 : 1] = seeds[i];
    else board[c.side][c.pit] = seeds[i];
  });
  return { landed: cells[last], captured, board };
}

/** What the board shows of the move `pit` from `before` to `after` (both
 *  PositionReports): {landed, captured} when the engine's position after
 *  the move is the one sown here, else null. */
export function traceMove(before, pit, after) {
  if (!before || !after || after.game_over || before.game_over) return null;
  const sown = sowMove(before, pit);
  if (!sown) return null;
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  if (!same(sown.board.south, after.south) || !same(sown.board.north, after.north) || !same(sown.board.stores, after.stores)) {
    window.mancalaTraceMismatches = (window.mancalaTraceMismatches || 0) + 1;
    return null;
  }
  return { landed: sown.landed, captured: sown.captured.filter((c) => c.seeds > 0) };
}
