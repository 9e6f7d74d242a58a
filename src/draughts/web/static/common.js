// Shared by the pages: the API client, messages, and marks drawn over the library's SVG boards.
// Nothing here knows a board's size or shape: squares are found by their data-square attribute
// and their rectangles, as the server drew them.

const SVG_NS = 'http://www.w3.org/2000/svg';

export const byId = (id) => document.getElementById(id);

export function readConfig() {
  return JSON.parse(byId('config').textContent);
}

// Calls the JSON API; throws an Error carrying the server's message and HTTP status.
export async function api(path, { method = 'GET', body, signal } = {}) {
  const init = { method, headers: { Accept: 'application/json' }, signal };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  if (response.status !== 204) {
    try {
      data = await response.json();
    } catch (error) {
      data = null;
    }
  }
  if (!response.ok) {
    const failure = new Error(data && data.error ? data.error : `HTTP ${response.status}`);
    failure.status = response.status;
    throw failure;
  }
  return data;
}

// Messages appear in a toast fixed to the bottom of the window, wherever the page is scrolled:
// the user sees the error of the control they just used. Notes ('info') go away by themselves,
// errors stay until the next action succeeds or the toast is closed.
let toastTimer = null;

export function showMessage(text, kind = 'error') {
  const toast = byId('toast');
  const box = byId('message');
  if (!toast || !box) return;
  clearTimeout(toastTimer);
  box.textContent = text;
  toast.classList.toggle('info', kind === 'info');
  toast.hidden = !text;
  if (text && kind === 'info') toastTimer = setTimeout(() => { toast.hidden = true; }, 4000);
}

document.addEventListener('click', (event) => {
  if (event.target && event.target.id === 'toast-close') showMessage('');
});

export function clearMessage() {
  showMessage('');
}

// The rectangle of a playable square (the element the SVG gives data-square and class "square").
export function squareRect(svg, square) {
  return svg.querySelector(`rect.square[data-square="${square}"]`);
}

export function pieceAt(svg, square) {
  return svg.querySelector(`g.piece[data-square="${square}"]`);
}

export function squareBox(svg, square) {
  const rect = squareRect(svg, square);
  if (!rect) return null;
  const x = parseFloat(rect.getAttribute('x'));
  const y = parseFloat(rect.getAttribute('y'));
  const size = parseFloat(rect.getAttribute('width'));
  return { x, y, size, cx: x + size / 2, cy: y + size / 2 };
}

export function svgElement(tag, attributes = {}) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

// The square under a DOM element (a square, a piece, a number ...), or null.
export function squareOf(target, svg) {
  if (!target || !target.closest) return null;
  const holder = target.closest('[data-square]');
  if (!holder || (svg && !svg.contains(holder))) return null;
  const square = parseInt(holder.getAttribute('data-square'), 10);
  return Number.isFinite(square) ? square : null;
}

// Inserts a server-drawn SVG into a container; the page's CSS sizes it.
export function placeSvg(container, text) {
  container.innerHTML = text;
  const svg = container.querySelector('svg');
  if (svg) {
    svg.removeAttribute('width');
    svg.removeAttribute('height');
  }
  return svg;
}

export function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
