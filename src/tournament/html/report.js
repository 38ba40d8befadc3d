// kiebitz-match --report: the game viewer (inlined into the report, after the piece set's script
// that defines PIECE_SVG: src/tournament/html/pieces.rs). It reads the games from
// the report-data element and draws the positions the report computed (one FEN per move) as
// an SVG board; it computes no rules itself and fetches nothing.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var games = data.games;
  var NS = "http://www.w3.org/2000/svg";
  var current = -1;
  var ply = 0;
  var $ = function (id) { return document.getElementById(id); };

  function svg(name, attrs, text) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // The rows of a FEN's placement, top rank first: a piece letter or "" per square.
  function grid(fen) {
    return fen.split(" ")[0].split("/").map(function (rank) {
      var row = [];
      var run = "";
      var flush = function () {
        for (var i = 0; i < Number(run); i++) row.push("");
        run = "";
      };
      for (var i = 0; i < rank.length; i++) {
        var c = rank[i];
        if (c >= "0" && c <= "9") { run += c; continue; }
        flush();
        row.push(c);
      }
      flush();
      return row;
    });
  }

  // CRASH!'s row of cells: tower heights, White positive.
  function towers(fen) {
    var cells = [];
    var re = /([WB])(\d+)|\./g;
    var m;
    while ((m = re.exec(fen.split(" ")[0])) !== null) {
      cells.push(m[1] ? (m[1] === "W" ? 1 : -1) * Number(m[2]) : 0);
    }
    return cells;
  }

  function drawGrid(fen) {
    var rows = grid(fen);
    var h = rows.length;
    var w = rows.reduce(function (a, r) { return Math.max(a, r.length); }, 0);
    var S = Math.max(36, Math.min(56, Math.floor(400 / Math.max(w, h))));
    var pad = 18;
    var root = svg("svg", { width: w * S + pad, height: h * S + pad, viewBox: "0 0 " + (w * S + pad) + " " + (h * S + pad), role: "img" });
    rows.forEach(function (row, r) {
      for (var c = 0; c < w; c++) {
        var x = pad + c * S;
        var y = r * S;
        root.appendChild(svg("rect", { x: x, y: y, width: S, height: S, fill: (r + c) % 2 === 0 ? "#f0d9b5" : "#b58863" }));
        var p = row[c] || "";
        if (!p) continue;
        if (PIECE_SVG[p]) {
          root.appendChild(svg("image", { x: x, y: y, width: S, height: S, href: PIECE_SVG[p], "class": "piece", "data-piece": p }));
          continue;
        }
        var white = p === p.toUpperCase();
        root.appendChild(svg("text", {
          x: x + S / 2, y: y + S * 0.7, "text-anchor": "middle", "font-size": S * 0.6,
          fill: white ? "#fff" : "#222", stroke: white ? "#222" : "#000", "stroke-width": white ? 1.2 : 0.4,
          "font-family": "DejaVu Sans, sans-serif"
        }, p));
      }
      root.appendChild(svg("text", { x: 5, y: r * S + S / 2 + 4, "font-size": 11, fill: "#666" }, String(h - r)));
    });
    for (var c = 0; c < w; c++) {
      root.appendChild(svg("text", { x: pad + c * S + S / 2, y: h * S + 13, "text-anchor": "middle", "font-size": 11, fill: "#666" }, String.fromCharCode(97 + c)));
    }
    return root;
  }

  function drawRow(fen) {
    var cells = towers(fen);
    var S = Math.max(30, Math.min(52, Math.floor(760 / Math.max(1, cells.length))));
    var H = S * 4;
    var root = svg("svg", { width: cells.length * S, height: H + 16, viewBox: "0 0 " + cells.length * S + " " + (H + 16), role: "img" });
    cells.forEach(function (n, i) {
      var x = i * S;
      root.appendChild(svg("rect", { x: x, y: 0, width: S, height: H, fill: i % 2 ? "#e8dcc2" : "#f3ead6", stroke: "#b9a77f" }));
      var height = Math.abs(n);
      for (var k = 0; k < Math.min(height, 8); k++) {
        root.appendChild(svg("ellipse", { cx: x + S / 2, cy: H - 10 - k * (H - 30) / 8, rx: S * 0.38, ry: S * 0.14, fill: n > 0 ? "#fff" : "#333", stroke: "#222" }));
      }
      if (height) root.appendChild(svg("text", { x: x + S / 2, y: 14, "text-anchor": "middle", "font-size": 12 }, String(height)));
      root.appendChild(svg("text", { x: x + S / 2, y: H + 13, "text-anchor": "middle", "font-size": 11, fill: "#666" }, String(i + 1)));
    });
    return root;
  }

  // Scrolls the move list (only it: the page stays where the reader has it, at its top when
  // the report opens) so that the current move is visible.
  function keepInView(box, cur) {
    if (!cur) return;
    var top = cur.offsetTop;
    var bottom = top + cur.offsetHeight;
    if (top < box.scrollTop) box.scrollTop = top;
    else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight;
  }

  function show() {
    var g = games[current];
    ply = Math.max(0, Math.min(ply, g.fens.length - 1));
    var fen = g.fens[ply] || "";
    var board = $("board");
    board.textContent = "";
    board.appendChild(data.game === "crash" ? drawRow(fen) : drawGrid(fen));
    $("fen").textContent = fen;
    var spans = $("moves").querySelectorAll(".mv");
    for (var i = 0; i < spans.length; i++) {
      spans[i].classList.toggle("current", Number(spans[i].dataset.ply) === ply);
    }
    keepInView($("moves"), $("moves").querySelector(".current"));
  }

  function select(index) {
    current = index;
    var g = games[index];
    $("viewer").hidden = false;
    $("game-title").textContent = "Game " + g.number + ": " + g.white + " – " + g.black;
    $("game-result").textContent = g.result + " (" + g.termination + ")" + (g.reason ? ": " + g.reason : "");
    var fields = (g.fens[0] || "").split(" ");
    var blackFirst = fields[1] === "b";
    var number = Number(fields[5]) || 1;
    var moves = $("moves");
    moves.textContent = "";
    g.moves.forEach(function (m, i) {
      var whiteMove = (i % 2 === 0) !== blackFirst;
      if (whiteMove || i === 0) {
        var num = document.createElement("span");
        num.className = "num";
        num.textContent = number + (whiteMove ? "." : "...");
        moves.appendChild(num);
      }
      var span = document.createElement("span");
      span.className = "mv";
      span.dataset.ply = String(i + 1);
      span.textContent = m;
      span.addEventListener("click", function () { ply = i + 1; show(); });
      moves.appendChild(span);
      moves.appendChild(document.createTextNode(" "));
      if (!whiteMove) number += 1;
    });
    if (g.error) {
      var note = document.createElement("div");
      note.className = "note";
      note.textContent = "Not replayed beyond: " + g.error;
      moves.appendChild(note);
    }
    $("pgn").textContent = g.pgn;
    var rows = $("game-list-body").rows;
    for (var r = 0; r < rows.length; r++) rows[r].classList.toggle("selected", r === index);
    ply = g.fens.length - 1;
    show();
  }

  function step(to) {
    if (current < 0) return;
    ply = to;
    show();
  }

  var body = $("game-list-body");
  games.forEach(function (g, i) {
    var tr = document.createElement("tr");
    [g.number, g.white, g.black, g.result, g.termination, g.moves.length].forEach(function (v) {
      var td = document.createElement("td");
      td.textContent = String(v);
      tr.appendChild(td);
    });
    tr.addEventListener("click", function () { select(i); });
    body.appendChild(tr);
  });
  $("first").addEventListener("click", function () { step(0); });
  $("prev").addEventListener("click", function () { step(ply - 1); });
  $("next").addEventListener("click", function () { step(ply + 1); });
  $("last").addEventListener("click", function () { step(Infinity); });
  document.addEventListener("keydown", function (e) {
    if (current < 0) return;
    var to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: Infinity }[e.key];
    if (to === undefined) return;
    e.preventDefault(); // the keys step through the game; they do not scroll the page
    step(to);
  });
  $("download").addEventListener("click", function () {
    var text = games.map(function (g) { return g.pgn; }).join("");
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" }));
    a.download = "games.pgn";
    document.body.appendChild(a);
    a.click();
    a.remove();
  });
  if (games.length > 0) select(0);
})();
