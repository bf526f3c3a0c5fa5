/* The setup page: the board follows the number of players (said as it is typed), and the physical
   stacks are entered by tapping the banners and badges in their order (the chips fill the fields the
   form sends, which a power user may also type into). */
"use strict";

(function () {
  const players = document.getElementById("players-field");
  const mapField = document.getElementById("map-field");
  const maps = JSON.parse(mapField.dataset.maps || "[]");

  function named() { return players.value.split(/[,\n]/).map(s => s.trim()).filter(Boolean).length; }

  function followPlayers() {  // which board this many players get, and a word when the chosen one differs
    const n = named();
    const fits = maps.find(m => m.players === n);
    const auto = mapField.options[0];
    auto.textContent = fits ? `by the number of players (${n})` : "by the number of players";
    document.getElementById("players-count").textContent = n ? `${n} player${n > 1 ? "s" : ""}.` : "";
    const chosen = maps.find(m => m.name === mapField.value);
    const says = document.getElementById("map-says");
    const anyMap = document.getElementById("any-map-box");
    const differs = !!chosen && chosen.players !== n && n >= 2;
    says.textContent = differs ? `${chosen.label} is laid out for ${chosen.players} players, and ${n} are named.` :
      chosen ? `${chosen.label}.` : fits ? `${fits.label}.` : n > 5 ? "Small World is for 2 to 5 players." : "";
    says.classList.toggle("warning", differs);
    if (anyMap) {
      anyMap.classList.toggle("hidden", !differs);
      document.getElementById("any-map-n").textContent = `${n}`;
      if (!differs) anyMap.querySelector("input").checked = false;
    }
  }
  players.addEventListener("input", followPlayers);
  mapField.addEventListener("change", followPlayers);
  followPlayers();

  const orders = {};
  function split(text) { return text.split(/[,\n]/).map(s => s.trim().toLowerCase()).filter(Boolean); }

  for (const group of document.querySelectorAll(".chips")) {
    const field = document.getElementById(group.dataset.field);
    const chips = [...group.querySelectorAll(".chip")];
    const known = new Set(chips.map(c => c.dataset.name));
    orders[group.id] = split(field.value).filter(n => known.has(n));
    const draw = () => {
      const order = orders[group.id];
      for (const chip of chips) {
        const at = order.indexOf(chip.dataset.name);
        chip.setAttribute("aria-pressed", String(at >= 0));
        chip.dataset.at = at >= 0 ? `${at + 1}` : "";
        chip.setAttribute("aria-label", at >= 0 ? `${chip.textContent}, number ${at + 1}` : chip.textContent);
      }
      field.value = order.join(", ");
      preview();
    };
    for (const chip of chips) {
      chip.addEventListener("click", () => {
        const order = orders[group.id], at = order.indexOf(chip.dataset.name);
        if (at >= 0) order.splice(at, 1); else order.push(chip.dataset.name);
        draw();
      });
    }
    field.addEventListener("input", () => { orders[group.id] = split(field.value).filter(n => known.has(n)); draw(); field.value = field.value; });
    draw();
  }

  function title(groupId, name) {
    const chip = document.querySelector(`#${groupId} .chip[data-name="${CSS.escape(name)}"]`);
    return chip ? chip.textContent : name;
  }

  function preview() {  // the visible combos as they will lie on the table, and what is still missing
    const list = document.getElementById("combo-preview");
    if (!list || !orders["race-chips"] || !orders["power-chips"]) return;
    const races = orders["race-chips"], powers = orders["power-chips"];
    const items = [];
    for (let i = 0; i < 6; i++) {
      const li = document.createElement("li");
      const r = races[i] ? title("race-chips", races[i]) : "…", p = powers[i] ? title("power-chips", powers[i]) : "…";
      li.textContent = `${p} ${r} (${i ? `costs ${i}` : "free"})`;
      li.className = races[i] && powers[i] ? "" : "missing";
      items.push(li);
    }
    list.replaceChildren(...items);
    const go = document.getElementById("typed-go");
    const short = Math.max(0, 6 - races.length) + Math.max(0, 6 - powers.length);
    go.textContent = short ? `Set up with our stacks (${short} more to tap)` : "Set up with our stacks";
  }
  preview();
})();
