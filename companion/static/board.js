/* Draws the board as it looks: the picture of the board (the calibrated photo, the demo's rendered board, or a
   clean map of the outlines), each region its own SVG element carrying data-region, focusable and named,
   with the pieces on it drawn over the picture. Shared by the table screen and the phones. */
"use strict";
const SVGNS = "http://www.w3.org/2000/svg";
const TERRAIN = {farmland: "#e8d77a", fields: "#e8d77a", forest: "#5f9e4f", hill: "#c9a27e", mountain: "#a3a3a3",
                 swamp: "#8aa36a", sea: "#7fb8e6", lake: "#a8d8ef"};
const MARK = {"Mountain": "M", "Troll's Lair": "L", "Fortress": "F", "Encampment": "E", "Hero": "H",
              "Dragon": "D", "Hole-in-the-Ground": "O"};
const SYMBOL = {magic: ["✦", "magic source"], mine: ["⚒", "mine"], cavern: ["◖", "cavern"]};

function el(name, attrs, text) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, typeof attrs[k] === "number" ? Math.round(attrs[k] * 10) / 10 : attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

function darkText(hex) {  // black or white text on a colour, whichever reads better
  const n = parseInt((hex || "#888").slice(1), 16);
  const lin = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
  const L = 0.2126 * lin(n >> 16) + 0.7152 * lin((n >> 8) & 255) + 0.0722 * lin(n & 255);
  return L > 0.22;
}

function shapeEl(shape, x, y, s, attrs) {  // a token chip: each seat its own shape
  const pts = (k, rot) => Array.from({length: k}, (_, i) => {
    const a = rot + i * 2 * Math.PI / k;
    return `${(x + s * Math.cos(a)).toFixed(1)},${(y + s * Math.sin(a)).toFixed(1)}`;
  }).join(" ");
  let e;
  if (shape === "square") e = el("rect", {x: x - s * 0.9, y: y - s * 0.9, width: s * 1.8, height: s * 1.8, rx: s * 0.15});
  else if (shape === "diamond") e = el("polygon", {points: pts(4, 0).replace(/,/g, ",")});
  else if (shape === "triangle") e = el("polygon", {points: pts(3, -Math.PI / 2)});
  else if (shape === "hexagon") e = el("polygon", {points: pts(6, 0)});
  else e = el("circle", {cx: x, cy: y, r: s});
  if (shape === "diamond") e.setAttribute("transform", `translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(1.2) translate(${(-x).toFixed(1)} ${(-y).toFixed(1)})`);
  if (shape === "triangle") e.setAttribute("transform", `translate(${x.toFixed(1)} ${(y + s * 0.25).toFixed(1)}) scale(1.35) translate(${(-x).toFixed(1)} ${(-y).toFixed(1)})`);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  return e;
}

function raceEmblem(title) {  // the letters on a chip: the race's first three (Lost Tribe: LT)
  if (!title) return "";
  const words = title.split(/\s+/);
  return words.length > 1 ? words.map(w => w[0]).join("").slice(0, 3) : title.slice(0, 3);
}

function regionName(r, s, state) {
  const players = state.players || [];
  const parts = [`Region ${r.id}: ${r.terrain}`];
  for (const sym of r.symbols || []) parts.push(SYMBOL[sym] ? SYMBOL[sym][1] : sym);
  if (r.border) parts.push("border");
  if (s.tokens && s.race_title) {
    const who = s.owner !== null && s.owner !== undefined && players[s.owner] ? ` of ${players[s.owner].name}` : "";
    parts.push(`${s.tokens} ${s.race_title}${who}${s.in_decline ? " in decline" : ""}`);
  } else parts.push("empty");
  for (const [k, n] of Object.entries(s.markers || {})) parts.push(n > 1 ? `${n} ${k}` : k);
  if (s.immune) parts.push("immune to conquest");
  return parts.join(", ");
}

/* opts: {costs: {rid: cost}, selected: {rid: true}, alerts: [rid], onTap(rid), numbers: bool} */
function drawBoard(svg, layout, state, opts) {
  opts = opts || {};
  const W = layout.width, H = layout.height;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.classList.toggle("photo", !!layout.image);
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const unit = Math.max(W, H) / 1000;  // sizes below are for a 1000-unit-wide board
  const shown = svg.getBoundingClientRect().width || W;  // a phone: chips stay big enough to read and tap
  const chip = Math.max(14, 21 * unit, 12 * W / shown);
  if (layout.image) svg.appendChild(el("image", {href: layout.image, x: 0, y: 0, width: W, height: H, preserveAspectRatio: "none"}));
  for (const isl of (layout.islands || [])) {  // Small World of Warcraft: one box per island
    const [x, y, w, h] = isl.box;
    svg.appendChild(el("rect", {x: x + 4, y: y + 4, width: w - 8, height: h - 8, rx: 18, class: "island-box"}));
    svg.appendChild(el("text", {x: isl.x, y: isl.y + 6, class: "island-name"}, `island ${isl.island}: ${isl.name}`));
  }
  if (!layout.regions.some(r => r.path)) {
    const pos = {};
    for (const r of layout.regions) pos[r.id] = r;
    const edges = el("g", {class: "edges"});
    for (const [a, b] of layout.edges) edges.appendChild(el("line", {x1: pos[a].x, y1: pos[a].y, x2: pos[b].x, y2: pos[b].y}));
    svg.appendChild(edges);
  }
  const players = state.players || [];
  const alerted = new Set((opts.alerts || []).map(Number));
  const last = new Set(((state.last_move || {}).regions || []).map(Number));
  const costs = opts.costs || {};
  const top = el("g", {class: "overlay"});
  for (const r of layout.regions) {
    const s = (state.regions || {})[String(r.id)] || {};
    const owner = s.owner !== null && s.owner !== undefined ? players[s.owner] : null;
    const cls = ["region"];
    if (last.has(r.id)) cls.push("last");
    if (alerted.has(r.id)) cls.push("alerted");
    if (r.id in costs) cls.push("conquerable");
    if (opts.selected && opts.selected[r.id]) cls.push("selected");
    const g = el("g", {class: cls.join(" "), id: `region-${r.id}`, "data-region": r.id, "data-x": r.x, "data-y": r.y, tabindex: 0, role: "button",
                       "aria-label": regionName(r, s, state) + (r.id in costs ? `; conquering it costs ${costs[r.id]} tokens` : "")});
    const shape = r.path ? el("path", {d: r.path, class: "area"}) : el("circle", {cx: r.x, cy: r.y, r: r.r, class: "area"});
    if (!layout.image) shape.setAttribute("fill", TERRAIN[r.terrain] || "#ddd");
    if (owner) { shape.style.stroke = owner.colour; if (layout.image) shape.style.fill = owner.colour; g.classList.add("owned"); }
    if (s.in_decline) g.classList.add("declined");
    g.appendChild(shape);
    const x = r.x, y = r.y, small = r.r < chip * 1.6;
    const size = small ? chip * 0.8 : chip;
    if (!layout.image) g.appendChild(el("text", {x, y: y - size * 1.45, class: "terrain", "font-size": 9 * unit}, r.terrain));
    if (opts.numbers) g.appendChild(el("text", {x: x - size * 1.6, y: y - size * 1.1, class: "rid", "font-size": 11 * unit}, `${r.id}`));
    (r.symbols || []).forEach((sym, k) => {
      const sx = x + (k - ((r.symbols.length - 1) / 2)) * size * 1.1, sy = y + size * 1.75;
      g.appendChild(el("circle", {cx: sx, cy: sy, r: size * 0.5, class: `symbol ${sym}`}));
      g.appendChild(el("text", {x: sx, y: sy + size * 0.2, class: "symbol-glyph", "font-size": size * 0.62}, SYMBOL[sym] ? SYMBOL[sym][0] : sym[0]));
    });
    if (s.tokens && s.race) {
      const fill = s.in_decline ? "#7d7d7d" : owner ? owner.colour : "#e9e2cf";
      const chipEl = shapeEl(owner ? owner.shape : "circle", x, y, size, {class: "chip", fill});
      if (owner) chipEl.setAttribute("stroke", owner.colour);
      g.appendChild(chipEl);
      const ink = darkText(fill) ? "#111" : "#fff";
      g.appendChild(el("text", {x, y: y + size * 0.12, class: "count", fill: ink, "font-size": size * 1.0}, `${s.tokens}`));
      g.appendChild(el("text", {x, y: y + size * 0.72, class: "emblem", fill: ink, "font-size": size * 0.46},
                       raceEmblem(s.race_title) + (s.in_decline ? "†" : "")));
      if (owner) {  // the player's letter, on a tab at the chip's corner
        g.appendChild(el("circle", {cx: x + size * 0.95, cy: y - size * 0.85, r: size * 0.42, class: "seat-tab", fill: "#fff", stroke: owner.colour}));
        g.appendChild(el("text", {x: x + size * 0.95, y: y - size * 0.7, class: "seat-letter", "font-size": size * 0.5}, owner.letter || ""));
      }
    }
    const symbols = state.marker_symbols || MARK;
    Object.entries(s.markers || {}).forEach(([k, n], i) => {
      const label = (symbols[k] || MARK[k] || "?") + (n > 1 ? `×${n}` : "");
      const mx = x - size * 1.5 + i * size * 1.15, my = y - size * 1.25;
      g.appendChild(el("rect", {x: mx - size * 0.5, y: my - size * 0.45, width: size * (0.5 + 0.45 * label.length), height: size * 0.9, rx: size * 0.2, class: "marker"}));
      g.appendChild(el("text", {x: mx - size * 0.25 + size * 0.225 * label.length, y: my + size * 0.2, class: "marker-text", "font-size": size * 0.6}, label));
    });
    if (s.immune) g.appendChild(el("circle", {cx: x, cy: y, r: size * 1.45, class: "immune"}));
    if (r.entry && layout.islands && layout.islands.length) g.appendChild(el("text", {x: x - size * 1.4, y: y + size * 0.3, class: "anchor"}, "⚓"));
    if (r.id in costs) {
      const cx = x + size * 1.25, cy = y + size * 0.9;
      g.appendChild(el("circle", {cx, cy, r: size * 0.62, class: "cost-badge"}));
      g.appendChild(el("text", {x: cx, y: cy + size * 0.22, class: "cost", "font-size": size * 0.7}, `${costs[r.id]}`));
    }
    if (alerted.has(r.id)) g.appendChild(el("text", {x: x - size * 1.3, y: y + size * 0.4, class: "alert-mark", "font-size": size * 1.3}, "!"));
    g.appendChild(el("title", {}, regionName(r, s, state)));
    if (opts.onTap) {
      g.addEventListener("click", () => opts.onTap(r.id));
      g.addEventListener("keydown", e => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); opts.onTap(r.id); } });
    }
    top.appendChild(g);
  }
  svg.appendChild(top);
}

function playerKey(players, current) {  // colour, shape and letter of each player: the board's legend
  return players.map(p => {
    const item = document.createElement("li");
    if (p.seat === current) item.className = "current";
    const s = document.createElementNS(SVGNS, "svg");
    s.setAttribute("viewBox", "-12 -12 24 24");
    s.setAttribute("aria-hidden", "true");
    s.setAttribute("class", "key-chip");
    s.appendChild(shapeEl(p.shape, 0, 0, 9, {fill: p.colour}));
    const t = el("text", {x: 0, y: 4, "font-size": 10, "text-anchor": "middle", fill: darkText(p.colour) ? "#111" : "#fff"}, p.letter || "");
    s.appendChild(t);
    item.append(s, ` ${p.name}`);
    return item;
  });
}

function csrf() { return document.querySelector('meta[name="csrf-token"]').content; }

async function post(url, body) {
  let r;
  try {
    r = await fetch(url, {method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf()}, body: JSON.stringify(body || {})});
  } catch (e) {
    return {status: 0, sentence: "The companion cannot be reached: is it still running?"};
  }
  let data = {};
  try { data = await r.json(); } catch (e) { data = {sentence: `error ${r.status}`}; }
  data.status = r.status;
  return data;
}

function text(id, value) { const e = document.getElementById(id); if (e) e.textContent = value; }

function li(textContent, cls) { const e = document.createElement("li"); e.textContent = textContent; if (cls) e.className = cls; return e; }

window.__seen = {};
function markSeen(version) { window.__seen[version] = Date.now(); }
