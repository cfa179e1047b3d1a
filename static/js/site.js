// Page behaviour that used to sit in inline handlers and scripts (kept out for the
// Content-Security-Policy, which allows scripts from our own files only).
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.matches && target.matches("select[data-autosubmit]") && target.form) {
      target.form.submit();
    }
  });
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (target.matches && target.matches("input[data-select-on-click]")) {
      target.select();
    }
  });
  // A Copy button next to a read-only field (the invite link).
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-copy]") : null;
    if (!button) return;
    var field = document.getElementById(button.dataset.copy);
    if (!field) return;
    var done = function () { button.textContent = button.dataset.copied || button.textContent; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, function () { field.select(); });
    } else {
      field.select();
      try { if (document.execCommand("copy")) done(); } catch (e) { /* the text stays selected */ }
    }
  });
  // Turning on turn notifications in the profile asks the browser's permission (a click is needed).
  document.addEventListener("change", function (event) {
    var box = event.target;
    if (box.id !== "id_turn_notification" || !box.checked || !window.Notification) return;
    if (Notification.permission === "default") Notification.requestPermission();
  });
  // The create-match form shows only the options of the chosen game.
  function showGameOptions(changed) {
    var game = document.getElementById("id_game");
    if (!game) return;
    document.querySelectorAll("[data-game]").forEach(function (input) {
      var field = input.closest(".field");
      if (field) field.hidden = input.dataset.game !== game.value || beyondSeats(input);
    });
    // The time limit per decision: for the games that run on it (the others keep their own clocks).
    document.querySelectorAll("[data-games]").forEach(function (input) {
      var field = input.closest(".field");
      if (field) field.hidden = input.dataset.games.split(" ").indexOf(game.value) < 0;
    });
    // A time bank chosen: its increment is the time per decision, so the time fields are not asked.
    var bank = document.getElementById("id_time_bank");
    var banked = bank && bank.value && !bank.closest(".field").hidden;
    ["id_time_amount", "id_time_unit"].forEach(function (id) {
      var input = document.getElementById(id);
      if (banked && input && input.closest(".field")) input.closest(".field").hidden = true;
    });
    document.querySelectorAll("[data-guide]").forEach(function (link) {
      link.hidden = link.dataset.guide !== game.value;
    });
    showSeatRange(game.value, changed === true);
  }
  // ... and the seats that game can have: its range, the number kept inside it, its help line.
  function showSeatRange(slug, clamp) {
    var seats = document.getElementById("id_seats");
    if (!seats || !seats.dataset.ranges) return;
    var range = JSON.parse(seats.dataset.ranges)[slug];
    if (!range) return;
    seats.min = range[0];
    seats.max = range[1];
    var n = parseInt(seats.value, 10);
    if (clamp && !isNaN(n)) seats.value = Math.min(Math.max(n, range[0]), range[1]);
    var help = document.getElementById("id_seats_helptext");
    var texts = seats.dataset.help ? JSON.parse(seats.dataset.help) : {};
    if (help && texts[slug]) help.textContent = texts[slug];
  }
  // A seat's own option (a handicap) shows only for the seats the match will have.
  function beyondSeats(input) {
    var seats = document.getElementById("id_seats");
    var count = seats ? parseInt(seats.value, 10) : NaN;
    return input.dataset.seat !== undefined && !isNaN(count) && parseInt(input.dataset.seat, 10) >= count;
  }
  document.addEventListener("change", function (event) {
    if (event.target.id === "id_game") showGameOptions(true);
    if (event.target.id === "id_time_bank") showGameOptions();
  });
  document.addEventListener("input", function (event) {
    if (event.target.id === "id_seats") showGameOptions();
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", showGameOptions);
  } else {
    showGameOptions();
  }
})();
