// A match's replay: keys step through it (← → by event, Page Up/Down by decision, Home/End), the
// slider and the links load a step with HTMX (each step has its own address, kept in the history),
// and a live game plays back on its server clock (1×, 4×, pause). Nothing on the page acts in the
// match: the board's forms are inert and a submit is stopped here too.
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "replay-back", ArrowRight: "replay-forward", PageUp: "replay-decision-back",
    PageDown: "replay-decision-forward", Home: "replay-first", End: "replay-last" };
  var times = null, speed = 0, timer = null, loading = false, focusId = null;

  function $(id) { return document.getElementById(id); }
  function body() { return $("replay-body"); }
  function page() { return $("replay-page"); }
  function typing(el) { return el && el.closest && el.closest("input, select, textarea"); }

  function go(url) {
    if (!url || loading || !window.htmx) return false;
    loading = true;
    window.htmx.ajax("GET", url, { target: "#replay-body", swap: "outerHTML" }).then(function () {
      window.history.pushState({ htmx: true }, "", url);
    });
    return true;
  }

  function follow(id) {
    var link = $(id);
    if (!link || link.tagName !== "A") return false;
    focusId = document.activeElement && document.activeElement.id === id ? id : focusId;
    return go(link.getAttribute("href"));
  }

  window.addEventListener("keydown", function (event) {
    if (!body() || event.ctrlKey || event.metaKey || event.altKey) return;
    var id = KEYS[event.key];
    if (id && !typing(event.target)) {
      event.preventDefault();
      follow(id);
    }
    // A board drawn by a live game's own script must not take keys meant to drive it.
    if (page() && page().dataset.live) event.stopPropagation();
  }, true);

  document.addEventListener("submit", function (event) {
    if (event.target.closest && event.target.closest("[data-replay-form]")) event.preventDefault();
  }, true);

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest(".replay-buttons a");
    if (link) focusId = link.id;
    var button = event.target.closest && event.target.closest("[data-speed]");
    if (button) play(parseInt(button.dataset.speed, 10));
  });

  document.addEventListener("change", function (event) {
    if (event.target.id === "replay-step" || event.target.id === "replay-as") focusId = event.target.id;
  });

  document.addEventListener("htmx:afterSwap", function () {
    if (!body()) return;
    loading = false;
    // The swapped board is a fresh one: a live game's script draws it again from its data.
    document.dispatchEvent(new CustomEvent("hideout:swapped", { detail: { id: "board" } }));
    var current = document.querySelector("#log-lines .current");
    if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
    // Keep the keyboard where it was: the same control, or the step count if that control is gone.
    var again = focusId && $(focusId);
    if (again && again.tagName !== "SPAN") again.focus();
    else if (focusId) $("replay-count").focus();
    if (speed) schedule();
  });
  ["htmx:responseError", "htmx:sendError"].forEach(function (name) {
    document.addEventListener(name, function () { loading = false; });
  });

  // --- playback on the server clock (a live game) ---------------------------------------------------

  function step() { return parseInt(body().dataset.step, 10); }
  function last() { return parseInt(body().dataset.last, 10); }

  function schedule() {
    clearTimeout(timer);
    if (!speed || !times) return;
    var now = step();
    if (now >= last()) { speed = 0; return; }
    var wait = Math.max(0, (times[now] - times[now - 1]) / speed);
    timer = setTimeout(function () {
      if (!speed) return;
      var url = page().dataset.base + "?step=" + (now + 1) + "&as=" + encodeURIComponent(body().dataset.as);
      if (!go(url)) schedule();
    }, Math.min(wait, 10000));
  }

  function play(newSpeed) {
    speed = newSpeed || 0;
    if (!speed) { clearTimeout(timer); return; }
    if (step() >= last()) go(page().dataset.base + "?step=1&as=" + encodeURIComponent(body().dataset.as));
    else schedule();
  }

  function init() {
    var holder = $("replay-times");
    if (holder) times = JSON.parse(holder.textContent);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
