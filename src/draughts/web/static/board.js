// The play and analysis board. The server keeps the game (rules, legal moves, the line of moves,
// the end of the game); this script shows its state and turns clicks and drags into requests.
// Squares, pieces and their places come from the server's SVG (data-square, data-piece), legal
// moves from its JSON: nothing here assumes a board size, a shape or a direction of movement.

import {
  api, byId, capitalise, clearMessage, pieceAt, placeSvg, readConfig, showMessage, squareBox,
  squareOf, svgElement,
} from './common.js';
import { MoveTree } from './tree.js';

const config = readConfig();
const view = { flipped: config.flipped, numbers: config.numbers };
const players = { white: config.players.white, black: config.players.black };

let state = null; // the game as the server last described it
let gameId = null;
let selection = null; // { start, prefix, candidates, end } while a move is being entered
let drag = null; // a piece being dragged
let pending = false; // a user request is on its way
let thinking = null; // the AbortController of a running engine request
let engineTimer = null;
const tree = new MoveTree(); // the study: the session's line and every side line played or loaded

const board = byId('board');
const svg = () => board.querySelector('svg');

// --- talking to the server -------------------------------------------------------------------

function viewQuery() {
  return `?flipped=${view.flipped ? 1 : 0}&numbers=${view.numbers ? 1 : 0}`;
}

function gamePath(action = '') {
  return `/api/games/${encodeURIComponent(gameId)}${action ? '/' + action : ''}${viewQuery()}`;
}

async function request(action, body, method = 'POST') {
  if (pending) return null;
  stopEngine();
  pending = true;
  try {
    const data = await api(gamePath(action), { method, body });
    clearMessage();
    render(data);
    return data;
  } catch (error) {
    if (error.status === 404) {
      showMessage(`${error.message} A new game was started.`);
      await createGame(null);
    } else if (error.status === 409 && state) {
      showMessage(error.message);
      await refresh();
    } else {
      showMessage(error.message);
    }
    return null;
  } finally {
    pending = false;
  }
}

async function refresh() {
  try {
    render(await api(gamePath()));
  } catch (error) {
    showMessage(error.message);
  }
}

async function createGame(fen) {
  const body = { variant: config.variant.name, clock: config.clock };
  if (fen) body.fen = fen;
  try {
    const data = await api(`/api/games${viewQuery()}`, { method: 'POST', body });
    gameId = data.id;
    history.replaceState(null, '', `${location.pathname}${location.search}#game=${gameId}`);
    render(data);
  } catch (error) {
    showMessage(error.message);
    if (fen) await createGame(null);
  }
}

async function start() {
  const match = /game=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (match) {
    gameId = match[1];
    restoreTree(gameId);
    try {
      render(await api(gamePath()));
      return;
    } catch (error) {
      gameId = null; // expired: start afresh
    }
  }
  await createGame(config.fen);
}

// --- showing the state -----------------------------------------------------------------------

function render(data) {
  // Answers may arrive out of order (a refresh sent before the computer's move was played, say):
  // an answer older than the state shown is dropped, or it would undo what the page already shows.
  if (state && data.id === state.id && data.version < state.version) return;
  const previousVariant = state ? state.variant.name : config.variant.name;
  state = data;
  gameId = data.id;
  selection = null;
  drag = null;
  placeSvg(board, data.svg);
  byId('fen').textContent = data.fen;
  if (data.variant.name !== previousVariant) {
    byId('title').textContent = data.variant.title;
    document.title = `${data.variant.title} — polydraughts`;
    byId('variant').value = data.variant.name;
    byId('fen-input').placeholder = `FEN, e.g. ${data.variant.fen_example}`; // in the new variant's squares
    config.variant = data.variant;
    byId('rules').dataset.loaded = '';
    if (byId('rules').open) loadRules();
  }
  loadBallots(data.variant.name);
  byId('numbers').checked = view.numbers;
  renderStatus();
  renderMaterial();
  renderEndgame();
  renderExplorer();
  renderClocks();
  renderHistory();
  renderTree();
  renderAnalysis();
  renderButtons();
  renderChooser();
  drawMarks();
  scheduleEngine();
  // An answer to a request sent before the board was flipped (the computer's move, say) is
  // drawn the old way: draw it again as the page now shows boards.
  if (data.flipped !== view.flipped || data.numbers !== view.numbers) refresh();
}

function renderStatus() {
  const status = byId('status');
  const outcome = state.outcome;
  if (outcome) {
    const verdict = outcome.winner ? `${capitalise(outcome.winner)} wins` : 'Draw';
    const how = outcome.claimed ? `draw claimed: ${outcome.rule}` : outcome.rule;
    status.textContent = `Game over. ${verdict} (${outcome.result}): ${how}.`;
    byId('outcome-text').textContent = `${verdict} — ${outcome.result}. ${capitalise(how)}.`;
    byId('outcome').hidden = false;
  } else {
    const who = players[state.turn] === 'computer' ? ' (computer)' : '';
    const capture = state.variant.capture_mandatory && state.moves.some((m) => m.captured.length) ? ' — capture!' : '';
    status.textContent = `${capitalise(state.turn)} to move${who}${capture}`;
    byId('outcome').hidden = true;
  }
  byId('claim').hidden = !state.can_claim_draw;
  if (state.can_claim_draw) byId('claim-text').textContent = `A draw may be claimed: ${state.claim_rule}.`;
}

// Men and kings of each side, and who leads by how many pieces.
function renderMaterial() {
  const count = (side) => {
    const { men, kings } = state.material[side];
    return `${men} ${men === 1 ? 'man' : 'men'}, ${kings} ${kings === 1 ? 'king' : 'kings'}`;
  };
  const total = (side) => state.material[side].men + state.material[side].kings;
  const lead = total('white') - total('black');
  const leader = lead > 0 ? 'White' : 'Black';
  const standing = lead === 0 ? 'even' : `${leader} +${Math.abs(lead)}`;
  byId('material').textContent = `White: ${count('white')} · Black: ${count('black')} · ${standing}`;
}

// --- the endgame tables: the verdict of the position shown (draughts serve --tablebases DIR) ---

let endgameAsked = null; // the variant and FEN of the last question: an older answer is dropped

function pliesText(plies) {
  return `${plies} ${plies === 1 ? 'ply' : 'plies'}`;
}

function verdictText(data) {
  const side = capitalise(data.turn);
  if (data.result === 'win') return `${side} to move wins in ${pliesText(data.plies)}.`;
  if (data.result === 'loss') return `${side} to move loses in ${pliesText(data.plies)}.`;
  return `${side} to move: a draw.`;
}

function withinText(data) {
  if (data.within_rules === null) return ' Under the draw rules: not known.';
  if (data.within_rules !== data.result) return ` Under the draw rules (counts just reset): ${data.within_rules}.`;
  return '';
}

function showEndgame(data) {
  const panel = byId('endgame');
  panel.dataset.result = data.in_table ? data.result : 'none';
  panel.dataset.fen = data.fen;
  if (!data.in_table) {
    // The message is one short line; it names the material where that helps (never the 24 pieces
    // of a start position, which would run off a phone's screen).
    byId('endgame-verdict').textContent = `${capitalise(data.message)}.`;
    byId('endgame-best').textContent = '';
    return;
  }
  byId('endgame-verdict').textContent = verdictText(data) + withinText(data);
  const line = byId('endgame-best');
  if (!data.best_moves.length) {
    line.textContent = `No move left (${data.material || 'game over'}).`;
    return;
  }
  // The moves that keep the verdict, each a button that plays it.
  const kind = { win: 'Fastest wins', loss: 'Longest defences', draw: 'Drawing moves' }[data.result];
  line.replaceChildren(`${kind}: `);
  for (const text of data.best_moves) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'best-move';
    button.dataset.move = text;
    button.title = 'play this move';
    button.textContent = text;
    line.append(button, ' ');
  }
  line.append(`(${data.material || 'a side has no piece left'})`);
}

byId('endgame-best').addEventListener('click', (event) => {
  const button = event.target.closest('button.best-move');
  if (!button || !state || byId('endgame').dataset.fen !== state.fen) return;
  if (!humanToMove()) {
    showMessage(state.outcome ? 'The game is over.' : 'It is not a human player\'s move.', 'info');
    return;
  }
  const move = state.moves.find((candidate) => candidate.text === button.dataset.move);
  if (move) play(move);
});

async function renderEndgame() {
  if (!config.endgame) return;
  byId('endgame').hidden = false;
  const key = `${state.variant.name} ${state.fen}`;
  if (endgameAsked === key) return;
  endgameAsked = key;
  byId('endgame').dataset.result = 'pending';
  const query = `variant=${encodeURIComponent(state.variant.name)}&fen=${encodeURIComponent(state.fen)}`;
  try {
    const data = await api(`/api/endgame?${query}`);
    if (endgameAsked === key) showEndgame(data);
  } catch (error) {
    if (endgameAsked !== key) return;
    byId('endgame').dataset.result = 'error';
    byId('endgame-verdict').textContent = error.message;
    byId('endgame-best').textContent = '';
  }
}

// --- the explorer: the moves played from the position in a game database (draughts serve --database DB) ---

let explorerAsked = null; // the variant and FEN of the last question: an older answer is dropped

function showExplorer(data) {
  byId('explorer-count').textContent = `${data.count} ${data.count === 1 ? 'game' : 'games'} reached this position.`;
  const table = byId('explorer-moves');
  table.replaceChildren();
  if (!data.moves.length) return;
  const head = table.insertRow();
  for (const title of ['move', 'games', 'white', 'draws', 'black']) {
    const cell = document.createElement('th');
    cell.textContent = title;
    head.append(cell);
  }
  for (const move of data.moves) {
    const row = table.insertRow();
    for (const value of [move.move, move.games, move.white, move.draws, move.black]) {
      row.insertCell().textContent = String(value);
    }
  }
}

async function renderExplorer() {
  if (!config.explorer) return;
  byId('explorer').hidden = false;
  const key = `${state.variant.name} ${state.fen}`;
  if (explorerAsked === key) return;
  explorerAsked = key;
  const query = `variant=${encodeURIComponent(state.variant.name)}&fen=${encodeURIComponent(state.fen)}`;
  try {
    const data = await api(`/api/explorer?${query}`);
    if (explorerAsked === key) showExplorer(data);
  } catch (error) {
    if (explorerAsked !== key) return;
    byId('explorer-count').textContent = error.message;
    byId('explorer-moves').replaceChildren();
  }
}

// --- the clock: the server keeps the time; the page counts down between its answers ----------

let clockShown = null; // { white, black, running, flagged, at } from the last answer
let clockAsked = 0; // when the page last asked the server about a clock at zero

function formatTime(seconds) {
  const left = Math.max(0, seconds);
  if (left < 10) return left.toFixed(1);
  const whole = Math.ceil(left);
  const minutes = Math.floor(whole / 60);
  const rest = String(whole % 60).padStart(2, '0');
  return minutes >= 60 ? `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

function renderClocks() {
  const clock = state.clock;
  clockShown = clock ? { ...clock, at: performance.now() } : null;
  for (const id of ['clock-top', 'clock-bottom']) byId(id).hidden = !clock;
  tickClocks();
}

function tickClocks() {
  if (!clockShown) return;
  const bottom = view.flipped ? 'black' : 'white';
  const top = bottom === 'white' ? 'black' : 'white';
  const elapsed = (performance.now() - clockShown.at) / 1000;
  for (const [id, side] of [['clock-top', top], ['clock-bottom', bottom]]) {
    const box = byId(id);
    const running = clockShown.running === side;
    const left = clockShown[side] - (running ? elapsed : 0);
    box.dataset.side = side;
    box.querySelector('.side').textContent = capitalise(side);
    box.querySelector('.time').textContent = formatTime(left);
    box.classList.toggle('running', running);
    box.classList.toggle('low', left < 10);
    box.classList.toggle('flagged', clockShown.flagged === side);
    // At zero the server decides (it ends the game on time): ask it, once a second at most.
    if (running && left <= 0 && performance.now() - clockAsked > 1000 && !pending) {
      clockAsked = performance.now();
      refresh();
    }
  }
}

setInterval(tickClocks, 100);

function renderHistory() {
  const list = byId('history');
  list.replaceChildren();
  let item = null;
  for (const entry of state.history) {
    const firstSide = entry.side === state.variant.first_to_move;
    if (firstSide || item === null) {
      item = document.createElement('li');
      const number = document.createElement('span');
      number.className = 'num';
      number.textContent = firstSide ? `${entry.number}.` : `${entry.number}…`;
      item.append(number);
      list.append(item);
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'ply';
    button.dataset.ply = String(entry.ply);
    button.textContent = entry.text;
    if (entry.ply === state.ply) {
      button.classList.add('current');
      button.setAttribute('aria-current', 'step');
    } else if (entry.ply > state.ply) {
      button.classList.add('future');
    }
    item.append(button);
    if (!firstSide) item = null;
  }
  const current = list.querySelector('.current');
  if (current && list.scrollHeight > list.clientHeight) {
    list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
  }
}

function renderButtons() {
  byId('undo').disabled = state.ply === 0;
  byId('first').disabled = state.ply === 0;
  byId('redo').disabled = state.ply === state.plies;
  byId('last').disabled = state.ply === state.plies;
  byId('engine-now').disabled = Boolean(state.outcome) || state.moves.length === 0;
}

// --- entering a move -------------------------------------------------------------------------

function movesFrom(square) {
  return state.moves.filter((move) => move.start === square);
}

function unique(values) {
  return [...new Set(values)];
}

function humanToMove() {
  return state && !state.outcome && players[state.turn] === 'human' && !pending;
}

function select(square) {
  selection = { start: square, prefix: [square], candidates: movesFrom(square), end: null };
  renderChooser();
  drawMarks();
}

function deselect() {
  selection = null;
  renderChooser();
  drawMarks();
}

// Several captures share the start and the end: the player names the squares along the way.
function choosePath(end, candidates) {
  selection.end = end;
  selection.candidates = candidates;
  advance();
}

// Follows the squares all remaining candidates share; plays the move once only one is left.
function advance() {
  for (;;) {
    const { candidates, prefix } = selection;
    if (candidates.length === 1) {
      play(candidates[0]);
      return;
    }
    const next = unique(candidates.map((move) => move.path[prefix.length]));
    if (next.length !== 1) break;
    prefix.push(next[0]);
  }
  renderChooser();
  drawMarks();
}

function nextWaypoints() {
  if (!selection || selection.end === null) return [];
  return unique(selection.candidates.map((move) => move.path[selection.prefix.length]));
}

function takeWaypoint(square) {
  selection.prefix.push(square);
  selection.candidates = selection.candidates.filter(
    (move) => move.path[selection.prefix.length - 1] === square,
  );
  advance();
}

function handleSquare(square) {
  if (!humanToMove()) return;
  if (selection && selection.end !== null) {
    if (nextWaypoints().includes(square)) {
      takeWaypoint(square);
      return;
    }
    selection = null; // clicked elsewhere: give up the choice
  }
  if (selection) {
    const ending = selection.candidates.filter((move) => move.end === square);
    if (ending.length === 1) {
      play(ending[0]);
      return;
    }
    if (ending.length > 1) {
      choosePath(square, ending);
      return;
    }
    if (square === selection.start) {
      deselect();
      return;
    }
  }
  if (movesFrom(square).length) {
    select(square);
    return;
  }
  const piece = pieceAt(svg(), square);
  if (piece && piece.dataset.piece.startsWith(state.turn)) {
    const starts = unique(state.moves.map((move) => move.names[0]));
    const capture = state.moves.some((move) => move.captured.length) && state.variant.capture_mandatory;
    showMessage(
      capture
        ? `That piece cannot move: a capture is compulsory (${starts.join(', ')}).`
        : 'That piece has no legal move.',
      'info',
    );
  }
  deselect();
}

function play(move) {
  selection = null;
  request('move', { path: move.path, version: state.version });
}

// A square as the variant writes it (the names come with the legal moves).
function nameOf(square) {
  for (const move of state.moves) {
    const index = move.path.indexOf(square);
    if (index >= 0) return move.names[index];
  }
  return String(square);
}

function renderChooser() {
  const box = byId('chooser');
  if (!selection || selection.end === null) {
    box.hidden = true;
    return;
  }
  byId('chooser-text').textContent = `Several captures lead from ${nameOf(selection.start)} to `
    + `${nameOf(selection.end)}: click the square the piece passes next (ringed), or pick one.`;
  const buttons = byId('chooser-paths');
  buttons.replaceChildren();
  for (const move of selection.candidates) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'path-choice';
    button.textContent = move.long;
    button.addEventListener('click', () => play(move));
    buttons.append(button);
  }
  box.hidden = false;
}

// Marks on the SVG: the selected square (under the pieces), where the piece may go, and the path
// chosen so far (over them).
function drawMarks() {
  const picture = svg();
  if (!picture) return;
  for (const old of picture.querySelectorAll('g.marks')) old.remove();
  if (!state || !selection) return;
  const under = svgElement('g', { class: 'marks marks-under' });
  const over = svgElement('g', { class: 'marks' });
  const shade = (square) => {
    const box = squareBox(picture, square);
    if (box) {
      under.append(svgElement('rect', {
        class: 'selected', 'data-selected': square, x: box.x, y: box.y, width: box.size, height: box.size,
      }));
    }
  };
  shade(selection.start);
  if (selection.end === null) {
    for (const end of unique(selection.candidates.map((move) => move.end))) {
      const box = squareBox(picture, end);
      if (!box) continue;
      const capture = selection.candidates.some((move) => move.end === end && move.captured.length);
      if (capture || pieceAt(picture, end)) {
        over.append(svgElement('circle', {
          class: 'target-ring', 'data-target': end, cx: box.cx, cy: box.cy,
          r: box.size * 0.42, 'stroke-width': box.size * 0.08,
        }));
      } else {
        over.append(svgElement('circle', {
          class: 'target', 'data-target': end, cx: box.cx, cy: box.cy, r: box.size * 0.16,
        }));
      }
    }
  } else {
    shade(selection.end);
    const points = selection.prefix.map((square) => squareBox(picture, square)).filter(Boolean);
    if (points.length > 1) {
      over.append(svgElement('polyline', {
        class: 'path', points: points.map((p) => `${p.cx},${p.cy}`).join(' '), 'stroke-width': points[0].size * 0.1,
      }));
    }
    for (const square of nextWaypoints()) {
      const box = squareBox(picture, square);
      if (!box) continue;
      over.append(svgElement('circle', {
        class: 'waypoint', 'data-waypoint': square, cx: box.cx, cy: box.cy, r: box.size * 0.38,
        'stroke-width': box.size * 0.09,
      }));
    }
  }
  const pieces = picture.querySelector('g.pieces');
  picture.insertBefore(under, pieces);
  picture.append(over);
}

// --- pointer input: click, or drag and drop --------------------------------------------------

function squareAtPoint(x, y) {
  return squareOf(document.elementFromPoint(x, y), svg());
}

board.addEventListener('pointerdown', (event) => {
  if (event.button !== 0 || !humanToMove()) return;
  const square = squareOf(event.target, svg());
  if (square === null) return;
  event.preventDefault();
  const isTarget = selection && selection.end === null && selection.candidates.some((m) => m.end === square);
  if (movesFrom(square).length && !isTarget) {
    const wasSelected = Boolean(selection && selection.end === null && selection.start === square);
    if (!wasSelected) select(square);
    drag = { start: square, x: event.clientX, y: event.clientY, moved: false, wasSelected, ghost: null };
    board.setPointerCapture(event.pointerId);
    return;
  }
  handleSquare(square);
});

board.addEventListener('pointermove', (event) => {
  if (!drag) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.moved && Math.hypot(dx, dy) < 6) return;
  const picture = svg();
  const piece = pieceAt(picture, drag.start);
  if (!piece) return;
  if (!drag.ghost) {
    drag.moved = true;
    drag.ghost = piece.cloneNode(true);
    drag.ghost.classList.add('ghost');
    drag.ghost.removeAttribute('data-square');
    drag.ghost.removeAttribute('data-piece');
    piece.classList.add('dragging');
    picture.append(drag.ghost);
  }
  const scale = picture.getScreenCTM();
  drag.ghost.setAttribute('transform', `translate(${dx / scale.a} ${dy / scale.d})`);
});

function endDrag(event, cancelled) {
  if (!drag) return;
  const current = drag;
  drag = null;
  if (current.ghost) {
    current.ghost.remove();
    pieceAt(svg(), current.start)?.classList.remove('dragging');
  }
  if (cancelled) return;
  if (current.moved) {
    const target = squareAtPoint(event.clientX, event.clientY);
    if (target !== null && target !== current.start) handleSquare(target);
  } else if (current.wasSelected) {
    deselect();
  }
}

board.addEventListener('pointerup', (event) => endDrag(event, false));
board.addEventListener('pointercancel', (event) => endDrag(event, true));

// --- the computer ----------------------------------------------------------------------------

function engineSettings() {
  const seconds = parseFloat(byId('time').value);
  return {
    level: byId('level').value,
    time: Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, config.max_time) : config.time,
  };
}

function stopEngine() {
  if (engineTimer) {
    clearTimeout(engineTimer);
    engineTimer = null;
  }
  if (thinking) {
    thinking.abort();
    thinking = null;
  }
}

// Whether the computer is to move now: its turn, at the end of the line (not while browsing).
function computerToMove() {
  return Boolean(state) && !state.outcome && players[state.turn] === 'computer'
    && state.ply === state.plies && state.moves.length > 0;
}

// The computer moves by itself when it is its turn; asked again when the timer fires, since a
// newer state may have been drawn meanwhile (then it is a person's turn, and nothing is played).
function scheduleEngine() {
  if (engineTimer || thinking || !computerToMove()) return;
  const both = players.white === 'computer' && players.black === 'computer';
  engineTimer = setTimeout(() => {
    engineTimer = null;
    if (computerToMove()) engineMove();
  }, both ? 400 : 50);
}

async function engineMove() {
  if (thinking || !state || state.outcome) return;
  const controller = new AbortController();
  thinking = controller;
  byId('status').textContent = `${capitalise(state.turn)} to move — the computer is thinking…`;
  byId('engine-now').disabled = true;
  try {
    const data = await api(gamePath('engine'), {
      method: 'POST', body: { ...engineSettings(), version: state.version }, signal: controller.signal,
    });
    thinking = null;
    clearMessage();
    const info = data.engine;
    byId('engine-info').textContent = `${info.level}: ${info.move.text} (depth ${info.depth}, `
      + `${info.nodes} nodes, score ${info.score}) ${info.pv}`;
    render(data);
  } catch (error) {
    if (controller.signal.aborted) return;
    thinking = null;
    if (error.status === 409) {
      await refresh();
    } else {
      showMessage(`The computer could not move: ${error.message}`);
      renderStatus();
      renderButtons();
    }
  } finally {
    if (thinking === controller) thinking = null;
  }
}

// --- controls --------------------------------------------------------------------------------

function turnAt(ply) {
  if (ply === state.ply) return state.turn;
  if (ply < state.history.length) return state.history[ply].side;
  const last = state.history[ply - 1].side;
  return last === 'white' ? 'black' : 'white';
}

function undo() {
  if (!state || state.ply === 0) return;
  let target = state.ply - 1;
  // Against the computer, take back its reply too, so that it is the person's turn again.
  if (target > 0 && players[turnAt(target)] === 'computer' && players[turnAt(target - 1)] === 'human') target -= 1;
  request('goto', { ply: target });
}

function setPlayersView() {
  const humans = ['white', 'black'].filter((side) => players[side] === 'human');
  if (humans.length === 1) view.flipped = humans[0] === 'black';
}

byId('undo').addEventListener('click', undo);
byId('redo').addEventListener('click', () => state && state.ply < state.plies && request('goto', { ply: state.ply + 1 }));
byId('first').addEventListener('click', () => state && request('goto', { ply: 0 }));
byId('last').addEventListener('click', () => state && request('goto', { ply: state.plies }));
byId('flip').addEventListener('click', () => {
  view.flipped = !view.flipped;
  refresh();
});
byId('numbers').addEventListener('change', (event) => {
  view.numbers = event.target.checked;
  refresh();
});
function newGame() {
  tree.reset(null, null); // a new game starts a new tree, even from the same position
  return request('position', { variant: state ? state.variant.name : config.variant.name, clock: byId('clock-control').value });
}

// One click: the person plays the chosen side (by default the side that moves first), the
// computer the other, at the chosen level, on the chosen clock.
async function playComputer() {
  const first = state ? state.variant.first_to_move : config.variant.first_to_move;
  const choice = byId('play-as').value;
  const human = choice === 'first' ? first : choice;
  players.white = human === 'white' ? 'human' : 'computer';
  players.black = human === 'black' ? 'human' : 'computer';
  byId('white').value = players.white;
  byId('black').value = players.black;
  view.flipped = human === 'black';
  await newGame();
}

byId('new-game').addEventListener('click', newGame);
byId('play-computer').addEventListener('click', playComputer);
byId('claim-draw').addEventListener('click', () => state && request('claim-draw', { version: state.version }));
byId('engine-now').addEventListener('click', () => {
  stopEngine();
  engineMove();
});
byId('history').addEventListener('click', (event) => {
  const button = event.target.closest('button.ply');
  if (button) request('goto', { ply: parseInt(button.dataset.ply, 10) });
});
for (const side of ['white', 'black']) {
  const control = byId(side);
  control.value = players[side];
  control.addEventListener('change', () => {
    players[side] = control.value;
    stopEngine();
    setPlayersView();
    refresh();
  });
}
byId('level').value = config.level;
byId('clock-control').value = config.clock;
byId('time').value = String(config.time);
byId('time').max = String(config.max_time);
byId('variant').addEventListener('change', (event) => {
  // Players in the one player syntax: the computer at the chosen level is level:NAME.
  const named = (side) => (players[side] === 'computer' ? `level:${byId('level').value}` : 'human');
  const params = new URLSearchParams({
    variant: event.target.value, white: named('white'), black: named('black'), clock: byId('clock-control').value,
  });
  location.href = `/?${params}`;
});
byId('fen-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const fen = byId('fen-input').value.trim();
  if (fen) request('position', { fen, variant: state.variant.name });
});
byId('copy-fen').addEventListener('click', async () => {
  const text = byId('fen').textContent;
  try {
    await navigator.clipboard.writeText(text);
    showMessage('FEN copied.', 'info');
  } catch (error) {
    const range = document.createRange();
    range.selectNodeContents(byId('fen'));
    const selected = window.getSelection();
    selected.removeAllRanges();
    selected.addRange(range);
    showMessage('FEN selected: press Ctrl+C to copy it.', 'info');
  }
});
byId('export-pdn').addEventListener('click', async () => {
  try {
    const data = await api(`/api/games/${encodeURIComponent(gameId)}/pdn`);
    offerPdn(data.pdn, data.filename);
    showMessage('PDN exported below.', 'info');
  } catch (error) {
    showMessage(error.message);
  }
});
byId('import-pdn').addEventListener('click', () => {
  const text = byId('pdn-text').value;
  if (!text.trim()) {
    showMessage('Paste a PDN game into the box first.');
    return;
  }
  importPdn(text);
});
byId('pdn-file').addEventListener('change', (event) => {
  const file = event.target.files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => {
    byId('pdn-text').value = String(reader.result);
    importPdn(String(reader.result));
  };
  reader.readAsText(file);
  event.target.value = '';
});

// --- the move tree and the engine's analysis ----------------------------------------------------

function renderTree() {
  tree.follow(state);
  tree.render(byId('tree'));
  try {
    sessionStorage.setItem(`polydraughts-tree:${gameId}`, tree.saved());
  } catch (error) {
    // no storage (private mode, full): the tree lasts as long as the page
  }
}

// The tree of game `id` as this tab last showed it (a reload keeps the side lines).
function restoreTree(id) {
  try {
    const text = sessionStorage.getItem(`polydraughts-tree:${id}`);
    if (text) tree.restore(text);
  } catch (error) {
    tree.reset(null, null); // unreadable: the tree starts again from the game's line
  }
}

// A PDN game with its side lines: read as a tree (POST /api/pdn-tree), its main line on the board.
async function importPdn(text) {
  if (pending) return;
  let read;
  try {
    read = await api('/api/pdn-tree', { method: 'POST', body: { pdn: text, variant: state.variant.name } });
  } catch (error) {
    showMessage(`The PDN could not be read: ${error.message}`);
    return;
  }
  tree.reset(read.rules, read.start, read.nodes, read.headers, read.result);
  const done = await request('pdn', { pdn: text });
  if (done && read.warnings.length) showMessage(`Read with warnings: ${read.warnings.join('; ')}`, 'info');
}

// A node clicked: a step along the session's line when the node is on it, else its line loaded.
function goToNode(id) {
  if (!state || pending) return;
  const moves = tree.moves(id);
  const line = state.history.map((entry) => entry.text);
  if (moves.every((move, index) => line[index] === move)) {
    if (moves.length !== state.ply) request('goto', { ply: moves.length });
    return;
  }
  request('pdn', { pdn: tree.linePdn(id), variant: tree.rules });
}

byId('tree').addEventListener('click', (event) => {
  const button = event.target.closest('button.node');
  if (button) goToNode(parseInt(button.dataset.node, 10));
});

function offerPdn(text, filename) {
  byId('pdn-text').value = text;
  const link = byId('download-pdn');
  if (link.href.startsWith('blob:')) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  link.download = filename;
  link.hidden = false;
}

byId('export-tree').addEventListener('click', async () => {
  try {
    const data = await api('/api/pdn-tree/export', { method: 'POST', body: tree.exportBody() });
    offerPdn(data.pdn, `${tree.rules}-study.pdn`);
    byId('pdn-text').scrollIntoView({ block: 'nearest' });
    showMessage('The tree, every side line with it, is written in the PDN box.', 'info');
  } catch (error) {
    showMessage(`The tree could not be exported: ${error.message}`);
  }
});

let analysed = null; // the FEN whose analysis is shown or asked for

function scoreWords(score, turn) {
  const side = capitalise(turn);
  if (score.plies !== null) {
    const plies = Math.abs(score.plies);
    return `${side} ${score.plies > 0 ? 'wins' : 'loses'} in ${plies} ${plies === 1 ? 'ply' : 'plies'}`;
  }
  if (score.exact) return 'a draw';
  return `${score.centi >= 0 ? '+' : ''}${score.text} for ${side}`;
}

function renderAnalysis() {
  const box = byId('analysis-lines');
  if (analysed !== null && analysed !== state.fen) {
    analysed = null;
    box.replaceChildren();
    byId('analysis-info').textContent = 'Press Analyse for the engine\'s best lines here.';
  }
  byId('analyse').disabled = Boolean(state.outcome) || state.moves.length === 0;
}

async function analyse() {
  if (!state) return;
  const fen = state.fen;
  analysed = fen;
  const info = byId('analysis-info');
  const button = byId('analyse');
  info.textContent = 'The engine is analysing…';
  byId('analysis-lines').replaceChildren();
  button.disabled = true;
  try {
    const body = { variant: state.variant.name, fen, multipv: 3, time: engineSettings().time };
    const data = await api('/api/analyse', { method: 'POST', body });
    if (analysed !== fen) return; // the board moved on meanwhile
    const items = data.lines.map((line) => {
      const item = document.createElement('li');
      item.className = 'analysis-line';
      item.dataset.move = line.move.text;
      const score = document.createElement('span');
      score.className = 'score';
      score.textContent = line.score.text;
      score.title = scoreWords(line.score, data.turn);
      const play = document.createElement('button');
      play.type = 'button';
      play.className = 'analysis-move';
      play.title = 'play this move';
      play.textContent = line.move.text;
      const rest = line.pv.startsWith(line.move.text) ? line.pv.slice(line.move.text.length) : ` ${line.pv}`;
      item.append(score, ' ', play, `${rest} `);
      const depth = document.createElement('span');
      depth.className = 'small';
      const source = line.depth === 0 ? 'the endgame tables' : `depth ${line.depth}`;
      depth.textContent = `(${scoreWords(line.score, data.turn)}, ${source})`;
      item.append(depth);
      return item;
    });
    byId('analysis-lines').replaceChildren(...items);
    const nodes = data.lines.length ? data.lines[0].nodes : 0;
    info.textContent = data.lines.length
      ? `${capitalise(data.turn)} to move: the engine's ${data.lines.length} best lines (${nodes} nodes).`
      : 'No move to analyse: the game is over.';
  } catch (error) {
    if (analysed !== fen) return;
    info.textContent = `The analysis failed: ${error.message}`;
    showMessage(`The analysis failed: ${error.message}`);
  } finally {
    if (state) button.disabled = Boolean(state.outcome) || state.moves.length === 0;
  }
}

byId('analyse').addEventListener('click', analyse);
byId('analysis-lines').addEventListener('click', (event) => {
  const button = event.target.closest('button.analysis-move');
  if (!button || !state || analysed !== state.fen) return;
  if (!humanToMove()) {
    showMessage(state.outcome ? 'The game is over.' : 'It is not a human player\'s move.', 'info');
    return;
  }
  const move = state.moves.find((candidate) => candidate.text === button.closest('li').dataset.move);
  if (move) play(move);
});

// --- opening ballots: the variant's ballots (GET /api/openings), a game started from one opening

const ballots = { variant: null, openings: [] };

async function loadBallots(variant) {
  if (ballots.variant === variant) return;
  ballots.variant = variant;
  const section = byId('ballot-section');
  try {
    const data = await api(`/api/openings?variant=${encodeURIComponent(variant)}`);
    section.hidden = data.ballots.length === 0;
    byId('ballot').replaceChildren(...data.ballots.map((ballot) => {
      const option = document.createElement('option');
      option.value = ballot.name;
      option.textContent = `${ballot.title} (${ballot.count})`;
      return option;
    }));
    if (data.ballots.length) await loadOpenings();
  } catch (error) {
    section.hidden = true;
  }
}

async function loadOpenings() {
  const name = byId('ballot').value;
  const data = await api(`/api/openings?variant=${encodeURIComponent(ballots.variant)}&ballot=${encodeURIComponent(name)}`);
  ballots.openings = data.openings;
  byId('ballot-opening').replaceChildren(...data.openings.map((opening) => {
    const option = document.createElement('option');
    option.value = opening.name;
    const moves = opening.moves.join(' ') || opening.setup || 'the start position';
    option.textContent = `${opening.name}: ${moves}${opening.title ? ` (${opening.title})` : ''}`;
    return option;
  }));
  byId('ballot-source').textContent = `Source: ${data.source}`;
}

function startOpening() {
  const opening = byId('ballot-opening').value;
  if (!opening) return null;
  return request('opening', { ballot: byId('ballot').value, opening, variant: ballots.variant });
}

byId('ballot').addEventListener('change', () => loadOpenings().catch((error) => showMessage(error.message)));
byId('ballot-start').addEventListener('click', startOpening);
byId('ballot-random').addEventListener('click', () => {
  const choices = byId('ballot-opening').options;
  if (!choices.length) return;
  byId('ballot-opening').selectedIndex = Math.floor(Math.random() * choices.length);
  startOpening();
});

async function loadRules() {
  const details = byId('rules');
  if (details.dataset.loaded === state.variant.name) return;
  try {
    const rules = await api(`/api/rules?variant=${encodeURIComponent(state.variant.name)}`);
    const table = document.createElement('table');
    table.className = 'rules';
    for (const row of rules.rows) {
      const tr = table.insertRow();
      tr.dataset.key = row.key;
      const th = document.createElement('th');
      th.textContent = row.label;
      tr.append(th);
      tr.insertCell().textContent = row.value;
    }
    byId('rules-body').replaceChildren(table);
    details.dataset.loaded = state.variant.name;
  } catch (error) {
    byId('rules-body').textContent = error.message;
  }
}
byId('rules').addEventListener('toggle', () => byId('rules').open && state && loadRules());

document.addEventListener('keydown', (event) => {
  if (event.target.closest('input, textarea, select') || !state) return;
  if (event.key === 'ArrowLeft' && state.ply > 0) request('goto', { ply: state.ply - 1 });
  if (event.key === 'ArrowRight' && state.ply < state.plies) request('goto', { ply: state.ply + 1 });
  if (event.key === 'Escape') deselect();
});

if (!config.flipped) setPlayersView();
start();
