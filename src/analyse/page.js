// The analysis page's script (moulin analyse --html), written for moulin and inlined in the
// page: draws the board of the step shown from the data the page embeds, and steps through the
// game by the keys, the move list, the graph and the buttons. No address is fetched.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("analysis-data").textContent);
  const svgNs = "http://www.w3.org/2000/svg";
  const board = document.getElementById("board");
  const last = data.steps.length - 1;
  let step = 0;

  function el(name, attrs, parent) {
    const e = document.createElementNS(svgNs, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  function at(i) {
    return data.points[i];
  }

  // The board's lines, once: the points' adjacency (the diagonals of twelve among them), and
  // the files and ranks named on the margins as a chessboard's, where no piece can hide them
  // (a point's name is its file and its rank: d2).
  function drawLines() {
    const g = el("g", { class: "lines" }, board);
    for (const [a, b] of data.edges) {
      el("line", { x1: at(a)[0], y1: at(a)[1], x2: at(b)[0], y2: at(b)[1] }, g);
    }
    const files = new Map();
    const ranks = new Map();
    for (const [x, y, name] of data.points) {
      const spot = el("circle", { cx: x, cy: y, r: 4, class: "spot", "data-point": name }, g);
      el("title", {}, spot).textContent = name;
      files.set(name[0], x);
      ranks.set(name.slice(1), y);
    }
    for (const [file, x] of files) el("text", { x, y: 296, class: "coord" }, g).textContent = file;
    for (const [rank, y] of ranks) el("text", { x: 8, y: y + 4, class: "coord" }, g).textContent = rank;
  }

  // A move drawn: an arrow for a step or a fly, a ring for a placement, a cross on each
  // removed piece.
  function drawMove(g, mv, kind) {
    if (mv.to === null) return;
    const [x2, y2] = at(mv.to);
    if (mv.from !== null) {
      const [x1, y1] = at(mv.from);
      el("line", { x1, y1, x2, y2, class: "arrow " + kind, "marker-end": "url(#head-" + kind + ")" }, g);
    } else {
      el("circle", { cx: x2, cy: y2, r: 17, class: "ring " + kind, "data-placed": at(mv.to)[2] }, g);
    }
    for (const r of mv.rem) {
      const [x, y] = at(r);
      el("path", {
        d: `M${x - 10},${y - 10}L${x + 10},${y + 10}M${x - 10},${y + 10}L${x + 10},${y - 10}`,
        class: "cross " + kind,
        "data-removed": at(r)[2],
      }, g);
    }
  }

  function drawPosition() {
    const old = document.getElementById("position");
    if (old) old.remove();
    const g = el("g", { id: "position" }, board);
    const s = data.steps[step];
    for (let i = 0; i < s.board.length; i++) {
      const c = s.board[i];
      if (c === ".") continue;
      const [x, y, name] = at(i);
      const piece = el("circle", { cx: x, cy: y, r: 13, class: "piece " + (c === "w" ? "white" : "black"), "data-point": name }, g);
      el("title", {}, piece).textContent = name;
    }
    const ply = data.plies[step - 1];
    if (ply) {
      if (ply.best && ply.best.text !== ply.move.text) drawMove(g, ply.best, "best");
      drawMove(g, ply.move, "played");
    }
  }

  function text(id, value) {
    document.getElementById(id).textContent = value;
  }

  function drawDetail() {
    const s = data.steps[step];
    text("hands", `In hand: White ${s.hand[0]}, Black ${s.hand[1]}. ${s.note}`);
    const ply = data.plies[step - 1];
    const detail = document.getElementById("detail");
    detail.replaceChildren();
    const add = (tag, content, cls) => {
      const e = document.createElement(tag);
      e.textContent = content;
      if (cls) e.className = cls;
      detail.appendChild(e);
      return e;
    };
    if (!ply) {
      add("p", "The start. Step with the arrow keys (Left, Right, Home, End), the moves or the graph.");
      return;
    }
    add("p", `Ply ${ply.ply}: ${ply.side} played ${ply.move.text}${ply.glyph}`, "played-line");
    add("p", `Value (White's side, pieces): ${ply.before} before, ${ply.after} after; winning chance given away: ${ply.lost} points.`);
    if (data.steps[step].value.includes("held")) add("p", "Exact knowledge has ended: the win it proved is held on the bar and the graph while the search's values follow.");
    add("p", `${ply.label}${ply.glyph ? " " + ply.glyph : ""}`, "label " + ply.label);
    if (ply.kept.length) add("p", "Keep the exact value: " + ply.kept.join(" "));
    if (ply.best) add("p", `Best: ${ply.best.text}; line: ${ply.line.join(" ")}`, "best-line");
    if (ply.advice.length) {
      add("p", "Every move (White's side):");
      const t = add("table", "", "advice");
      for (const [m, v] of ply.advice) {
        const r = t.insertRow();
        r.insertCell().textContent = m;
        r.insertCell().textContent = v;
        if (m === ply.move.text) r.className = "played";
      }
    }
  }

  function drawGauge() {
    const s = data.steps[step];
    document.getElementById("evalfill").style.height = (50 + 50 * s.gauge) + "%";
    text("evaltext", s.value || "\u00a0");
    const cursor = document.getElementById("cursor");
    const x = data.graphX[step];
    cursor.setAttribute("x1", x);
    cursor.setAttribute("x2", x);
  }

  // Scrolls the move list, and only it, to the move shown: the page stays where the reader
  // has it (on a phone, the board under their thumb).
  function showInList(mv) {
    const list = document.getElementById("moves");
    const top = mv.offsetTop;
    const bottom = top + mv.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }

  function go(k) {
    step = Math.max(0, Math.min(last, k));
    for (const e of document.querySelectorAll(".mv.current")) {
      e.classList.remove("current");
      e.removeAttribute("aria-current");
    }
    const mv = document.querySelector(`.mv[data-step="${step}"]`);
    if (mv) {
      mv.classList.add("current");
      mv.setAttribute("aria-current", "step");
      showInList(mv);
    }
    board.setAttribute("data-step", step);
    drawPosition();
    drawDetail();
    drawGauge();
  }

  document.addEventListener("keydown", (e) => {
    const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });
  for (const e of document.querySelectorAll("[data-step]")) {
    if (e !== board) e.addEventListener("click", () => go(Number(e.dataset.step)));
  }
  for (const b of document.querySelectorAll("#nav button")) {
    b.addEventListener("click", () => go({ first: 0, back: step - 1, next: step + 1, end: last }[b.dataset.go]));
  }
  drawLines();
  go(0);
})();
