// The comparison page: the rules that differ between rulesets, and one position's legal moves in
// each, side by side on the library's SVG boards, the moves not legal in all of them marked.

import { api, byId, clearMessage, placeSvg, readConfig, showMessage } from './common.js';

const config = readConfig();

// --- the variant picker: one row per variant, a ruleset then its capture rule and its goal ------

const CAPTURES = [['forced', 'capture as its rules say'], ['optional', 'capture optional (-nfc)']];
const GOALS = [['normal', 'its own goal'], ['losing', 'losing: no move wins'], ['breakthrough', 'breakthrough: first king wins']];

function choice(options, value, className, label) {
  const select = document.createElement('select');
  select.className = className;
  select.setAttribute('aria-label', label);
  for (const [optionValue, text] of options) {
    const option = document.createElement('option');
    option.value = optionValue;
    option.textContent = text;
    select.append(option);
  }
  select.value = value;
  return select;
}

function nameOf(pick) {
  const forms = config.forms[pick.base];
  return forms ? forms[`${pick.capture}/${pick.goal}`] : pick.name;
}

function addPick(pick) {
  const row = document.createElement('div');
  row.className = 'pick';
  const bases = config.bases.map((base) => [base.name, base.title]);
  if (!config.forms[pick.base]) bases.push([pick.base, pick.name]);
  const base = choice(bases, pick.base, 'base', 'ruleset');
  const capture = choice(CAPTURES, pick.capture, 'capture', 'capture rule');
  const goal = choice(GOALS, pick.goal, 'goal', 'goal');
  const shown = document.createElement('span');
  shown.className = 'name';
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.className = 'remove';
  remove.title = 'remove this variant';
  remove.textContent = '✕';
  const update = () => {
    row.dataset.variant = nameOf({ base: base.value, capture: capture.value, goal: goal.value, name: pick.name });
    shown.textContent = row.dataset.variant;
  };
  for (const select of [base, capture, goal]) select.addEventListener('change', update);
  remove.addEventListener('click', () => {
    row.remove();
    renderPickButtons();
  });
  row.append(base, capture, goal, shown, remove);
  byId('picks').append(row);
  update();
  renderPickButtons();
}

function chosen() {
  return [...document.querySelectorAll('#picks .pick')].map((row) => row.dataset.variant);
}

function renderPickButtons() {
  const rows = document.querySelectorAll('#picks .pick');
  for (const button of document.querySelectorAll('#picks .remove')) button.disabled = rows.length <= 2;
  byId('add-variant').disabled = rows.length >= 12;
}

for (const pick of config.cards) addPick(pick);
while (document.querySelectorAll('#picks .pick').length < 2) addPick(config.cards[0]);
byId('add-variant').addEventListener('click', () => {
  const rows = document.querySelectorAll('#picks .pick');
  const last = rows[rows.length - 1];
  addPick({
    base: last.querySelector('.base').value, capture: 'forced', goal: 'normal', name: last.dataset.variant,
  });
});
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
    const turn = document.createElement('p');
    turn.className = 'turn';
    turn.textContent = `${item.turn} to move`;
    card.append(turn);
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
      note.className = 'small mirrored-note';
      note.textContent = item.mirrored_note;
      card.append(note);
    }
    boards.append(card);
  }
  const table = byId('moves-table');
  table.replaceChildren();
  table.hidden = !moves.rows.length;
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
  const names = chosen();
  const fen = byId('fen-input').value.trim();
  const all = byId('all-rows').checked;
  const params = new URLSearchParams({ variants: names.join(',') });
  if (fen) params.set('fen', fen);
  if (all) params.set('all', '1');
  history.replaceState(null, '', `/compare?${params}`);
  if (names.length < 2) {
    showMessage('Choose two or more variants.');
    return;
  }
  try {
    const data = await api('/api/compare', { method: 'POST', body: { variants: names, fen, all } });
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
    document.body.dataset.compared = names.join(',');
  } catch (error) {
    showMessage(error.message);
  }
}

byId('compare-form').addEventListener('submit', (event) => {
  event.preventDefault();
  compare();
});

if (config.compare) compare();
