// exit_memory: the round's route is walked tile by tile (800 ms a step, skippable), on every board
// that arrives with a new result, scrolled into view; its result (headline, reasons, the pile) is
// printed once the walk ends (CSS hides it while the section is .walking). With reduced motion the
// whole route and its result show at once.
(function () {
  "use strict";
  const STEP_MS = 800;
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  let shown = "";

  function animate(section) {
    const key = section.getAttribute("aria-label") + section.querySelector(".em-walk").innerHTML.length +
      section.querySelector("h2").textContent;
    if (key === shown) return;
    shown = key;
    // A new result: bring the walk into view (on a phone it starts below the fold).
    const walk = section.querySelector(".em-walk");
    const box = walk.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      section.scrollIntoView({ behavior: reduced ? "auto" : "smooth", block: "start" });
    }
    if (reduced) return;
    const cells = Array.from(section.querySelectorAll(".em-cell"));
    const steps = JSON.parse(section.dataset.steps || "[]");
    const finish = () => { section.classList.remove("walking"); cells.forEach((c) => c.classList.remove("hidden")); };
    section.classList.add("walking");
    cells.forEach((c) => { if (c.dataset.step !== "0") c.classList.add("hidden"); });
    let i = 0;
    const timer = window.setInterval(() => {
      i += 1;
      cells.forEach((c) => { if (Number(c.dataset.step) <= (steps[i - 1] || 0)) c.classList.remove("hidden"); });
      if (i >= steps.length) { window.clearInterval(timer); finish(); }
    }, STEP_MS);
    const skip = section.querySelector(".em-skip");
    if (skip) skip.addEventListener("click", () => { window.clearInterval(timer); finish(); }, { once: true });
  }

  function scan() {
    const section = document.querySelector(".em-result");
    if (section) animate(section); else shown = "";
  }
  document.addEventListener("DOMContentLoaded", scan);
  document.addEventListener("hideout:swapped", scan);
})();
