// Every line tried from the start, kept as a tree: a move played where
// another was played before starts a variation beside it, and going back
// and forth keeps them all. Each node is the position after its ply; the
// root is the start. A node's first child is its main line; `sel` is the
// child last visited, which "forward" and "end" follow.

let nextId = 1;

export class Node {
  constructor(parent, ply) {
    this.id = nextId++;
    this.parent = parent;
    this.ply = ply; // {pit, side}; null at the root
    this.children = [];
    this.sel = 0;
    this.report = null; // the position (PositionReport), once fetched
    this.depth = parent ? parent.depth + 1 : 0;
  }
  /** The plies from the start to this node. */
  path() {
    const out = [];
    for (let n = this; n.parent; n = n.parent) out.push(n.ply);
    return out.reverse();
  }
  /** The child followed forward, if any. */
  next() { return this.children[this.sel] || this.children[0] || null; }
  /** The nodes from this one (excluded) to the end of its line. */
  continuation() {
    const out = [];
    for (let n = this.next(); n; n = n.next()) out.push(n);
    return out;
  }
}

export class GameTree {
  constructor() {
    this.root = new Node(null, null);
    this.cursor = this.root;
  }
  /** Go to `node`, making its line the one followed forward. */
  go(node) {
    for (let n = node; n.parent; n = n.parent) n.parent.sel = n.parent.children.indexOf(n);
    this.cursor = node;
  }
  /** The child of `node` for `ply`, added when new (a variation when
   *  `node` already has a continuation). */
  child(node, ply) {
    let c = node.children.find((x) => x.ply.pit === ply.pit && x.ply.side === ply.side);
    if (!c) {
      c = new Node(node, ply);
      node.children.push(c);
    }
    return c;
  }
  /** Play `plies` from `node` (adding what is new); the last node. */
  extend(node, plies) {
    let n = node;
    for (const p of plies) n = this.child(n, p);
    return n;
  }
  /** The line shown: from the start through the cursor to the end of the
   *  line it follows. */
  line() {
    return this.cursor.path().concat(this.cursor.continuation().map((n) => n.ply));
  }
  /** Every node of the line shown, the root first. */
  lineNodes() {
    const before = [];
    for (let n = this.cursor; n; n = n.parent) before.push(n);
    return before.reverse().concat(this.cursor.continuation());
  }
  /** Remove `node` and everything after it (a variation dropped). */
  remove(node) {
    const p = node.parent;
    if (!p) return;
    p.children = p.children.filter((c) => c !== node);
    p.sel = 0;
  }
}

/** The tree in `el` as numbered moves to click, the main line first and
 *  each variation in brackets after the move it differs from (as chess
 *  boards write them): `1. S2 S5 2. N3 (2. N1 N4) 3. S0`. `name(ply)`
 *  writes a move (`S2`), `label(ply)` names it for screen readers,
 *  `click(node)` goes there; the cursor's move is marked. */
export function renderTree(el, tree, name, label, click) {
  el.innerHTML = "";
  const turnOf = (n) => {
    // Turn numbers: 1 for the first ply; one more where the side changes.
    let t = 0, prev = null;
    for (const p of n.path()) { if (prev === null || p.side !== prev) t += 1; prev = p.side; }
    return t;
  };
  const move = (parent, node, first) => {
    const startsTurn = !node.parent.ply || node.parent.ply.side !== node.ply.side;
    if (startsTurn || first) {
      const num = document.createElement("span");
      num.className = "turn-no";
      num.textContent = `${turnOf(node)}.${startsTurn ? "" : ".."}`;
      parent.appendChild(num);
    }
    const b = document.createElement("button");
    b.textContent = name(node.ply);
    b.setAttribute("aria-label", label(node.ply));
    b.dataset.node = String(node.id);
    if (node === tree.cursor) { b.classList.add("current"); b.setAttribute("aria-current", "step"); }
    b.addEventListener("click", () => click(node));
    parent.appendChild(b);
  };
  // A line from `node` (its first child onwards), variations in brackets.
  const line = (parent, node, firstOfVariation) => {
    let n = node, first = firstOfVariation;
    while (n) {
      move(parent, n, first);
      first = false;
      const siblings = n.parent.children;
      if (siblings[0] === n && siblings.length > 1) {
        for (const v of siblings.slice(1)) {
          const box = document.createElement("span");
          box.className = "variation";
          const open = document.createElement("span"); open.className = "paren"; open.textContent = "(";
          const close = document.createElement("span"); close.className = "paren close"; close.textContent = ")";
          box.appendChild(open);
          line(box, v, true);
          box.appendChild(close);
          parent.appendChild(box);
        }
        first = true;
      }
      n = n.children[0] || null;
    }
  };
  if (tree.root.children.length) line(el, tree.root.children[0], true);
}
