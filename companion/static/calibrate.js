// The guided calibration: each page's buttons call /calibrate/api/... and show the answer in words.
(() => {
  const root = document.getElementById("calibrate");
  if (!root) return;
  const step = root.dataset.step;
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const $ = (id) => document.getElementById(id);
  const say = (text) => { $("message").textContent = text || ""; $("error").textContent = ""; };
  const fail = (text) => { $("error").textContent = text; };
  const NS = "http://www.w3.org/2000/svg";

  async function api(path, body, method) {
    const r = await fetch(`/calibrate/api/${path}`, {
      method: method || (body === undefined ? "GET" : "POST"),
      headers: {"Content-Type": "application/json", "X-CSRF-Token": token, "Accept": "application/json"},
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await r.json();
    if (!r.ok) { fail(data.sentence || "That did not work."); throw new Error(data.sentence); }
    return data;
  }
  /* A step at work (a picture taken, outlines grown, tokens learned: up to several seconds): the button
     waits, a spinner and the seconds run beside it, then the result (or what went wrong) is said there
     and at the top of the page. */
  const busy = async (button, fn, doing) => {
    if (button.disabled) return;
    let note = button.nextElementSibling;
    if (!note || !note.classList.contains("working")) {
      note = document.createElement("span");
      note.className = "working";
      note.setAttribute("role", "status");
      button.after(note);
    }
    const words = doing || "Working";
    const started = Date.now();
    const tick = () => {
      const s = Math.floor((Date.now() - started) / 1000);
      note.replaceChildren(Object.assign(document.createElement("span"), {className: "spinner"}),
                           document.createTextNode(`${words}…${s >= 1 ? ` ${s} s` : ""}`));
    };
    note.className = "working";
    tick();
    const timer = setInterval(tick, 500);
    button.disabled = true;
    root.setAttribute("aria-busy", "true");
    $("message").textContent = ""; $("error").textContent = "";
    try {
      await fn();
      note.className = "working done";
      note.textContent = `✓ ${$("message").textContent || "Done."}`;
      $("message").textContent = "";  // said beside the button
    } catch (e) {
      note.className = "working failed";
      note.textContent = `✗ ${$("error").textContent || "That did not work."}`;
      $("error").textContent = "";
    } finally {
      clearInterval(timer);
      button.disabled = false;
      root.removeAttribute("aria-busy");
    }
  };

  if (step === "camera") {
    const refresh = () => { if (root.dataset.map) $("preview").src = `/calibrate/preview.jpg?t=${Date.now()}`; };
    refresh();
    setInterval(refresh, 1500);
    $("choose-map").onclick = () => busy($("choose-map"), async () => {
      const d = await api("map", {map: $("house-map").value.trim() || $("map").value});
      root.dataset.map = d.map; say(`Map ${d.map}: markers of ${d.marker_mm} mm.`); refresh();
    }, "Choosing the map");
    $("camera-check").onclick = () => busy($("camera-check"), async () => {
      const d = await api("camera", {lock: false});
      $("camera-advice").textContent = d.advice;
      $("camera-advice").className = d.ok ? "ok" : "warning";
      $("camera-lock").disabled = false;
    }, "Looking at the picture");
    $("camera-lock").onclick = () => busy($("camera-lock"), async () => {
      const d = await api("camera", {lock: true});
      say(`Camera settings locked (${d.px_per_mm} px/mm).`);
    }, "Locking the camera");
  }

  if (step === "markers" && $("measures-save")) {
    $("measures-save").onclick = () => busy($("measures-save"), async () => {
      const d = await api("board", {width_mm: $("m-width").value, height_mm: $("m-height").value,
        marker_mm: $("m-marker").value, marker_inset_mm: $("m-inset").value, token_mm: $("m-token").value});
      say(`Board ${d.board_mm[0]} x ${d.board_mm[1]} mm, markers of ${d.marker_mm} mm ${d.marker_inset_mm} mm from the edges, tokens ${d.token_mm} mm: print the sheet again.`);
    }, "Saving");
  }

  if (step === "markers") {
    let timer = null;
    $("watch").onclick = () => {
      if (timer) return;
      const look = async () => {
        try {
          const d = await api("watch", {});
          $("seen").textContent = d.seen.length ? d.seen.join(", ") : "none";
          $("stable").textContent = d.stable ? "Registration is stable." : (d.reason || `Hold still (${d.steady_frames})…`);
          if (d.stable) { clearInterval(timer); timer = null; say("All four markers seen; registration is stable."); }
        } catch (e) { clearInterval(timer); timer = null; }
      };
      look();
      timer = setInterval(look, 400);
    };
  }

  if (step === "reference") {
    $("reference").onclick = () => busy($("reference"), async () => {
      const d = await api("reference", {});
      say(`Empty board taken (markers agree within ${d.error_px} px).`);
    }, "Taking the empty board");
  }

  if (step === "regions") {
    let view = null, order = [], current = 0, selected = null, poly = null;
    const img = $("board"), svg = $("overlay"), sch = $("schematic");
    const toPx = ([x, y]) => [(x - view.origin_mm[0]) * view.px_per_mm, (y - view.origin_mm[1]) * view.px_per_mm];
    const toMm = ([x, y]) => [x / view.px_per_mm + view.origin_mm[0], y / view.px_per_mm + view.origin_mm[1]];
    const el = (name, attrs) => { const e = document.createElementNS(NS, name); for (const k in attrs) e.setAttribute(k, attrs[k]); return e; };

    function onPhoto(ev) {  // a click on the photo as shown (scaled to the screen) in the photo's pixels
      const b = svg.getBoundingClientRect(), [w, h] = view.size_px;
      return [(ev.clientX - b.left) * w / b.width, (ev.clientY - b.top) * h / b.height];
    }
    function schematic(highlight) {
      const [w, h] = view.schematic.size_mm;
      sch.setAttribute("viewBox", `0 0 ${w} ${h}`);
      sch.setAttribute("height", Math.round(240 * h / w));
      sch.innerHTML = "";
      for (const [id, pts] of Object.entries(view.schematic.polygons)) {
        sch.appendChild(el("polygon", {points: pts.map(p => p.join(",")).join(" "),
          class: String(id) === String(highlight) ? "highlight" : "", "data-region": id}));
      }
    }
    function prompt() {
      if (current < order.length) {
        const r = order[current];
        $("prompt").textContent = `${r.prompt} (${current + 1} of ${order.length}).`;
        $("prompt").dataset.region = r.id;
        schematic(r.id);
      } else {
        $("prompt").textContent = "Every region has its click: grow the outlines.";
        $("prompt").dataset.region = "";
        $("grow").disabled = false;
        schematic(null);
      }
    }
    function draw() {
      svg.innerHTML = "";
      for (const [id, pts] of Object.entries(view.polygons)) {
        const p = el("polygon", {points: pts.map(toPx).map(q => q.join(",")).join(" "), class: "outline",
                                "data-region": id});
        p.addEventListener("click", (ev) => { ev.stopPropagation(); select(id); });
        svg.appendChild(p);
      }
      for (const [id, s] of Object.entries(view.seeds)) {
        const [x, y] = toPx(s);
        svg.appendChild(el("circle", {cx: x, cy: y, r: 4, class: "seed", "data-region": id}));
      }
      if (selected !== null && poly) {
        svg.appendChild(el("polygon", {points: poly.map(toPx).map(q => q.join(",")).join(" "), class: "selected"}));
        poly.forEach((pt, i) => {
          const [x, y] = toPx(pt);
          const c = el("circle", {cx: x, cy: y, r: 5, class: "vertex"});
          c.addEventListener("pointerdown", (ev) => {
            ev.stopPropagation();
            const move = (e) => { poly[i] = toMm(onPhoto(e)); draw(); };
            const up = () => { window.removeEventListener("pointermove", move); window.removeEventListener("pointerup", up); };
            window.addEventListener("pointermove", move); window.addEventListener("pointerup", up);
          });
          svg.appendChild(c);
        });
      }
    }
    function select(id) {
      selected = id; poly = view.polygons[id].map(p => p.slice());
      $("save-outline").disabled = false;
      const r = order.find(o => String(o.id) === String(id));
      say(`Drag the corners of ${r ? r.name : "region " + id}, then save its outline.`);
      draw();
    }
    function problems(list) {
      $("problems").innerHTML = "";
      for (const p of list) { const li = document.createElement("li"); li.textContent = p; $("problems").appendChild(li); }
    }
    async function load() {
      view = await api("regions");
      order = view.order;
      const [w, h] = view.size_px;
      img.width = w; img.height = h;
      svg.setAttribute("width", w); svg.setAttribute("height", h);
      svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
      current = order.findIndex(r => !(String(r.id) in view.seeds));
      if (current < 0) current = order.length;
      prompt(); draw(); problems(view.problems);
    }
    svg.addEventListener("click", async (ev) => {
      if (current >= order.length) return;
      const [x, y] = toMm(onPhoto(ev));
      const r = order[current];
      await api("regions/seed", {region: r.id, x_mm: x, y_mm: y});
      view.seeds[String(r.id)] = [x, y];
      current += 1; prompt(); draw();
    });
    $("grow").onclick = () => busy($("grow"), async () => {
      view = await api("regions/grow", {});
      draw(); problems(view.problems);
      say(view.problems.length ? "Outlines grown; the map disagrees in places (below). Click a region to fix it."
                               : "Outlines grown; every adjacent pair touches.");
      root.dataset.grown = "yes";
    }, "Growing the outlines");
    $("save-outline").onclick = () => busy($("save-outline"), async () => {
      view = await api(`regions/${selected}`, {polygon: poly});
      selected = null; poly = null; draw(); problems(view.problems); say("Outline saved.");
    }, "Saving the outline");
    load().catch(() => {});
  }

  if (step === "tokens") {
    let kinds = [], next = 0;
    const chosen = () => {
      const t = $("kinds").value.trim();
      return !t || t === "all" ? null : t.split(",").map(s => s.trim()).filter(Boolean);
    };
    function show() {
      const want = chosen();
      const list = kinds.filter(k => !want || want.includes(k.label));
      $("kind-list").innerHTML = "";
      for (const k of list) {
        const li = document.createElement("li");
        li.textContent = `${k.say}: ${k.done ? "captured" : "not yet"}`;
        $("kind-list").appendChild(li);
      }
      const todo = list.filter(k => !k.done);
      next = todo.length ? todo[0] : null;
      $("token-prompt").textContent = next
        ? `Lay ${window.handful} ${next.say} in the ringed places of the tray (the strip between the two top markers), one in each.`
        : "Every kind is captured: learn them.";
      $("token-prompt").dataset.kind = next ? next.label : "";
      $("capture").disabled = !next;
      tray();
    }
    const tray = () => { $("tray").src = `/calibrate/tray.png?kind=${next ? next.label : ""}&t=${Date.now()}`; };
    setInterval(tray, 1500);
    async function load() {
      const d = await api("tokens");
      kinds = d.kinds; window.handful = d.handful; show();
    }
    $("kinds").addEventListener("change", show);
    $("capture").onclick = () => busy($("capture"), async () => {
      const d = await api(`tokens/${next.label}`, {});
      say(`${d.seen} of ${d.asked} ${d.label} tokens cut out.`);
      kinds.find(k => k.label === d.label).done = true; show();
    }, "Cutting out the tokens");
    $("enroll").onclick = () => busy($("enroll"), async () => {
      const d = await api("tokens/enroll", {kinds: chosen()});
      say(`Learned ${d.kinds.length} kinds from ${d.samples} tokens.`);
    }, "Learning the tokens");
    $("selftest").onclick = () => busy($("selftest"), async () => {
      const d = await api("tokens/selftest", {});
      say(`Self-test: ${d.right} of ${d.tokens} tokens right (${Math.round(d.accuracy * 100)}%).`);
      $("confused").innerHTML = "";
      for (const s of d.sentences) { const li = document.createElement("li"); li.textContent = s; $("confused").appendChild(li); }
    }, "Testing");
    load().catch(() => {});
  }

  if (step === "check") {
    $("check").onclick = () => busy($("check"), async () => {
      const d = await api("check", {});
      $("ready").textContent = d.ready ? "Ready: a game can start." : `Not yet: redo ${d.redo.join(", ")}.`;
      $("check-items").innerHTML = "";
      for (const it of d.items) {
        const li = document.createElement("li");
        li.textContent = `${it.ok ? "✓" : "✗"} ${it.name}: ${it.say}`;
        $("check-items").appendChild(li);
      }
      say(d.ready ? "Ready: a game can start." : `Not yet: redo ${d.redo.join(", ")}.`);
    }, "Checking");
  }
})();
