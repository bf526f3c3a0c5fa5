/* Draws the board as SVG from the geometry (/api/layout) and the public state. */
"use strict";
const SVGNS = "http://www.w3.org/2000/svg";
const TERRAIN = {farmland: "#efe08a", fields: "#efe08a", forest: "#5f9e4f", hill: "#c9a27e", mountain: "#a7a7a7",
                 swamp: "#8fa66a", sea: "#7fb8e6", lake: "#a8d8ef"};
const MARK = {"Mountain": "M", "Troll's Lair": "L", "Fortress": "F", "Encampment": "E", "Hero": "H",
              "Dragon": "D", "Hole-in-the-Ground": "O"};

function el(name, attrs, text) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

function drawBoard(svg, layout, state, showConquerable) {
  svg.setAttribute("viewBox", `0 0 ${layout.width} ${layout.height}`);
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const pos = {};
  for (const r of layout.regions) pos[r.id] = r;
  for (const isl of (layout.islands || [])) {  // Small World of Warcraft: one box per island
    const [x, y, w, h] = isl.box;
    svg.appendChild(el("rect", {x: x + 4, y: y + 4, width: w - 8, height: h - 8, rx: 18, class: "island-box"}));
    svg.appendChild(el("text", {x: isl.x, y: isl.y + 6, class: "island-name"}, `island ${isl.island}: ${isl.name}`));
  }
  const edges = el("g", {class: "edges"});
  for (const [a, b] of layout.edges) {
    edges.appendChild(el("line", {x1: pos[a].x, y1: pos[a].y, x2: pos[b].x, y2: pos[b].y}));
  }
  svg.appendChild(edges);
  const colours = {};
  for (const p of (state.players || [])) colours[p.seat] = p.colour;
  const conq = {};
  if (showConquerable) for (const c of (state.conquerable || [])) conq[c.region] = c.cost;
  for (const r of layout.regions) {
    const s = (state.regions || {})[String(r.id)] || {};
    const g = el("g", {class: r.r < 30 ? "region small" : "region", id: `region-${r.id}`, "data-region": r.id});
    const owner = s.owner !== null && s.owner !== undefined ? colours[s.owner] : null;
    const shape = r.path ? el("path", {d: r.path}) : el("circle", {cx: r.x, cy: r.y, r: r.r});
    shape.setAttribute("fill", TERRAIN[r.terrain] || "#ddd");
    shape.setAttribute("stroke", owner || (s.race ? "#555" : "#fff"));
    shape.setAttribute("stroke-width", owner ? 7 : 2);
    if (s.in_decline) shape.setAttribute("stroke-dasharray", "6 4");
    g.appendChild(shape);
    if (s.immune) g.appendChild(el("circle", {cx: r.x, cy: r.y, r: r.r + 6, class: "immune"}));
    g.appendChild(el("text", {x: r.x, y: r.y - r.r * 0.55, class: "rid"}, `${r.id}`));
    if (r.entry && layout.islands && layout.islands.length) g.appendChild(el("text", {x: r.x - r.r * 0.75, y: r.y - r.r * 0.45, class: "anchor"}, "⚓"));
    if (s.tokens) {
      g.appendChild(el("text", {x: r.x, y: r.y + (r.r < 30 ? 5 : 7), class: "tokens"}, `${s.tokens}`));
      const label = (s.race_title || "").slice(0, 11) + (s.in_decline ? " †" : "");
      g.appendChild(el("text", {x: r.x, y: r.y + r.r * 0.45, class: "race"}, label));
    } else {
      g.appendChild(el("text", {x: r.x, y: r.y + 5, class: "terrain"}, r.terrain));
    }
    const symbols = state.marker_symbols || MARK;
    const marks = Object.entries(s.markers || {}).map(([k, n]) => (symbols[k] || MARK[k] || "?") + (n > 1 ? n : "")).join(" ");
    if (marks) g.appendChild(el("text", {x: r.x, y: r.y + r.r + 14, class: "marks"}, marks));
    if (r.id in conq) {
      g.appendChild(el("circle", {cx: r.x + r.r * 0.8, cy: r.y - r.r * 0.8, r: 13, class: "cost-badge"}));
      g.appendChild(el("text", {x: r.x + r.r * 0.8, y: r.y - r.r * 0.8 + 5, class: "cost"}, `${conq[r.id]}`));
    }
    const title = el("title", {}, `region ${r.id}: ${r.terrain}${r.symbols.length ? " (" + r.symbols.join(", ") + ")" : ""}` +
      (r.entry && layout.islands && layout.islands.length ? ", Entry Region" : "") +
      (s.race_title ? `, ${s.tokens} ${s.race_title}${s.in_decline ? " in decline" : ""}` : "") +
      (s.immune ? ", immune to conquest" : ""));
    g.appendChild(title);
    svg.appendChild(g);
  }
}

function csrf() { return document.querySelector('meta[name="csrf-token"]').content; }

async function post(url, body) {
  const r = await fetch(url, {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf()}, body: JSON.stringify(body || {})});
  let data = {};
  try { data = await r.json(); } catch (e) { data = {sentence: `error ${r.status}`}; }
  data.status = r.status;
  return data;
}

function text(id, value) { const e = document.getElementById(id); if (e) e.textContent = value; }

function li(textContent, cls) { const e = document.createElement("li"); e.textContent = textContent; if (cls) e.className = cls; return e; }

window.__seen = {};
function markSeen(version) { window.__seen[version] = Date.now(); }
