// kiebitz-web: the lobby, the board page and the match report page. Plain JavaScript, no
// libraries: the board and the pieces are SVG drawn here; everything the page knows comes from
// the JSON API.
'use strict';

const TITLES = {
  chess: 'Chess', raeuber: 'Räuberschach', pawns: 'Pawn chess', crash: 'CRASH!',
  chamaeleon: 'Chamäleon Schach',
};
const ABOUT = {
  chess: 'Standard chess and Chess960.',
  raeuber: 'Losing chess on 6×6 with forced capture: lose all your pieces to win.',
  pawns: 'Only pawns on W×H boards: the first to reach the far side wins.',
  crash: 'Towers of stones on a row: move a tower, crush what it lands on.',
  chamaeleon: 'Two to four players; a piece moves by the colour of its square.',
};
const NSEAT_NAMES = { 2: ['South', 'North'], 3: ['South', 'West', 'North'], 4: ['South', 'West', 'North', 'East'] };
const SVGNS = 'http://www.w3.org/2000/svg';

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'on') for (const [ev, f] of Object.entries(v)) e.addEventListener(ev, f);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function sv(tag, attrs, ...children) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) e.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  let j;
  try { j = await r.json(); } catch (_) { j = { error: r.statusText }; }
  if (!r.ok) throw new Error(j.error || ('HTTP ' + r.status));
  return j;
}

// ---------------------------------------------------------------- lobby

function seatNames(game, variant) {
  if (game === 'chamaeleon') return NSEAT_NAMES[parseInt(variant.replace('chamaeleon', ''), 10) || 4];
  return ['White', 'Black'];
}

function seatEditor(info, variant) {
  const box = el('div', { class: 'seats' });
  seatNames(info.game, variant).forEach((name, i) => {
    const kind = el('select', { class: 'seat-kind' },
      el('option', { value: 'human' }, 'human'), el('option', { value: 'engine' }, 'engine'));
    kind.value = i === 0 ? 'human' : 'engine';
    const ms = el('input', { class: 'ms seat-ms', type: 'number', min: 1, value: 500, title: 'think time (ms)' });
    const parts = [el('span', { class: 'name' }, name), kind, ms, el('label', {}, 'ms')];
    if (info.searches.length > 1) {
      const search = el('select', { class: 'seat-search', title: 'N-player search' },
        info.searches.map((s) => el('option', { value: s }, s)));
      search.value = info.searches.includes('paranoid') ? 'paranoid' : info.searches[0];
      parts.push(search);
    }
    // Strength: UCI_Elo where the game's scale is calibrated, else Skill Level 0-20;
    // Chamäleon: a depth cap in turns.
    const levels = [];
    if (info.elo) for (let e = info.elo[0]; e < info.elo[1]; e += 100) levels.push(['elo:' + e, 'Elo ' + e]);
    else if (info.skill) for (let k = info.skill[0]; k < info.skill[1]; k += 5) levels.push(['skill:' + k, 'skill ' + k]);
    else if (info.depth) for (const d of [1, 2, 3, 4, 6]) levels.push(['depth:' + d, 'depth ' + d]);
    if (levels.length) {
      parts.push(el('select', { class: 'seat-level', title: 'engine strength' },
        el('option', { value: '' }, 'full strength'), levels.map(([v, t]) => el('option', { value: v }, t))));
    }
    box.append(el('div', { class: 'seat' }, parts));
  });
  return box;
}

function readSeats(box) {
  return [...box.querySelectorAll('.seat')].map((row) => {
    const kind = row.querySelector('.seat-kind').value;
    if (kind === 'human') return { kind };
    const seat = { kind, movetime_ms: parseInt(row.querySelector('.seat-ms').value, 10) || 500 };
    const search = row.querySelector('.seat-search');
    if (search) seat.search = search.value;
    const level = row.querySelector('.seat-level');
    if (level && level.value) {
      const [field, n] = level.value.split(':');
      seat[field] = parseInt(n, 10);
    }
    return seat;
  });
}

async function lobby(app) {
  const games = await api('GET', '/api/games');
  app.replaceChildren(el('h2', {}, 'Choose a game'));
  const grid = el('div', { class: 'lobby' });
  for (const info of games) {
    const variant = el('select', { class: 'variant' }, info.variants.map((v) => el('option', { value: v }, v)));
    let seats = seatEditor(info, info.variants[0]);
    const seatHolder = el('div', {}, seats);
    variant.addEventListener('change', () => {
      seats = seatEditor(info, variant.value);
      seatHolder.replaceChildren(seats);
    });
    const fen = el('input', { class: 'fen', placeholder: 'start from a FEN (optional)' });
    const error = el('div', { class: 'error', id: 'error-' + info.game });
    const start = el('button', {
      class: 'primary', id: 'start-' + info.game,
      on: {
        click: async () => {
          error.textContent = '';
          const body = { game: info.game, variant: variant.value, seats: readSeats(seats) };
          if (fen.value.trim()) body.fen = fen.value.trim();
          try {
            const st = await api('POST', '/api/new', body);
            location.href = '/play/' + st.id;
          } catch (e) { error.textContent = e.message; }
        },
      },
    }, 'Play');
    grid.append(el('div', { class: 'card', 'data-game': info.game },
      el('h3', {}, TITLES[info.game] || info.game),
      el('p', { class: 'about' }, ABOUT[info.game] || ''),
      el('div', { class: 'row' }, el('label', {}, 'variant'), variant),
      seatHolder,
      el('div', { class: 'row' }, fen),
      el('div', { class: 'row' }, start), error));
  }
  app.append(grid);
  app.append(el('p', { class: 'more' }, el('a', { href: '/report', id: 'report-link' },
    'Match report from a PGN'), ' — standings, Elo, SPRT and every game to replay.'));
}

// ---------------------------------------------------------------- match report page

// A PGN (chosen as a file or pasted) posted to /api/report; the report shows in a frame.
function reportPage(app) {
  const file = el('input', { type: 'file', id: 'report-file', accept: '.pgn,text/plain' });
  const text = el('textarea', { id: 'report-pgn', rows: 10, placeholder: 'or paste the PGN here' });
  const game = el('select', { id: 'report-game' }, el('option', { value: '' }, 'game from the PGN'),
    ['chess', 'raeuber', 'pawns', 'crash'].map((g) => el('option', { value: g }, TITLES[g])));
  const elo0 = el('input', { class: 'ms', id: 'report-elo0', type: 'number', placeholder: 'elo0' });
  const elo1 = el('input', { class: 'ms', id: 'report-elo1', type: 'number', placeholder: 'elo1' });
  const error = el('div', { class: 'error', id: 'report-error' });
  const frame = el('iframe', { id: 'report-frame', sandbox: 'allow-scripts allow-downloads', title: 'match report' });
  file.addEventListener('change', async () => { if (file.files[0]) text.value = await file.files[0].text(); });
  const make = el('button', {
    class: 'primary', id: 'report-make',
    on: {
      click: async () => {
        error.textContent = '';
        const q = new URLSearchParams();
        if (game.value) q.set('game', game.value);
        if (elo0.value !== '' || elo1.value !== '') { q.set('elo0', elo0.value); q.set('elo1', elo1.value); }
        const r = await fetch('/api/report' + (q.toString() ? '?' + q : ''), {
          method: 'POST', headers: { 'Content-Type': 'application/x-chess-pgn' }, body: text.value,
        });
        if (!r.ok) {
          let j;
          try { j = await r.json(); } catch (_) { j = { error: 'HTTP ' + r.status }; }
          error.textContent = j.error || ('HTTP ' + r.status);
          return;
        }
        frame.srcdoc = await r.text();
        frame.style.display = 'block';
      },
    },
  }, 'Make the report');
  app.replaceChildren(el('h2', {}, 'Match report from a PGN'),
    el('div', { class: 'panel report-form' },
      el('p', { class: 'about' }, 'The games of a two-player match (kiebitz-match --pgn, or any PGN of ' +
        'these games): standings, score and Elo with error bars, the SPRT if you give its bounds, ' +
        'and each game to replay. Nothing leaves this server.'),
      el('div', { class: 'row' }, file, game, el('label', {}, 'SPRT'), elo0, elo1),
      text, el('div', { class: 'row' }, make), error),
    frame);
}

// ---------------------------------------------------------------- pieces (our own SVG)

// Each piece is drawn in a unit square; `dark` pieces are filled dark with light lines.
const PIECE_PATHS = {
  p: 'M.5 .2a.12 .12 0 1 1-.001 0ZM.4 .42h.2l.08 .3h-.36ZM.26 .72h.48v.08h-.48Z',
  r: 'M.27 .18h.1v.08h.08v-.08h.1v.08h.08v-.08h.1v.18l-.06 .05v.28l.07 .06v.08h-.56v-.08l.07-.06v-.28l-.06-.05Z',
  n: 'M.3 .8 .33 .6C.3 .5.2 .5.2 .42L.3 .3.38 .22.42 .14.48 .22C.65 .22.78 .4.74 .8Z',
  b: 'M.5 .12a.05 .05 0 1 1-.001 0ZM.5 .2C.64 .3.66 .45.58 .6h-.16C.34 .45.36 .3.5 .2ZM.4 .62h.2l.04 .1h-.28ZM.28 .74h.44v.07h-.44Z',
  q: 'M.22 .32 .32 .6.38 .28.5 .56.62 .28.68 .6.78 .32.72 .72h-.44ZM.27 .74h.46v.07h-.46Z',
  k: 'M.47 .1h.06v.06h.06v.06h-.06v.08h-.06v-.08h-.06v-.06h.06ZM.5 .32C.6 .3.8 .32.72 .55L.68 .72h-.36L.28 .55C.2 .32.4 .3.5 .32ZM.28 .74h.44v.07h-.44Z',
};

function pieceShape(letter, x, y, size) {
  const dark = letter === letter.toLowerCase();
  const kind = letter.toLowerCase();
  const path = PIECE_PATHS[kind];
  const g = sv('g', { transform: `translate(${x},${y}) scale(${size})`, class: 'piece', 'data-piece': letter });
  if (!path) {
    g.append(sv('text', { x: .5, y: .62, 'text-anchor': 'middle', 'font-size': .4 }, letter));
    return g;
  }
  g.append(sv('path', {
    d: path, fill: dark ? '#2b2b2b' : '#fbfbf7', stroke: dark ? '#dcdcdc' : '#222',
    'stroke-width': .025, 'stroke-linejoin': 'round',
  }));
  return g;
}

// ---------------------------------------------------------------- board page

const view = { state: null, flipped: false, selected: null, thinking: false, info: null, error: '' };

function fileName(x) { return 'abcdefgh'[x]; }

function lastMove(st) {
  const h = st.history;
  return h.length ? h[h.length - 1] : null;
}

function humanToMove(st) {
  return st.to_move !== null && st.to_move !== undefined && st.seats[st.to_move].kind === 'human';
}

function drawGrid(st, svg) {
  const b = st.board;
  const S = 60, W = b.width, H = b.height, M = 16;
  svg.setAttribute('viewBox', `0 0 ${W * S + M} ${H * S + M}`);
  const last = lastMove(st);
  const targets = new Set(view.selected ? st.legal.filter((m) => m.from === view.selected).map((m) => m.to) : []);
  for (let r = 0; r < H; r++) {
    for (let c = 0; c < W; c++) {
      const rank = H - r, sq = fileName(c) + rank;
      const col = view.flipped ? W - 1 - c : c, row = view.flipped ? H - 1 - r : r;
      const x = M + col * S, y = row * S;
      let fill;
      if (b.kind === 'chamaeleon') {
        fill = ['#e8a3a0', '#f1e08e', '#9fd3a2', '#9cc3ea'][b.colours[r][c]];
        const [x0, y0, x1, y1] = b.area;
        if (c < x0 || c > x1 || rank - 1 < y0 || rank - 1 > y1) fill = '#9a9a9a';
      } else {
        fill = (r + c) % 2 === 0 ? '#eeddb8' : '#b88a5e';
      }
      svg.append(sv('rect', { x, y, width: S, height: S, fill, class: 'square', 'data-square': sq }));
      if (last && (last.from === sq || last.to === sq)) {
        svg.append(sv('rect', { x, y, width: S, height: S, fill: '#f5e050', opacity: .45, class: 'last' }));
      }
      if (view.selected === sq) svg.append(sv('rect', { x, y, width: S, height: S, fill: '#3b8f5f', opacity: .45 }));
      const p = b.rows[r][c];
      if (p) {
        if (b.kind === 'chamaeleon') svg.append(chamaeleonPiece(p, b.colours[r][c], x, y, S));
        else svg.append(pieceShape(p, x, y, S));
      }
      if (targets.has(sq)) {
        svg.append(sv('circle', { cx: x + S / 2, cy: y + S / 2, r: p ? S * .44 : S * .14, fill: p ? 'none' : '#1f5e3a',
          stroke: p ? '#1f5e3a' : 'none', 'stroke-width': 4, opacity: .7, class: 'target', 'data-target': sq }));
      }
      svg.append(sv('rect', { x, y, width: S, height: S, fill: 'transparent', class: 'hit', 'data-sq': sq }));
      if (col === 0) svg.append(sv('text', { x: 4, y: y + S / 2 + 4, 'font-size': 11, fill: '#555' }, String(rank)));
      if (row === H - 1) svg.append(sv('text', { x: x + S / 2 - 3, y: H * S + 12, 'font-size': 11, fill: '#555' }, fileName(c)));
    }
  }
}

const SEAT_COLOURS = { s: '#fdfdfd', w: '#c0392b', n: '#222', e: '#2e64b8' };
const ROLE_LETTERS = ['N', 'B', 'R', 'Q'];
const PIECE_INDEX = { R: 0, Y: 1, G: 2, B: 3 };
const PIECE_COLOURS = ['#d33', '#e6c200', '#2a9d3a', '#2a6fd1'];

function chamaeleonPiece(code, colour, x, y, S) {
  const seat = code[0], piece = PIECE_INDEX[code[1]];
  const role = ROLE_LETTERS[piece ^ colour];
  const g = sv('g', { class: 'piece', 'data-piece': code });
  g.append(sv('circle', { cx: x + S / 2, cy: y + S / 2, r: S * .36, fill: SEAT_COLOURS[seat], stroke: '#111', 'stroke-width': 2 }));
  g.append(sv('circle', { cx: x + S * .76, cy: y + S * .24, r: S * .1, fill: PIECE_COLOURS[piece], stroke: '#111', 'stroke-width': 1 }));
  const light = seat === 's';
  g.append(sv('text', { x: x + S / 2, y: y + S / 2 + 8, 'text-anchor': 'middle', 'font-size': 24, 'font-weight': 700,
    fill: light ? '#111' : '#fff' }, role));
  return g;
}

function drawRow(st, svg) {
  const cells = st.board.cells, m = cells.length;
  const S = 56, shown = 8;
  const tallest = Math.min(shown, Math.max(1, ...cells.map(Math.abs)));
  const top = 22, H = top + tallest * 16 + 30;
  svg.setAttribute('viewBox', `0 0 ${m * S} ${H + 18}`);
  const last = lastMove(st);
  const targets = new Set(view.selected ? st.legal.filter((m) => m.from === view.selected).map((m) => m.to) : []);
  for (let i = 0; i < m; i++) {
    const name = String(i + 1);
    const col = view.flipped ? m - 1 - i : i;
    const x = col * S;
    svg.append(sv('rect', { x, y: 0, width: S, height: H, fill: i % 2 ? '#eeddb8' : '#e6d2a8', class: 'square', 'data-square': name }));
    if (last && (last.from === name || last.to === name)) svg.append(sv('rect', { x, y: 0, width: S, height: H, fill: '#f5e050', opacity: .45, class: 'last' }));
    if (view.selected === name) svg.append(sv('rect', { x, y: 0, width: S, height: H, fill: '#3b8f5f', opacity: .4 }));
    const h = cells[i], n = Math.abs(h);
    for (let k = 0; k < Math.min(n, shown); k++) {
      svg.append(sv('ellipse', { cx: x + S / 2, cy: H - 16 - k * 16, rx: S * .36, ry: 9,
        fill: h > 0 ? '#fbfbf7' : '#2b2b2b', stroke: h > 0 ? '#222' : '#ddd', 'stroke-width': 1.5, class: 'stone' }));
    }
    if (n) svg.append(sv('text', { x: x + S / 2, y: H - 24 - Math.min(n, shown) * 16, 'text-anchor': 'middle',
      'font-size': 14, 'font-weight': 700, class: 'height' }, String(n)));
    if (targets.has(name)) svg.append(sv('circle', { cx: x + S / 2, cy: 12, r: 7, fill: '#1f5e3a', opacity: .8, class: 'target', 'data-target': name }));
    svg.append(sv('text', { x: x + S / 2, y: H + 14, 'text-anchor': 'middle', 'font-size': 12, fill: '#555' }, name));
    svg.append(sv('rect', { x, y: 0, width: S, height: H, fill: 'transparent', class: 'hit', 'data-sq': name }));
  }
}

function scoreText(score) {
  if (!score) return '';
  if (score.mate !== undefined) return (score.mate > 0 ? '#' : '#-') + Math.abs(score.mate);
  if (score.cp !== undefined) return (score.cp >= 0 ? '+' : '') + (score.cp / 100).toFixed(2);
  if (score.share !== undefined) return (score.share * 100).toFixed(1) + '%';
  return '';
}

// White's share of the evaluation bar from a report for the side `mover`.
function whiteShare(score, mover) {
  if (!score) return .5;
  if (score.share !== undefined) return mover === 0 ? score.share : 1 - score.share;
  let v;
  if (score.mate !== undefined) v = score.mate > 0 ? 1 : 0;
  else v = 1 / (1 + Math.exp(-score.cp / 250));
  return mover === 0 ? v : 1 - v;
}

function renderAnalysis() {
  const box = document.getElementById('analysis');
  if (!box) return;
  const i = view.info;
  if (!i) { box.textContent = 'The engine\'s search shows here while it thinks.'; return; }
  box.textContent = `depth ${i.depth}  score ${scoreText(i.score)}  nodes ${i.nodes}  nps ${i.nps || 0}` +
    (i.search ? `  (${i.search})` : '') + `\npv ${(i.pv || []).join(' ')}` +
    (i.solved ? `\nsolved: a ${i.solved.value} for the mover in ${i.solved.plies} plies (database)` : '') +
    (i.note ? `\n${i.note}` : '');
  const bar = document.querySelector('#evalbar .white');
  if (bar && view.infoMover !== undefined) bar.style.height = (100 * whiteShare(i.score, view.infoMover)) + '%';
}

function renderMoves(st) {
  const box = document.getElementById('moves');
  const h = st.history;
  if (st.game === 'chamaeleon') {
    box.replaceChildren(el('table', {}, h.map((m, i) => el('tr', {},
      el('td', { class: 'n' }, String(i + 1)), el('td', {}, st.seats[m.seat].name), el('td', {}, m.san)))));
  } else {
    const rows = [];
    let number = parseInt((st.start_fen.split(' ')[5] || '1'), 10) || 1;
    let row = null;
    h.forEach((m, i) => {
      if (m.seat === 0 || i === 0) {
        row = [el('td', { class: 'n' }, number + '.'), el('td', {}, m.seat === 0 ? m.san : '…'), el('td', {}, m.seat === 1 ? m.san : '')];
        rows.push(row);
      } else {
        row[2].textContent = m.san;
      }
      if (m.seat === 1) number++;
    });
    box.replaceChildren(el('table', {}, rows.map((r) => el('tr', {}, r))));
  }
  box.scrollTop = box.scrollHeight;
}

// The solved value of the position (pawn chess up to 6x6, CRASH!, Räuberschach): asked again
// while the server is still solving it.
function renderSolved(st) {
  const box = document.getElementById('solved');
  const v = st.solved;
  box.style.display = v ? '' : 'none';
  if (!v) return;
  if (v.pending) {
    box.textContent = 'Solved value: solving…';
    const plies = st.history.length, id = st.id;
    clearTimeout(view.solvedTimer);
    view.solvedTimer = setTimeout(async () => {
      try {
        const again = await api('GET', '/api/game/' + id);
        if (view.state && view.state.history.length === plies && !view.thinking) {
          view.state.solved = again.solved;
          renderSolved(view.state);
        }
      } catch (e) { /* the next move asks again */ }
    }, 1000);
  } else if (v.value) {
    box.textContent = `Solved: ${v.value} for ${v.for}` +
      (v.distance !== null && v.distance !== undefined ? ` in ${v.distance} plies` : '') +
      (v.within ? ` within ${v.within} plies` : '') + ` (${v.source})`;
  } else box.textContent = 'Solved value: ' + v.unknown;
}

function render() {
  const st = view.state;
  const svg = document.getElementById('board');
  svg.replaceChildren();
  if (st.board.kind === 'row') drawRow(st, svg); else drawGrid(st, svg);
  const status = document.getElementById('status');
  const over = st.result !== null && st.result !== undefined;
  if (over) status.textContent = 'Game over';
  else {
    const seat = st.seats[st.to_move];
    status.textContent = `${seat.name} to move` + (seat.kind === 'engine' ? ' (engine' + (view.thinking ? ', thinking…)' : ')') : ' (you)');
  }
  document.getElementById('result').textContent = over ? `${st.result.score} — ${st.result.reason}` : '';
  document.getElementById('error').textContent = view.error;
  document.getElementById('fen').textContent = st.fen;
  document.getElementById('undo').disabled = view.thinking || st.history.length === 0;
  document.getElementById('engine-move').disabled = view.thinking || over;
  const pass = document.getElementById('pass');
  pass.style.display = humanToMove(st) && st.legal.some((m) => m.move === '0000') ? '' : 'none';
  // For people and tests: 'human' when a person may move now, 'engine' while the engine is
  // to move or thinking, 'over' at the end.
  document.body.dataset.state = over ? 'over' : view.thinking || !humanToMove(st) ? 'engine' : 'human';
  document.body.dataset.plies = String(st.history.length);
  renderMoves(st);
  renderAnalysis();
  renderSolved(st);
}

async function send(path, body) {
  view.error = '';
  try {
    const st = await api('POST', `/api/game/${view.state.id}/${path}`, body);
    view.state = st.state || st;
    view.selected = null;
  } catch (e) {
    view.error = e.message;
  }
  closePromo();
  render();
  maybeEngine();
}

async function engineMove() {
  if (view.thinking) return;
  view.thinking = true;
  view.infoMover = view.state.to_move;
  render();
  try {
    const r = await api('POST', `/api/game/${view.state.id}/engine`, {});
    view.state = r.state;
    if (r.info && r.info.depth !== undefined) view.info = r.info;
    view.error = '';
  } catch (e) {
    view.error = e.message;
    view.auto = false;
  }
  view.thinking = false;
  render();
  maybeEngine();
}

function maybeEngine() {
  const st = view.state;
  if (view.auto && !view.thinking && st.to_move !== null && st.to_move !== undefined && st.seats[st.to_move].kind === 'engine') {
    setTimeout(engineMove, 30);
  }
}

function closePromo() {
  const p = document.getElementById('promo');
  p.classList.remove('open');
  p.replaceChildren();
}

function clickSquare(sq) {
  const st = view.state;
  if (view.thinking || !humanToMove(st)) return;
  if (view.selected) {
    const moves = st.legal.filter((m) => m.from === view.selected && m.to === sq);
    if (moves.length === 1) { send('move', { move: moves[0].move }); return; }
    if (moves.length > 1) {
      const p = document.getElementById('promo');
      p.replaceChildren(el('span', {}, 'Promote to:'), ...moves.map((m) => el('button', {
        'data-promo': m.promotion || m.move, on: { click: () => send('move', { move: m.move }) },
      }, (m.promotion || m.move).toUpperCase())));
      p.classList.add('open');
      return;
    }
  }
  closePromo();
  view.selected = st.legal.some((m) => m.from === sq) && view.selected !== sq ? sq : null;
  render();
}

function undoPlies(st) {
  // Take back to the last position where a person was to move.
  const h = st.history;
  for (let k = 1; k <= h.length; k++) if (st.seats[h[h.length - k].seat].kind === 'human') return k;
  return 1;
}

async function board(app, id) {
  let st;
  try { st = await api('GET', '/api/game/' + id); } catch (e) {
    app.replaceChildren(el('p', {}, e.message + ' — '), el('a', { href: '/' }, 'back to the lobby'));
    return;
  }
  view.state = st;
  view.auto = true;
  const svg = sv('svg', { id: 'board', xmlns: SVGNS });
  svg.addEventListener('click', (ev) => {
    const t = ev.target.closest('[data-sq]');
    if (t) clickSquare(t.getAttribute('data-sq'));
  });
  const fenInput = el('input', { class: 'fen', id: 'fen-input', placeholder: 'a FEN for a new game of ' + st.variant });
  app.replaceChildren(el('div', { class: 'play' },
    el('div', {},
      el('div', { class: 'boardbox' }, el('div', { id: 'evalbar', title: 'evaluation' }, el('div', { class: 'white', style: 'height:50%' })), svg),
      el('div', { id: 'promo' }),
      el('div', { class: 'controls' },
        el('button', { id: 'undo', on: { click: () => send('undo', { plies: undoPlies(view.state) }) } }, 'Undo'),
        el('button', { id: 'flip', on: { click: () => { view.flipped = !view.flipped; render(); } } }, 'Flip'),
        el('button', { id: 'engine-move', on: { click: () => { engineMove(); } } }, 'Engine move'),
        el('button', { id: 'pass', on: { click: () => send('move', { move: '0000' }) } }, 'Pass'),
        el('a', { id: 'pgn', href: `/api/game/${id}/pgn`, download: `kiebitz-${st.game}-${id}.pgn` }, 'PGN'),
        el('a', { href: '/' }, 'New game'))),
    el('div', { class: 'side' },
      el('div', { class: 'panel' },
        el('h3', {}, `${TITLES[st.game] || st.game} · ${st.variant}`),
        el('div', {}, st.seats.map((s) => s.name + ': ' + (s.kind === 'human' ? 'human' :
          `engine ${s.movetime_ms} ms${s.search ? ' ' + s.search : ''}` +
          (s.elo ? ` Elo ${s.elo}` : '') + (s.skill !== undefined ? ` skill ${s.skill}` : '') +
          (s.depth ? ` depth ${s.depth}` : ''))).join(' · ')),
        el('div', { id: 'status' }), el('div', { id: 'result' }), el('div', { id: 'solved' }),
        el('div', { id: 'error' })),
      el('div', { class: 'panel' }, el('h3', {}, 'Analysis'), el('div', { id: 'analysis' })),
      el('div', { class: 'panel' }, el('h3', {}, 'Moves'), el('div', { id: 'moves' })),
      el('div', { class: 'panel' }, el('div', { class: 'fenline', id: 'fen' }),
        el('div', { class: 'row' }, fenInput, el('button', {
          id: 'new-from-fen', on: {
            click: async () => {
              const seats = view.state.seats.map((s) => s.kind === 'human' ? { kind: 'human' } :
                Object.assign({ kind: 'engine', movetime_ms: s.movetime_ms }, s.search ? { search: s.search } : {},
                  s.elo ? { elo: s.elo } : {}, s.skill !== undefined ? { skill: s.skill } : {},
                  s.depth ? { depth: s.depth } : {}));
              try {
                const n = await api('POST', '/api/new', { game: view.state.game, variant: view.state.variant,
                  fen: fenInput.value.trim() || view.state.fen, seats });
                location.href = '/play/' + n.id;
              } catch (e) { view.error = e.message; render(); }
            },
          },
        }, 'New game from FEN'))))));
  if (window.EventSource) {
    const es = new EventSource(`/api/game/${id}/events`);
    es.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === 'info') { view.info = msg.info; renderAnalysis(); }
    };
    window.addEventListener('beforeunload', () => es.close());
  }
  render();
  maybeEngine();
}

function main() {
  const app = document.getElementById('app');
  const m = location.pathname.match(/^\/play\/([0-9a-zA-Z]+)$/);
  const page = m ? board(app, m[1]) : location.pathname === '/report' ? Promise.resolve(reportPage(app)) : lobby(app);
  page.catch((e) => { app.textContent = 'Error: ' + e.message; });
}

main();
