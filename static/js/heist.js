// heist's table comes alive (issue 10, item 3): a hand card turned face up since the last update
// flips over, a new heist result deals its hands in one by one, and a money chip that changed
// pulses and shows the difference ("+3M").
// Nothing here changes what is shown; with reduced motion it does nothing.
(function () {
  "use strict";
  var quiet = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  var faces = {};
  var money = {};
  var lastResult;  // undefined until the page has been looked at once

  function look(animate) {
    var result = document.querySelector(".heist .heist-result[data-heist]");
    var heist = result ? result.dataset.heist : null;
    if (animate && result && lastResult !== undefined && heist !== lastResult) result.classList.add("reveal");
    lastResult = heist;
    Array.prototype.forEach.call(document.querySelectorAll(".heist .hcard[data-card]"), function (card) {
      var key = card.dataset.card, face = card.dataset.face;
      if (animate && faces[key] === "down" && face === "up") card.classList.add("flip");
      faces[key] = face;
    });
    Array.prototype.forEach.call(document.querySelectorAll(".heist .chip[data-money]"), function (chip) {
      var seat = chip.dataset.seat, now = parseInt(chip.dataset.money, 10);
      var before = money[seat];
      money[seat] = now;
      if (!animate || before === undefined || before === now || isNaN(now)) return;
      var way = now > before ? "up" : "down";
      chip.classList.add(way);
      var delta = document.createElement("span");
      delta.className = "money-delta " + way;
      delta.setAttribute("aria-hidden", "true");
      delta.textContent = (now > before ? "+" : "\u2212") + Math.abs(now - before) + "M";
      chip.appendChild(delta);
    });
  }

  document.addEventListener("hideout:swapped", function () { look(!quiet); });
  document.addEventListener("htmx:afterSettle", function () { look(!quiet); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { look(false); });
  else look(false);
})();
