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

// `table` emptied and given a head row (`corner` above the row labels, then the `columns`); its
// body, for the caller's rows.
function headedTable(table, corner, columns) {
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  cell(head, corner, true);
  for (const column of columns) cell(head, column, true);
  return table.createTBody();
}

function renderRules(rules, all) {
  const body = headedTable(byId('rules-diff'), 'Rule', rules.columns);
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
  table.hidden = !moves.rows.length;
  const body = headedTable(table, `Move (${moves.reference} squares)`, moves.columns);
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

// --- play statistics: a small lab of the chosen variants, run by the server in the background ----
// POST /api/lab starts it; GET /api/lab/{id} is polled for the games done, then the result: the
// same table as `draughts lab` (each figure with its interval, the significant differences marked,
// the legend) and the lab's own SVG plots. Leaving the page or Cancel stops it (DELETE).

const lab = config.lab;
const PLAYER_LABELS = { random: 'random moves', 'depth:1': 'engine, depth 1', 'depth:2': 'engine, depth 2' };
let labJob = null; // the running job's id
let labTimer = null;

for (const name of lab.players) {
  const option = document.createElement('option');
  option.value = name;
  option.textContent = PLAYER_LABELS[name] || name;
  byId('lab-players').append(option);
}

function labLimits() {
  const players = byId('lab-players').value;
  const input = byId('lab-games');
  input.max = String(lab.max_games[players]);
  if (Number(input.value) > lab.max_games[players]) input.value = String(lab.max_games[players]);
  input.title = `at most ${lab.max_games[players]} per variant and ${lab.max_total[players]} in all`;
}
byId('lab-players').addEventListener('change', labLimits);
byId('lab-plies').max = String(lab.max_plies);
labLimits();

// One checkbox per distinct variant chosen above, checked unless the user unchecked it.
function renderLabVariants() {
  const holder = byId('lab-variants');
  const unchecked = new Set(
    [...holder.querySelectorAll('input:not(:checked)')].map((box) => box.value),
  );
  holder.replaceChildren();
  for (const name of new Set(chosen())) {
    const label = document.createElement('label');
    label.className = 'check';
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.value = name;
    box.checked = !unchecked.has(name);
    label.append(box, ` ${name}`);
    holder.append(label);
  }
}
new MutationObserver(renderLabVariants).observe(byId('picks'), {
  subtree: true, childList: true, attributes: true, attributeFilter: ['data-variant'],
});
renderLabVariants();

function labBusy(busy) {
  byId('lab-start').disabled = busy;
  byId('lab-cancel').hidden = !busy;
  byId('lab-progress').hidden = !busy;
  document.body.dataset.lab = busy ? 'running' : 'idle';
}

function labProgress(job) {
  const progress = byId('lab-progress');
  progress.max = Math.max(job.total, 1);
  progress.value = job.done;
  const what = job.state === 'measuring' ? 'measuring' : `${job.done} / ${job.total || '…'} games`;
  byId('lab-status').textContent = what;
  byId('lab-status').dataset.done = String(job.done);
  byId('lab-status').dataset.total = String(job.total);
}

function renderLabTable(table) {
  const body = headedTable(byId('lab-table'), 'metric', table.rulesets);
  const games = body.insertRow();
  cell(games, 'games', true);
  for (const count of table.games) cell(games, String(count));
  for (const row of table.rows) {
    const tr = body.insertRow();
    tr.dataset.metric = row.metric;
    // The metric in words; its key (as `draughts lab` and the docs name it) in the tooltip.
    const th = cell(tr, row.label || row.metric, true);
    th.title = row.test ? `${row.metric}: tested with the ${row.test} test` : row.metric;
    for (const item of row.cells) {
      const td = cell(tr, item.text);
      if (item.significant) td.classList.add('significant');
    }
  }
  byId('lab-legend').textContent = `players: ${table.players.join(', ')}. ${table.legend}`;
}

const PLOT_TITLES = { score: "First player's score", lengths: 'Game lengths', branching: 'Branching factor' };

function renderLabPlots(plots) {
  const holder = byId('lab-plots');
  holder.replaceChildren();
  for (const key of ['score', 'lengths', 'branching']) {
    if (!plots[key]) continue;
    const figure = document.createElement('figure');
    figure.className = 'lab-plot';
    figure.dataset.plot = key;
    figure.setAttribute('aria-label', PLOT_TITLES[key]);
    placeSvg(figure, plots[key]); // the lab's own SVG: its texts are escaped by the server
    holder.append(figure);
  }
}

function labFinished(job) {
  clearTimeout(labTimer);
  labJob = null;
  labBusy(false);
  if (job.state === 'done') {
    byId('lab-status').textContent = `${job.total} games played`;
    renderLabTable(job.result.table);
    renderLabPlots(job.result.plots);
    byId('lab-result').hidden = false;
    document.body.dataset.lab = 'done';
  } else {
    byId('lab-status').textContent = job.state === 'cancelled' ? 'cancelled' : 'failed';
    if (job.error && job.state !== 'cancelled') showMessage(job.error);
  }
}

async function labPoll(id) {
  if (id !== labJob) return;
  try {
    const job = await api(`/api/lab/${encodeURIComponent(id)}`);
    if (id !== labJob) return;
    labProgress(job);
    if (['done', 'failed', 'cancelled'].includes(job.state)) labFinished(job);
    else labTimer = setTimeout(() => labPoll(id), 300);
  } catch (error) {
    if (id !== labJob) return;
    labFinished({ state: 'failed', error: error.message });
  }
}

async function labStart() {
  const variants = [...byId('lab-variants').querySelectorAll('input:checked')].map((box) => box.value);
  if (!variants.length) {
    showMessage('Choose at least one variant to play.');
    return;
  }
  const body = {
    variants,
    players: byId('lab-players').value,
    games: Number(byId('lab-games').value),
    seed: Number(byId('lab-seed').value),
    max_plies: Number(byId('lab-plies').value),
  };
  labBusy(true);
  byId('lab-result').hidden = true;
  try {
    const job = await api('/api/lab', { method: 'POST', body });
    clearMessage();
    labJob = job.id;
    labProgress(job);
    labTimer = setTimeout(() => labPoll(job.id), 200);
  } catch (error) {
    labBusy(false);
    byId('lab-status').textContent = '';
    showMessage(error.message);
  }
}

function labCancel({ leaving = false } = {}) {
  const id = labJob;
  if (!id) return;
  labJob = null;
  clearTimeout(labTimer);
  fetch(`/api/lab/${encodeURIComponent(id)}`, { method: 'DELETE', keepalive: leaving }).catch(() => {});
  if (!leaving) {
    labBusy(false);
    byId('lab-status').textContent = 'cancelled';
  }
}

byId('lab-form').addEventListener('submit', (event) => {
  event.preventDefault();
  labStart();
});
byId('lab-cancel').addEventListener('click', () => labCancel());
window.addEventListener('pagehide', () => labCancel({ leaving: true }));
labBusy(false);
