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
    const titles = info.variant_titles || info.variants;
    const variant = el('select', { class: 'variant' }, info.variants.map((v, k) =>
      el('option', { value: v }, titles[k] && titles[k] !== v ? `${titles[k]} (${v})` : v)));
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
          // One game per click: the button stays disabled while the game is being made.
          if (start.disabled) return;
          start.disabled = true;
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
          } catch (e) { error.textContent = e.message; start.disabled = false; }
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
  // Back to the lobby from a game (the back/forward cache): its buttons work again.
  window.addEventListener('pageshow', (ev) => {
    if (ev.persisted) document.querySelectorAll('.card button.primary').forEach((b) => { b.disabled = false; });
  });
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
  node: null, pending: false, es: null, vars: {}, review: { evals: [], marks: [], running: false },
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
  if (view.node && view.node.pos) return view.node.pos;
  if (isLive() && view.endPos && view.endPos.ply === st.history.length && st.result) return view.endPos;
  if (isLive() || !view.shown) {
    if (!view.liveShown || view.liveShown.of !== st) view.liveShown = Object.assign({}, st, { last: lastMove(st), of: st });
    return view.liveShown;
  }
  return view.shown;
}

function humanToMove(st) {
  return st.to_move !== null && st.to_move !== undefined && st.seats[st.to_move].kind === 'human';
}

function targetsOf(st) {
  return new Set(view.selected ? legalHere(st).filter((m) => m.from === view.selected).map((m) => m.to) : []);
}

function drawGrid(st, svg) {
  const { board: b, last, check } = shown(st);
  const S = 60, W = b.width, H = b.height, M = 16;
  svg.setAttribute('viewBox', `0 0 ${W * S + M} ${H * S + M}`);
  // The king in check: a red glow on its square (lichess's mark).
  svg.append(sv('defs', {}, sv('radialGradient', { id: 'check' },
    sv('stop', { offset: '0%', 'stop-color': '#ff0000', 'stop-opacity': 1 }),
    sv('stop', { offset: '25%', 'stop-color': '#e70000', 'stop-opacity': 1 }),
    sv('stop', { offset: '90%', 'stop-color': '#a50000', 'stop-opacity': 0 }))));
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
      if (check === sq) svg.append(sv('rect', { x, y, width: S, height: S, fill: 'url(#check)', class: 'check', 'data-check': sq }));
      if (view.selected === sq) svg.append(sv('rect', { x, y, width: S, height: S, fill: '#3b8f5f', opacity: .45 }));
      if (view.premove && (view.premove.from === sq || view.premove.to === sq)) {
        svg.append(sv('rect', { x, y, width: S, height: S, fill: '#3a6fd8', opacity: .4, class: 'premove' }));
      }
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
  drawPromo(svg);
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

// One line of the analysis: its text; a click plays its moves onto the move tree (up to the
// move clicked).
function lineBox(l, k, st) {
  const box = el('div', { class: 'line', 'data-line': k + 1 }, lineText(l, st.seats));
  box.addEventListener('click', (ev) => {
    const moves = l.pv || [];
    const pick = ev.target.closest('[data-pv]');
    playLine(pick ? moves.slice(0, Number(pick.dataset.pv) + 1) : moves);
  });
  return box;
}

function renderAnalysis() {
  const box = document.getElementById('analysis');
  if (!box) return;
  const st = view.state;
  const here = view.analysing && view.analysisKey === targetKey(analysisTarget());
  const lines = here ? view.lines.filter(Boolean) : [];
  // The engine's line belongs to the position it searched and the move it played there.
  const engineHere = view.info && !view.node && (shownPly() === view.infoPly || shownPly() === view.infoPly + 1);
  let main;
  if (lines.length) {
    box.replaceChildren(...lines.map((l, k) => lineBox(l, k, st)));
    main = lines[0];
  } else if (engineHere && !view.analysing) {
    const i = view.info;
    box.replaceChildren(el('div', { class: 'line' }, lineText(i, st.seats) +
      (i.search ? `  (${i.search})` : '') + `\nnodes ${i.nodes}  nps ${i.nps || 0}` +
      (i.limited ? '\nthe line of the move played (limited strength)' : '') + (i.note ? `\n${i.note}` : '') +
      (i.time_ms !== undefined ? `\nthought ${(i.time_ms / 1000).toFixed(1)} s` : '')));
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

// White's share (0..1) of a position's evaluation from the server's review: the search's
// score, else its solved value; null where unknown.
function evalShare(e) {
  if (!e) return null;
  if (e.white && (e.white.cp !== undefined || e.white.mate !== undefined)) return whiteShare(e.white);
  const s = e.solved;
  if (s && s.value) return s.value === 'draw' ? .5 : (s.value === 'win') === (s.for === 'White') ? 1 : 0;
  return null;
}

const MARK_GLYPH = { inaccuracy: '?!', mistake: '?', blunder: '??' };
const MARK_COLOUR = { inaccuracy: '#56b4e9', mistake: '#e69f00', blunder: '#db3031' };

// The evaluation over the game (White's share per ply, from the server's review: the
// engine's moves, the analyses of the game's positions, "Analyse the whole game"): only the
// plies known are drawn, from an even start; judged moves are dots in their colour. A click
// jumps to that ply.
function renderGraph() {
  const g = document.getElementById('graph');
  if (!g) return;
  const n = Math.max(1, view.state.history.length);
  const W = 300, H = 60;
  const ev = view.review.evals;
  g.setAttribute('viewBox', `0 0 ${W} ${H}`);
  g.replaceChildren(sv('rect', { x: 0, y: 0, width: W, height: H, fill: '#333' }));
  const pts = [];
  for (let p = 0; p <= view.state.history.length; p++) {
    const share = evalShare(ev[p]);
    if (share !== null) pts.push([(p / n) * W, H - share * H, p]);
  }
  g.dataset.points = String(pts.length);
  g.dataset.start = pts.length ? (pts[0][2] === 0 ? 'known' : 'even') : '';
  if (pts.length) {
    if (pts[0][2] !== 0) pts.unshift([0, H / 2, 0]);
    const line = pts.map(([x, y], k) => `${k ? 'L' : 'M'}${x.toFixed(1)} ${y.toFixed(1)}`).join(' ');
    const last = pts[pts.length - 1][0];
    g.append(sv('path', { d: `M0 ${H} L0 ${pts[0][1]} ${line.slice(line.indexOf('L') < 0 ? line.length : line.indexOf('L'))} L${last} ${H}Z`,
      fill: '#f4f4f4', class: 'eval' }));
    g.append(sv('path', { d: line, fill: 'none', stroke: '#9a9a9a', 'stroke-width': .8 }));
  }
  g.append(sv('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, stroke: '#888', 'stroke-width': .5 }));
  for (const m of view.review.marks) {
    const share = evalShare(ev[m.ply]);
    if (share === null) continue;
    g.append(sv('circle', { cx: (m.ply / n) * W, cy: H - share * H, r: 2.5, fill: MARK_COLOUR[m.judgement],
      class: 'mark', 'data-ply': m.ply, 'data-judgement': m.judgement }));
  }
  const x = (shownPly() / n) * W;
  g.append(sv('line', { x1: x, y1: 0, x2: x, y2: H, stroke: '#d33', 'stroke-width': 1.5, class: 'cursor' }));
}

function recordEval() { /* the server keeps the evaluations and announces them (onEval) */ }

function renderMoves(st) {
  const box = document.getElementById('moves');
  const h = st.history;
  const at = view.node ? -1 : shownPly();
  const marks = {};
  for (const mk of view.review.marks) marks[mk.ply] = mk;
  const cell = (m, i) => {
    const mk = marks[i + 1];
    const glyph = mk ? el('span', { class: 'judgement ' + mk.judgement, 'data-judgement': mk.judgement,
      title: `${mk.judgement}` + (mk.best_san ? `: best was ${mk.best_san}` : '') }, MARK_GLYPH[mk.judgement]) : null;
    return el('td', { class: 'mv' + (i + 1 === at ? ' current' : ''), 'data-ply': i + 1,
      on: { click: () => goTo(i + 1) } }, m.san, glyph);
  };
  const rows = [];
  const vars = (base, cols) => { const r = varRow(base, st, cols); if (r) rows.push(r); };
  if (st.board.kind === 'chamaeleon') {
    h.forEach((m, i) => {
      rows.push(el('tr', {}, el('td', { class: 'n' }, String(i + 1)), el('td', {}, st.seats[m.seat].name), cell(m, i)));
      vars(i, 3);
    });
  } else {
    let number = parseInt((st.start_fen.split(' ')[5] || '1'), 10) || 1;
    let row = null, pending = [];
    const flush = () => { if (row) rows.push(el('tr', {}, row)); row = null; pending.forEach((b) => vars(b, 3)); pending = []; };
    h.forEach((m, i) => {
      if (m.seat === 0 || i === 0) {
        flush();
        row = [el('td', { class: 'n' }, number + '.'), m.seat === 0 ? cell(m, i) : el('td', {}, '…'), el('td', {})];
        if (m.seat === 1) row[2] = cell(m, i);
      } else {
        row[2] = cell(m, i);
      }
      pending.push(i);
      // A variation of White's move breaks the row, as in lichess's list.
      if (m.seat === 0 && (view.vars[i] || []).length) { flush(); row = [el('td', { class: 'n' }, number + '...'), el('td', {}, '…'), el('td', {})]; }
      if (m.seat === 1) number++;
    });
    flush();
  }
  vars(h.length, 3);
  box.replaceChildren(el('table', {}, rows));
  const tools = document.getElementById('var-tools');
  if (tools) tools.style.display = view.node ? '' : 'none';
  // Only the list scrolls (not the page): the current move in its middle, else the end.
  const cur = box.querySelector('.current');
  if (cur) {
    const top = cur.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
    box.scrollTop = Math.max(0, top - box.clientHeight / 2);
  } else box.scrollTop = box.scrollHeight;
}

// The solved value of the position (pawn chess up to 6x6, CRASH!, Räuberschach): asked again
// while the server is still solving it.
function solvedDuringPlay() {
  try { return localStorage.getItem('kiebitz-solved') !== 'off'; } catch (e) { return true; }
}

function renderSolved(st) {
  const box = document.getElementById('solved');
  const v = st.solved;
  const toggle = document.getElementById('solved-toggle');
  if (toggle) {
    toggle.parentElement.style.display = v ? '' : 'none';
    toggle.checked = solvedDuringPlay();
  }
  // Hidden during play where the player chose so (a game to play, not to be told the answer).
  const hide = !solvedDuringPlay() && (st.result === null || st.result === undefined);
  box.style.display = v && !hide ? '' : 'none';
  if (!v || hide) return;
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
function clockBox(st, k) {
  const left = clockLeft(st, k);
  const cls = 'clock' + (st.clock.running === k ? ' running' : '') + (left < 10000 ? ' low' : '');
  return el('div', { class: cls, 'data-seat': k }, el('span', { class: 'who' }, st.seats[k].name),
    el('span', { class: 'time' }, clockText(left)));
}

// Who plays a seat, as its strip says: a person, or the engine with its think time (by its
// clock in a timed game) and strength.
function playerText(st, s) {
  if (s.kind === 'human') return st.spectator ? 'person' : st.seats.every((x) => x.kind === 'human') ? 'person' : 'you';
  const level = s.elo ? ` · Elo ${s.elo}` : s.skill !== undefined ? ` · skill ${s.skill}` : s.depth ? ` · depth ${s.depth}` : '';
  return `engine${s.search ? ' ' + s.search : ''} · ${st.clock ? 'by its clock' : s.movetime_ms + ' ms'}${level}`;
}

// A two-seat game has a strip above and below the board: the seat there, who plays it, its
// clock (the running one marked); a game of more seats shows its clocks in the side panel.
function renderClocks(st) {
  const box = document.getElementById('clocks');
  const two = st.seats.length === 2;
  if (st.clock && view.clockState !== st) { view.clockState = st; view.clockAt = performance.now(); }
  for (const [id, k] of [['strip-top', view.flipped ? 0 : 1], ['strip-bottom', view.flipped ? 1 : 0]]) {
    const strip = document.getElementById(id);
    if (!strip) continue;
    strip.style.display = two ? '' : 'none';
    if (!two) continue;
    const s = st.seats[k];
    strip.classList.toggle('to-move', st.to_move === k);
    strip.dataset.seat = k;
    strip.replaceChildren(el('span', { class: 'name' }, s.name), el('span', { class: 'who' }, playerText(st, s)),
      st.clock ? clockBox(st, k) : '');
  }
  box.style.display = st.clock && !two ? '' : 'none';
  if (!st.clock) return;
  if (!two) box.replaceChildren(...st.seats.map((s, k) => clockBox(st, k)));
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

// Resign takes two clicks (the first arms the button for three seconds); the second counts
// only from half a second on, so that a double click does not resign.
function resignClick() {
  if (view.pending) return;
  const now = performance.now();
  if (!view.resignArmed) {
    view.resignArmed = now;
    render();
    setTimeout(() => { view.resignArmed = false; render(); }, 3000);
    return;
  }
  if (now - view.resignArmed < 500) return;
  view.resignArmed = false;
  send('resign', {});
}

// A draw offer: an engine answers at once by its rule; a person accepts by offering too.
async function offerDraw() {
  const st = view.state;
  if (view.pending) return;
  const body = st.draw_offer !== null && st.draw_offer !== undefined ? { seat: 1 - st.draw_offer } : {};
  view.error = '';
  setPending(true);
  try {
    const a = await api('POST', `/api/game/${st.id}/draw`, body);
    adopt(a.state, true);
    view.notice = a.draw === 'accepted' ? 'Draw agreed.' : a.draw === 'declined' ? `Draw declined: ${a.why}.` :
      `${st.seats[a.state.draw_offer].name} offers a draw (the other side accepts with Accept draw; a move declines).`;
  } catch (e) { view.error = e.message; }
  setPending(false);
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
  if (view.node) status.textContent = `Variation: ${view.node.path.length} moves from ply ${view.node.base} (the game is not changed; End: back to the game)`;
  else if (!isLive()) status.textContent = `Viewing ply ${view.cursor} of ${st.history.length} (→ or End: back to the game)`;
  else if (over) status.textContent = 'Game over';
  else {
    const seat = st.seats[st.to_move];
    status.textContent = `${seat.name} to move` + (seat.kind === 'engine' ? ' (engine' + (view.thinking ? ', thinking…)' : ')') :
      st.spectator ? '' : ' (you)');
  }
  if (st.spectator) status.textContent = 'Watching (read-only) · ' + status.textContent;
  document.getElementById('result').textContent = over ? `${st.result.score} — ${st.result.reason}` : '';
  document.getElementById('error').textContent = view.error;
  document.getElementById('fen').textContent = shown(st).fen || st.fen;
  const off = (id, yes) => { const b = document.getElementById(id); b.dataset.off = String(yes); b.disabled = yes || view.pending; };
  off('undo', view.thinking || st.history.length === 0 || over);
  off('engine-move', view.thinking || over || !isLive() || !!view.node);
  off('resign', false);
  off('draw', false);
  off('pass', false);
  document.getElementById('analyse').textContent = view.analysing ? 'Stop analysis' : 'Analyse';
  document.body.classList.toggle('spectator', !!st.spectator);
  const pass = document.getElementById('pass');
  pass.style.display = moveMode(st).mode === 'game' && st.legal.some((m) => m.move === '0000') ? '' : 'none';
  // For people and tests: 'human' when a person may move now, 'engine' while the engine is
  // to move or thinking, 'over' at the end; the ply shown and whether an analysis runs.
  document.body.dataset.state = over ? 'over' : view.thinking || !humanToMove(st) ? 'engine' : 'human';
  document.body.dataset.plies = String(st.history.length);
  document.body.dataset.shown = String(shownPly());
  document.body.dataset.analysing = String(view.analysing);
  document.body.dataset.analysisPly = view.analysing ? String(view.analysisPly) : '';
  document.body.dataset.version = String(st.version);
  document.body.dataset.check = shown(st).check || '';
  soundFor(st);
  renderClocks(st);
  renderGameOver(st, over);
  renderEndings(st, over);
  renderPlayers(st);
  renderMoves(st);
  renderAnalysis();
  renderGraph();
  renderReviewStatus();
  renderSolved(st);
}

// A request that changes the game is in flight: the buttons that send one are disabled (a
// double click sends one request, not two) until its answer is in.
function setPending(on) {
  view.pending = on;
  for (const b of document.querySelectorAll('button.act')) b.disabled = on || b.dataset.off === 'true';
  document.body.dataset.pending = String(on);
}

// A finished game's last position as the server replays it: its legal moves make the tree's
// first variation after the game's end (a resigned or timed-out game).
async function loadEnd(st) {
  if (!st.result || (view.endPos && view.endPos.ply === st.history.length)) return;
  try {
    view.endPos = await api('GET', `/api/game/${st.id}/position?ply=${st.history.length}`);
    view.endPos.result = st.result;
  } catch (e) { /* the live state then */ }
}

// A state from the server becomes the page's: a take-back drops the engine's line of a
// position no longer in the game; a shown ply beyond the game goes back to the game.
function adopt(st, quiet) {
  const before = view.state;
  view.state = st;
  if (st.result) loadEnd(st).then(() => render());
  if (before && st.history.length < before.history.length) {
    view.info = null;
    view.review.evals = view.review.evals.slice(0, st.history.length + 1);
    view.review.marks = view.review.marks.filter((m) => m.ply <= st.history.length);
    if (view.cursor !== null && view.cursor > st.history.length) { view.cursor = null; view.shown = null; }
    pruneTree(st);
  }
  if (!quiet) { render(); followAnalysis(); maybeEngine(); playPremove(); }
}

// The state read again (a move made elsewhere, the stream reopened, the page shown again),
// unless this page waits for an answer of its own (which brings the state).
async function refresh() {
  const st = view.state;
  if (!st || view.pending || view.thinking) return;
  try {
    const again = await api('GET', '/api/game/' + st.id);
    if (view.pending || view.thinking || view.state.id !== again.id) return;
    if (again.version !== view.state.version || again.history.length !== view.state.history.length) adopt(again);
  } catch (e) { /* the next event or look asks again */ }
}

async function send(path, body) {
  if (view.pending) return;
  view.error = '';
  view.notice = '';
  setPending(true);
  try {
    const st = await api('POST', `/api/game/${view.state.id}/${path}`, body);
    adopt(st.state || st, true);
    view.selected = null;
    view.cursor = null;
    view.node = null;
  } catch (e) {
    view.error = e.message;
  }
  setPending(false);
  view.promo = null;
  render();
  followAnalysis();
  maybeEngine();
}

async function engineMove() {
  if (view.thinking || view.pending) return;
  view.thinking = true;
  view.cursor = null;
  view.node = null;
  view.infoPly = view.state.history.length;
  view.info = null;
  render();
  try {
    const r = await api('POST', `/api/game/${view.state.id}/engine`, {});
    adopt(r.state, true);
    view.notice = '';
    if (r.info && r.info.depth !== undefined) { view.info = r.info; recordEval(view.infoPly, r.info); }
    view.error = '';
  } catch (e) {
    view.error = e.message;
    view.auto = false;
  }
  view.thinking = false;
  render();
  followAnalysis();
  playPremove();
  maybeEngine();
}

function maybeEngine() {
  const st = view.state;
  if (view.auto && !view.thinking && !view.pending && !view.analysing && !st.spectator && st.to_move !== null &&
      st.to_move !== undefined && st.seats[st.to_move].kind === 'engine') {
    setTimeout(engineMove, 30);
  }
}

// ---------------------------------------------------------------- stepping through the game

async function goTo(ply) {
  const st = view.state;
  ply = Math.max(0, Math.min(st.history.length, ply));
  view.selected = null;
  view.node = null;
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
  if (view.node) {
    const to = { ArrowLeft: 'back', ArrowRight: 'forward', Home: 'start', End: 'end', ArrowUp: 'start', ArrowDown: 'end' }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    stepTree(to);
    return;
  }
  const at = shownPly(), end = view.state.history.length;
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: end, ArrowUp: 0, ArrowDown: end }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  if (ev.key === 'ArrowRight' && at < end) { goTo(to); return; }
  if (ev.key === 'ArrowRight') { stepTree('forward'); return; }
  goTo(to);
}

// ---------------------------------------------------------------- analysis

// The position analysed: the game's ply shown and the moves of the tree's line from there.
function analysisTarget() {
  return view.node ? { ply: view.node.base, moves: view.node.path } : { ply: shownPly(), moves: [] };
}

function targetKey(t) { return t.ply + ':' + (t.moves || []).join(' '); }

// The analysis follows the position shown: it restarts where the game or the tree moved on.
function followAnalysis() {
  if (view.analysing && targetKey(analysisTarget()) !== view.analysisKey) startAnalysis();
}

async function startAnalysis() {
  const st = view.state;
  const target = analysisTarget();
  const multipv = parseInt(document.getElementById('multipv').value, 10) || 3;
  view.lines = [];
  view.analysisPly = target.ply;
  view.analysisKey = targetKey(target);
  view.analysing = true;
  render();
  try {
    await api('POST', `/api/game/${st.id}/analysis`, { ply: target.ply, moves: target.moves, multipv });
  } catch (e) {
    view.analysing = false;
    view.error = e.message;
  }
  render();
}

async function stopAnalysis() {
  view.analysing = false;
  view.lines = [];
  view.analysisKey = null;
  render();
  try { await api('DELETE', `/api/game/${view.state.id}/analysis`); } catch (e) { view.error = e.message; }
  render();
  maybeEngine();
}

function onEvent(msg) {
  if (msg.type === 'info') {
    if (!view.thinking) view.infoPly = view.state.history.length;
    view.info = msg.info;
    recordEval(view.infoPly, msg.info);
    renderAnalysis();
  } else if (msg.type === 'analysis' && view.analysing && targetKey(msg) === view.analysisKey) {
    const k = (msg.info.multipv || 1) - 1;
    view.lines[k] = msg.info;
    if (!(msg.moves || []).length) recordEval(msg.ply, msg.info);
    render();
  } else if ((msg.type === 'move' || msg.type === 'state') && msg.version > (view.state.version || 0)) {
    refresh();
  } else if (msg.type === 'eval' || msg.type === 'review' || msg.type === 'review-done') {
    onEval(msg);
  }
}

// The game's event stream, opened again whenever it was closed: when the page is shown again
// (the back/forward cache), after a lost connection, and by a look every two seconds. Each
// opening reads the state again (moves made meanwhile elsewhere).
function openEvents() {
  if (!window.EventSource || document.hidden && view.es) return;
  if (view.es && view.es.readyState !== 2) return;
  if (view.es) view.es.close();
  const es = new EventSource(`/api/game/${view.state.id}/events`);
  view.es = es;
  es.onmessage = (ev) => onEvent(JSON.parse(ev.data));
  es.onopen = () => { document.body.dataset.stream = 'open'; refresh(); };
  es.onerror = () => { document.body.dataset.stream = es.readyState === 2 ? 'closed' : 'reconnecting'; };
}

function closeEvents() {
  if (view.es) view.es.close();
  view.es = null;
  document.body.dataset.stream = 'closed';
}

function followGame() {
  window.addEventListener('pagehide', () => {
    if (view.analysing && !view.state.spectator) {
      fetch(`/api/game/${view.state.id}/analysis`, { method: 'DELETE', keepalive: true });
    }
    view.analysing = false;
    closeEvents();
  });
  window.addEventListener('pageshow', (ev) => { if (ev.persisted) { openEvents(); refresh(); render(); } });
  document.addEventListener('visibilitychange', () => { if (!document.hidden) { openEvents(); refresh(); } });
  setInterval(() => {
    if (!view.es || view.es.readyState === 2) openEvents();
    else if (view.es.readyState !== 1) refresh();
  }, 2000);
  openEvents();
}

// ---------------------------------------------------------------- moving: click-click and drag

function closePromo() {
  if (!view.promo) return;
  view.promo = null;
  render();
}

// The legal moves in the position shown (the game's, a ply stepped to, a node of the tree).
function legalHere(st) {
  return shown(st).legal || [];
}

// Where a move made on the board goes: into the game (its live position, a person to move),
// a premove (the engine thinks), the move tree (a variation: in a finished game, or with
// Analyse on anywhere but the live position where a person moves); or nowhere, and why.
function moveMode(st) {
  const over = st.result !== null && st.result !== undefined;
  const live = isLive() && !view.node;
  if (!over && live) {
    if (st.spectator) return { reason: 'This is a spectator link: it shows the game but cannot move.' };
    if (humanToMove(st) && !view.thinking) return { mode: 'game' };
    if (view.thinking && st.seats.some((s) => s.kind === 'human')) return { mode: 'premove' };
    if (view.analysing) return { mode: 'tree' };
    return { reason: `${st.seats[st.to_move].name} is the engine's seat: press Engine move, or Analyse to try moves.` };
  }
  if (over || view.analysing) return { mode: 'tree' };
  return { reason: 'You are looking at an earlier position: press Analyse to try moves here (the game stays as it is), or End to go back to the game.' };
}

function say(text) {
  view.error = text;
  render();
}

function refuse(from, to) {
  const here = shown(view.state);
  const why = here.note ? ` (${here.note})` : here.check ? ' (the king is in check)' : '';
  view.error = `Illegal move: ${from}–${to}${why}`;
  view.refused = to;
  view.selected = null;
  document.body.dataset.refused = from + to;
  render();
  setTimeout(() => { view.refused = null; render(); }, 700);
}

// Plays the chosen move where moveMode says: the game, or the tree.
function play(m) {
  view.promo = null;
  view.selected = null;
  if (moveMode(view.state).mode === 'tree') addToTree(m.move);
  else send('move', { move: m.move });
}

// Plays from→to if legal (a promotion shows its pieces on the target square); refuses it
// otherwise, saying why. While the engine thinks it is kept as a premove.
function tryMove(from, to) {
  const st = view.state;
  const mode = moveMode(st);
  if (mode.reason) { say(mode.reason); return false; }
  if (mode.mode === 'premove') {
    view.premove = { from, to };
    view.selected = null;
    view.notice = `Premove ${from}–${to}: played when it is your move, if it is legal then.`;
    render();
    return true;
  }
  const moves = legalHere(st).filter((m) => m.from === from && m.to === to);
  if (moves.length === 1) { play(moves[0]); return true; }
  if (moves.length > 1) {
    view.promo = { to, moves };
    render();
    return true;
  }
  refuse(from, to);
  return false;
}

// After the engine's move: the premove is played if it is legal now, else dropped, saying so.
function playPremove() {
  const pm = view.premove;
  const st = view.state;
  if (!pm || !humanToMove(st) || view.thinking || view.pending || !isLive() || view.node) return;
  view.premove = null;
  const moves = st.legal.filter((m) => m.from === pm.from && m.to === pm.to);
  if (!moves.length) { view.notice = `Premove ${pm.from}–${pm.to} dropped: not legal after the reply.`; render(); return; }
  const m = moves.find((x) => (x.promotion || '').toLowerCase() === 'q') || moves[0];
  view.notice = '';
  send('move', { move: m.move });
}

function clickSquare(sq) {
  const st = view.state;
  if (view.promo) { closePromo(); return; }
  const mode = moveMode(st);
  const hasPiece = !!document.querySelector(`#board .piece[data-on="${sq}"]`);
  if (mode.reason) { if (hasPiece) say(mode.reason); return; }
  if (mode.mode === 'premove') {
    if (view.selected && view.selected !== sq) { tryMove(view.selected, sq); return; }
    view.premove = null;
    view.selected = hasPiece && view.selected !== sq ? sq : null;
    render();
    return;
  }
  const own = legalHere(st).some((m) => m.from === sq);
  if (view.selected && view.selected !== sq && (!own || targetsOf(st).has(sq))) { tryMove(view.selected, sq); return; }
  if (!own && hasPiece && !view.selected) {
    const here = shown(st);
    say(here.note ? `That piece cannot move: ${here.note}.` : here.result ? 'The game is over here.' : 'That piece has no legal move here.');
    return;
  }
  view.selected = own && view.selected !== sq ? sq : null;
  view.error = '';
  render();
}

// The promotion's pieces on the board, in a column from the target square towards the
// middle (lichess's chooser); a click elsewhere closes it.
function drawPromo(svg) {
  const pr = view.promo;
  if (!pr) return;
  const c = squareCentre(pr.to);
  if (!c) return;
  const g = view.geometry, S = g.S;
  const down = c[1] < g.H * S / 2 ? 1 : -1;
  const white = shown(view.state).to_move === 0;
  pr.moves.forEach((m, k) => {
    const x = c[0] - S / 2, y = c[1] - S / 2 + k * S * down;
    const letter = (m.promotion || '?')[0];
    const piece = white ? letter.toUpperCase() : letter.toLowerCase();
    const box = sv('g', { class: 'promo', 'data-promo': m.promotion || m.move, style: 'cursor:pointer' },
      sv('rect', { x, y, width: S, height: S, fill: '#fff', stroke: '#555', 'stroke-width': 1 }), pieceShape(piece, x, y, S));
    box.addEventListener('pointerdown', (ev) => { ev.stopPropagation(); play(m); });
    svg.append(box);
  });
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
    const mode = moveMode(view.state).mode;
    const from = mode === 'premove' ? !!document.querySelector(`#board .piece[data-on="${d.from}"]`)
      : mode && legalHere(view.state).some((m) => m.from === d.from);
    if (!from) { view.drag = null; return; }
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

function seatText(s, timed) {
  return s.name + ': ' + (s.kind === 'human' ? 'human' :
    `engine ${timed ? 'by its clock' : s.movetime_ms + ' ms'}${s.search ? ' ' + s.search : ''}` +
    (s.elo ? ` Elo ${s.elo}` : '') + (s.skill !== undefined ? ` skill ${s.skill}` : '') +
    (s.depth ? ` depth ${s.depth}` : ''));
}

// The board is seen from the person's seat: flipped where the only people play the second seat.
function initialFlip(st) {
  const humans = st.seats.map((s, i) => s.kind === 'human' ? i : -1).filter((i) => i >= 0);
  return st.seats.length === 2 && humans.length === 1 && humans[0] === 1;
}

// The dialog when the game ends while the page is open: the result, a rematch (the same
// seats the other way round, the same clock and start), analysing the game, closing.
function gameOverBox() {
  return el('div', { id: 'gameover', class: 'dialog', role: 'dialog', style: 'display:none' },
    el('div', { class: 'res', id: 'gameover-result' }),
    el('div', { class: 'row' },
      el('button', { id: 'rematch', class: 'primary', on: { click: rematch } }, 'Rematch'),
      el('button', { id: 'gameover-analyse', on: { click: () => { closeGameOver(); startReview(); if (!view.analysing) startAnalysis(); } } },
        'Analyse'),
      el('button', { id: 'gameover-close', on: { click: closeGameOver } }, 'Close')));
}

function closeGameOver() {
  view.gameOverShown = true;
  document.getElementById('gameover').style.display = 'none';
}

// Shown once, when the state turns over while the page shows the game.
function renderGameOver(st, over) {
  const box = document.getElementById('gameover');
  if (!box) return;
  if (!over) { view.sawLive = true; view.gameOverShown = false; box.style.display = 'none'; return; }
  if (!view.sawLive || view.gameOverShown || st.spectator) return;
  document.getElementById('gameover-result').textContent = `${st.result.score} — ${st.result.reason}`;
  box.style.display = '';
}

async function rematch() {
  const st = view.state;
  const seats = st.seats.map((s) => s.kind === 'human' ? { kind: 'human' } :
    Object.assign({ kind: 'engine', movetime_ms: s.movetime_ms }, s.search ? { search: s.search } : {},
      s.elo ? { elo: s.elo } : {}, s.skill !== undefined ? { skill: s.skill } : {}, s.depth ? { depth: s.depth } : {}));
  if (seats.length === 2) seats.reverse();
  const body = { game: st.game, variant: st.variant, fen: st.start_fen, seats };
  if (st.clock) body.clock = { base_ms: st.clock.base_ms, inc_ms: st.clock.inc_ms };
  try {
    const n = await api('POST', '/api/new', body);
    location.href = '/play/' + n.id;
  } catch (e) { say(e.message); }
}

// The board's size: dragged at its corner, kept in localStorage; by default as large as the
// window allows (the CSS).
function boardResizer() {
  const handle = document.getElementById('resize');
  const apply = (px) => { if (px) document.documentElement.style.setProperty('--board', px + 'px'); };
  try { apply(Number(localStorage.getItem('kiebitz-board')) || 0); } catch (e) { /* private mode */ }
  handle.addEventListener('pointerdown', (ev) => {
    ev.preventDefault();
    ev.stopPropagation();
    const svg = document.getElementById('board');
    const start = { x: ev.clientX, w: svg.getBoundingClientRect().width };
    const move = (e) => apply(Math.max(240, Math.min(window.innerWidth - 40, start.w + e.clientX - start.x)));
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      const w = Math.round(svg.getBoundingClientRect().width);
      try { localStorage.setItem('kiebitz-board', String(w)); } catch (e) { /* private mode */ }
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  });
  handle.addEventListener('dblclick', () => {
    document.documentElement.style.removeProperty('--board');
    try { localStorage.removeItem('kiebitz-board'); } catch (e) { /* private mode */ }
  });
}

// The game's links: the spectator's (read-only) with a copy button, and for the player the
// player's own.
function watchLinks(st) {
  const watch = location.origin + '/watch/' + st.watch;
  const copy = el('button', { id: 'copy-watch', title: 'copy the spectator link', on: { click: async () => {
    try { await navigator.clipboard.writeText(watch); copy.textContent = 'Copied'; } catch (e) {
      const r = document.createRange(); r.selectNodeContents(document.getElementById('watch-link'));
      const sel = getSelection(); sel.removeAllRanges(); sel.addRange(r); copy.textContent = 'Selected: Ctrl+C';
    }
    setTimeout(() => { copy.textContent = 'Copy'; }, 2000);
  } } }, 'Copy');
  return el('div', { class: 'links row' }, el('label', {}, 'Spectator link (read-only):'),
    el('a', { id: 'watch-link', href: watch }, '/watch/' + st.watch), copy);
}

function variantTitle(info, variant) {
  const k = info ? info.variants.indexOf(variant) : -1;
  return k >= 0 && info.variant_titles ? info.variant_titles[k] : variant;
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
  loadTree();
  loadEnd(st);
  loadReview();
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
  const importBox = el('textarea', { class: 'fen', id: 'import-text', rows: 2, placeholder: 'paste a PGN or a FEN to look at it on a new board' });
  const nav = (label, idv, f) => el('button', { id: idv, title: label, on: { click: f } }, label);
  app.replaceChildren(el('div', { class: 'play' },
    el('div', { class: 'boardcol' },
      el('div', { class: 'strip', id: 'strip-top' }),
      el('div', { class: 'boardbox' }, el('div', { id: 'evalbar', title: 'evaluation (White\'s share)' },
        el('div', { class: 'white', style: 'height:50%' }), el('span', { id: 'evallabel' })), svg,
        el('div', { id: 'resize', title: 'drag to resize the board' }), gameOverBox()),
      el('div', { class: 'strip', id: 'strip-bottom' }),
      el('div', { class: 'controls' },
        nav('«', 'nav-start', () => goTo(0)), nav('‹', 'nav-back', () => goTo(shownPly() - 1)),
        nav('›', 'nav-forward', () => goTo(shownPly() + 1)), nav('»', 'nav-end', () => goTo(view.state.history.length)),
        el('button', { id: 'undo', class: 'act', title: 'take back your last move and the reply',
          on: { click: () => send('undo', { plies: undoPlies(view.state), at: view.state.history.length }) } }, 'Takeback'),
        el('button', { id: 'resign', class: 'act', on: { click: resignClick } }, 'Resign'),
        el('button', { id: 'draw', class: 'act', on: { click: offerDraw } }, 'Offer draw'),
        el('button', { id: 'flip', on: { click: () => { view.flipped = !view.flipped; render(); } } }, 'Flip'),
        el('button', { id: 'engine-move', class: 'act', on: { click: () => { engineMove(); } } }, 'Engine move'),
        el('button', { id: 'pass', class: 'act', on: { click: () => send('move', { move: '0000' }) } }, 'Pass'),
        el('button', { id: 'sound', title: 'a tone for every move', on: { click: toggleSound } }, soundLabel()),
        el('a', { id: 'pgn', href: `/api/game/${id}/pgn`, download: `kiebitz-${st.game}-${id}.pgn`, on: { click: downloadPgn } }, 'PGN'),
        el('a', { href: '/' }, 'New game')),
      graph),
    el('div', { class: 'side' },
      el('div', { class: 'panel' },
        el('div', { class: 'row title' }, el('h3', {}, `${st.title || (info && info.title) || titleOf(st.game)} · ${variantTitle(info, st.variant)}`),
          el('button', { id: 'rules-button', on: { click: () => {
            const r = document.getElementById('rules');
            r.style.display = r.style.display === 'none' ? '' : 'none';
          } } }, 'Rules')),
        el('div', {}, st.seats.map((s) => seatText(s, !!st.clock)).join(' · ')),
        watchLinks(st),
        el('div', { id: 'clocks' }), el('div', { id: 'players' }),
        el('div', { id: 'status' }), el('div', { id: 'result' }), el('div', { id: 'notice' }),
        el('div', { id: 'solved' }),
        el('label', { class: 'toggle' }, el('input', { type: 'checkbox', id: 'solved-toggle', on: { change: (ev) => {
          try { localStorage.setItem('kiebitz-solved', ev.target.checked ? 'on' : 'off'); } catch (e) { /* private mode */ }
          render();
        } } }), ' show solved values during play'),
        el('div', { id: 'error' })),
      rulesPanel(info, st),
      el('div', { class: 'panel' }, el('div', { class: 'row' }, el('h3', {}, 'Analysis'),
        el('button', { id: 'analyse', on: { click: () => (view.analysing ? stopAnalysis() : startAnalysis()) } }, 'Analyse'),
        multipv, el('button', { id: 'review', title: 'a short search of every position of the game; marks inaccuracies, mistakes and blunders',
          on: { click: startReview } }, 'Analyse the whole game')),
        el('div', { id: 'review-status' }), el('div', { id: 'analysis' })),
      el('div', { class: 'panel' }, el('div', { class: 'row title' }, el('h3', {}, 'Moves'),
        el('span', { id: 'var-tools' },
          el('button', { id: 'promote-var', title: 'make this variation the first here', on: { click: () => view.node && promoteNode(view.node) } }, 'Promote'),
          el('button', { id: 'delete-var', title: 'delete this move and what follows it', on: { click: () => view.node && deleteNode(view.node) } }, 'Delete'))),
        el('div', { id: 'moves' })),
      el('div', { class: 'panel' }, el('div', { class: 'fenline', id: 'fen' }),
        el('div', { class: 'row' }, fenInput, el('button', { id: 'new-from-fen', on: { click: newFromFen(fenInput) } },
          'New game from FEN')),
        el('div', { class: 'row' }, importBox,
          el('button', { id: 'import', title: 'a new board (two people) with this PGN or FEN', on: { click: () => importText(importBox.value) } },
            'Import PGN / FEN'))))));
  boardResizer();
  followGame();
  render();
  setInterval(tickClocks, 100);
  maybeEngine();
}

// ---------------------------------------------------------------- the move tree

// Variations live on this page (and in localStorage): view.vars[ply] lists the first moves of
// the variations that leave the game after `ply` plies; a node is { mv, san, base, path (the
// moves from the game's position `base` to it, coordinates), parent, kids (kids[0] the main
// continuation, the others its alternatives), pos (the server's position, read when needed) }.
// The game's own record never changes by them; the server replays them for positions
// (/line), analyses (/analysis with `moves`) and the PGN (POST /pgn with `lines`).
let NODE_IDS = 0;

function makeNode(mv, san, parent, base) {
  return { id: ++NODE_IDS, mv, san, base, path: (parent ? parent.path : []).concat([mv]), parent, kids: [], pos: null };
}

function siblingsOf(node) {
  return node.parent ? node.parent.kids : (view.vars[node.base] || []);
}

async function linePos(base, path) {
  return api('POST', `/api/game/${view.state.id}/line`, { ply: base, moves: path });
}

// A move made in tree mode: onto the node shown (or from the game's ply shown), a new
// variation unless the move is already there (the game's own next move steps the game).
async function addToTree(mv) {
  const st = view.state;
  const parent = view.node;
  const base = parent ? parent.base : shownPly();
  if (!parent && base < st.history.length && st.history[base].move === mv) { goTo(base + 1); return; }
  const list = parent ? parent.kids : (view.vars[base] = view.vars[base] || []);
  const known = list.find((n) => n.mv === mv);
  if (known) { selectNode(known); return; }
  let pos;
  try { pos = await linePos(base, (parent ? parent.path : []).concat([mv])); } catch (e) { say(e.message); return; }
  const node = makeNode(mv, pos.sans[pos.sans.length - 1], parent, base);
  node.pos = pos;
  list.push(node);
  view.node = node;
  view.error = '';
  saveTree();
  render();
  followAnalysis();
}

// An analysis line clicked: its moves go onto the tree from the position analysed.
async function playLine(moves) {
  if (!moves.length) return;
  const st = view.state;
  let parent = view.node;
  const base = parent ? parent.base : shownPly();
  let pos;
  try { pos = await linePos(base, (parent ? parent.path : []).concat(moves)); } catch (e) { say(e.message); return; }
  let k = 0;
  // The game's own moves are followed as long as the line keeps to them.
  let gamePly = base;
  while (!parent && k < moves.length && gamePly < st.history.length && st.history[gamePly].move === moves[k]) { k++; gamePly++; }
  const sans = pos.sans.slice(pos.sans.length - moves.length);
  let node = null;
  for (let i = k; i < moves.length; i++) {
    const list = parent ? parent.kids : (view.vars[gamePly] = view.vars[gamePly] || []);
    node = list.find((n) => n.mv === moves[i]);
    if (!node) {
      node = makeNode(moves[i], sans[i], parent, parent ? parent.base : gamePly);
      list.push(node);
    }
    parent = node;
  }
  if (!node) { goTo(gamePly); return; }
  node.pos = pos;
  view.node = node;
  saveTree();
  render();
  followAnalysis();
}

async function selectNode(node) {
  if (!node.pos) {
    try { node.pos = await linePos(node.base, node.path); } catch (e) { say(e.message); return; }
  }
  view.node = node;
  view.selected = null;
  view.cursor = node.base < view.state.history.length ? node.base : null;
  view.error = '';
  render();
  followAnalysis();
}

// ←/→/Home/End inside the tree: back to the parent (or the game's ply it leaves from),
// forward along the main continuation; Home and End go back to the game.
function stepTree(to) {
  const node = view.node;
  const st = view.state;
  if (to === 'start') { goTo(0); return; }
  if (to === 'end') { goTo(st.history.length); return; }
  if (to === 'back') { if (node && node.parent) selectNode(node.parent); else if (node) goTo(node.base); return; }
  const next = node ? node.kids[0] : (view.vars[shownPly()] || [])[0];
  if (next) selectNode(next);
}

function deleteNode(node) {
  const list = siblingsOf(node);
  list.splice(list.indexOf(node), 1);
  if (!node.parent && !list.length) delete view.vars[node.base];
  let cur = view.node;
  while (cur && cur !== node) cur = cur.parent;
  if (cur) { if (node.parent) selectNode(node.parent); else goTo(node.base); }
  saveTree();
  render();
}

// The variation holding the node shown moves up: it becomes the main continuation where it
// branches (first among the variations that leave the game there).
function promoteNode(node) {
  let a = node;
  while (a && siblingsOf(a).indexOf(a) === 0 && a.parent) a = a.parent;
  const list = siblingsOf(a);
  const i = list.indexOf(a);
  if (i <= 0) { view.notice = 'This variation comes first already; the game\'s own moves stay as they were played.'; render(); return; }
  list.splice(i, 1);
  list.unshift(a);
  saveTree();
  render();
}

// Variations that left the game at a ply no longer in it (a takeback) go.
function pruneTree(st) {
  for (const base of Object.keys(view.vars)) if (Number(base) > st.history.length) delete view.vars[base];
  if (view.node && view.node.base > st.history.length) view.node = null;
  saveTree();
}

// The tree as the server's PGN takes it: { at, moves, lines } per variation.
function lineOf(first, at) {
  const moves = [], lines = [];
  let cur = first;
  while (cur) {
    moves.push(cur.mv);
    for (const alt of cur.kids.slice(1)) lines.push(lineOf(alt, moves.length));
    cur = cur.kids[0];
  }
  return { at, moves, lines };
}

function treeLines() {
  const out = [];
  for (const base of Object.keys(view.vars).map(Number).sort((x, y) => x - y)) {
    for (const n of view.vars[base]) out.push(lineOf(n, base));
  }
  return out;
}

function saveTree() {
  const plain = (n) => ({ mv: n.mv, san: n.san, kids: n.kids.map(plain) });
  const out = {};
  for (const [base, list] of Object.entries(view.vars)) if (list.length) out[base] = list.map(plain);
  try { localStorage.setItem('kiebitz-tree-' + view.state.id, JSON.stringify(out)); } catch (e) { /* full or private */ }
  document.body.dataset.variations = String(treeLines().length);
}

function loadTree() {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem('kiebitz-tree-' + view.state.id) || '{}'); } catch (e) { saved = {}; }
  const build = (p, parent, base) => {
    const n = makeNode(p.mv, p.san, parent, base);
    n.kids = (p.kids || []).map((k) => build(k, n, base));
    return n;
  };
  view.vars = {};
  for (const [base, list] of Object.entries(saved || {})) {
    if (Number(base) <= view.state.history.length) view.vars[base] = list.map((p) => build(p, null, Number(base)));
  }
}

// The move's number before its SAN in the list: `12.` or `12...` (a seat's letter-free
// ply number where the board is Chamäleon's).
function moveLabel(ply, st, fresh) {
  if (st.board.kind === 'chamaeleon') return `${ply + 1}. `;
  const f = (st.start_fen || '').split(' ');
  const black = f[1] === 'b' ? 1 : 0, first = parseInt(f[5] || '1', 10) || 1;
  const n = first + Math.floor((ply + black) / 2);
  return (ply + black) % 2 === 0 ? `${n}. ` : fresh ? `${n}... ` : '';
}

// A variation in the move list: its moves (each clickable), its alternatives nested.
function varTokens(first, st, out) {
  let cur = first, fresh = true, pending = [];
  while (cur) {
    const n = cur;
    const ply = n.base + n.path.length - 1;
    out.push(el('span', { class: 'vmove' + (n === view.node ? ' current' : ''), 'data-node': n.id, 'data-san': n.san,
      on: { click: () => selectNode(n) } }, moveLabel(ply, st, fresh) + n.san), ' ');
    fresh = false;
    for (const alt of pending) { out.push('('); varTokens(alt, st, out); out.push(')', ' '); fresh = true; }
    pending = cur.kids.slice(1);
    cur = cur.kids[0];
  }
  if (out[out.length - 1] === ' ') out.pop();
  return out;
}

function varRow(base, st, cols) {
  const list = view.vars[base] || [];
  if (!list.length) return null;
  return el('tr', { class: 'vars' }, el('td', { colspan: cols, class: 'vars' },
    list.map((n) => el('div', { class: 'var', 'data-base': base }, '(', varTokens(n, st, []), ')'))));
}

// The PGN: the game's (a plain download) or, with variations, the server's PGN of the game
// with them.
async function downloadPgn(ev) {
  const lines = treeLines();
  if (!lines.length) return;
  ev.preventDefault();
  try {
    const r = await fetch(`/api/game/${view.state.id}/pgn`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ lines }) });
    const text = await r.text();
    if (!r.ok) throw new Error(JSON.parse(text).error);
    const a = el('a', { href: URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' })),
      download: `kiebitz-${view.state.game}-${view.state.id}.pgn` });
    document.body.append(a);
    a.click();
    a.remove();
    view.lastPgn = text;
  } catch (e) { say(e.message); }
}

// A PGN or a FEN pasted: a new board with two people (an analysis board) holding its
// position and main line.
async function importText(text) {
  const t = text.trim();
  if (!t) return;
  const body = { game: view.state.game, variant: view.state.variant, seats: view.state.seats.map(() => ({ kind: 'human' })) };
  if (/^\s*\[/.test(t) || /(^|\s)\d+\.+\s*\S/.test(t)) body.pgn = t; else body.fen = t;
  try {
    const n = await api('POST', '/api/new', body);
    location.href = '/play/' + n.id;
  } catch (e) { say(e.message); }
}

// ---------------------------------------------------------------- review (evaluations per ply)

async function loadReview() {
  try {
    const r = await api('GET', `/api/game/${view.state.id}/review`);
    view.review = r;
  } catch (e) { return; }
  // Not the board: a drag or a click under way keeps its squares.
  renderMoves(view.state);
  renderGraph();
  renderReviewStatus();
}

// An evaluation the server kept (from any viewer's engine, analysis or review): the graph
// at once, the judgements a moment later (read again with the review).
function onEval(msg) {
  if (msg.type === 'eval') view.review.evals[msg.ply] = msg.eval;
  if (msg.type === 'review') { view.review.running = true; view.review.done = msg.done; view.review.of = msg.of; }
  if (msg.type === 'review-done') view.review.running = false;
  renderGraph();
  renderReviewStatus();
  clearTimeout(view.reviewTimer);
  view.reviewTimer = setTimeout(loadReview, msg.type === 'review-done' ? 0 : 300);
}

async function startReview() {
  try {
    view.review = await api('POST', `/api/game/${view.state.id}/review`, {});
  } catch (e) { view.error = e.message; }
  render();
}

function renderReviewStatus() {
  const box = document.getElementById('review-status');
  if (!box) return;
  const r = view.review;
  const marks = r.marks.length ? ' · ' + ['inaccuracy', 'mistake', 'blunder'].map((j) =>
    `${r.marks.filter((m) => m.judgement === j).length} ${j === 'inaccuracy' ? 'inaccuracies' : j + 's'}`).join(', ') : '';
  box.textContent = r.running ? `Reviewing: ${r.done || 0} of ${r.of || '?'} positions…` :
    r.evals.some(Boolean) ? `Evaluations of ${r.evals.filter(Boolean).length} of ${view.state.history.length + 1} positions${marks}` : '';
  document.body.dataset.review = r.running ? 'running' : 'idle';
  const b = document.getElementById('review');
  if (b) {
    b.disabled = !!r.running;
    // The evaluations are White's shares: a game of more seats has none to review.
    b.style.display = view.state.seats.length === 2 ? '' : 'none';
  }
}

function main() {
  const app = document.getElementById('app');
  const m = location.pathname.match(/^\/(?:play|watch)\/([0-9a-zA-Z]+)$/);
  const page = m ? board(app, m[1]) : location.pathname === '/report' ? reportPage(app) : lobby(app);
  page.catch((e) => { app.textContent = 'Error: ' + e.message; });
}

main();
