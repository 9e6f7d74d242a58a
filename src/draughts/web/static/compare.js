// The comparison page: the rules that differ between rulesets, and one position's legal moves in
// each, side by side on the library's SVG boards, the moves not legal in all of them marked.

import { api, byId, clearMessage, placeSvg, readConfig, showMessage } from './common.js';

const config = readConfig();
// The variants in the order they were ticked: the first one's numbering reads the FEN.
let order = [...config.variants];

function boxes() {
  return [...document.querySelectorAll('#choices input[name="variant"]')];
}

for (const box of boxes()) {
  box.addEventListener('change', () => {
    order = order.filter((name) => name !== box.value);
    if (box.checked) order.push(box.value);
  });
}
byId('fen-input').value = config.fen || '';
byId('all-rows').checked = Boolean(config.all);

function cell(row, text, header = false) {
  const element = document.createElement(header ? 'th' : 'td');
  element.textContent = text;
  row.append(element);
  return element;
}

function renderRules(rules, all) {
  const table = byId('rules-diff');
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  cell(head, 'Rule', true);
  for (const column of rules.columns) cell(head, column, true);
  const body = table.createTBody();
  for (const row of rules.rows) {
    const tr = body.insertRow();
    tr.dataset.key = row.key;
    if (row.differs && all) tr.classList.add('differs'); // with only the differences, every row differs
    cell(tr, row.label, true);
    for (const text of row.cells) cell(tr, text);
  }
  byId('rules-heading').textContent = all ? 'Rules (the differences marked)' : 'Rules that differ';
  if (!rules.rows.length) {
    const tr = body.insertRow();
    const td = cell(tr, 'These rulesets have the same rules.');
    td.colSpan = rules.columns.length + 1;
  }
  byId('rules-section').hidden = false;
}

function renderMoves(moves) {
  const boards = byId('boards');
  boards.replaceChildren();
  byId('moves-title').textContent = moves.title;
  for (const item of moves.boards) {
    const card = document.createElement('figure');
    card.className = 'board-card';
    card.dataset.variant = item.variant;
    const title = document.createElement('h3');
    title.textContent = `${item.title} (${item.variant})`;
    card.append(title);
    const holder = document.createElement('div');
    holder.className = 'compare-board';
    card.append(holder);
    const picture = placeSvg(holder, item.svg);
    const list = document.createElement('ul');
    for (const move of item.moves) {
      const li = document.createElement('li');
      li.textContent = move.differs ? `${move.text} *` : move.text;
      li.title = `${move.common} in ${moves.reference} squares`;
      li.dataset.move = move.text;
      if (move.differs) {
        li.classList.add('differs');
        for (const arrow of picture.querySelectorAll(`g.arrow[data-from="${move.start}"][data-to="${move.end}"]`)) {
          arrow.classList.add('differs');
        }
      }
      list.append(li);
    }
    if (!item.moves.length) {
      const li = document.createElement('li');
      li.textContent = 'no legal move';
      list.append(li);
    }
    card.append(list);
    if (item.mirrored) {
      const note = document.createElement('figcaption');
      note.className = 'small';
      note.textContent = 'Inverted board: the diagram is mirrored left to right.';
      card.append(note);
    }
    boards.append(card);
  }
  const table = byId('moves-table');
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  cell(head, `Move (${moves.reference} squares)`, true);
  for (const column of moves.columns) cell(head, column, true);
  const body = table.createTBody();
  for (const row of moves.rows) {
    const tr = body.insertRow();
    if (row.differs) tr.classList.add('marked');
    cell(tr, row.differs ? `${row.common} *` : row.common, true);
    for (const text of row.cells) cell(tr, text);
  }
  const notes = byId('moves-notes');
  notes.replaceChildren();
  for (const text of moves.notes) {
    const li = document.createElement('li');
    li.textContent = text;
    notes.append(li);
  }
  byId('moves-section').hidden = false;
}

async function compare() {
  const chosen = order.filter((name) => boxes().some((box) => box.checked && box.value === name));
  const fen = byId('fen-input').value.trim();
  const all = byId('all-rows').checked;
  const params = new URLSearchParams({ variants: chosen.join(',') });
  if (fen) params.set('fen', fen);
  if (all) params.set('all', '1');
  history.replaceState(null, '', `/compare?${params}`);
  if (chosen.length < 2) {
    showMessage('Tick two or more variants.');
    return;
  }
  try {
    const data = await api('/api/compare', { method: 'POST', body: { variants: chosen, fen, all } });
    clearMessage();
    renderRules(data.rules, all);
    if (data.moves) {
      renderMoves(data.moves);
      byId('moves-note').hidden = true;
    } else {
      byId('moves-section').hidden = true;
      byId('moves-note').textContent = data.moves_note;
      byId('moves-note').hidden = false;
    }
    document.body.dataset.compared = chosen.join(',');
  } catch (error) {
    showMessage(error.message);
  }
}

byId('compare-form').addEventListener('submit', (event) => {
  event.preventDefault();
  compare();
});

if (order.length >= 2) compare();
