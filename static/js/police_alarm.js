// Police Alarm, live: draws the board from the seat's view, applies the socket's JSON events, and
// drives the police car with local prediction (T-10), snapping back on a refusal (T-8).
// The server decides everything; this script only shows it and sends inputs (spec section 12).
(function () {
  "use strict";

  var DIRS = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };
  var KEYS = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right",
               w: "up", s: "down", a: "left", d: "right", W: "up", S: "down", A: "left", D: "right" };
  var TIMER_TOTAL = { placement: 60000, ready: 30000, countdown: 3000, alarm_pause: 2000, resume: 3000,
                      abandon_offer: 120000 };
  var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  var root, data, view, T, road = {}, circleAt = {};
  var offset = 0, bestRtt = null, rtt = null;     // server clock = Date.now() + offset (T-22)
  var rtts = {};                                   // the seats' round trips, as the server tells them (T-21)
  var predicted = null, serverCar = null;          // the police's own car, ahead of the server
  var held = [], tiltDir = null, heading = null, stopped = false, lastSent = 0;
  var moveKeys = {}, rollingKey = null;

  function fmt(text, params) {
    return String(text || "").replace(/%\((\w+)\)s/g, function (_, k) { return params && k in params ? params[k] : ""; });
  }
  function $(id) { return document.getElementById(id); }
  function serverNow() { return Date.now() + offset; }
  function gameNow() { return serverNow() - view.origin * 1000; }
  function key(cell) { return cell[0] + "," + cell[1]; }
  function isDriver() { return view.role === "police"; }
  function driving() { return isDriver() && (view.phase === "running" || view.phase === "driving"); }

  function init() {
    var holder = $("pa-data");
    root = $("pa");
    if (!holder || !root) return false;
    data = JSON.parse(holder.textContent);
    holder.remove();  // read once: a later swap brings a fresh one
    view = data.view;
    T = data.text;
    road = {};
    data.rows.forEach(function (row, y) {
      for (var x = 0; x < row.length; x++) if (row[x] !== "#") road[x + "," + y] = true;
    });
    circleAt = {};
    root.querySelectorAll(".pa-circle").forEach(function (g) {
      circleAt[g.dataset.x + "," + g.dataset.y] = g.dataset.circle;
      g.addEventListener("click", function () { pickScene(g.dataset.circle); });
    });
    serverCar = view.car.slice();
    predicted = view.car.slice();
    bind();
    render();
    sayAgain();
    return true;
  }

  // --- drawing ------------------------------------------------------------------------------

  function render() {
    root.classList.toggle("paused", view.phase === "paused");
    ["thief", "police", "spectator"].forEach(function (r) { root.classList.toggle("pa-role-" + r, view.role === r); });
    $("pa-status").textContent = statusText();
    $("pa-round").textContent = view.variant === "young" ? fmt(T.turn, { turn: view.turn })
      : (view.round ? fmt(T.round, { round: view.round, rounds: view.rounds }) : "");
    drawTiles();
    drawCar(isDriver() && driving() ? predicted : view.car);
    drawSafes();
    drawControls();
    drawPlayers();
    drawLastRound();
    tick();
  }

  function name(seat) { return (data.names[seat] || "").replace(/ \(.*\)$/, ""); }

  function statusText() {
    var p = view.phase, role = view.role;
    if (data.school) return T.school;
    if (p === "over") return T.over;
    if (p === "abandoned") return T.abandoned;
    if (p === "suspended") {
      var away = (view.away || []).map(name).join(", ");
      if (view.suspended && view.suspended.resume_at !== null) return fmt(T.resuming, { left: secondsLeft(view.suspended.resume_at) });
      if (view.suspended && view.suspended.abandon_offered) return fmt(T.abandon_offered, { who: away });
      return fmt(T.suspended, { who: away });
    }
    if (view.variant === "young") {
      var active = { police: name(view.active) };
      if (p === "wait_ready") return role === "police" ? T.wait_ready_me : fmt(T.wait_ready_other, active);
      return role === "police" ? T.driving_me : fmt(T.driving_other, active);
    }
    var who = { thief: name(view.thief), police: name(view.police) };
    if (p === "setup") {
      if (role === "thief") return view.placed ? T.setup_thief_done : T.setup_thief;
      if (role === "police") return view.ready ? T.setup_police_done : T.setup_police;
      return fmt(T.setup_other, who);
    }
    if (p === "countdown") return fmt(T.countdown, { left: secondsLeft(view.go_at) });
    if (p === "paused") return T.paused;
    if (role === "thief") return view.at_choice ? T.at_choice : T.running_thief;
    if (role === "police") return T.running_police;
    return fmt(T.running_other, who);
  }

  function secondsLeft(dueMs) { return Math.max(0, Math.ceil((dueMs - gameNow()) / 1000)); }

  function drawTiles() {
    var tiles = view.tiles || {}, mine = view.placement || [], choosing = setupChoosing();
    root.querySelectorAll(".pa-circle").forEach(function (g) {
      var id = g.dataset.circle, state = tiles[id] || "down";
      g.classList.remove("down", "green", "thief");
      g.classList.add(state);
      g.classList.toggle("mine", mine.indexOf(id) >= 0);
      g.classList.toggle("choosing", choosing);
      g.querySelector(".pa-mark").textContent = state === "green" ? "✓" : (state === "thief" ? "☻" : "?");
      var words = state === "green" ? T.green : (state === "thief" ? T.thief_tile : T.face_down);
      if (mine.indexOf(id) >= 0) words += " · " + T.marked;
      g.setAttribute("aria-label", fmt(T.circle, { id: id, state: words }));
    });
  }

  function drawCar(cell) {
    var car = $("pa-car");
    car.classList.toggle("moving", !reduced);
    car.setAttribute("transform", "translate(" + cell[0] * 10 + " " + cell[1] * 10 + ")");
  }

  function drawSafes() {
    if (view.variant === "young" || data.school) return;
    var stack = $("pa-stack");
    stack.innerHTML = "";
    (view.stack || []).forEach(function (code, i) {
      var li = document.createElement("li");
      li.textContent = code;
      if (i < view.cracked) li.className = "cracked";
      else if (i === view.current) li.className = "current";
      stack.appendChild(li);
    });
    $("pa-cracked").textContent = view.stack && view.stack.length ? fmt(T.cracked, { n: view.cracked }) : "";
    $("pa-found").textContent = view.phase === "setup" ? "" : fmt(T.found, { n: view.found || 0 });
    var card = $("pa-card");
    card.innerHTML = "";
    (view.code || []).forEach(function (digit, i) {
      var slot = document.createElement("span");
      slot.className = "pa-slot" + (view.filled[i] ? " filled" : "");
      slot.textContent = digit;
      card.appendChild(slot);
    });
    if (!rollingKey) showDice(view.dice || []);
  }

  function showDice(values) {
    var dice = $("pa-dice").querySelectorAll(".pa-die");
    dice.forEach(function (die, i) { die.classList.remove("tumbling"); die.textContent = i < values.length ? values[i] : ""; });
    $("pa-dice").setAttribute("aria-label", fmt(T.dice, { values: values.join(", ") }));
  }

  function form(name) { return root.querySelector('form[data-pa="' + name + '"]'); }

  function enable(name, on, visible) {
    var f = form(name);
    if (!f) return;
    f.hidden = visible === undefined ? false : !visible;
    var b = f.querySelector("button");
    if (!f.dataset.sending) b.disabled = !on;
  }

  function setupChoosing() { return view.role === "thief" && view.phase === "setup" && !view.placed && view.variant !== "young"; }

  function drawControls() {
    var p = view.phase, thief = view.role === "thief", police = view.role === "police";
    var over = p === "over" || p === "abandoned";
    $("pa-police").hidden = !police || over;  // no driving once the game is over
    $("pa-thief").hidden = !thief || p === "setup";
    $("pa-hide").hidden = !setupChoosing();
    var canReady = mayReady();
    enable("ready", canReady, canReady);
    var circle = sirenCircle();
    var siren = form("siren");
    siren.querySelector('input[name="circle"]').value = circle || "";
    enable("siren", driving() && !!circle && !data.school, !data.school);
    siren.querySelector("button").title = circle ? fmt(T.siren_at, { id: circle }) : T.siren_none;
    var running = p === "running";
    enable("roll", thief && running && view.current >= 0 && !rollingKey);
    enable("draw", thief && running && view.at_choice, true);
    enable("escape", thief && running && view.at_choice);
    var auto = $("pa-auto-escape");
    if (auto) auto.checked = !!view.auto_escape;
    var place = form("place");
    if (place) place.querySelector("button").disabled = place.querySelectorAll("input:checked").length !== 2;
    var offered = p === "suspended" && view.suspended && view.suspended.abandon_offered && data.me !== null
      && (view.away || []).indexOf(data.me) < 0;
    enable("abandon", !!offered, !!offered);
  }

  function mayReady() {  // the start siren (R-10, V-4)
    var p = view.phase;
    return view.role === "police" && ((p === "setup" && !view.ready) || p === "wait_ready");
  }

  function sirenCircle() {
    var cell = isDriver() ? predicted : view.car;
    var id = cell && circleAt[key(cell)];
    if (!id) return null;
    var state = (view.tiles || {})[id];
    return state === "green" && view.variant !== "young" ? null : (state === "thief" ? null : id);
  }

  function drawPlayers() {
    var scores = view.scores || [];
    root.querySelectorAll("#pa-scores li").forEach(function (li) {
      var seat = parseInt(li.dataset.seat, 10), badge = li.querySelector(".pa-badge");
      li.querySelector(".pa-score").textContent = scores[seat];
      var role = view.variant === "young" ? (seat === view.active ? T.police : "")
        : (seat === view.thief ? T.thief : (seat === view.police ? T.police : ""));
      badge.hidden = !role;
      badge.textContent = role;
    });
    drawRtts();
  }

  // T-21: every player's round trip beside their name; the active players also read their own and
  // their opponent's in words, with a warning above 250 ms (not by colour alone).
  function drawRtts() {
    var me = parseInt(root.dataset.me, 10);
    root.querySelectorAll("#pa-scores li").forEach(function (li) {
      var seat = parseInt(li.dataset.seat, 10), ping = li.querySelector(".pa-ping");
      var ms = seat === me && rtt !== null ? Math.round(rtt) : rtts[seat];
      ping.hidden = typeof ms !== "number";
      ping.textContent = ping.hidden ? "" : (ms > 250 ? "⚠ " : "") + fmt(T.ms, { ms: ms });
      ping.classList.toggle("error", ms > 250);
    });
    var them = me === view.thief ? view.police : (me === view.police ? view.thief : null);
    if (view.variant === "young") them = null;
    var theirs = them === null || them === undefined ? undefined : rtts[them];
    line("pa-rtt", rtt === null ? null : Math.round(rtt), T.rtt, T.rtt_slow);
    line("pa-rtt-them", typeof theirs === "number" ? theirs : null, T.rtt_them, T.rtt_them_slow);
  }

  function line(id, ms, text, slow) {
    $(id).textContent = ms === null ? "" : fmt(ms > 250 ? slow : text, { ms: ms });
    $(id).classList.toggle("error", ms !== null && ms > 250);
  }

  function drawLastRound() {
    var box = $("pa-last"), lr = view.last_round;
    box.hidden = !lr;
    if (!lr) return;
    var line = fmt(T["outcome_" + lr.outcome], { round: lr.round, thief: lr.thief_gain, police: lr.police_gain });
    if (lr.circles && lr.circles.length === 2) line += " " + fmt(T.scenes_were, { a: lr.circles[0], b: lr.circles[1] });
    box.querySelector("p").textContent = line;
  }

  // The clocks: countdowns and pause bars from the server's time (T-22), redrawn 10 times a second.
  function tick() {
    var box = $("pa-timer");
    var timer = view.timer;
    if (!timer || view.phase === "over" || view.phase === "abandoned") { box.hidden = true; }
    else {
      var left = Math.max(0, timer.due - gameNow());
      box.hidden = false;
      $("pa-timer-text").textContent = Math.ceil(left / 1000) + " s";
      var total = TIMER_TOTAL[timer.kind] || left || 1;
      $("pa-bar-fill").style.width = Math.min(100, 100 * left / total) + "%";
    }
    if (view.phase === "countdown" || view.phase === "suspended") $("pa-status").textContent = statusText();
    if (data.school) tickSchool();
    var rollIn = $("pa-roll-in");
    if (rollIn) {
      var wait = view.roll_at !== null && view.roll_at !== undefined ? view.roll_at - gameNow() : 0;
      rollIn.textContent = view.role === "thief" && view.phase === "running" && view.current >= 0 && wait > 0
        ? fmt(T.roll_in, { left: (wait / 1000).toFixed(1) + " s" }) : "";
    }
  }

  // --- W-15 Driving school: nothing goes to the server; the drive between two scenes is timed ---

  var lap = { from: null, since: null, best: {} };

  function schoolDrove(from, to) {
    var now = performance.now(), left = circleAt[key(from)], here = circleAt[key(to)];
    if (left && lap.since === null) { lap.from = left; lap.since = now; }  // leaving a scene starts the clock
    if (here && lap.since !== null && here !== lap.from) {
      var took = now - lap.since, pair = lap.from + here, best = lap.best[pair];
      var record = best !== undefined && took < best;
      if (best === undefined || record) lap.best[pair] = took;
      $("pa-lap").textContent = fmt(record ? T.lap_best : T.lap, { a: lap.from, b: here, time: seconds(took) });
    }
    if (here) { lap.from = here; lap.since = null; }
  }

  function seconds(ms) { return (ms / 1000).toFixed(1) + " s"; }

  function tickSchool() {
    var now = $("pa-lap-now");
    if (now) now.textContent = lap.since === null ? "" : fmt(T.lap_running, { a: lap.from, time: seconds(performance.now() - lap.since) });
  }

  // --- W-12 audio mode: junctions and crime scenes ahead, read out by the screen reader ------------

  var BACK = { up: "down", down: "up", left: "right", right: "left" };

  function announceWay(cell, dir) {
    var box = $("pa-junctions");
    if (!box || !box.checked) return;
    var ways = ["up", "left", "right", "down"].filter(function (d) { return d !== BACK[dir] && open(cell, d); });
    var words = [];
    if (ways.length > 1) words.push(fmt(T.junction, { dirs: ways.map(function (d) { return T["dir_" + d]; }).join(", ") }));
    var ahead = cell, v = DIRS[dir];
    for (var i = 0; i < 3; i++) {
      ahead = [ahead[0] + v[0], ahead[1] + v[1]];
      if (!road[key(ahead)]) break;
      if (circleAt[key(ahead)]) { words.push(fmt(T.scene_ahead, { id: circleAt[key(ahead)] })); break; }
    }
    if (words.length) announce(words.join(". "));
  }

  // --- W-13 the siren: a flash (at most 2.5 a second, can be turned off) and a sound (own volume) ---

  var sound = null;

  function sirenEffects() {
    var flash = $("pa-flash");
    if (flash && flash.checked) {
      root.classList.remove("flashing");
      void root.offsetWidth;  // restart the animation
      root.classList.add("flashing");
      setTimeout(function () { root.classList.remove("flashing"); }, 2000);
    }
    var volume = $("pa-volume") ? parseInt($("pa-volume").value, 10) / 100 : 0;
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!volume || !Context) return;
    try {
      sound = sound || new Context();
      var t = sound.currentTime, tone = sound.createOscillator(), gain = sound.createGain();
      tone.type = "triangle";
      for (var i = 0; i < 4; i++) tone.frequency.setValueAtTime(i % 2 ? 660 : 880, t + i * 0.3);
      gain.gain.setValueAtTime(0.25 * volume, t);
      gain.gain.setValueAtTime(0, t + 1.2);
      tone.connect(gain);
      gain.connect(sound.destination);
      tone.start(t);
      tone.stop(t + 1.25);
    } catch (e) { /* no sound on this device: the flash and the announcement remain */ }
  }

  function bindEffects() {  // the player's choices, kept on this device
    var flash = $("pa-flash"), volume = $("pa-volume"), junctions = $("pa-junctions");
    var stored = function (k) { try { return window.localStorage.getItem(k); } catch (e) { return null; } };
    var keep = function (k, v) { try { window.localStorage.setItem(k, v); } catch (e) { /* private mode */ } };
    if (flash) {
      flash.checked = stored("pa-flash") === null ? !reduced : stored("pa-flash") === "1";
      flash.addEventListener("change", function () { keep("pa-flash", flash.checked ? "1" : "0"); });
    }
    if (volume) {
      if (stored("pa-volume") !== null) volume.value = stored("pa-volume");
      volume.addEventListener("change", function () { keep("pa-volume", volume.value); });
    }
    if (junctions) {
      junctions.checked = stored("pa-junctions") === "1";
      junctions.addEventListener("change", function () { keep("pa-junctions", junctions.checked ? "1" : "0"); });
    }
  }

  // A board swapped in (the sync at a new turn) brings a new, empty live region: what was said just
  // before (what lay at the crime scene) would vanish before a screen reader read it, so init()
  // says it again in the new region if it is recent.
  var lastSaid = null;
  var SAID_FOR_MS = 10000;

  function announce(text) {
    if (!text) return;
    lastSaid = { text: text, at: Date.now() };
    $("pa-announce").textContent = text;
  }

  function sayAgain() {
    var region = $("pa-announce");
    if (region && !region.textContent && lastSaid && Date.now() - lastSaid.at < SAID_FOR_MS) region.textContent = lastSaid.text;
  }

  // --- the socket's events -------------------------------------------------------------------

  function onEvents(message) {
    var resync = false, resetCar = false;
    message.events.forEach(function (event) {
      var d = event.data || {};
      if (event.type === "car_moved") {
        serverCar = d.to;
        view.car = d.to;
      } else if (event.type === "dice_rolled") {
        rollingKey = null;
        announce(fmt(T.announce_roll, { values: (d.values || []).join(", ") }));
      } else if (event.type === "card_cracked") {
        announce(T.announce_crack);
      } else if (event.type === "siren") {
        sirenEffects();
      } else if (event.type === "tile_revealed") {
        announce(fmt(T.announce_reveal, { id: d.circle, state: d.tile === "thief" ? T.thief_tile : T.green }));
      } else if (event.type === "alarm_ended") {
        announce(T.announce_pause_end);
      } else if (event.type === "round_started" || event.type === "police_ready" && view.variant === "young") {
        resetCar = true;
        announce(T.announce_go);
      } else if (event.type === "round_setup" || event.type === "turn_start" || event.type === "resumed") {
        resetCar = true;
      }
      if (event.type === "round_ended" || event.type === "game_ended" || event.type === "abandoned") resync = true;
      if (event.type === "turn_start" && d.turn > 1) resync = true;  // young game: the turn's log lines
    });
    if (message.view) view = message.view;
    if (resetCar || !driving()) { predicted = view.car.slice(); heading = null; }
    serverCar = view.car.slice();
    render();
    if (resync && window.Hideout) window.Hideout.sync();  // the log, the standings and the scores' page
  }

  function onAnswer(detail) {
    if (detail.key && moveKeys[detail.key]) {
      delete moveKeys[detail.key];
      if (detail.status !== 200) {
        var car = detail.detail && detail.detail.car;
        predicted = (car || serverCar || view.car).slice();
        heading = null;
        drawCar(predicted);
        drawControls();
      }
      return;
    }
    if (rollingKey && detail.status !== 200) { rollingKey = null; showDice(view.dice || []); }
    drawControls();
  }

  // --- driving (W-6, W-7, W-8, W-9) ----------------------------------------------------------

  function open(cell, dir) {
    var v = DIRS[dir];
    return !!road[(cell[0] + v[0]) + "," + (cell[1] + v[1])];
  }

  function wanted() { return held.length ? held[held.length - 1] : tiltDir; }

  function drive() {
    if (!data || !driving() || !predicted) return;
    var step = (view.step_ms && data.me !== null ? view.step_ms[data.me] : 150) || 150;
    var now = performance.now();
    if (now - lastSent < step) return;
    var want = wanted();
    if (!want || stopped) { heading = null; return; }
    var dir = open(predicted, want) ? want : null;
    if (!dir && $("pa-assist") && $("pa-assist").checked && heading && open(predicted, heading)) dir = heading;
    if (!dir) return;  // against the kerb: the car waits
    var from = predicted.slice(), v = DIRS[dir];
    predicted = [from[0] + v[0], from[1] + v[1]];
    heading = dir;
    lastSent = now;
    if (data.school) schoolDrove(from, predicted);
    else moveKeys[window.Hideout.act({ type: "move", dir: dir, from: from }, { quietErrors: true })] = true;
    drawCar(predicted);
    drawControls();
    if (circleAt[key(predicted)]) sirenNote("");
    announceWay(predicted, dir);
    var circle = circleAt[key(predicted)];
    if (circle && $("pa-circle-stop") && $("pa-circle-stop").checked && (view.tiles || {})[circle] === undefined) {
      stopped = true;  // W-9 circle stop: until a direction is pressed again
      heading = null;
    }
  }

  function press(dir) {
    stopped = false;
    held = held.filter(function (d) { return d !== dir; });
    held.push(dir);
    drive();
  }
  function release(dir) { held = held.filter(function (d) { return d !== dir; }); }

  // Space / Enter (W-6): the start siren before the round, the siren at the scene under the car in
  // it; away from a scene the police is told why nothing sounded, in words, not by silence.
  var noteTimer = null;
  function sirenNow() {
    if (mayReady()) { submit("ready"); return; }
    if (!driving() || data.school) return;  // the driving school has no siren
    var f = form("siren");
    if (f && !f.querySelector("button").disabled) { sirenNote(""); f.requestSubmit(); return; }
    sirenNote(T.siren_none);
  }

  function sirenNote(text) {
    var note = $("pa-siren-note");
    if (!note) return;
    note.textContent = text;
    note.hidden = !text;
    if (text) announce(text);
    clearTimeout(noteTimer);
    if (text) noteTimer = setTimeout(function () { sirenNote(""); }, 4000);
  }

  function submit(name) {
    var f = form(name);
    if (f && !f.hidden && !f.closest("[hidden]") && !f.querySelector("button").disabled) f.requestSubmit();
  }

  function typing(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) && target.type !== "checkbox");
  }

  function onKeyDown(event) {
    if (!data || typing(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
    if (view.role === "police") {
      var dir = KEYS[event.key];
      if (dir) { event.preventDefault(); if (!event.repeat) press(dir); return; }
      if ((event.key === " " || event.key === "Enter") && (driving() || mayReady()) && (!event.target.closest || !event.target.closest("form, button, a, summary"))) {
        event.preventDefault();
        sirenNow();
      }
    } else if (view.role === "thief" && view.phase !== "setup") {
      if (event.target.closest && event.target.closest("form, button, a, summary, label")) return;
      var k = event.key.toLowerCase();
      if (k === " " || k === "r") { event.preventDefault(); submit("roll"); }
      else if (k === "enter" || k === "c") { event.preventDefault(); submit("draw"); }
      else if (k === "o") { event.preventDefault(); submit("escape"); }
      else if (k === "a") { event.preventDefault(); toggleAuto(); }
    }
  }

  function onKeyUp(event) { var dir = KEYS[event.key]; if (dir) release(dir); }

  function toggleAuto() {
    var box = $("pa-auto-escape");
    if (!box) return;
    box.checked = !box.checked;
    autoChanged();
  }
  function autoChanged() { window.Hideout.act({ type: "auto_escape", on: $("pa-auto-escape").checked }); }

  function pickScene(id) {
    if (!setupChoosing()) return;
    var box = form("place").querySelector('input[value="' + id + '"]');
    box.checked = !box.checked;
    scenesChanged();
  }
  function scenesChanged() {
    var place = form("place");
    var picked = Array.prototype.map.call(place.querySelectorAll("input:checked"), function (i) { return i.value; });
    root.querySelectorAll(".pa-circle").forEach(function (g) { g.classList.toggle("picked", picked.indexOf(g.dataset.circle) >= 0); });
    place.querySelector("button").disabled = picked.length !== 2;
  }

  function startTilt() {
    var neutral = null;
    var ask = window.DeviceOrientationEvent && DeviceOrientationEvent.requestPermission;
    (ask ? ask() : Promise.resolve("granted")).then(function (answer) {
      if (answer !== "granted") return;
      window.addEventListener("deviceorientation", function (e) {
        if (e.beta === null || e.gamma === null) return;
        if (!neutral || view.phase === "countdown") neutral = [e.beta, e.gamma];  // W-8: captured at the countdown
        var fb = e.beta - neutral[0], lr = e.gamma - neutral[1];
        if (Math.max(Math.abs(fb), Math.abs(lr)) < 12) { tiltDir = null; return; }
        tiltDir = Math.abs(lr) > Math.abs(fb) ? (lr > 0 ? "right" : "left") : (fb > 0 ? "down" : "up");
        stopped = false;
      });
    });
  }

  var bound = false;
  function bind() {
    var pad = root.querySelectorAll(".pa-dir");
    pad.forEach(function (b) {
      var dir = b.dataset.dir;
      b.addEventListener("pointerdown", function (e) { e.preventDefault(); b.classList.add("held"); press(dir); });
      ["pointerup", "pointerleave", "pointercancel"].forEach(function (n) {
        b.addEventListener(n, function () { b.classList.remove("held"); release(dir); });
      });
      b.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); press(dir); } });
      b.addEventListener("keyup", function (e) { if (e.key === "Enter" || e.key === " ") release(dir); });
    });
    var auto = $("pa-auto-escape");
    if (auto) auto.addEventListener("change", autoChanged);
    var place = form("place");
    if (place) place.addEventListener("change", scenesChanged);
    var roll = form("roll");
    if (roll) roll.addEventListener("submit", function () {
      rollingKey = "pending";  // T-12: tumble at once, land on the server's values
      if (!reduced) $("pa-dice").querySelectorAll(".pa-die").forEach(function (d) { d.textContent = "?"; d.classList.add("tumbling"); });
      setTimeout(function () { if (rollingKey) { rollingKey = null; showDice(view.dice || []); drawControls(); } }, 1500);
    });
    bindEffects();
    var tilt = $("pa-tilt");
    if (tilt && "DeviceOrientationEvent" in window && "ontouchstart" in window) {
      tilt.hidden = false;
      tilt.addEventListener("click", startTilt);
    }
    if (bound) return;
    bound = true;
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("keyup", onKeyUp);
    window.addEventListener("blur", function () { held = []; });  // W-6: keys count only with focus
    document.addEventListener("hideout:events", function (e) { if (data) onEvents(e.detail); });
    document.addEventListener("hideout:answer", function (e) { if (data) onAnswer(e.detail); });
    setInterval(function () { if (data && root.isConnected) tick(); }, 100);
    setInterval(function () { if (data) drive(); }, 20);
  }

  // The socket's clock and round trips serve the lobby too (T-21: it warns about a slow connection).
  function bindSocket() {
    document.addEventListener("hideout:pong", function (e) {
      var d = e.detail, now = Date.now();
      if (typeof d.c !== "number") return;
      rtt = now - d.c;
      if (bestRtt === null || rtt <= bestRtt * 1.5) { bestRtt = bestRtt === null ? rtt : Math.min(bestRtt, rtt); offset = d.s + rtt / 2 - now; }
      if (data && root.isConnected) drawPlayers(); else drawLobbyRtt();
    });
    document.addEventListener("hideout:rtt", function (e) {
      var d = e.detail;
      if (typeof d.seat !== "number" || typeof d.ms !== "number") return;
      rtts[d.seat] = d.ms;
      if (data && root.isConnected) drawRtts(); else drawLobbyRtt();
    });
    setInterval(ping, 2000);
    setTimeout(ping, 300);
  }

  function drawLobbyRtt() {
    var p = $("live-rtt");
    if (!p) return;
    var slowest = null;
    Object.keys(rtts).forEach(function (seat) { if (slowest === null || rtts[seat] > slowest) slowest = rtts[seat]; });
    var mine = rtt === null ? null : Math.round(rtt);
    var text = mine === null ? "" : fmt(mine > 250 ? p.dataset.slow : p.dataset.text, { ms: mine });
    if (!(mine > 250) && slowest !== null && slowest > 250) text += " " + fmt(p.dataset.othersSlow, { ms: slowest });
    p.textContent = text;
    p.classList.toggle("error", mine > 250 || slowest > 250);
  }

  function ping() {  // T-22 clock offset; it carries my last round trip for the others to see (T-21)
    var message = { type: "ping", c: Date.now() };
    if (rtt !== null) message.r = Math.round(rtt);
    if (window.Hideout) window.Hideout.send(message);
  }

  // For the browser tests and curious players: what this page believes (never more than its view).
  window.PoliceAlarm = { view: function () { return view; }, predicted: function () { return predicted; } };

  bindSocket();
  // A board swapped in brings a fresh view, the started match's too (in place of the lobby's).
  document.addEventListener("hideout:swapped", function (e) {
    if ((e.detail.id === "board" || e.detail.id === "pa") && $("pa-data")) init();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
