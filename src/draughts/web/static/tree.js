// The board page's move tree (issue 27 §6): a study's main line and side lines, nested and
// clickable. The tree lives in the page; the server's game (the session) is always one line of it.
// After every answer the tree follows the session's line (MoveTree.follow): a move it already has
// is gone into, a move it lacks becomes a new side line under the node it was played from. Clicking
// a node puts its line on the board: a step along the session's line when the node is on it, else
// the node's line loaded as a game. The nodes are those of POST /api/pdn-tree, and go back to
// POST /api/pdn-tree/export as they are, with the side lines added here.

import { byId } from './common.js';

const NAG_SIGNS = { $1: '!', $2: '?', $3: '!!', $4: '??', $5: '!?', $6: '?!' };

function rootNode(start) {
  return { id: 0, parent: null, children: [], move: null, fen: start, comment: null, starting_comment: null, nags: [] };
}

export class MoveTree {
  constructor() {
    this.reset(null, null);
  }

  // A new tree: `nodes` as POST /api/pdn-tree gives them (each after its parent), or a bare root;
  // `headers` and `result` the loaded game's, written back by the export.
  reset(rules, start, nodes = null, headers = {}, result = '*') {
    this.rules = rules;
    this.start = start;
    this.headers = { ...headers };
    this.result = result;
    this.nodes = nodes
      ? nodes.map((node) => ({ ...node, children: [...node.children], nags: [...(node.nags || [])] }))
      : [rootNode(start)];
    this.nodes[0].depth = 0;
    for (const node of this.nodes.slice(1)) node.depth = this.nodes[node.parent].depth + 1;
    this.current = 0;
  }

  // Takes in the session's line (a game state of the board page): every move of it a node of the
  // tree (added where missing, as the last child: a side line), the one at the cursor current.
  // Another variant or start position starts a new tree.
  follow(state) {
    if (state.variant.name !== this.rules || state.start !== this.start) this.reset(state.variant.name, state.start);
    this.firstToMove = state.variant.first_to_move;
    let node = 0;
    this.current = 0;
    state.history.forEach((entry, index) => {
      const atCursor = index + 1 === state.ply;
      node = this.child(node, entry.text) ?? this.add(node, entry.text, atCursor ? state.fen : null);
      if (atCursor) this.current = node;
    });
  }

  child(id, move) {
    return this.nodes[id].children.find((child) => this.nodes[child].move === move) ?? null;
  }

  add(parent, move, fen) {
    const id = this.nodes.length;
    const depth = this.nodes[parent].depth + 1;
    this.nodes.push({ id, parent, children: [], move, fen, comment: null, starting_comment: null, nags: [], depth });
    this.nodes[parent].children.push(id);
    return id;
  }

  // The moves from the root to node `id`.
  moves(id) {
    const out = [];
    for (let node = this.nodes[id]; node.parent !== null; node = this.nodes[node.parent]) out.push(node.move);
    return out.reverse();
  }

  // The line to node `id` as a PDN game the board loads (its start in a FEN tag).
  linePdn(id) {
    return `[FEN "${this.start}"]\n${this.moves(id).join(' ')} *\n`;
  }

  sideLines() {
    return this.nodes.filter((node) => node.parent !== null && this.nodes[node.parent].children[0] !== node.id).length;
  }

  // The body of POST /api/pdn-tree/export.
  exportBody() {
    return {
      variant: this.rules,
      start: this.start,
      headers: this.headers,
      result: this.result,
      nodes: this.nodes.map((node) => ({
        parent: node.parent, move: node.move, comment: node.comment, starting_comment: node.starting_comment, nags: node.nags,
      })),
    };
  }

  // What the page keeps of the tree across a reload (sessionStorage), and back.
  saved() {
    const { rules, start, nodes, headers, result } = this;
    return JSON.stringify({ rules, start, nodes, headers, result });
  }

  restore(text) {
    const saved = JSON.parse(text);
    this.reset(saved.rules, saved.start, saved.nodes, saved.headers, saved.result);
  }

  // --- drawing ---

  // The number before a move: "3." for the first player's move, "3…" for the other's at a line's start.
  number(node, always) {
    const startTurn = this.start && this.start[0] === 'B' ? 'black' : 'white';
    const index = node.depth - 1 + (startTurn === this.firstToMove ? 0 : 1);
    const first = index % 2 === 0;
    if (!first && !always) return '';
    return `${Math.floor(index / 2) + 1}${first ? '.' : '…'}\u00a0`;
  }

  button(node, numbered) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'node';
    button.dataset.node = String(node.id);
    const signs = node.nags.map((nag) => NAG_SIGNS[nag] || ` ${nag}`).join('');
    button.textContent = `${this.number(node, numbered)}${node.move}${signs}`;
    if (node.id === this.current) {
      button.classList.add('current');
      button.setAttribute('aria-current', 'step');
    }
    return button;
  }

  comment(text) {
    const span = document.createElement('span');
    span.className = 'comment';
    span.textContent = text;
    return span;
  }

  // Writes the line that starts at node `first` and follows the main continuations; after a node
  // that is its parent's main move come the parent's other moves, each a nested side line.
  writeLine(box, first) {
    let numbered = true;
    for (let id = first; id !== undefined; id = this.nodes[id].children[0]) {
      const node = this.nodes[id];
      if (node.starting_comment) box.append(this.comment(node.starting_comment), ' ');
      box.append(this.button(node, numbered), ' ');
      numbered = false;
      if (node.comment) {
        box.append(this.comment(node.comment), ' ');
        numbered = true;
      }
      const siblings = this.nodes[node.parent].children;
      if (siblings[0] === id && siblings.length > 1) {
        for (const side of siblings.slice(1)) {
          const block = document.createElement('div');
          block.className = 'variation';
          this.writeLine(block, side);
          box.append(block);
        }
        numbered = true;
      }
    }
  }

  render(container) {
    const box = document.createElement('div');
    box.className = 'tree-line';
    const root = this.nodes[0];
    if (root.comment) box.append(this.comment(root.comment), ' ');
    if (root.children.length) {
      this.writeLine(box, root.children[0]);
    } else {
      box.append(this.comment('No move yet: moves played on the board appear here.'));
    }
    container.replaceChildren(box);
    const current = container.querySelector('.current');
    if (current && container.scrollHeight > container.clientHeight) {
      container.scrollTop = current.offsetTop - container.offsetTop - container.clientHeight / 2;
    }
    const sides = this.sideLines();
    byId('tree-count').textContent = `${this.nodes.length - 1} moves, ${sides} side ${sides === 1 ? 'line' : 'lines'}`;
  }
}
