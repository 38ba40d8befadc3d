// kiebitz-web: the lobby, the board page and the match report page. Plain JavaScript, no
// libraries: the board is SVG drawn here (the chess pieces come from /static/pieces.js);
// everything the page knows comes from the JSON API.
'use strict';

// The games as /api/games describes them (title, about, variants, seat names), read once.
let GAMES = null;
async function gameList() {
  if (!GAMES) GAMES = await api('GET', '/api/games');
  return GAMES;
}
function titleOf(game) {
  const info = (GAMES || []).find((g) => g.game === game);
  return info ? info.title : game;
}
// Time controls offered in the lobby: base:increment in ms (the API's clock).
const CLOCKS = [['', 'no clock'], ['60000:0', '1 min'], ['180000:2000', '3 min + 2 s'], ['300000:0', '5 min'],
  ['600000:5000', '10 min + 5 s'], ['900000:10000', '15 min + 10 s']];
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

function seatNames(info, variant) {
  return (info.seat_names || [])[info.variants.indexOf(variant)] || ['White', 'Black'];
}

function seatEditor(info, variant) {
  const box = el('div', { class: 'seats' });
  seatNames(info, variant).forEach((name, i) => {
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
  const games = await gameList();
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
    // A variant with numbered start positions (Chess960): a number, or blank for a random one.
    const number = el('input', { class: 'ms start-number', type: 'number', min: 0, placeholder: 'random',
      title: 'start position number (blank: random)' });
    const numberRow = el('div', { class: 'row' }, el('label', {}, 'start position #'), number);
    const starts = () => (info.starts || [])[info.variants.indexOf(variant.value)] || 1;
    const showNumber = () => {
      numberRow.style.display = starts() > 1 ? '' : 'none';
      number.max = starts() - 1;
    };
    variant.addEventListener('change', showNumber);
    showNumber();
    // A time control, a clock per seat (in a game of more seats a fallen flag puts that
    // player out and the others play on).
    const clock = el('select', { class: 'clock-choice', id: 'clock-' + info.game, title: 'time control' },
      CLOCKS.map(([v, t]) => el('option', { value: v }, t)));
    const clockRow = el('div', { class: 'row' }, el('label', {}, 'clock'), clock);
    const error = el('div', { class: 'error', id: 'error-' + info.game });
    const start = el('button', {
      class: 'primary', id: 'start-' + info.game,
      on: {
        click: async () => {
          error.textContent = '';
          const body = { game: info.game, variant: variant.value, seats: readSeats(seats) };
          if (fen.value.trim()) body.fen = fen.value.trim();
          else if (starts() > 1 && number.value !== '') body.start = parseInt(number.value, 10);
          if (clock.value) {
            const [base, inc] = clock.value.split(':').map(Number);
            body.clock = { base_ms: base, inc_ms: inc };
          }
          try {
            const st = await api('POST', '/api/new', body);
            location.href = '/play/' + st.id;
          } catch (e) { error.textContent = e.message; }
        },
      },
    }, 'Play');
    grid.append(el('div', { class: 'card', 'data-game': info.game },
      el('h3', {}, info.title || info.game),
      el('p', { class: 'about' }, info.about || ''),
      el('div', { class: 'row' }, el('label', {}, 'variant'), variant),
      numberRow,
      seatHolder,
      clockRow,
      el('div', { class: 'row' }, fen),
      el('div', { class: 'row' }, start), error));
  }
  app.append(grid);
  app.append(el('p', { class: 'more' }, el('a', { href: '/report', id: 'report-link' },
    'Match report from a PGN'), ' — standings, Elo, SPRT and every game to replay.'));
}

// ---------------------------------------------------------------- match report page

// A PGN (chosen as a file or pasted) posted to /api/report; the report shows in a frame.
async function reportPage(app) {
  const twoPlayer = (await gameList()).filter((g) => g.seats.length === 1 && g.seats[0] === 2);
  const file = el('input', { type: 'file', id: 'report-file', accept: '.pgn,text/plain' });
  const text = el('textarea', { id: 'report-pgn', rows: 10, placeholder: 'or paste the PGN here' });
  const game = el('select', { id: 'report-game' }, el('option', { value: '' }, 'game from the PGN'),
    twoPlayer.map((g) => el('option', { value: g.game }, g.title)));
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

// ---------------------------------------------------------------- pieces

// The chess pieces are the Chessnut set (Alexis Luengas, Apache License 2.0), which
// /static/pieces.js defines as PIECE_SVG: a data: URL per FEN letter
// (src/tournament/html/pieces.rs). Any other letter is written as text.
function pieceShape(letter, x, y, size) {
  const g = sv('g', { class: 'piece', 'data-piece': letter });
  const url = typeof PIECE_SVG === 'object' ? PIECE_SVG[letter] : null;
  if (url) {
    g.append(sv('image', { x, y, width: size, height: size, href: url }));
    return g;
  }
  const dark = letter === letter.toLowerCase();
  g.append(sv('text', {
    x: x + size / 2, y: y + size * .64, 'text-anchor': 'middle', 'font-size': size * .45,
    fill: dark ? '#2b2b2b' : '#fbfbf7', stroke: dark ? '#dcdcdc' : '#222', 'stroke-width': 1,
  }, letter));
  return g;
}

// ---------------------------------------------------------------- board page

// cursor: the ply shown (null: the live position); shown: that position from the server;
// lines: the analysis's MultiPV lines; evals: White's score (a 0..1 share) per ply for the graph.
const view = {
  state: null, flipped: false, selected: null, thinking: false, info: null, infoPly: null, error: '',
  cursor: null, shown: null, analysing: false, analysisPly: null, lines: [], evals: {}, drag: null,
};

function fileName(x) { return 'abcdefgh'[x]; }

function lastMove(st) {
  const h = st.history;
  return h.length ? h[h.length - 1] : null;
}

function isLive() { return view.cursor === null; }

function shownPly() { return isLive() ? view.state.history.length : view.cursor; }

// The board and last move on screen: the live position or the one stepped to.
function shown(st) {
  if (isLive() || !view.shown) return { board: st.board, last: lastMove(st) };
  return { board: view.shown.board, last: view.shown.last };
}

function humanToMove(st) {
  return st.to_move !== null && st.to_move !== undefined && st.seats[st.to_move].kind === 'human';
}

function canMove(st) { return isLive() && !view.thinking && humanToMove(st); }

function targetsOf(st) {
  return new Set(view.selected ? st.legal.filter((m) => m.from === view.selected).map((m) => m.to) : []);
}

function drawGrid(st, svg) {
  const { board: b, last } = shown(st);
  const S = 60, W = b.width, H = b.height, M = 16;
  svg.setAttribute('viewBox', `0 0 ${W * S + M} ${H * S + M}`);
  const targets = targetsOf(st);
  view.geometry = { S, W, H, M };
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
      if (view.refused === sq) svg.append(sv('rect', { x, y, width: S, height: S, fill: '#d22', opacity: .45, class: 'refused' }));
      const p = b.rows[r][c];
      if (p) {
        const g = b.kind === 'chamaeleon' ? chamaeleonPiece(p, b.colours[r][c], x, y, S) : pieceShape(p, x, y, S);
        g.setAttribute('data-on', sq);
        svg.append(g);
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
  drawArrows(svg);
}

// The centre of square `sq` (like `e4`) on the drawn grid, or null.
function squareCentre(sq) {
  const g = view.geometry;
  const m = /^([a-h])([1-8])$/.exec(sq || '');
  if (!g || !m) return null;
  const c = m[1].charCodeAt(0) - 97, r = g.H - parseInt(m[2], 10);
  const col = view.flipped ? g.W - 1 - c : c, row = view.flipped ? g.H - 1 - r : r;
  return [g.M + col * g.S + g.S / 2, row * g.S + g.S / 2];
}

// The analysis's best lines as arrows: the first move of each line, the best one boldest.
function drawArrows(svg) {
  if (!view.analysing || view.analysisPly !== shownPly()) return;
  const defs = sv('defs', {}, sv('marker', { id: 'head', viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 3,
    markerHeight: 3, orient: 'auto-start-reverse' }, sv('path', { d: 'M0 0L10 5L0 10z', fill: '#15781b' })));
  svg.append(defs);
  view.lines.forEach((line, k) => {
    const mv = line && (line.pv || [])[0];
    const m = /^([a-h][1-8])([a-h][1-8])/.exec(mv || '');
    if (!m) return;
    const a = squareCentre(m[1]), b = squareCentre(m[2]);
    if (!a || !b) return;
    svg.append(sv('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: '#15781b', 'stroke-width': k === 0 ? 9 : 6,
      opacity: k === 0 ? .8 : .45, 'marker-end': 'url(#head)', class: 'arrow', 'data-arrow': m[1] + m[2],
      'pointer-events': 'none' }));
  });
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
  const { board, last } = shown(st);
  const cells = board.cells, m = cells.length;
  const S = 56, shownMax = 8;
  const tallest = Math.min(shownMax, Math.max(1, ...cells.map(Math.abs)));
  const top = 22, H = top + tallest * 16 + 30;
  svg.setAttribute('viewBox', `0 0 ${m * S} ${H + 18}`);
  view.geometry = null;
  const targets = targetsOf(st);
  for (let i = 0; i < m; i++) {
    const name = String(i + 1);
    const col = view.flipped ? m - 1 - i : i;
    const x = col * S;
    svg.append(sv('rect', { x, y: 0, width: S, height: H, fill: i % 2 ? '#eeddb8' : '#e6d2a8', class: 'square', 'data-square': name }));
    if (last && (last.from === name || last.to === name)) svg.append(sv('rect', { x, y: 0, width: S, height: H, fill: '#f5e050', opacity: .45, class: 'last' }));
    if (view.selected === name) svg.append(sv('rect', { x, y: 0, width: S, height: H, fill: '#3b8f5f', opacity: .4 }));
    if (view.refused === name) svg.append(sv('rect', { x, y: 0, width: S, height: H, fill: '#d22', opacity: .4, class: 'refused' }));
    const h = cells[i], n = Math.abs(h);
    const tower = sv('g', { class: 'piece', 'data-on': name });
    for (let k = 0; k < Math.min(n, shownMax); k++) {
      tower.append(sv('ellipse', { cx: x + S / 2, cy: H - 16 - k * 16, rx: S * .36, ry: 9,
        fill: h > 0 ? '#fbfbf7' : '#2b2b2b', stroke: h > 0 ? '#222' : '#ddd', 'stroke-width': 1.5, class: 'stone' }));
    }
    if (n) {
      tower.append(sv('text', { x: x + S / 2, y: H - 24 - Math.min(n, shownMax) * 16, 'text-anchor': 'middle',
        'font-size': 14, 'font-weight': 700, class: 'height' }, String(n)));
      svg.append(tower);
    }
    if (targets.has(name)) svg.append(sv('circle', { cx: x + S / 2, cy: 12, r: 7, fill: '#1f5e3a', opacity: .8, class: 'target', 'data-target': name }));
    svg.append(sv('text', { x: x + S / 2, y: H + 14, 'text-anchor': 'middle', 'font-size': 12, fill: '#555' }, name));
    svg.append(sv('rect', { x, y: 0, width: S, height: H, fill: 'transparent', class: 'hit', 'data-sq': name }));
  }
}

// A score from White's view as text: +0.37, #3 (White mates or wins in 3), #-2.
function scoreText(score) {
  if (!score) return '';
  if (score.mate !== undefined) return (score.mate > 0 ? '#' : '#-') + Math.abs(score.mate);
  if (score.cp !== undefined) return (score.cp >= 0 ? '+' : '') + (score.cp / 100).toFixed(2);
  if (score.share !== undefined) return (score.share * 100).toFixed(1) + '%';
  return '';
}

// White's share (0..1) of a score from White's view.
function whiteShare(white) {
  if (!white) return .5;
  if (white.mate !== undefined) return white.mate > 0 ? 1 : 0;
  if (white.cp !== undefined) return 1 / (1 + Math.exp(-white.cp / 250));
  return .5;
}

// A line of the analysis: the score from White's view (per seat in N-player games), what
// it means where it is exact, and the moves in the game's notation.
function lineText(i, seats) {
  const pv = (i.pv_san || i.pv || []).join(' ');
  if (i.shares) {
    const each = i.shares.map((v, k) => `${seats[k] ? seats[k].name : k} ${(v * 100).toFixed(0)}%`).join(' · ');
    return `depth ${i.depth}  ${each}\n${pv}`;
  }
  let head;
  const w = i.white;
  if ((i.exact || i.solved) && w && w.mate !== undefined) {
    const side = w.mate > 0 ? 'White' : 'Black';
    head = `solved: ${side} wins in ${Math.abs(w.mate)} moves`;
  } else {
    head = `${scoreText(w)} (White's view)  depth ${i.depth}`;
  }
  return head + `\n${pv}`;
}

// In a game of seats with shares (Chamäleon) the bar is stacked: every seat's share of the
// value in its colour, South's at the bottom.
function renderSeatBar(shares, seats) {
  const box = document.getElementById('evalbar');
  box.classList.add('seats');
  box.title = 'evaluation (every seat\'s share)';
  box.replaceChildren(...shares.map((x, k) => el('div', {
    class: 'seat-share', 'data-seat': k, title: `${seats[k].name} ${(100 * x).toFixed(0)}%`,
    style: `height: ${(100 * x).toFixed(1)}%; background: ${SEAT_COLOURS[seats[k].name[0].toLowerCase()]}`,
  })));
}

function renderAnalysis() {
  const box = document.getElementById('analysis');
  if (!box) return;
  const st = view.state;
  const lines = view.analysing && view.analysisPly === shownPly() ? view.lines.filter(Boolean) : [];
  let main;
  if (lines.length) {
    box.replaceChildren(...lines.map((l, k) => el('div', { class: 'line', 'data-line': k + 1 }, lineText(l, st.seats))));
    main = lines[0];
  } else if (view.info && !view.analysing) {
    const i = view.info;
    box.replaceChildren(el('div', { class: 'line' }, lineText(i, st.seats) +
      (i.search ? `  (${i.search})` : '') + `\nnodes ${i.nodes}  nps ${i.nps || 0}` +
      (i.limited ? '\nthe line of the move played (limited strength)' : '') + (i.note ? `\n${i.note}` : '')));
    main = i;
  } else {
    box.textContent = view.analysing ? 'Analysing…' : 'The engine\'s search shows here while it thinks; Analyse explores any position.';
  }
  const bar = document.querySelector('#evalbar .white');
  if (main && main.shares) renderSeatBar(main.shares, st.seats);
  else if (bar && main) bar.style.height = (100 * whiteShare(main.white)) + '%';
  document.getElementById('evalbar').classList.toggle('flipped', view.flipped);
  if (st) renderPlayers(st);
  const label = document.getElementById('evallabel');
  if (label) label.textContent = main ? (main.shares ? '' : scoreText(main.white)) : '';
}

// The evaluation over the game (White's share per ply, from the engine's and the analysis's
// reports); a click jumps to that ply.
function renderGraph() {
  const g = document.getElementById('graph');
  if (!g) return;
  const n = Math.max(1, view.state.history.length);
  const W = 300, H = 60;
  g.setAttribute('viewBox', `0 0 ${W} ${H}`);
  g.replaceChildren(sv('rect', { x: 0, y: 0, width: W, height: H, fill: '#333' }));
  const pts = Object.keys(view.evals).map(Number).sort((a, b) => a - b);
  if (pts.length) {
    const d = [`M0 ${H}`].concat(pts.map((p) => `L${(p / n) * W} ${H - view.evals[p] * H}`), [`L${(pts[pts.length - 1] / n) * W} ${H}Z`]);
    g.append(sv('path', { d: d.join(' '), fill: '#f4f4f4', class: 'eval' }));
  }
  g.append(sv('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, stroke: '#888', 'stroke-width': .5 }));
  const x = (shownPly() / n) * W;
  g.append(sv('line', { x1: x, y1: 0, x2: x, y2: H, stroke: '#d33', 'stroke-width': 1.5, class: 'cursor' }));
}

function recordEval(ply, info) {
  if (!info || info.shares) return;
  if (info.multipv && info.multipv > 1) return;
  if (info.white) { view.evals[ply] = whiteShare(info.white); renderGraph(); }
}

function renderMoves(st) {
  const box = document.getElementById('moves');
  const h = st.history;
  const at = shownPly();
  const cell = (m, i) => el('td', { class: 'mv' + (i + 1 === at ? ' current' : ''), 'data-ply': i + 1,
    on: { click: () => goTo(i + 1) } }, m.san);
  if (st.board.kind === 'chamaeleon') {
    box.replaceChildren(el('table', {}, h.map((m, i) => el('tr', {},
      el('td', { class: 'n' }, String(i + 1)), el('td', {}, st.seats[m.seat].name), cell(m, i)))));
  } else {
    const rows = [];
    let number = parseInt((st.start_fen.split(' ')[5] || '1'), 10) || 1;
    let row = null;
    h.forEach((m, i) => {
      if (m.seat === 0 || i === 0) {
        row = [el('td', { class: 'n' }, number + '.'), m.seat === 0 ? cell(m, i) : el('td', {}, '…'), el('td', {})];
        rows.push(row);
        if (m.seat === 1) row[2] = cell(m, i);
      } else {
        row[2] = cell(m, i);
      }
      if (m.seat === 1) number++;
    });
    box.replaceChildren(el('table', {}, rows.map((r) => el('tr', {}, r))));
  }
  // Only the list scrolls (not the page): the current move in its middle, else the end.
  const cur = box.querySelector('.current');
  if (cur) {
    const top = cur.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
    box.scrollTop = Math.max(0, top - box.clientHeight / 2);
  } else box.scrollTop = box.scrollHeight;
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

// ---------------------------------------------------------------- clocks, resigning, draws

// A clock's time: m:ss, with tenths under ten seconds.
function clockText(ms) {
  const t = Math.max(0, ms);
  const m = Math.floor(t / 60000), sec = String(Math.floor(t / 1000) % 60).padStart(2, '0');
  return t < 10000 ? `${m}:${sec}.${Math.floor(t / 100) % 10}` : `${m}:${sec}`;
}

// Seat k's time now: the server's figure less the time since it came for the running clock.
function clockLeft(st, k) {
  const c = st.clock;
  return c.left_ms[k] - (c.running === k ? performance.now() - view.clockAt : 0);
}

// One clock per seat; the running one marked, under ten seconds red.
function renderClocks(st) {
  const box = document.getElementById('clocks');
  if (!st.clock) { box.style.display = 'none'; return; }
  if (view.clockState !== st) { view.clockState = st; view.clockAt = performance.now(); }
  box.style.display = '';
  box.replaceChildren(...st.seats.map((s, k) => {
    const left = clockLeft(st, k);
    const cls = 'clock' + (st.clock.running === k ? ' running' : '') + (left < 10000 ? ' low' : '');
    return el('div', { class: cls, 'data-seat': k }, el('span', { class: 'who' }, s.name),
      el('span', { class: 'time' }, clockText(left)));
  }));
  document.body.dataset.clock = st.clock.running === null ? 'stopped' : String(st.clock.running);
}

// Every tenth of a second: the running clock counts down; at zero the server is asked,
// which ends the game on time, or in a game of more seats puts that player out and starts
// the next one's clock (the server keeps the clocks; the page only shows them).
function tickClocks() {
  const st = view.state;
  if (!st || !st.clock || st.clock.running === null) return;
  renderClocks(st);
  if (clockLeft(st, st.clock.running) > 0 || view.flagAsked) return;
  view.flagAsked = true;
  api('GET', '/api/game/' + st.id).then((again) => {
    if (view.state === st && again.history.length === st.history.length) { view.state = again; render(); maybeEngine(); }
  }).catch(() => {}).finally(() => { setTimeout(() => { view.flagAsked = false; }, 300); });
}

// Resign takes two clicks (the first arms the button for three seconds).
function resignClick() {
  if (!view.resignArmed) {
    view.resignArmed = true;
    render();
    setTimeout(() => { view.resignArmed = false; render(); }, 3000);
    return;
  }
  view.resignArmed = false;
  send('resign', {});
}

// A draw offer: an engine answers at once by its rule; a person accepts by offering too.
async function offerDraw() {
  const st = view.state;
  const body = st.draw_offer !== null && st.draw_offer !== undefined ? { seat: 1 - st.draw_offer } : {};
  view.error = '';
  try {
    const a = await api('POST', `/api/game/${st.id}/draw`, body);
    view.state = a.state;
    view.notice = a.draw === 'accepted' ? 'Draw agreed.' : a.draw === 'declined' ? `Draw declined: ${a.why}.` :
      `${st.seats[a.state.draw_offer].name} offers a draw (the other side accepts with Accept draw; a move declines).`;
  } catch (e) { view.error = e.message; }
  render();
}

function renderEndings(st, over) {
  const two = st.seats.length === 2;
  const resign = document.getElementById('resign'), draw = document.getElementById('draw');
  resign.style.display = draw.style.display = two && !over ? '' : 'none';
  resign.textContent = view.resignArmed ? 'Really resign?' : 'Resign';
  const offered = st.draw_offer !== null && st.draw_offer !== undefined;
  draw.textContent = offered && st.seats[1 - st.draw_offer].kind === 'human' ? 'Accept draw' : 'Offer draw';
  document.getElementById('notice').textContent = view.notice || '';
}

// ---------------------------------------------------------------- sound

// A short tone for every new move (lower for a capture) and two at the end of the game, made
// by the Web Audio API (nothing is fetched). *Sound* turns it off and on; the choice is kept
// in localStorage. body[data-sounds] counts the tones played (for people and tests).
let audio = null;

function soundOn() {
  try { return localStorage.getItem('kiebitz-sound') !== 'off'; } catch (e) { return true; }
}

function soundLabel() {
  return soundOn() ? 'Sound: on' : 'Sound: off';
}

function toggleSound() {
  try { localStorage.setItem('kiebitz-sound', soundOn() ? 'off' : 'on'); } catch (e) { /* private mode */ }
  document.getElementById('sound').textContent = soundLabel();
}

function tone(freqs) {
  if (!soundOn()) return;
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    freqs.forEach((f, k) => {
      const osc = audio.createOscillator(), gain = audio.createGain();
      const t = audio.currentTime + k * 0.13;
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.25, t + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.1);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + 0.11);
    });
  } catch (e) { /* no audio on this browser */ }
}

// A tone when the state shows a move (or the end) not heard yet; none for the state the page
// opened with.
function soundFor(st) {
  const n = st.history.length, over = st.result !== null && st.result !== undefined;
  if (view.heardId === st.id) {
    if (n > view.heard) tone(/x/.test(st.history[n - 1].san || '') ? [330] : [523]);
    if (over && !view.heardOver) tone([659, 440]);
  }
  view.heardId = st.id;
  view.heard = n;
  view.heardOver = over;
}

// ---------------------------------------------------------------- players (Chamäleon)

// A panel per seat where the board is Chamäleon's: its colour, who plays it, whether it is
// still in the game, and its share of the value from the latest search or analysis.
function renderPlayers(st) {
  const box = document.getElementById('players');
  if (!box) return;
  if (st.board.kind !== 'chamaeleon') { box.style.display = 'none'; return; }
  box.style.display = '';
  const live = view.analysing && view.analysisPly === shownPly() ? view.lines[0] : view.info;
  const shares = live && live.shares ? live.shares : null;
  box.replaceChildren(...st.seats.map((s, k) => {
    const out = st.in_game && st.in_game[k] === false;
    const who = s.kind === 'human' ? 'human' : `engine ${s.search || ''}`.trim();
    const cls = 'player' + (st.to_move === k ? ' to-move' : '') + (out ? ' out' : '');
    return el('div', { class: cls, 'data-seat': k },
      sv('svg', { width: 18, height: 18 }, sv('circle', { cx: 9, cy: 9, r: 8, fill: SEAT_COLOURS[s.name[0].toLowerCase()],
        stroke: '#111', 'stroke-width': 1 })),
      el('span', { class: 'name' }, s.name), el('span', { class: 'who' }, out ? 'out' : who),
      el('span', { class: 'share' }, shares && shares[k] !== undefined ? (shares[k] * 100).toFixed(0) + '%' : '–'));
  }));
}

// ---------------------------------------------------------------- rules

// The game's rules as the server gives them (`rules` in /api/games: paragraphs, `code` in
// backquotes); where the board is Chamäleon's, a legend of the seats' and squares' colours.
function rulesPanel(info, st) {
  const para = (text) => el('p', {}, text.split('`').map((part, k) => (k % 2 ? el('code', {}, part) : part)));
  const box = el('div', { class: 'panel rules', id: 'rules' }, el('h3', {}, 'Rules'),
    (info && info.rules ? info.rules : ['No rules text for this game.']).map(para));
  if (st.board.kind === 'chamaeleon') {
    const dot = (fill) => sv('svg', { width: 14, height: 14, class: 'dot' },
      sv('circle', { cx: 7, cy: 7, r: 6, fill, stroke: '#111', 'stroke-width': 1 }));
    box.append(el('div', { class: 'legend', id: 'seat-legend' },
      st.seats.map((s, k) => el('span', { 'data-seat': k }, dot(SEAT_COLOURS[s.name[0].toLowerCase()]), ' ' + s.name))));
    box.append(el('div', { class: 'legend' }, ['red', 'yellow', 'green', 'blue'].map((c, k) =>
      el('span', {}, dot(PIECE_COLOURS[k]), ' ' + c))));
  }
  box.style.display = 'none';
  return box;
}

function render() {
  const st = view.state;
  const svg = document.getElementById('board');
  svg.replaceChildren();
  if (st.board.kind === 'row') drawRow(st, svg); else drawGrid(st, svg);
  const status = document.getElementById('status');
  const over = st.result !== null && st.result !== undefined;
  if (!isLive()) status.textContent = `Viewing ply ${view.cursor} of ${st.history.length} (→ or End: back to the game)`;
  else if (over) status.textContent = 'Game over';
  else {
    const seat = st.seats[st.to_move];
    status.textContent = `${seat.name} to move` + (seat.kind === 'engine' ? ' (engine' + (view.thinking ? ', thinking…)' : ')') : ' (you)');
  }
  document.getElementById('result').textContent = over ? `${st.result.score} — ${st.result.reason}` : '';
  document.getElementById('error').textContent = view.error;
  document.getElementById('fen').textContent = isLive() || !view.shown ? st.fen : view.shown.fen;
  document.getElementById('undo').disabled = view.thinking || st.history.length === 0;
  document.getElementById('engine-move').disabled = view.thinking || over || !isLive();
  document.getElementById('analyse').textContent = view.analysing ? 'Stop analysis' : 'Analyse';
  const pass = document.getElementById('pass');
  pass.style.display = canMove(st) && st.legal.some((m) => m.move === '0000') ? '' : 'none';
  // For people and tests: 'human' when a person may move now, 'engine' while the engine is
  // to move or thinking, 'over' at the end; the ply shown and whether an analysis runs.
  document.body.dataset.state = over ? 'over' : view.thinking || !humanToMove(st) ? 'engine' : 'human';
  document.body.dataset.plies = String(st.history.length);
  document.body.dataset.shown = String(shownPly());
  document.body.dataset.analysing = String(view.analysing);
  soundFor(st);
  renderClocks(st);
  renderEndings(st, over);
  renderPlayers(st);
  renderMoves(st);
  renderAnalysis();
  renderGraph();
  renderSolved(st);
}

async function send(path, body) {
  view.error = '';
  view.notice = '';
  try {
    const st = await api('POST', `/api/game/${view.state.id}/${path}`, body);
    view.state = st.state || st;
    view.selected = null;
    view.cursor = null;
  } catch (e) {
    view.error = e.message;
  }
  closePromo();
  render();
  if (view.analysing) startAnalysis();
  maybeEngine();
}

async function engineMove() {
  if (view.thinking) return;
  view.thinking = true;
  view.cursor = null;
  view.infoPly = view.state.history.length;
  if (view.analysing) { view.analysing = false; }
  render();
  try {
    const r = await api('POST', `/api/game/${view.state.id}/engine`, {});
    view.state = r.state;
    view.notice = '';
    if (r.info && r.info.depth !== undefined) { view.info = r.info; recordEval(view.infoPly, r.info); }
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
  if (view.auto && !view.thinking && !view.analysing && st.to_move !== null && st.to_move !== undefined &&
      st.seats[st.to_move].kind === 'engine') {
    setTimeout(engineMove, 30);
  }
}

// ---------------------------------------------------------------- stepping through the game

async function goTo(ply) {
  const st = view.state;
  ply = Math.max(0, Math.min(st.history.length, ply));
  view.selected = null;
  if (ply === st.history.length) {
    view.cursor = null;
    view.shown = null;
    view.error = '';
  } else {
    try {
      view.shown = await api('GET', `/api/game/${st.id}/position?ply=${ply}`);
      view.cursor = ply;
      view.error = '';
    } catch (e) { view.error = e.message; }
  }
  render();
  if (view.analysing) startAnalysis();
}

function onKey(ev) {
  if (ev.target.closest && ev.target.closest('input, textarea, select')) return;
  const at = shownPly(), end = view.state.history.length;
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: end, ArrowUp: 0, ArrowDown: end }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  goTo(to);
}

// ---------------------------------------------------------------- analysis

async function startAnalysis() {
  const st = view.state;
  const ply = shownPly();
  const multipv = parseInt(document.getElementById('multipv').value, 10) || 3;
  view.lines = [];
  view.analysisPly = ply;
  try {
    await api('POST', `/api/game/${st.id}/analysis`, { ply, multipv });
    view.analysing = true;
  } catch (e) {
    view.analysing = false;
    view.error = e.message;
  }
  render();
}

async function stopAnalysis() {
  view.analysing = false;
  view.lines = [];
  try { await api('DELETE', `/api/game/${view.state.id}/analysis`); } catch (e) { view.error = e.message; }
  render();
  maybeEngine();
}

function onEvent(msg) {
  if (msg.type === 'info') {
    view.info = msg.info;
    recordEval(view.infoPly, msg.info);
    renderAnalysis();
  } else if (msg.type === 'analysis' && view.analysing && msg.ply === view.analysisPly) {
    const k = (msg.info.multipv || 1) - 1;
    view.lines[k] = msg.info;
    recordEval(msg.ply, msg.info);
    render();
  }
}

// ---------------------------------------------------------------- moving: click-click and drag

function closePromo() {
  const p = document.getElementById('promo');
  p.classList.remove('open');
  p.replaceChildren();
}

function refuse(from, to) {
  view.error = `Illegal move: ${from}–${to}`;
  view.refused = to;
  view.selected = null;
  document.body.dataset.refused = from + to;
  render();
  setTimeout(() => { view.refused = null; render(); }, 700);
}

// Plays from→to if legal (a promotion opens the chooser); refuses it otherwise.
function tryMove(from, to) {
  const st = view.state;
  const moves = st.legal.filter((m) => m.from === from && m.to === to);
  if (moves.length === 1) { send('move', { move: moves[0].move }); return true; }
  if (moves.length > 1) {
    const p = document.getElementById('promo');
    p.replaceChildren(el('span', {}, 'Promote to:'), ...moves.map((m) => el('button', {
      'data-promo': m.promotion || m.move, on: { click: () => send('move', { move: m.move }) },
    }, (m.promotion || m.move).toUpperCase())));
    p.classList.add('open');
    return true;
  }
  refuse(from, to);
  return false;
}

function clickSquare(sq) {
  const st = view.state;
  if (!canMove(st)) return;
  const own = st.legal.some((m) => m.from === sq);
  if (view.selected && view.selected !== sq && !own) { tryMove(view.selected, sq); return; }
  if (view.selected && view.selected !== sq && targetsOf(st).has(sq)) { tryMove(view.selected, sq); return; }
  closePromo();
  view.selected = own && view.selected !== sq ? sq : null;
  render();
}

function squareAt(x, y) {
  for (const e of document.elementsFromPoint(x, y)) {
    const sq = e.getAttribute && e.getAttribute('data-sq');
    if (sq) return sq;
  }
  return null;
}

function svgPoint(svg, ev) {
  const p = svg.createSVGPoint();
  p.x = ev.clientX; p.y = ev.clientY;
  return p.matrixTransform(svg.getScreenCTM().inverse());
}

function onPointerDown(ev) {
  const t = ev.target.closest('[data-sq]');
  if (!t) return;
  view.drag = { from: t.getAttribute('data-sq'), x: ev.clientX, y: ev.clientY, moved: false };
}

function onPointerMove(ev) {
  const d = view.drag;
  if (!d) return;
  const svg = document.getElementById('board');
  if (!d.moved) {
    if (Math.hypot(ev.clientX - d.x, ev.clientY - d.y) < 5) return;
    if (!canMove(view.state) || !view.state.legal.some((m) => m.from === d.from)) { view.drag = null; return; }
    d.moved = true;
    view.selected = d.from;
    render();
    d.start = svgPoint(svg, ev);
    d.ghost = svg.querySelector(`.piece[data-on="${d.from}"]`);
    if (d.ghost) { svg.append(d.ghost); d.ghost.classList.add('dragging'); }
  }
  if (d.ghost) {
    const p = svgPoint(svg, ev);
    const base = d.ghost.getAttribute('data-base') || d.ghost.getAttribute('transform') || '';
    d.ghost.setAttribute('data-base', base);
    d.ghost.setAttribute('transform', `translate(${p.x - d.start.x},${p.y - d.start.y}) ${base}`);
  }
}

function onPointerUp(ev) {
  const d = view.drag;
  view.drag = null;
  if (!d) return;
  if (!d.moved) { clickSquare(d.from); return; }
  const to = squareAt(ev.clientX, ev.clientY);
  if (!to || to === d.from) { render(); return; }
  tryMove(d.from, to);
}

function undoPlies(st) {
  // Take back to the last position where a person was to move.
  const h = st.history;
  for (let k = 1; k <= h.length; k++) if (st.seats[h[h.length - k].seat].kind === 'human') return k;
  return 1;
}

function seatText(s) {
  return s.name + ': ' + (s.kind === 'human' ? 'human' :
    `engine ${s.movetime_ms} ms${s.search ? ' ' + s.search : ''}` +
    (s.elo ? ` Elo ${s.elo}` : '') + (s.skill !== undefined ? ` skill ${s.skill}` : '') +
    (s.depth ? ` depth ${s.depth}` : ''));
}

// The board is seen from the person's seat: flipped where the only people play the second seat.
function initialFlip(st) {
  const humans = st.seats.map((s, i) => s.kind === 'human' ? i : -1).filter((i) => i >= 0);
  return st.seats.length === 2 && humans.length === 1 && humans[0] === 1;
}

function newFromFen(fenInput) {
  return async () => {
    const seats = view.state.seats.map((s) => s.kind === 'human' ? { kind: 'human' } :
      Object.assign({ kind: 'engine', movetime_ms: s.movetime_ms }, s.search ? { search: s.search } : {},
        s.elo ? { elo: s.elo } : {}, s.skill !== undefined ? { skill: s.skill } : {},
        s.depth ? { depth: s.depth } : {}));
    try {
      const n = await api('POST', '/api/new', { game: view.state.game, variant: view.state.variant,
        fen: fenInput.value.trim() || view.state.fen, seats });
      location.href = '/play/' + n.id;
    } catch (e) { view.error = e.message; render(); }
  };
}

async function board(app, id) {
  let st;
  try { st = await api('GET', '/api/game/' + id); } catch (e) {
    app.replaceChildren(el('p', {}, e.message + ' — '), el('a', { href: '/' }, 'back to the lobby'));
    return;
  }
  await gameList().catch(() => []);
  view.state = st;
  view.auto = true;
  // The game's entry of /api/games: its title and rules.
  const info = (await api('GET', '/api/games').catch(() => [])).find((g) => g.game === st.game);
  view.flipped = initialFlip(st);
  const svg = sv('svg', { id: 'board', xmlns: SVGNS });
  svg.addEventListener('pointerdown', onPointerDown);
  window.addEventListener('pointermove', onPointerMove);
  window.addEventListener('pointerup', onPointerUp);
  document.addEventListener('keydown', onKey);
  const graph = sv('svg', { id: 'graph', preserveAspectRatio: 'none' });
  graph.addEventListener('click', (ev) => {
    const r = graph.getBoundingClientRect();
    goTo(Math.round(((ev.clientX - r.left) / r.width) * view.state.history.length));
  });
  const multipv = el('select', { id: 'multipv', title: 'lines (MultiPV)' }, [1, 2, 3, 4, 5].map((n) => el('option', { value: n }, n + (n === 1 ? ' line' : ' lines'))));
  multipv.value = '3';
  multipv.addEventListener('change', () => { if (view.analysing) startAnalysis(); });
  const fenInput = el('input', { class: 'fen', id: 'fen-input', placeholder: 'a FEN for a new game of ' + st.variant });
  const nav = (label, idv, f) => el('button', { id: idv, title: label, on: { click: f } }, label);
  app.replaceChildren(el('div', { class: 'play' },
    el('div', { class: 'boardcol' },
      el('div', { class: 'boardbox' }, el('div', { id: 'evalbar', title: 'evaluation (White\'s share)' },
        el('div', { class: 'white', style: 'height:50%' }), el('span', { id: 'evallabel' })), svg),
      el('div', { id: 'promo' }),
      el('div', { class: 'controls' },
        nav('«', 'nav-start', () => goTo(0)), nav('‹', 'nav-back', () => goTo(shownPly() - 1)),
        nav('›', 'nav-forward', () => goTo(shownPly() + 1)), nav('»', 'nav-end', () => goTo(view.state.history.length)),
        el('button', { id: 'undo', title: 'take back your last move and the reply',
          on: { click: () => send('undo', { plies: undoPlies(view.state) }) } }, 'Takeback'),
        el('button', { id: 'resign', on: { click: resignClick } }, 'Resign'),
        el('button', { id: 'draw', on: { click: offerDraw } }, 'Offer draw'),
        el('button', { id: 'flip', on: { click: () => { view.flipped = !view.flipped; render(); } } }, 'Flip'),
        el('button', { id: 'engine-move', on: { click: () => { engineMove(); } } }, 'Engine move'),
        el('button', { id: 'pass', on: { click: () => send('move', { move: '0000' }) } }, 'Pass'),
        el('button', { id: 'sound', title: 'a tone for every move', on: { click: toggleSound } }, soundLabel()),
        el('a', { id: 'pgn', href: `/api/game/${id}/pgn`, download: `kiebitz-${st.game}-${id}.pgn` }, 'PGN'),
        el('a', { href: '/' }, 'New game')),
      graph),
    el('div', { class: 'side' },
      el('div', { class: 'panel' },
        el('div', { class: 'row title' }, el('h3', {}, `${st.title || (info && info.title) || titleOf(st.game)} · ${st.variant}`),
          el('button', { id: 'rules-button', on: { click: () => {
            const r = document.getElementById('rules');
            r.style.display = r.style.display === 'none' ? '' : 'none';
          } } }, 'Rules')),
        el('div', {}, st.seats.map(seatText).join(' · ')),
        el('div', { id: 'clocks' }), el('div', { id: 'players' }),
        el('div', { id: 'status' }), el('div', { id: 'result' }), el('div', { id: 'notice' }),
        el('div', { id: 'solved' }), el('div', { id: 'error' })),
      rulesPanel(info, st),
      el('div', { class: 'panel' }, el('div', { class: 'row' }, el('h3', {}, 'Analysis'),
        el('button', { id: 'analyse', on: { click: () => (view.analysing ? stopAnalysis() : startAnalysis()) } }, 'Analyse'),
        multipv), el('div', { id: 'analysis' })),
      el('div', { class: 'panel' }, el('h3', {}, 'Moves'), el('div', { id: 'moves' })),
      el('div', { class: 'panel' }, el('div', { class: 'fenline', id: 'fen' }),
        el('div', { class: 'row' }, fenInput, el('button', { id: 'new-from-fen', on: { click: newFromFen(fenInput) } },
          'New game from FEN'))))));
  if (window.EventSource) {
    const es = new EventSource(`/api/game/${id}/events`);
    es.onmessage = (ev) => onEvent(JSON.parse(ev.data));
    window.addEventListener('pagehide', () => {
      if (view.analysing) fetch(`/api/game/${id}/analysis`, { method: 'DELETE', keepalive: true });
      es.close();
    });
  }
  render();
  setInterval(tickClocks, 100);
  maybeEngine();
}

function main() {
  const app = document.getElementById('app');
  const m = location.pathname.match(/^\/play\/([0-9a-zA-Z]+)$/);
  const page = m ? board(app, m[1]) : location.pathname === '/report' ? reportPage(app) : lobby(app);
  page.catch((e) => { app.textContent = 'Error: ' + e.message; });
}

main();
