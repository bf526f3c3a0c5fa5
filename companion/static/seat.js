/* A player's phone: listens to /events/seat (the public state plus this seat's private part). */
"use strict";
let last = null;

function el2(tag, txt, cls) { const e = document.createElement(tag); if (txt !== undefined) e.textContent = txt; if (cls) e.className = cls; return e; }

function render(data) {
  last = data;
  const pub = data.public, me = data.me;
  document.getElementById("me").textContent = `${me.name}`;
  document.getElementById("me").style.borderBottom = `6px solid ${me.colour}`;
  const whose = pub.current === me.seat ? "Your turn: " : "";
  document.getElementById("turn").textContent = pub.no_game ? "" : `Round ${pub.round} of ${pub.rounds}${pub.last_round ? " (the last round)" : ""}. ${whose}${pub.step}`;
  document.getElementById("coins").textContent = `${me.coins} coins`;
  const lastIncome = document.getElementById("last-income");
  lastIncome.replaceChildren(...(me.last_income ? me.last_income.items.map(([what, n]) => el2("li", `${what}: ${n}`)).concat([el2("li", `total: ${me.last_income.total} (round ${me.last_income.round})`, "total")]) : [el2("li", "Nothing scored yet.")]));
  const table = document.getElementById("income");
  table.replaceChildren(el2("tr"));
  table.innerHTML = "<tr><th>round</th><th>income</th></tr>";
  for (const e of me.income) { const tr = el2("tr"); tr.append(el2("td", `${e.round}`), el2("td", `${e.total}`)); table.appendChild(tr); }
  const transfers = me.transfers || [];
  document.getElementById("transfers-box").classList.toggle("hidden", !transfers.length);
  document.getElementById("transfers").replaceChildren(...transfers.map(t =>
    el2("li", t.coins > 0 ? `+${t.coins} from ${t.with} (${t.why})` : `${t.coins} to ${t.with} (${t.why})`, t.coins > 0 ? "in" : "out")));
  renderValues(me);
  document.getElementById("my-combos").replaceChildren(...(me.combos.length ? me.combos.map(c => el2("li", c.title)) : [el2("li", "No race yet.")]));
  renderActions(pub, me);
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

function renderActions(pub, me) {
  const choices = document.getElementById("choices");
  const simple = me.choices.filter(c => !/^(conquer|attempt) /.test(c.notation));
  choices.replaceChildren(...simple.map(c => { const b = el2("button", c.words); b.onclick = () => send(c.notation); return b; }));
  const select = document.getElementById("conquer-region");
  const keep = select.value;
  const ids = Object.keys(pub.regions || {}).map(Number).sort((a, b) => a - b);
  const cost = {}; for (const c of pub.conquerable || []) cost[c.region] = c.cost;
  select.replaceChildren(...ids.map(i => { const o = el2("option", `${i}${i in cost ? ` (costs ${cost[i]})` : ""}`); o.value = i; return o; }));
  if (keep) select.value = keep;
  document.getElementById("die-row").classList.toggle("hidden", !(me.my_turn && pub.die_due));
  const place = document.getElementById("place-form");
  const fields = document.getElementById("place-fields");
  const tribes = Object.entries(me.held || {});
  const resettle = me.my_turn && pub.phase === "resettlement";
  place.classList.toggle("hidden", !(me.my_turn && tribes.length && (pub.phase === "conquest" || pub.phase === "redeployment" || resettle)));
  document.getElementById("place-title").textContent = resettle ? "Resettle the tokens in your hand (how many more in each region)" : "Redeploy: how many tokens end in each region";
  document.getElementById("place-btn").textContent = resettle ? "Resettle" : "Redeploy";
  const sig = JSON.stringify([resettle, me.held]);
  if (fields.dataset.sig !== sig) {
    fields.dataset.sig = sig;
    fields.replaceChildren(...tribes.map(([race, regions]) => {
      const box = el2("fieldset"); box.dataset.race = race; box.append(el2("legend", race));
      for (const [rid, n] of Object.entries(regions)) {
        const l = el2("label", `region ${rid} `); const i = el2("input"); i.type = "number"; i.min = 0; i.value = resettle ? 0 : n; i.dataset.region = rid; l.appendChild(i); box.appendChild(l);
      }
      return box;
    }));
  }
}

function placementFor(box) {
  return [...box.querySelectorAll("input")].filter(i => Number(i.value) > 0).map(i => `${i.dataset.region}:${Number(i.value)}`).join(" ") || "-";
}

async function send(notation) {
  const r = await post("/api/action", {action: notation});
  const out = document.getElementById("result");
  out.textContent = r.sentence || "";
  out.className = "msg " + (r.status >= 400 ? "error" : "ok");
}

function start() {
  const events = new EventSource("/events/seat");
  events.addEventListener("state", e => render(JSON.parse(e.data)));
  events.onerror = () => { if (events.readyState === EventSource.CLOSED) location.href = "/join"; };
  document.getElementById("conquer-form").onsubmit = e => { e.preventDefault(); send(`conquer ${document.getElementById("conquer-region").value}`); };
  document.getElementById("free-form").onsubmit = e => { e.preventDefault(); send(document.getElementById("free").value); };
  document.getElementById("roll").onclick = async () => { const r = await post("/api/roll", {}); document.getElementById("result").textContent = r.sentence || ""; };
  for (const b of document.querySelectorAll("#die-row button[data-face]")) b.onclick = async () => { const r = await post("/api/roll", {face: Number(b.dataset.face)}); document.getElementById("result").textContent = r.sentence || ""; };
  document.getElementById("values-form").onsubmit = e => {
    e.preventDefault();
    const w = last && last.me.values_wanted;
    if (w) send({act: "values", race: w.race, banner: Number(document.getElementById("values-banner").value),
                 badge: Number(document.getElementById("values-badge").value)});
  };
  document.getElementById("place-form").onsubmit = e => {
    e.preventDefault();
    const resettle = last && last.public.phase === "resettlement";
    const boxes = [...document.querySelectorAll("#place-fields fieldset")];
    const active = (last.me.combos.find(c => !c.in_decline) || {}).race;
    const wanted = resettle ? last.me.resettles : active;
    let box = boxes.find(b => b.dataset.race === wanted) || boxes[0];
    if (resettle) { send(`resettle ${box.dataset.race} ${placementFor(box)}`); return; }
    send(`redeploy ${placementFor(box)}`);
  };
}
start();
