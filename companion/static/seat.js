/* A player's phone: listens to /events/seat (the public state plus this seat's private part); the player
   taps regions on their map to play, with the engine's own choices as the buttons. */
"use strict";
let last = null, layout = null, layoutKey = null, mode = null, pending = null, heroes = [], placing = null, wasMyTurn = false;
let redeployNow = null;  // the turn (round:player) in which the player said they are done conquering

function el2(tag, txt, cls) { const e = document.createElement(tag); if (txt !== undefined) e.textContent = txt; if (cls) e.className = cls; return e; }

async function ensureLayout(pub) {
  const key = `${pub.ruleset}:${pub.map}`;
  if (layoutKey === key && !(layout && layout.pending)) return;
  const r = await fetch(`/api/layout?map=${encodeURIComponent(pub.map)}&ruleset=${encodeURIComponent(pub.ruleset || "")}`);
  if (!r.ok) return;
  layout = await r.json();
  layoutKey = key;
  if (layout.pending) setTimeout(() => last && ensureLayout(last.public).then(() => render(last)), 3000);
}

async function render(data) {
  last = data;
  const pub = data.public, me = data.me;
  document.getElementById("me").textContent = `${me.name}`;
  document.getElementById("me").style.borderBottom = `6px solid ${me.colour}`;
  const mine = !!me.my_turn;
  document.body.classList.toggle("my-turn", mine);
  document.title = (mine ? "● Your turn — " : "") + `${me.name}: Small World`;
  if (mine && !wasMyTurn && navigator.vibrate && (!navigator.userActivation || navigator.userActivation.hasBeenActive)) { try { navigator.vibrate([150, 80, 150]); } catch (e) { /* not allowed */ } }
  wasMyTurn = mine;
  const turn = pub.no_game ? "" : pub.finished ? "The game is over." :
    `Round ${pub.round} of ${pub.rounds}${pub.last_round ? " (the last round)" : ""}. ${mine ? "Your turn: " : ""}${pub.step}`;
  document.getElementById("turn").textContent = turn;
  document.getElementById("turn").classList.toggle("your-turn", mine);
  document.getElementById("coins").textContent = `${me.coins} coins`;
  const lastIncome = document.getElementById("last-income");
  lastIncome.replaceChildren(...(me.last_income ? me.last_income.items.map(([what, n]) => el2("li", `${what}: ${n}`)).concat([el2("li", `total: ${me.last_income.total} (round ${me.last_income.round})`, "total")]) : [el2("li", "Nothing scored yet.")]));
  const table = document.getElementById("income");
  table.replaceChildren();
  const head = el2("tr"); head.append(el2("th", "round"), el2("th", "income")); table.appendChild(head);
  for (const e of me.income) { const tr = el2("tr"); tr.append(el2("td", `${e.round}`), el2("td", `${e.total}`)); table.appendChild(tr); }
  const transfers = me.transfers || [];
  document.getElementById("transfers-box").classList.toggle("hidden", !transfers.length);
  document.getElementById("transfers").replaceChildren(...transfers.map(t =>
    el2("li", t.coins > 0 ? `+${t.coins} from ${t.with} (${t.why})` : `${t.coins} to ${t.with} (${t.why})`, t.coins > 0 ? "in" : "out")));
  renderValues(me);
  document.getElementById("my-combos").replaceChildren(...(me.combos.length ? me.combos.map(c => el2("li", c.title + (c.in_decline ? " (in decline)" : ""))) : [el2("li", "No race yet.")]));
  if (!pub.no_game) await ensureLayout(pub);
  renderActions(pub, me);
  showDie(document.getElementById("die-show"), pub.die_roll, pub.players);
  document.getElementById("player-key").replaceChildren(...playerKey(pub.players || [], pub.current));
  drawMine();
  markSeen(me.version);
}

function renderValues(me) {
  const form = document.getElementById("values-form");
  const w = me.values_wanted;
  form.classList.toggle("hidden", !w);
  if (!w) { form.dataset.race = ""; return; }
  document.getElementById("values-text").textContent = `Your ${w.power_title} ${w.race_title}: read the numbers ` +
    `printed on the banner and the badge.`;
  document.getElementById("values-banner-label").textContent = `${w.race_title} banner`;
  document.getElementById("values-badge-label").textContent = `${w.power_title} badge`;
  if (form.dataset.race !== w.race) {
    form.dataset.race = w.race;
    document.getElementById("values-banner").value = w.banner ?? "";
    document.getElementById("values-badge").value = w.badge ?? "";
  }
}

/* The engine's choices, sorted into what the phone shows: picks, map modes (a tap on a region), buttons. */
function sorted(me) {
  const picks = [], modes = {}, buttons = [];
  for (const c of me.choices || []) {
    if (c.act === "pick") picks.push(c);
    else if (c.act === "roll") continue;  // the die row
    else if (c.mode) {
      const key = c.act === "attempt" ? "conquer" : c.act;  // one mode: a region too dear is a final attempt
      (modes[key] = modes[key] || {label: c.mode, choices: []}).choices.push(c);
      if (c.none) buttons.push(c.none);  // a placement that may place nothing: its own button
    } else buttons.push(c);
  }
  return {picks, modes, buttons};
}

function renderActions(pub, me) {
  const mine = !!me.my_turn;
  const {picks, modes, buttons} = sorted(me);
  const signature = JSON.stringify([pub.version, me.choices]);
  const opened = new Set([...document.querySelectorAll("#picks details[open]")].map(d => d.dataset.race));
  document.getElementById("picks").replaceChildren(...picks.map(c => {
    const card = el2("div", undefined, "pick-card");
    const b = el2("button", undefined, "pick");
    b.append(el2("strong", `${c.power_title} ${c.race_title}`),
             el2("span", (c.cost ? `costs ${c.cost} coin${c.cost === 1 ? "" : "s"}` : "free") + (c.coins ? ` · ${c.coins} coin${c.coins > 1 ? "s" : ""} on it` : ""), "pick-cost"));
    b.onclick = () => send(c.notation);
    card.append(b);
    if (c.race_text || c.power_text) {  // what the banner and the badge do, in the rulebook's words
      const d = el2("details", undefined, "pick-text");
      d.dataset.race = c.race_title;
      d.open = opened.has(c.race_title);
      d.append(el2("summary", `What the ${c.power_title} ${c.race_title} do`));
      for (const [title, words] of [[c.race_title, c.race_text], [c.power_title, c.power_text]]) {
        if (!words) continue;
        const p = el2("p");
        p.append(el2("strong", `${title}: `), words);
        d.append(p);
      }
      card.append(d);
    }
    return card;
  }));
  if (!modes[mode]) { mode = modes.conquer ? "conquer" : Object.keys(modes)[0] || null; heroes = []; }
  if (modes.conquer) modes.conquer.label = modes.conquer.choices.some(c => c.act === "conquer") ? "Conquer" : "Final conquest attempt";
  const modeKeys = Object.keys(modes);
  document.getElementById("modes").replaceChildren(...(modeKeys.length > 1 || (modeKeys.length === 1 && modeKeys[0] !== "conquer") ? modeKeys.map(k => {
    const b = el2("button", modes[k].label, "mode");
    b.setAttribute("aria-pressed", String(k === mode));
    b.onclick = () => { mode = k; heroes = []; hideConfirm(); renderActions(last.public, last.me); drawMine(); };
    return b;
  }) : []));
  document.getElementById("choices").replaceChildren(...buttons.map(c => {
    const b = el2("button", c.words, c.act === "end" ? "primary" : "");
    b.dataset.act = c.act;
    b.onclick = () => send(c.notation);
    return b;
  }));
  document.getElementById("die-row").classList.toggle("hidden", !(mine && pub.die_due));
  // placements: redeploy / resettle / encampments with +/- per region
  const kinds = me.placing || [];
  const kind = kinds.includes("resettle") ? "resettle" : kinds.includes("redeploy") ? "redeploy" : kinds.includes("encamp") ? "encamp" : null;
  const turnKey = `${pub.round}:${pub.current}`;
  const conquering = !!modes.conquer && kind === "redeploy" && redeployNow !== turnKey;
  renderPlacing(pub, me, mine && !conquering ? kind : null);
  if (mine && conquering) {  // conquests go on until the player says they are done
    const b = el2("button", "Done conquering: redeploy my troops", "primary");
    b.dataset.act = "redeploy";
    b.onclick = () => { redeployNow = turnKey; hideConfirm(); renderActions(last.public, last.me); drawMine(); };
    document.getElementById("choices").appendChild(b);
  }
  if (mine && placing && modes.conquer) {
    const b = el2("button", "Back to conquering");
    b.onclick = () => { redeployNow = null; placing = null; renderActions(last.public, last.me); drawMine(); };
    document.getElementById("choices").appendChild(b);
  }
  let hint = "Wait for your turn.";
  if (pub.finished) hint = "The game is over.";
  else if (mine && picks.length) hint = "Pick a combo: its cost is in coins, paid one on each combo above it.";
  else if (mine && placing) hint = placing.kind === "encamp" ? "Tap your regions (or use + and −) to place Encampments." : "Tap your regions or use + and − to say how many tokens end in each; the count below says what is left in your hand.";
  else if (mine && mode && setMode()) hint = modes[mode].choices[0].words;
  else if (mine && mode) hint = mode === "conquer" ? "Tap a region to conquer it: the badge shows its cost in tokens." : `${modes[mode].label}: tap a region.`;
  else if (mine && pub.die_due) hint = "Roll the die.";
  else if (mine) hint = "Your turn: choose below.";
  document.getElementById("act-hint").textContent = hint;
}

function currentTribe(me, kind) {
  if (kind === "resettle") return me.resettles;
  const active = me.combos.find(c => !c.in_decline) || me.combos[me.combos.length - 1];
  return active ? active.race : null;
}

function renderPlacing(pub, me, kind) {
  const form = document.getElementById("place-form");
  if (!kind) { placing = null; form.classList.add("hidden"); return; }
  const race = currentTribe(me, kind);
  const held = (me.held || {})[race] || {};
  const hand = (pub.players[me.seat] || {}).tokens_in_hand || 0;
  const sig = JSON.stringify([kind, race, held, hand]);
  if (!placing || placing.sig !== sig) {
    const counts = {};
    for (const [rid, n] of Object.entries(held)) counts[rid] = kind === "redeploy" ? n : 0;
    placing = {sig, kind, race, counts, total: kind === "redeploy" ? Object.values(held).reduce((a, b) => a + b, 0) + hand : hand};
  }
  form.classList.remove("hidden");
  const titles = {redeploy: "Redeploy: how many tokens end in each region", resettle: "Resettle the tokens in your hand: how many more in each region",
                  encamp: "Place Encampments: how many in each region"};
  document.getElementById("place-title").textContent = titles[kind];
  document.getElementById("place-btn").textContent = {redeploy: "Redeploy", resettle: "Resettle", encamp: "Place Encampments"}[kind];
  drawPlacing();
}

function drawPlacing() {
  if (!placing) return;
  const used = Object.values(placing.counts).reduce((a, b) => a + b, 0);
  const left = placing.total - used;
  const count = document.getElementById("place-count");
  count.textContent = placing.kind === "encamp" ? `${used} Encampment${used === 1 ? "" : "s"} placed.` :
    left === 0 ? "Every token is placed." : left > 0 ? `${left} token${left === 1 ? "" : "s"} still in your hand.` : `${-left} token${left === -1 ? "" : "s"} too many.`;
  count.classList.toggle("error", placing.kind !== "encamp" && left < 0);
  const rows = Object.keys(placing.counts).sort((a, b) => a - b).map(rid => {
    const row = el2("li");
    const name = el2("span", `Region ${rid}${regionTerrain(rid)}`, "place-name");
    const minus = el2("button", "−"); minus.type = "button"; minus.setAttribute("aria-label", `One fewer on region ${rid}`);
    const plus = el2("button", "+"); plus.type = "button"; plus.setAttribute("aria-label", `One more on region ${rid}`);
    const n = el2("output", `${placing.counts[rid]}`, "place-n");
    n.setAttribute("aria-label", `region ${rid}`);
    minus.onclick = () => { placing.counts[rid] = Math.max(0, placing.counts[rid] - 1); drawPlacing(); drawMine(); };
    plus.onclick = () => { placing.counts[rid] += 1; drawPlacing(); drawMine(); };
    row.append(name, minus, n, plus);
    return row;
  });
  document.getElementById("place-fields").replaceChildren(...rows);
}

function regionTerrain(rid) {
  const r = layout && layout.regions.find(x => String(x.id) === String(rid));
  return r ? ` (${r.terrain})` : "";
}

function drawMine() {
  if (!layout || !last) return;
  const pub = last.public, me = last.me;
  const costs = {}, selected = {};
  if (me.my_turn && mode === "conquer" && !placing) for (const c of pub.conquerable || []) costs[c.region] = c.cost;
  if (placing) for (const [rid, n] of Object.entries(placing.counts)) if (n > 0) selected[rid] = true;
  if (mode === "heroes" || setMode()) for (const rid of heroes) selected[rid] = true;
  if (pending) for (const rid of pending.regions || []) selected[rid] = true;
  const shown = placing ? Object.assign({}, pub, {regions: Object.assign({}, pub.regions)}) : pub;
  if (placing && placing.kind === "redeploy") {  // the board shows the redeployment as it is being entered
    for (const [rid, n] of Object.entries(placing.counts)) shown.regions[rid] = Object.assign({}, pub.regions[rid], {tokens: n});
  }
  const alerts = (pub.alerts || []).map(a => a.region).filter(r => r !== null && r !== undefined);
  drawBoard(document.getElementById("board"), layout, shown, {costs, selected, alerts, onTap: tap});
}

function tap(rid) {
  const g = document.getElementById(`region-${rid}`);
  text("region-info", g ? g.getAttribute("aria-label") : "");
  if (!last || !last.me.my_turn) return;
  if (placing) {
    if (String(rid) in placing.counts || placing.kind !== "redeploy") {
      if (!(String(rid) in placing.counts)) return;
      placing.counts[String(rid)] += 1; drawPlacing(); drawMine();
    }
    return;
  }
  if (!mode) return;
  const {modes} = sorted(last.me);
  const choices = (modes[mode] || {choices: []}).choices;
  const set = choices.find(c => c.set);
  if (set) {  // Military Objectives, Bombs: up to N regions tapped, then one confirmation
    if (!set.regions.includes(rid)) { hideConfirm(); text("result", `Region ${rid}: not a region for this.`); return; }
    heroes = heroes.includes(rid) ? heroes.filter(x => x !== rid) : heroes.concat([rid]).slice(-set.up_to);
    const chosen = heroes.slice().sort((a, b) => a - b);
    if (chosen.length) ask({act: set.act, regions: chosen, notation: `${set.notation} ${chosen.join(" ")}`,
                           words: `${set.mode} in region${chosen.length > 1 ? "s" : ""} ${chosen.join(" and ")}` +
                                  (chosen.length < set.up_to ? ` (tap another region to add it, up to ${set.up_to}).` : ".")});
    else hideConfirm();
    drawMine();
    return;
  }
  if (mode === "heroes") {
    heroes = heroes.includes(rid) ? heroes.filter(x => x !== rid) : heroes.concat([rid]).slice(-2);
    const c = heroes.length === 2 && choices.find(c => c.regions.length === 2 && c.regions.every(r => heroes.includes(r)));
    if (c) ask(c); else hideConfirm();
    drawMine();
    return;
  }
  const c = choices.find(c => c.act !== "attempt" && c.regions.includes(rid)) || choices.find(c => c.regions.includes(rid));
  if (c) ask(c);
  else { hideConfirm(); tell(`Region ${rid}: not a ${modes[mode].label.toLowerCase()} you can make now.`, true); }
}

function setMode() {  // the mode is a set of regions to tap (Military Objectives, Bombs)
  if (!last || !mode) return false;
  const m = sorted(last.me).modes[mode];
  return !!m && m.choices.some(c => c.set);
}

function ask(c) {
  pending = c;
  text("confirm-text", c.words + (c.act === "attempt" ? " The die decides." : ""));
  document.getElementById("confirm-yes").textContent = c.act === "attempt" ? "Attempt it" : (sorted(last.me).modes[mode] || {label: "Do it"}).label;
  document.getElementById("confirm").classList.remove("hidden");
  drawMine();
  document.getElementById("confirm-yes").focus({preventScroll: true});
}

function hideConfirm() { pending = null; document.getElementById("confirm").classList.add("hidden"); }

function placementFor() {
  return Object.entries(placing.counts).filter(([, n]) => n > 0).map(([rid, n]) => `${rid}:${n}`).join(" ") || "-";
}

/* The answer to this phone's own move, and to it only (a refusal in the rulebook's words): kept in sight
   at the top of the screen while the player scrolls the map; a tap puts it away. */
function tell(words, refused) {
  const out = document.getElementById("result");
  out.textContent = words || "";
  out.className = "msg result " + (refused ? "error" : "ok");
}

async function send(action) {
  const r = await post("/api/action", {action});
  tell(r.sentence, r.status >= 400 || r.status === 0);
  return r;
}

async function roll(body) {
  const r = await post("/api/roll", body);
  const refused = r.status >= 400 || r.status === 0;
  tell(refused ? r.sentence : "", refused);
}

/* The stream was refused: ask why. A new game began (this seat was in the last one), or the seat was
   left: the phone says so plainly and offers the join form, instead of a silent page. */
async function askWhy() {
  let r;
  try { r = await fetch("/api/seat", {cache: "no-store", credentials: "same-origin"}); } catch (e) { return false; }
  if (r.status !== 403) return false;  // not about the seat: try the stream again
  let why = {};
  try { why = await r.json(); } catch (e) { /* the sentence below */ }
  seatGone(why);
  return true;
}

function seatGone(why) {
  document.body.classList.add("seat-gone");
  document.body.classList.remove("my-turn");
  text("gone-title", why.error === "new-game" ? "A new game began" : "This phone has no seat now");
  text("gone-text", why.sentence || "This phone no longer has a seat: join again with your seat's code.");
  document.getElementById("gone").classList.remove("hidden");
  document.getElementById("gone-code").focus({preventScroll: true});
  document.getElementById("gone").scrollIntoView({block: "start"});
  connLive();  // the companion answered: it is the seat that is gone, not the server
}

function start() {
  openStream("/events/seat", render, askWhy, seatGone);
  document.getElementById("result").onclick = () => tell("", false);
  document.getElementById("free-form").onsubmit = e => { e.preventDefault(); send(document.getElementById("free").value); };
  document.getElementById("roll").onclick = () => roll({});
  for (const b of document.querySelectorAll("#die-row button[data-face]")) b.onclick = () => roll({face: Number(b.dataset.face)});
  document.getElementById("confirm-yes").onclick = async () => { const c = pending; hideConfirm(); heroes = []; if (c) await send(c.notation); drawMine(); };
  document.getElementById("confirm-no").onclick = () => { hideConfirm(); heroes = []; drawMine(); };
  document.getElementById("coins-toggle").onclick = e => {
    const b = e.currentTarget, shown = b.getAttribute("aria-pressed") !== "true";
    b.setAttribute("aria-pressed", String(shown));
    b.classList.toggle("veiled", !shown);
    b.querySelector(".reveal-hint").textContent = shown ? "Tap to hide" : "Tap to show";
    document.getElementById("coins-detail").classList.toggle("hidden", !shown);
  };
  document.getElementById("values-form").onsubmit = e => {
    e.preventDefault();
    const w = last && last.me.values_wanted;
    if (w) send({act: "values", race: w.race, banner: Number(document.getElementById("values-banner").value),
                 badge: Number(document.getElementById("values-badge").value)});
  };
  document.getElementById("place-form").onsubmit = async e => {
    e.preventDefault();
    if (!placing) return;
    const notation = placing.kind === "resettle" ? `resettle ${placing.race} ${placementFor()}` :
      placing.kind === "encamp" ? `encamp ${placementFor()}` : `redeploy ${placementFor()}`;
    await send(notation);
  };
  let resized = null;
  window.addEventListener("resize", () => { clearTimeout(resized); resized = setTimeout(drawMine, 150); });
}
start();
