/* The Reinforcement Die as a moment: a visible roll (still, for those who ask for reduced motion), the
   face as the die shows it (blank, 1, 2 or 3), who rolled it and for which region. */
"use strict";
let dieSeen = null;

function showDie(box, roll, players, stays) {
  if (!box) return;
  const face = box.querySelector(".die");
  const caption = box.querySelector("p");
  box.classList.toggle("hidden", !roll && !stays);
  if (!roll) {
    face.dataset.face = "";
    face.querySelector("span").textContent = "–";
    face.setAttribute("aria-label", "Not rolled this turn");
    face.setAttribute("role", "img");
    caption.textContent = "Not rolled this turn.";
    return;
  }
  const who = players && players[roll.seat] ? players[roll.seat].name : "";
  const shows = roll.face === 0 ? "a blank face" : `${roll.face}`;
  face.dataset.face = `${roll.face}`;
  face.querySelector("span").textContent = roll.face === 0 ? "" : `${roll.face}`;
  face.setAttribute("aria-label", `The die shows ${shows}`);
  face.setAttribute("role", "img");
  caption.textContent = `${who ? who + " rolled" : "Rolled"}${roll.region !== null && roll.region !== undefined ? ` for region ${roll.region}` : ""}: ` +
    (roll.face === 0 ? "a blank face, no extra tokens." : `${roll.face} extra token${roll.face > 1 ? "s" : ""}.`);
  if (dieSeen !== null && dieSeen !== roll.seq) {  // a new roll, even of the same face: it tumbles
    face.classList.remove("rolling");
    void face.offsetWidth;
    face.classList.add("rolling");
  }
  dieSeen = roll.seq;
}
