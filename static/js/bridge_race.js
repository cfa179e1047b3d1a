// Bridge Race board: clickable cells, highlights, the dice preview and the animated replay of cars.
// Loaded once per match page (templates/games/match.html); the board itself is re-rendered by HTMX
// (the player's own moves) and by match.js over the WebSocket (everybody else's moves).
(function () {
  "use strict";
  if (window.BridgeRace) return;
  var BR = (window.BridgeRace = {});
  var CELL = 40;
  var motion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
  var lastCars = null; // seat -> {x, y, f, fill}
  var lastDice = null; // "index" -> "face"
  var lastScroll = null;
  var svgNS = "http://www.w3.org/2000/svg";

  function $(id) { return document.getElementById(id); }
  function reduced() { return !!motion.matches; }

  // The stylesheet is linked from the board; keep one copy in <head> so swaps never flash unstyled.
  function hoistCss() {
    var link = document.querySelector("link[data-br-css]");
    if (link && !$("br-css-head")) {
      var copy = link.cloneNode();
      copy.id = "br-css-head";
      copy.removeAttribute("data-br-css");
      document.head.appendChild(copy);
    }
  }

  // ---- highlights ---------------------------------------------------------------------------
  function clearHl() {
    var layer = $("br-hl");
    if (layer) while (layer.firstChild) layer.removeChild(layer.firstChild);
    document.querySelectorAll(".br-target.br-hover").forEach(function (t) { t.classList.remove("br-hover"); });
  }

  function cellRect(lane, row, cls) {
    var base = $("br-cell-" + lane + "-" + row);
    if (!base) return null;
    var r = document.createElementNS(svgNS, "rect");
    r.setAttribute("x", base.getAttribute("x"));
    r.setAttribute("y", base.getAttribute("y"));
    r.setAttribute("width", CELL);
    r.setAttribute("height", CELL);
    r.setAttribute("rx", 4);
    r.setAttribute("class", cls);
    return r;
  }

  function highlightCells(list) {
    var layer = $("br-hl");
    if (!layer) return;
    list.forEach(function (c) {
      var p = c.split(",");
      var r = cellRect(+p[0], +p[1], "br-hl-rect");
      if (r) layer.appendChild(r);
      document.querySelectorAll('.br-target[data-cell="' + c + '"]').forEach(function (t) { t.classList.add("br-hover"); });
    });
  }

  function highlightRay(spec) {
    var layer = $("br-hl");
    if (!layer || !spec) return;
    var p = spec.split(",").map(Number);
    var lane = p[0] + p[2], row = p[1] + p[3];
    while (lane >= 0 && lane < 5 && row >= 0 && row < 33) {
      var r = cellRect(lane, row, "br-ray-rect");
      if (r) layer.appendChild(r);
      lane += p[2];
      row += p[3];
    }
  }

  function showFor(el) {
    clearHl();
    if (!el) return;
    if (el.dataset.hl) highlightCells(el.dataset.hl.split(" "));
    if (el.dataset.ray) highlightRay(el.dataset.ray);
    if (el.tagName === "SELECT") {
      var opt = el.options[el.selectedIndex];
      if (el.hasAttribute("data-hl-select") && el.value) highlightCells([el.value]);
      if (opt && opt.dataset.ray) highlightRay(opt.dataset.ray);
    }
  }

  function hlSource(target) {
    if (!target || !target.closest) return null;
    return target.closest("[data-hl], [data-ray], select[data-hl-select], select[data-ray-select]");
  }

  document.addEventListener("mouseover", function (e) { var s = hlSource(e.target); if (s) showFor(s); });
  // Leaving a hovered control falls back to the focused one, so hover and keyboard focus agree.
  document.addEventListener("mouseout", function (e) {
    if (!hlSource(e.target)) return;
    clearHl();
    var focused = hlSource(document.activeElement);
    if (focused) showFor(focused);
  });
  document.addEventListener("focusin", function (e) { var s = hlSource(e.target); if (s) showFor(s); });
  document.addEventListener("focusout", function (e) { if (hlSource(e.target)) clearHl(); });

  // ---- clickable cells ----------------------------------------------------------------------
  // Every target names the form(s) it feeds (data-form). Placement targets (data-place) carry a
  // cell that several forms may take (a mine and an oil slick): the "armed" form, the placement
  // form the player last touched, gets it, and only its cells are shown. The forms themselves work
  // without any of this: each has a <select> (or checkboxes) of the same cells.
  var armed = "";

  function arm(id) {
    armed = id || "";
    document.querySelectorAll(".br-target[data-place]").forEach(function (t) {
      t.classList.toggle("br-off", !armed || (" " + t.dataset.form + " ").indexOf(" " + armed + " ") < 0);
    });
  }

  function formFor(target) {
    var ids = (target.dataset.form || "").split(" ");
    return $(ids.indexOf(armed) >= 0 ? armed : ids[0]);
  }

  function setField(form, name, value) {
    var els = form.querySelectorAll('[name="' + name + '"]');
    for (var i = 0; i < els.length; i++) {
      var el = els[i];
      if (el.type === "radio" || el.type === "checkbox") {
        if (el.value === value) el.checked = true;
      } else {
        el.value = value;
      }
    }
  }

  // B25 (1 or 2 containers): a click ticks or unticks the cell's checkbox; the form's button sends.
  function syncPicked() {
    document.querySelectorAll('form[data-place="cells[]"]').forEach(function (form) {
      form.querySelectorAll('input[name="cells[]"]').forEach(function (box) {
        document.querySelectorAll('.br-target[data-place][data-value="' + box.value + '"]').forEach(function (t) {
          if ((" " + t.dataset.form + " ").indexOf(" " + form.id + " ") >= 0) t.classList.toggle("br-picked", box.checked);
        });
      });
    });
  }

  function activate(target) {
    var form = formFor(target);
    if (!form) return;
    var field = target.hasAttribute("data-place") ? form.dataset.place : target.dataset.field;
    if (field) {
      var box = form.querySelector('input[type="checkbox"][name="' + field + '"][value="' + target.dataset.value + '"]');
      if (box) {
        box.checked = !box.checked;
        syncPicked();
        return;
      }
      setField(form, field, target.dataset.value);
    }
    if (form.requestSubmit) form.requestSubmit();
    else form.submit();
  }

  document.addEventListener("click", function (e) {
    var t = e.target.closest && e.target.closest(".br-target");
    if (t) { e.preventDefault(); activate(t); }
  });
  document.addEventListener("keydown", function (e) {
    var t = e.target.closest && e.target.closest(".br-target");
    if (t && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); activate(t); }
  });
  function armFrom(e) {
    var form = e.target.closest && e.target.closest("form[data-place]");
    if (form && form.id !== armed) arm(form.id);
  }
  document.addEventListener("focusin", armFrom);
  document.addEventListener("pointerdown", armFrom);

  // ---- adventure placement: only the cells legal for the chosen tile --------------------------
  function syncAdventure() {
    var form = $("br-adv");
    if (!form) return;
    var checked = form.querySelector('input[name="tile"]:checked');
    var tile = checked ? checked.value : "";
    document.querySelectorAll('.br-target[data-form="br-adv"]').forEach(function (t) {
      t.classList.toggle("br-off", (" " + t.dataset.tiles + " ").indexOf(" " + tile + " ") < 0);
    });
    var select = form.querySelector('select[name="cell"]');
    if (!select) return;
    var firstOk = null;
    Array.prototype.forEach.call(select.options, function (o) {
      var ok = (" " + o.dataset.tiles + " ").indexOf(" " + tile + " ") >= 0;
      o.disabled = !ok;
      o.hidden = !ok;
      if (ok && firstOk === null) firstOk = o.value;
    });
    var cur = select.options[select.selectedIndex];
    if ((!cur || cur.disabled) && firstOk !== null) select.value = firstOk;
  }

  // ---- RESOLVE_DICE: preview the speed; the form itself sends repair[] and adjust[] ----
  function syncResolve() {
    var form = $("br-resolve");
    if (!form) return;
    var board = $("br");
    var base = +form.dataset.base, speed = base, dur = +form.dataset.dur;
    var tokens = {};
    try { tokens = JSON.parse(form.dataset.tokens || "{}"); } catch (err) { tokens = {}; }
    form.querySelectorAll("select[data-adjust]").forEach(function (s) {
      var m = /:([+-]?\d+)$/.exec(s.value); // "index:+10", "index:-10" or "unused"
      if (m) speed += +m[1] * (+s.dataset.weight || 1);
    });
    form.querySelectorAll('input[name="repair[]"]').forEach(function (c) {
      if (c.checked) dur += +c.dataset.units || 1;
    });
    var error = "";
    if (speed < 0 || speed > 50) error = board ? board.dataset.msgRange : "0-50";
    else if (form.dataset.reversed === "1" && speed > base && speed > 0) error = board ? board.dataset.msgReversed : "";
    var out = function (name) { return form.querySelector('[data-out="' + name + '"]'); };
    out("speed").textContent = speed;
    out("mp").textContent = speed >= 0 ? Math.floor(speed / 10) : "–";
    out("free").textContent = tokens[String(speed)] !== undefined ? tokens[String(speed)] : "–";
    out("dur").textContent = Math.min(dur, +form.dataset.max);
    var err = out("error");
    err.textContent = error;
    err.hidden = !error;
    var button = form.querySelector('button[type="submit"]');
    if (button) button.disabled = !!error;
  }

  function syncEndTurn() {
    var form = document.querySelector("form[data-endturn]");
    if (!form) return;
    var n = form.querySelectorAll('input[name="sell[]"]:checked').length;
    var out = form.querySelector('[data-out="sell"]');
    if (out) out.textContent = n ? "(+$" + n * 100 + ")" : "";
  }

  document.addEventListener("change", function (e) {
    var form = e.target.form || (e.target.closest && e.target.closest("form"));
    if (!form) return;
    if (form.id === "br-adv") syncAdventure();
    if (form.id === "br-resolve") syncResolve();
    if (form.dataset.place === "cells[]") syncPicked();
    if (form.hasAttribute("data-endturn")) syncEndTurn();
    if (e.target.matches && e.target.matches("select[data-hl-select], select[data-ray-select]")) showFor(e.target);
  });

  // ---- the animated replay: cars glide from where they were to where they are now ----------------
  function readCars() {
    var out = {};
    document.querySelectorAll("#br-svg .br-car-anim").forEach(function (g) {
      out[g.dataset.seat] = { x: +g.dataset.x, y: +g.dataset.y, f: +g.dataset.facing, fill: g.dataset.fill, el: g };
    });
    return out;
  }

  function trail(from, to, fill, duration) {
    var layer = $("br-hl");
    if (!layer || !layer.animate) return;
    var line = document.createElementNS(svgNS, "line");
    line.setAttribute("x1", from.x + CELL / 2);
    line.setAttribute("y1", from.y + CELL / 2);
    line.setAttribute("x2", to.x + CELL / 2);
    line.setAttribute("y2", to.y + CELL / 2);
    line.setAttribute("class", "br-trail");
    line.setAttribute("stroke", fill || "#fff");
    layer.appendChild(line);
    var a = line.animate([{ opacity: 0.9 }, { opacity: 0.9, offset: 0.5 }, { opacity: 0 }], { duration: duration + 900 });
    a.onfinish = function () { if (line.parentNode) line.parentNode.removeChild(line); };
  }

  function animateCars() {
    var now = readCars();
    if (lastCars && !reduced()) {
      Object.keys(now).forEach(function (seat) {
        var b = now[seat], a = lastCars[seat];
        if (!b.el.animate) return;
        if (!a) {
          b.el.animate([{ opacity: 0, transform: "scale(.4)" }, { opacity: 1, transform: "none" }], { duration: 450, easing: "ease-out" });
          return;
        }
        var dx = a.x - b.x, dy = a.y - b.y, turned = a.f !== b.f;
        if (!dx && !dy && !turned) return;
        var cells = Math.max(Math.abs(dx), Math.abs(dy)) / CELL;
        var duration = Math.min(1800, 300 + 230 * cells);
        var from = "translate(" + dx + "px, " + dy + "px)" + (turned ? " rotate(180deg)" : "");
        b.el.animate([{ transform: from }, { transform: "translate(0px, 0px) rotate(0deg)" }],
          { duration: duration, easing: "cubic-bezier(.3,.6,.3,1)" });
        if (cells >= 1) trail(a, b, b.fill, duration);
      });
    }
    lastCars = {};
    Object.keys(now).forEach(function (k) { lastCars[k] = { x: now[k].x, y: now[k].y, f: now[k].f, fill: now[k].fill }; });
  }

  function animateDice() {
    var dice = document.querySelectorAll("#br .br-die[data-index]");
    var now = {};
    dice.forEach(function (d) {
      var key = d.dataset.index;
      if (now[key] !== undefined) return; // the same die may be drawn twice (tray and sell form)
      now[key] = d.dataset.face + (d.classList.contains("rerolled") ? "*" : "");
    });
    if (lastDice && !reduced()) {
      dice.forEach(function (d) {
        if (lastDice[d.dataset.index] !== now[d.dataset.index]) d.classList.add("br-rolling");
      });
    }
    lastDice = now;
  }

  // ---- keep the acting car in view ----------------------------------------------------------
  function centre(first) {
    var box = $("br-scroll"), svg = $("br-svg"), focus = $("br-focus");
    if (!box || !svg) return;
    if (lastScroll !== null && !first) box.scrollTop = lastScroll;
    if (!focus || !focus.dataset.fy) return;
    var vb = svg.viewBox && svg.viewBox.baseVal;
    var scale = vb && vb.width ? svg.clientWidth / vb.width : 1;
    var y = +focus.dataset.fy * scale;
    var top = box.scrollTop, h = box.clientHeight;
    if (!first && y > top + h * 0.25 && y < top + h * 0.75) return;
    var want = Math.max(0, y - h / 2);
    if (first || reduced() || !box.scrollTo) box.scrollTop = want;
    else box.scrollTo({ top: want, behavior: "smooth" });
  }

  document.addEventListener("scroll", function (e) {
    if (e.target && e.target.id === "br-scroll") lastScroll = e.target.scrollTop;
  }, true);

  // ---- phones: a "Your actions" button while the action panel is out of view ------------------
  var jumpWatch = null;
  function watchJump() {
    var jump = $("br-jump"), side = $("br-side");
    if (jumpWatch) { jumpWatch.disconnect(); jumpWatch = null; }
    if (!jump || !side || !window.IntersectionObserver) return;
    jumpWatch = new IntersectionObserver(function (entries) {
      jump.classList.toggle("br-jump-hidden", entries[0].isIntersecting);
    });
    jumpWatch.observe(side);
  }

  function refresh(first) {
    if (!$("br")) return;
    watchJump();
    hoistCss();
    clearHl();
    var layer = document.querySelector(".br-targets[data-armed]");
    arm(layer ? layer.dataset.armed : "");
    syncPicked();
    syncAdventure();
    syncResolve();
    syncEndTurn();
    animateCars();
    animateDice();
    centre(first);
  }
  BR.refresh = refresh;

  document.addEventListener("hideout:swapped", function (e) {
    if (!e.detail || e.detail.id === "board") refresh(false);
  });
  document.addEventListener("htmx:afterSettle", function (e) {
    var el = e.detail && e.detail.elt;
    if (!el || el.id === "board" || (el.querySelector && el.querySelector("#br"))) refresh(false);
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { refresh(true); });
  else refresh(true);
})();
