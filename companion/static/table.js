/* The table view: listens to /events/table and redraws. */
"use strict";
let layout = null, layoutMap = null, current = null, endClosed = false, heard = new Set(), heardOnce = false, askedBoard = false;

async function ensureLayout(map, ruleset) {
  const key = `${ruleset}:${map}`;
  if (layoutMap === key && !(layout && layout.pending)) return;
  const r = await fetch(`/api/layout?map=${encodeURIComponent(map)}&ruleset=${encodeURIComponent(ruleset || "")}`);
  if (!r.ok) return;
  layout = await r.json();
  layoutMap = key;
  if (layout.pending) setTimeout(() => current && ensureLayout(map, ruleset).then(() => render(current)), 3000);
}

function renderTrack(state) {
  const track = document.getElementById("turn-track");
  track.replaceChildren(...Array.from({length: state.rounds}, (_, i) => {
    const n = i + 1;
    const cls = [n < state.round || (state.finished && n === state.round) ? "done" : "",
                 n === state.round && !state.finished ? "now" : "", n === state.rounds ? "last" : ""].join(" ").trim();
    return li(`${n}`, cls);
  }));
  track.setAttribute("aria-label", `The turn track: ${state.rounds} rounds`);
}

function renderLegend(state) {
  const parts = Object.entries(state.marker_symbols || {}).map(([title, sym]) => `${sym} ${title}`);
  if (layout && layout.islands && layout.islands.length) parts.push("⚓ Entry Region");
  parts.push("✦ magic source", "⚒ mine", "◖ cavern", "grey chip, †: in decline", "gold ring: immune");
  text("legend", parts.join(" · "));
}

function renderValues(state) {
  const panel = document.getElementById("values-panel");
  const w = state.awaiting && state.awaiting.kind === "values" ? state.awaiting : null;
  panel.classList.toggle("hidden", !w);
  if (!w) { panel.dataset.race = ""; return; }
  const who = state.players[w.seat].name;
  text("values-text", `${who} picked the ${w.power_title} ${w.race_title}. Read the numbers printed on the ` +
    `${w.race_title} banner and the ${w.power_title} badge, and enter them.`);
  text("values-banner-label", `${w.race_title} banner`);
  text("values-badge-label", `${w.power_title} badge`);
  if (panel.dataset.race !== w.race) {  // a new prompt: fill in what the table already knows
    panel.dataset.race = w.race;
    document.getElementById("values-banner").value = w.banner ?? "";
    document.getElementById("values-badge").value = w.badge ?? "";
    text("values-msg", "");
  }
}

function renderChance(state) {
  const panel = document.getElementById("chance-panel");
  const choices = state.table_choices || [];
  panel.classList.toggle("hidden", !choices.length);
  if (!choices.length) return;
  text("chance-text", state.step);
  document.getElementById("chance-choices").replaceChildren(...choices.map(c => {
    const b = document.createElement("button");
    b.textContent = c.words;
    b.onclick = async () => { const r = await post("/api/action", {action: c.notation}); text("chance-msg", r.status >= 400 ? r.sentence : ""); };
    return b;
  }));
}

async function render(state) {
  current = state;
  if (state.no_game) { markSeen(state.version); return; }
  await ensureLayout(state.map, state.ruleset);
  text("round", state.finished ? "The game is over" : `Round ${state.round} of ${state.rounds}` +
    (state.last_round ? " — the last round!" : ""));
  renderTrack(state);
  renderLegend(state);
  renderValues(state);
  renderChance(state);
  document.getElementById("round").classList.toggle("last", !!state.last_round && !state.finished);
  document.querySelector(".die-panel").classList.toggle("hidden", !!state.finished);
  text("step", state.step);
  drawTableBoard(state);
  document.getElementById("player-key").replaceChildren(...playerKey(state.players, state.current));
  const players = document.getElementById("players");
  players.replaceChildren(...state.players.map(p => {
    const e = li(`${p.name}: ${p.combos.map(comboTitle).join("; ") || "no race yet"}` +
      (p.tokens_in_hand ? ` (${p.tokens_in_hand} in hand)` : ""), p.seat === state.current ? "current" : "");
    e.style.borderLeft = `8px solid ${p.colour}`;
    return e;
  }));
  renderCombos(state);
  showDie(document.getElementById("die-show"), state.die_roll, state.players, true);
  document.getElementById("roll").classList.toggle("due", !!state.die_due);
  renderAlerts(state.alerts || []);
  const boardRight = document.getElementById("board-right-box");
  if (boardRight) boardRight.classList.toggle("hidden", !state.camera || !!state.finished);
  renderQuestion(state.question);
  renderNotice(state.notice);
  renderLog(state.log || []);
  const setupBox = document.getElementById("setup-box");
  setupBox.classList.toggle("hidden", !state.setup);
  if (state.setup) document.getElementById("setup-list").replaceChildren(...state.setup.map(s => li(s)));
  renderEnd(state);
  markSeen(state.version);
}

/* The game log; unlocked, each move can be corrected where it stands: put another in its place,
   insert a missed one before it, or take it out. The corrections gather, then are saved at once (the
   moves after them are replayed by the rules; if one no longer fits, nothing changes and it says why). */
let editing = null, edits = [];  // the move whose editor is open ({seq, value}), the corrections to save

function renderLog(log) {
  const unlocked = document.body.classList.contains("unlocked");
  const list = document.getElementById("log");
  list.replaceChildren(...log.slice().reverse().map(e => {
    const row = li("");
    const words = document.createElement("span");
    words.textContent = `${e.seq + 1}. ${e.text}`;
    row.append(words);
    const pending = edits.filter(x => x.seq === e.seq);
    if (pending.length) row.classList.add("edited");
    if (!unlocked) return row;
    const b = document.createElement("button");
    b.className = "small";
    b.textContent = "Correct";
    b.setAttribute("aria-label", `Correct move ${e.seq + 1}: ${e.text}`);
    b.onclick = () => { editing = {seq: e.seq, value: e.notation}; renderLog(current.log || []); document.getElementById("edit-action")?.focus(); };
    row.append(" ", b);
    if (editing && editing.seq === e.seq) row.append(logEditor(e));
    return row;
  }));
  renderEdits();
}

function logEditor(e) {
  const form = document.createElement("form");
  form.className = "log-edit";
  const label = document.createElement("label");
  label.htmlFor = "edit-action";
  label.textContent = "The move as played (e.g. redeploy 3:2 7:1, conquer 12):";
  const input = document.createElement("input");
  input.id = "edit-action";
  input.value = editing.value;
  input.autocomplete = "off";
  input.spellcheck = false;
  input.oninput = () => { editing.value = input.value; };
  const add = (how, words) => {
    const b = document.createElement("button");
    b.type = how === "replace" ? "submit" : "button";
    b.textContent = words;
    b.onclick = ev => {
      ev.preventDefault();
      const action = input.value.trim();
      if (how !== "remove" && !action) { text("log-msg", "Type the move first."); return; }
      edits = edits.filter(x => !(x.seq === e.seq && x.how !== "insert" && how !== "insert"));
      edits.push(how === "remove" ? {seq: e.seq, how, text: e.text} : {seq: e.seq, how, action, text: e.text});
      editing = null;
      text("log-msg", "");
      renderLog(current.log || []);
    };
    return b;
  };
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.textContent = "Cancel";
  cancel.onclick = () => { editing = null; renderLog(current.log || []); };
  form.append(label, input, add("replace", "Put this in its place"), add("insert", "Insert this before it"),
              add("remove", "Take this move out"), cancel);
  return form;
}

function editWords(x) {
  if (x.how === "remove") return `take out move ${x.seq + 1} (${x.text.replace(/\.$/, "")})`;
  if (x.how === "insert") return `before move ${x.seq + 1}, insert: ${x.action}`;
  return `move ${x.seq + 1} becomes: ${x.action}`;
}

function renderEdits() {
  const box = document.getElementById("edits-box");
  if (!box) return;
  box.classList.toggle("hidden", !edits.length);
  document.getElementById("edits").replaceChildren(...edits.map(x => li(editWords(x))));
}

async function saveEdits() {
  const r = await post("/api/log", {edits: edits.map(({seq, how, action}) => (how === "remove" ? {seq, how} : {seq, how, action}))});
  say("log-msg", r);
  if (r.status < 400) { edits = []; renderEdits(); }
}

let pieceTexts = null, pieceTextsOf = null;

/* The combo column: each combo's cost and coins, and what its banner and badge do in the rulebook's
   words (fetched once per ruleset), a tap away. */
async function loadPieceTexts(ruleset) {
  pieceTextsOf = ruleset;
  pieceTexts = null;
  const r = await fetch(`/api/rules/${encodeURIComponent(ruleset)}/texts`);
  const got = r.ok ? await r.json() : null;
  if (pieceTextsOf !== ruleset) return;  // another ruleset was asked for meanwhile
  pieceTexts = got;
  if (current && !current.no_game) renderCombos(current);  // the newest state, not the one that asked
}

function renderCombos(state) {
  if (pieceTextsOf !== state.ruleset) loadPieceTexts(state.ruleset);
  const list = document.getElementById("combos");
  const opened = new Set([...list.querySelectorAll("details[open]")].map(d => d.dataset.race));
  list.replaceChildren(...state.combos.map(c => {
    const e = li("");
    const words = pieceTexts ? [[c.race, pieceTexts.races[c.race]], [c.power, pieceTexts.powers[c.power]]] : [];
    const d = document.createElement("details");
    d.className = "combo-text";
    d.dataset.race = c.race;
    d.open = opened.has(c.race);
    const s = document.createElement("summary");
    s.textContent = `${comboTitle(c)} — ${c.cost ? `costs ${c.cost}` : "free"}` + (c.coins ? `, ${c.coins} coin${c.coins > 1 ? "s" : ""} on it` : "");
    d.append(s);
    for (const [i, [name, text]] of words.entries()) {
      if (!text) continue;
      const p = document.createElement("p");
      const b = document.createElement("strong");
      b.textContent = i === 0 ? `${c.race_title}: ` : `${c.power_title}: `;
      p.append(b, text);
      d.append(p);
    }
    e.append(d);
    return e;
  }));
}

function drawTableBoard(state) {
  if (!layout) return;
  const costs = {};
  if (document.getElementById("show-conquerable").checked) for (const c of state.conquerable || []) costs[c.region] = c.cost;
  const alerts = (state.alerts || []).map(a => a.region).filter(r => r !== null && r !== undefined);
  drawBoard(document.getElementById("board"), layout, state, {costs, alerts, numbers: document.getElementById("show-numbers").checked,
    onTap: rid => { const g = document.getElementById(`region-${rid}`); text("region-info", g ? g.getAttribute("aria-label") : ""); }});
}

function comboTitle(c) {
  return c.title + (c.faction && c.faction !== "neutral" ? ` (${c.faction[0].toUpperCase()}${c.faction.slice(1)})` : "");
}

function renderNotice(n) {  // what the demo's simulated table does or waits for (the watchdog's report too)
  const panel = document.getElementById("notice-panel");
  if (!panel) return;
  panel.classList.toggle("hidden", !n);
  panel.classList.toggle("wanted", !!n && n.level === "warning");
  if (n) text("notice-text", n.text);
}

function renderQuestion(q) {
  const panel = document.getElementById("question-panel");
  if (!panel) return;
  panel.classList.toggle("hidden", !q);
  if (!q) return;
  text("question-text", q.text);
  if (askedBoard) { askedBoard = false; panel.scrollIntoView({block: "nearest"}); }
  const unlocked = document.body.classList.contains("unlocked");  // answering is the table's business
  document.getElementById("question-options").replaceChildren(...q.options.map((o, i) => {
    const e = li(unlocked ? "" : o, "option");
    if (!unlocked) return e;
    const b = document.createElement("button");
    b.textContent = o;
    if (i === 0) b.className = "primary";
    b.onclick = async () => say("alert-msg", await post("/api/answer", {option: i}));
    e.append(b);
    return e;
  }));
}

function say(id, r) {  // a button's answer, in words, next to it
  const m = document.getElementById(id);
  if (!m) return;
  m.textContent = r.sentence || "";
  m.className = "msg " + (r.status >= 400 || r.status === 0 ? "error" : "ok");
}

function alertWhere(a) { return a.region !== null && a.region !== undefined ? `region ${a.region}` : a.action; }

/* An alert about a move says who made it; one about the board says the board and the game differ. */
function alertLine(a) {
  return a.about === "board" ? `The board and the game differ, ${alertWhere(a)}: ${a.sentence}`
                             : `${a.who}, ${alertWhere(a)}: ${a.sentence}`;
}

function alertButtons(a) {  // settling an alert is the table's (unlocked) business
  if (!document.body.classList.contains("unlocked")) return [];
  const ok = document.createElement("button");
  ok.textContent = "Accept the correction";
  ok.title = "The players put the board back as the game has it";
  ok.onclick = async () => say("alert-msg", await post(`/api/alerts/${a.id}`, {accept: true}));
  const over = document.createElement("button");
  over.textContent = "Override";
  over.title = "The camera misread this region: the board is right";
  over.onclick = async () => say("alert-msg", await post(`/api/alerts/${a.id}`, {accept: false}));
  return [" ", ok, " ", over];
}

function renderAlerts(alerts) {
  const ul = document.getElementById("alerts");
  const banner = document.getElementById("alert-banner");
  banner.classList.toggle("hidden", !alerts.length);
  const fresh = alerts.filter(a => !heard.has(a.id));  // raised since this page opened: the sound, if on
  fresh.forEach(a => heard.add(a.id));
  if (fresh.length && heardOnce && document.getElementById("alert-sound").checked) beep();
  heardOnce = true;
  if (!alerts.length) { ul.replaceChildren(li("None", "none")); banner.replaceChildren(); return; }
  const newest = alerts[alerts.length - 1];
  const line = document.createElement("span");
  line.className = "alert-line";
  line.textContent = `⚠ ${alertLine(newest)}` + (alerts.length > 1 ? ` (and ${alerts.length - 1} more in the Alerts panel)` : "");
  banner.dataset.about = newest.about || "move";
  banner.replaceChildren(line, ...alertButtons(newest));
  ul.replaceChildren(...alerts.map(a => { const e = li(alertLine(a), `alert ${a.about || "move"}`); e.append(...alertButtons(a)); return e; }));
}

function beep() {  // the optional alert sound: two short tones, made here (no sound file)
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    [0, 0.25].forEach((t, i) => {
      const o = ctx.createOscillator(), g = ctx.createGain();
      o.frequency.value = i ? 660 : 880; g.gain.value = 0.15;
      o.connect(g); g.connect(ctx.destination); o.start(ctx.currentTime + t); o.stop(ctx.currentTime + t + 0.18);
    });
  } catch (e) { /* no audio here */ }
}

function renderEnd(state) {  // drawn by end.js
  const box = document.getElementById("end");
  if (!state.end) { box.classList.add("hidden"); endClosed = false; return; }
  if (!endClosed) box.classList.remove("hidden");
  fillEnd(state);
}

async function loadJoinCodes() {
  const box = document.getElementById("join-codes");
  if (!box) return;
  const r = await fetch("/api/join-codes");
  if (!r.ok) { box.textContent = "No game yet."; return; }
  const seats = await r.json();
  box.replaceChildren(...seats.map(s => {
    const d = document.createElement("div");
    d.className = "join";
    const h = document.createElement("strong");
    h.textContent = `${s.name}: ${s.code}`;
    d.appendChild(h);
    if (s.qr) { const q = document.createElement("div"); q.className = "qr"; q.innerHTML = s.qr; d.appendChild(q); }
    const a = document.createElement("div"); a.className = "url"; a.textContent = s.url; d.appendChild(a);
    return d;
  }));
}

function start() {
  openStream("/events/table", render);
  for (const id of ["show-conquerable", "show-numbers"]) document.getElementById(id).onchange = () => current && drawTableBoard(current);
  const sound = document.getElementById("alert-sound");  // off by default; this browser remembers the choice
  try { sound.checked = localStorage.getItem("alert-sound") === "on"; } catch (e) { /* storage blocked */ }
  sound.onchange = () => { try { localStorage.setItem("alert-sound", sound.checked ? "on" : "off"); } catch (e) { /* storage blocked */ } if (sound.checked) beep(); };
  const boardRight = document.getElementById("board-right");
  if (boardRight) boardRight.onclick = async () => {
    boardRight.disabled = true;
    text("alert-msg", "Asking the camera…");
    try {
      const r = await post("/api/board-right", {});
      say("alert-msg", r);
      askedBoard = !!r.question;  // the offer is shown with the next state: brought into sight then
    } finally { boardRight.disabled = false; }
  };
  const declareButton = document.getElementById("declare");
  if (declareButton) declareButton.onclick = async () => {
    const region = document.getElementById("declare-region").value;
    const r = await post("/api/declare", {region: Number(region)});
    text("die-msg", r.sentence || "");
  };
  document.getElementById("roll").onclick = async () => {
    const r = await post("/api/roll", {});
    text("die-msg", r.status >= 400 ? r.sentence : "");
  };
  for (const b of document.querySelectorAll(".typed button")) {
    b.onclick = async () => { const r = await post("/api/roll", {face: Number(b.dataset.face)}); text("die-msg", r.status >= 400 ? r.sentence : ""); };
  }
  document.getElementById("values-form").onsubmit = async e => {
    e.preventDefault();
    const w = current && current.awaiting;
    if (!w || w.kind !== "values") return;
    const r = await post("/api/action", {action: {act: "values", race: w.race,
      banner: Number(document.getElementById("values-banner").value), badge: Number(document.getElementById("values-badge").value)}});
    const msg = document.getElementById("values-msg");
    msg.textContent = r.sentence || "";
    msg.className = "msg " + (r.status >= 400 ? "error" : "ok");
  };
  document.getElementById("end-close").onclick = () => { endClosed = true; document.getElementById("end").classList.add("hidden"); };
  const save = document.getElementById("edits-save");
  if (save) save.onclick = saveEdits;
  const discard = document.getElementById("edits-discard");
  if (discard) discard.onclick = () => { edits = []; text("log-msg", ""); renderLog(current ? current.log || [] : []); };
  const undo = document.getElementById("undo");
  if (undo) undo.onclick = async () => { const r = await post("/api/undo", {}); text("table-msg", r.sentence || ""); };
  const join = document.getElementById("join-box");
  if (join) join.addEventListener("toggle", () => { if (join.open) loadJoinCodes(); });
}
start();
