/* The end of a game, on the table screen and on a past game's page: the winners and the tie-break,
   the players in the order of their scores, the chart of coins after each round (uPlot, served by the
   companion), and each player's coins round by round with where they came from. */
"use strict";

function fillEnd(state, past) {
  const end = state.end;
  endText("winner", past ? `${end.winners.join(" and ")} won.` : `${end.winners.join(" and ")} win${end.winners.length > 1 ? "" : "s"}!`);
  endText("tie-break", end.tie_break || "");
  const order = state.players.map((p, i) => i)
    .sort((a, b) => end.coins[b] - end.coins[a] || end.tokens_on_board[b] - end.tokens_on_board[a]);
  const table = document.getElementById("totals");
  const head = document.createElement("tr");
  for (const h of ["", "player", "coins", "tokens on the board"]) head.append(cell("th", h));
  table.replaceChildren(head, ...order.map((i, place) => {
    const tr = document.createElement("tr");
    if (end.winners.includes(state.players[i].name)) tr.className = "won";
    tr.append(cell("td", `${place + 1}.`), nameCell(state.players[i], i), cell("td", end.coins[i]), cell("td", end.tokens_on_board[i]));
    tr.style.setProperty("--reveal", `${(order.length - place) * 0.35}s`);  // the last place first, the winner last
    return tr;
  }));
  const link = document.getElementById("record-link");
  if (link) link.href = `/games/${state.game}/record.jsonl`;
  drawChart(document.getElementById("chart"), end.chart);
  fillIncome(document.getElementById("income"), state.players, end.income || [], order);
}

function endText(id, value) { const e = document.getElementById(id); if (e) e.textContent = value; }

function cell(tag, value) { const c = document.createElement(tag); c.textContent = `${value}`; return c; }

function nameCell(player, seat) {
  const td = document.createElement("td");
  const sw = document.createElement("span");
  sw.className = `swatch dash-${seat % 5}`;
  sw.style.borderColor = player.colour;
  sw.setAttribute("aria-hidden", "true");
  td.append(sw, document.createTextNode(player.name));
  return td;
}

/* Each player's coins, round by round: the round's total and its items ("regions of the Elves 4,
   Forest regions (Forest) 2, paid for the Alchemist Ratmen −2"). */
function fillIncome(box, players, income, order) {
  if (!box) return;
  box.replaceChildren(...order.map(seat => {
    const d = document.createElement("details");
    d.className = "income";
    const s = document.createElement("summary");
    const rows = income[seat] || [];
    const earned = rows.reduce((n, r) => n + r.total, 0);
    s.textContent = `${players[seat].name}: ${earned >= 0 ? "+" : "−"}${Math.abs(earned)} coins over the game, round by round`;
    const ol = document.createElement("ol");
    ol.className = "income-rounds";
    for (const r of rows) {
      const li = document.createElement("li");
      const head = document.createElement("strong");
      head.textContent = `Round ${r.round}: ${signed(r.total)}`;
      const what = document.createElement("span");
      what.textContent = r.items.map(([w, n]) => `${w} ${signed(n)}`).join(" · ");
      li.append(head, " ", what);
      ol.append(li);
    }
    d.append(s, ol);
    return d;
  }));
}

function signed(n) { return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0"; }

let chartKey = null;

/* Coins after each round, drawn by uPlot: axes with ticks and labels, each player's line in their
   colour and dash, their names in the legend below (never over the lines). */
function drawChart(box, series) {
  if (!box || !series || !series.length) return;
  const width = Math.max(260, Math.min(box.getBoundingClientRect().width || 600, 900));
  const key = JSON.stringify([series, Math.round(width)]);
  if (key === chartKey) return;
  chartKey = key;
  box.replaceChildren();
  box.setAttribute("aria-label", "Coins after each round: " + series.map(s => `${s.name} ${s.coins[s.coins.length - 1]}`).join(", "));
  if (typeof uPlot === "undefined") return;
  const rounds = series[0].coins.map((_, i) => i);
  const dashes = [[], [10, 5], [3, 4], [12, 4, 3, 4], [6, 6]];
  const font = "14px system-ui, sans-serif";
  const opts = {
    width, height: Math.round(Math.max(220, width * 0.5)),
    scales: {x: {time: false}},
    legend: {live: false},
    cursor: {show: false},
    axes: [{label: "round (0: the start)", labelFont: font, font, stroke: "#222", grid: {stroke: "#0001"}, incrs: [1, 2, 5]},
           {label: "Victory coins", labelFont: font, font, stroke: "#222", grid: {stroke: "#0002"}}],
    series: [{label: "round"}].concat(series.map((s, i) => ({label: s.name, stroke: s.colour, width: 3, dash: dashes[i % dashes.length],
                                                              points: {show: true, size: 6, fill: s.colour}}))),
  };
  box.plot = new uPlot(opts, [rounds].concat(series.map(s => s.coins)), box);
}

(function pastGame() {  // a past game's page: its end is in the page as data
  const data = document.getElementById("end-data");
  if (data) fillEnd(JSON.parse(data.textContent), true);
})();
