"""Police Alarm, live in two browsers against the real server, driven by the keyboard (issue 13).

The thief hides the two thieves by clicking two crime scenes on the map (R-8); the police sounds
the start siren (R-10), and after the countdown (R-11) drives with the arrow keys, one cell per key
press at the legal speed (T-6), to E, where the siren shows a green light and pauses the round
(R-30, R-31), then to both thieves' scenes: caught (R-33), the police takes all six (R-36), the
scenes are shown to everybody (R-37) and round 2 begins with the roles swapped (R-3). Until then the
police's page never holds the thief's scenes (H-2). A second test plays a round against a bot.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .board_page import answers, assert_not_reloaded, mark_loaded
from .conftest import LiveSite
from .players import PHONE, TIMEOUT, Player, assert_accessible, join, new_player, screenshot, sign_up

pytestmark = pytest.mark.e2e

# Section 3.5's routes (U up, D down, L left, R right) and the two hidden scenes.
S_AT = "translate(90 90)"
S_TO_E = "RRRRUU"
E_TO_H = "DDLLLLDDLL"
H_TO_I = "LLDDLL"
HIDDEN = ("H", "I")
KEY = {"U": "ArrowUp", "D": "ArrowDown", "L": "ArrowLeft", "R": "ArrowRight"}
WASD = {"U": "w", "D": "s", "L": "a", "R": "d"}


WIDE_ELEMENTS = """Array.from(document.querySelectorAll('body *'))
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
  .filter(e => !Array.from(e.children).some(c => c.getBoundingClientRect().right > window.innerWidth + 1))
  .slice(0, 6)
  .map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"""


def create_police_alarm(host: Player, *, bot: bool = False, young: bool = False) -> tuple[str, str]:
    page = host.page
    page.goto("/matches/new/?game=police_alarm")
    page.locator("#id_game").select_option("police_alarm")
    page.locator("#id_seats").fill("2")
    expect(page.locator("#id_police_alarm__variant")).to_be_visible()
    if young:
        page.locator("#id_police_alarm__variant").select_option("young")
    expect(page.locator("#id_police_alarm__mode")).to_have_count(0)  # relay mode is not offered
    page.get_by_role("button", name="Create").click()
    expect(page).to_have_url(re.compile(r"/m/\d+/$"), timeout=TIMEOUT)
    if bot:
        with page.expect_navigation():  # HX-Redirect: the host's lobby reloads
            page.get_by_role("button", name="Fill a seat with a bot").click()
    return page.url, page.locator("#invite").input_value()


@contextmanager
def police_alarm_lobby(
    site: LiveSite, browser: Any, host: str, guest: str, *, young: bool = False
) -> Iterator[tuple[Player, Player, Locator]]:
    """Two new players named ``host`` and ``guest``, each in a browser of their own, signed up: the
    host's two-seat lobby (``create_police_alarm``), the guest joined; the players and the host's start
    button, once shown. Their browsers close when the test is through."""
    run = secrets.token_hex(3)
    p1 = new_player(browser, site, 1, f"{host}_{run}@example.com")
    p2 = new_player(browser, site, 2, f"{guest}_{run}@example.com")
    try:
        for player in (p1, p2):
            sign_up(site, player)
        match_url, invite = create_police_alarm(p1, young=young)
        join(p2, invite, match_url, 2, 2)
        start = p1.page.locator("#start-match")
        expect(start).to_be_visible(timeout=TIMEOUT)
        yield p1, p2, start
    finally:
        p1.context.close()
        p2.context.close()


def role_of(page: Page) -> str:
    deadline = time.monotonic() + TIMEOUT / 1000
    while time.monotonic() < deadline:
        classes = page.locator("#pa").get_attribute("class") or ""
        for role in ("thief", "police"):
            if f"pa-role-{role}" in classes:
                return role
        time.sleep(0.1)
    raise AssertionError("the board shows no role")


def car_cell(page: Page) -> tuple[int, int]:
    found = re.search(r"translate\((\d+) (\d+)\)", page.locator("#pa-car").get_attribute("transform") or "")
    assert found, "the car has a position"
    return int(found.group(1)) // 10, int(found.group(2)) // 10


def drive(page: Page, route: str, keys: dict[str, str] = KEY) -> None:
    """One key press per cell, a little slower than the limit (150 ms a cell): never too fast.

    The page drops a press that comes sooner than the limit after the last one it took, by its own
    clock (W-6); on a busy machine two presses can reach it closer together than they were sent.
    A press the car did not take is pressed again, so the route is driven cell by cell whatever
    the machine's load.
    """
    car = page.locator("#pa-car")
    for letter in route:
        before = car.get_attribute("transform")
        for _attempt in range(40):
            page.keyboard.press(keys[letter])
            if car.get_attribute("transform") != before:
                break
            time.sleep(0.05)
        else:
            raise AssertionError(f"the car never took the key {keys[letter]!r}")
        time.sleep(0.19)


def siren(police: Page, others: list[Page], circle: str, state: str) -> None:
    expect(police.locator(".pa-siren")).to_be_enabled(timeout=TIMEOUT)
    police.keyboard.press("Space")
    for page in (police, *others):
        scene = page.locator(f'.pa-circle[data-circle="{circle}"]')
        expect(scene).to_have_class(re.compile(rf"\b{state}\b"), timeout=TIMEOUT)


def test_two_players_play_a_round_by_keyboard_to_the_catch(live_site: LiveSite, browser: Any) -> None:
    """Each player on a device of their own (W-1). The police's screen has the map's twelve crime
    scenes, the car, the siren and the thief's public state (W-3); the thief's has the same map, the
    marked scenes, the stack and the dice controls (W-4). A scene's state is never told by colour
    alone (W-11): "?" face down, a tick for a green light, a mask for a thief, its letter always."""
    with police_alarm_lobby(live_site, browser, "lena", "max") as (p1, p2, start):
        expect(p1.page.locator("#live-rtt")).to_contain_text("Your round trip", timeout=TIMEOUT)  # T-21, lobby
        for player in (p1, p2):
            mark_loaded(player.page)
        start.click()  # the game comes to both lobbies without a reload: no socket closes (T-23)
        by_role = {role_of(p.page): p for p in (p1, p2)}
        thief, police = by_role["thief"].page, by_role["police"].page
        expect(thief.locator("#pa-stack li")).to_have_count(6)  # D-16: the six codes, public
        expect(police.locator("#pa-stack li")).to_have_count(6)
        expect(police.locator("#pa-hide")).to_be_hidden()

        # -- the thief hides on the map; the police sees nothing of it (H-2) -----------------------
        expect(thief.locator("#pa-status")).to_contain_text("Choose two crime scenes", timeout=TIMEOUT)
        for circle in HIDDEN:
            thief.locator(f'.pa-circle[data-circle="{circle}"]').click()
        thief.get_by_role("button", name="Hide them here").click()
        expect(thief.locator("#pa-status")).to_contain_text("Your thieves are hidden", timeout=TIMEOUT)
        for circle in HIDDEN:
            expect(thief.locator(f'.pa-circle[data-circle="{circle}"]')).to_have_class(re.compile(r"\bmine\b"))
        assert police.locator(".pa-circle.mine").count() == 0
        assert '"placement"' not in police.content()

        # -- the start siren by keyboard, the countdown, then go ---------------------------------------
        ready = police.get_by_role("button", name="Sound the start siren")
        ready.focus()
        police.keyboard.press("Enter")
        expect(police.locator("#pa-status")).to_contain_text("Get ready", timeout=TIMEOUT)
        expect(police.locator("#pa-status")).to_contain_text("Drive to the crime scenes", timeout=TIMEOUT)
        expect(thief.locator("#pa-thief")).to_be_visible()
        for page in (thief, police):  # W-3, W-4: both screens have the whole map and the car
            expect(page.locator(".pa-circle")).to_have_count(12)
            assert sorted(page.locator(".pa-circle .pa-letter").all_text_contents()) == list("ABCDEFGHIJKL")
            expect(page.locator("#pa-car")).to_be_visible()
            expect(page.locator("#pa-stack li")).to_have_count(6)
        expect(police.locator(".pa-siren")).to_be_visible()
        expect(police.locator("#pa-thief")).to_be_hidden()
        expect(thief.locator("#pa-police")).to_be_hidden()
        for name in ("Roll", "Next safe", "I’m out!"):
            expect(thief.get_by_role("button", name=re.compile(f"^{name}"))).to_be_visible()
        expect(thief.locator("#pa-auto-escape")).to_be_visible()
        police.locator("#pa-map").click()  # the keys go to the page, not to a button

        # -- E: a green light and the alarm pause (R-30, R-31) -------------------------------------------
        drive(police, S_TO_E)
        expect(thief.locator("#pa-car")).to_have_attribute("transform", "translate(130 70)", timeout=TIMEOUT)
        assert car_cell(police) == (13, 7)
        siren(police, [thief], "E", "green")
        for page in (thief, police):  # W-11
            expect(page.locator('.pa-circle[data-circle="E"] .pa-mark')).to_have_text("✓")
            expect(page.locator('.pa-circle[data-circle="A"] .pa-mark')).to_have_text("?")
        for page in (thief, police):  # W-13: the siren light flashes (it can be turned off)
            expect(page.locator("#pa")).to_have_class(re.compile(r"\bflashing\b"))
        expect(thief.locator("#pa-status")).to_contain_text("Alarm!", timeout=TIMEOUT)
        expect(thief.locator("#pa-status")).not_to_contain_text("Alarm!", timeout=TIMEOUT)

        # -- H, the first thief; then I, the second: caught (R-33, R-36, R-37) --------------------------
        drive(police, E_TO_H, WASD)
        siren(police, [thief], "H", "thief")
        for page in (thief, police):  # W-11
            expect(page.locator('.pa-circle[data-circle="H"] .pa-mark')).to_have_text("☻")
        expect(police.locator("#pa-found")).to_contain_text("1 of 2")
        expect(police.locator("#pa-status")).to_contain_text("Drive to the crime scenes", timeout=TIMEOUT)
        drive(police, H_TO_I)
        police.keyboard.press("Enter")
        for page in (thief, police):
            last = page.locator("#pa-last")
            expect(last).to_contain_text("Round 1: the thief was caught (police +6)", timeout=TIMEOUT)
            expect(page.locator("#pa-last")).to_contain_text("The thieves were at H and I.")
            expect(page.locator("#pa-round")).to_contain_text("Round 2 of 4")
        # the roles swap; the scores follow R-36.
        assert role_of(thief) == "police" and role_of(police) == "thief"
        expect(police.locator(f'#pa-scores li:has-text("{by_role["police"].name}") .pa-score')).to_have_text("6")
        expect(thief.locator(f'#pa-scores li:has-text("{by_role["thief"].name}") .pa-score')).to_have_text("0")
        expect(thief.locator("#pa-rtt")).to_contain_text("Round trip")
        # T-21: each active player also sees the opponent's round trip, and everyone's beside the names.
        for page in (thief, police):
            expect(page.locator("#pa-rtt-them")).to_contain_text("Your opponent’s round trip", timeout=TIMEOUT)
            expect(page.locator("#pa-scores .pa-ping:visible")).to_have_count(2, timeout=TIMEOUT)
        screenshot(police, "police_alarm-thief")
        screenshot(thief, "police_alarm-police")
        for player in (p1, p2):
            assert not player.errors, player.errors
            assert_not_reloaded(player)


def test_young_players_take_turns_as_police_and_nobody_sees_the_layout(live_site: LiveSite, browser: Any) -> None:
    """Section 8: no thief player (V-1); the first police (V-3) drives from the start at once (V-4),
    sounds the siren at E (V-5), which shows both pages what lay there (V-6); the turn passes to the
    other player with the car back on the start (V-3, D-19), who has no controls until then (V-9).
    Nobody's page holds the layout (H-2); a thief turned face-up cannot be sirened again (V-7)."""
    with police_alarm_lobby(live_site, browser, "ida", "tom", young=True) as (p1, p2, start):
        for page in (p1.page, p2.page):
            mark_loaded(page)
        start.click()
        for page in (p1.page, p2.page):
            expect(page.locator("#pa")).to_have_class(re.compile(r"\bpa-young\b"))
            expect(page.locator("#pa-safes")).to_be_hidden()  # V-9: no dice, no safes
            expect(page.locator("#pa-round")).to_contain_text("Turn 1")
            assert '"layout"' not in page.content()  # H-2: the layout is known to nobody
            expect(page.locator("#pa-status")).to_contain_text("turn as police", timeout=TIMEOUT)
        # Whose turn comes first is the game's to say (V-3); the test follows it.
        mine = p1.page.locator("#pa-status").inner_text().startswith("Your turn")
        driver, waiter = (p1, p2) if mine else (p2, p1)
        first, second = driver.page, waiter.page
        expect(first.locator("#pa-status")).to_contain_text("Your turn as police", timeout=TIMEOUT)
        expect(second.locator("#pa-status")).to_contain_text(f"{driver.name}'s turn as police", timeout=TIMEOUT)
        expect(second.get_by_role("button", name="Start driving")).to_be_hidden()

        # -- V-4: "Start driving" by keyboard, and the car goes at once (no countdown) ----------------
        go = first.get_by_role("button", name="Start driving")
        go.focus()
        first.keyboard.press("Enter")
        expect(first.locator("#pa-status")).to_contain_text("Drive to a crime scene", timeout=TIMEOUT)
        expect(second.locator("#pa-status")).to_contain_text(f"{driver.name} is driving", timeout=TIMEOUT)
        first.locator("#pa-map").click()
        drive(first, S_TO_E)
        expect(second.locator("#pa-car")).to_have_attribute("transform", "translate(130 70)", timeout=TIMEOUT)
        expect(first.locator(".pa-siren")).to_be_enabled(timeout=TIMEOUT)
        first.keyboard.press("Space")

        # -- V-6: both pages learn what lay at E; the turn passes, the car is back on the start ------
        # Read in the page, in the same moment as it is checked: the board redrawn for the next turn
        # may empty the announcement between a check and a second read.
        said = second.wait_for_function(
            "() => { const t = (document.getElementById('pa-announce') || {}).textContent || '';"
            " return t.includes('Crime scene E:') ? t : null; }",
            timeout=TIMEOUT,
        ).json_value()
        found_thief = "a thief!" in said
        assert found_thief or "green light" in said, said
        for page in (first, second):
            expect(page.locator("#pa-round")).to_contain_text("Turn 2", timeout=TIMEOUT)
            expect(page.locator("#pa-car")).to_have_attribute("transform", S_AT, timeout=TIMEOUT)
            scene = page.locator('.pa-circle[data-circle="E"]')
            # A green tile is turned face down again; a thief stays face up (V-6).
            expect(scene).to_have_class(re.compile(r"\bthief\b" if found_thief else r"\bdown\b"))
            score = page.locator(f'#pa-scores li:has-text("{driver.name}") .pa-score')
            expect(score).to_have_text("1" if found_thief else "0")
        expect(second.locator("#pa-status")).to_contain_text("Your turn as police", timeout=TIMEOUT)
        expect(first.locator("#pa-status")).to_contain_text(f"{waiter.name}'s turn as police")
        for page in (first, second):  # the log catches up at each new turn
            expect(page.locator("#log")).to_contain_text("Siren at E!", timeout=TIMEOUT)
        expect(first.get_by_role("button", name="Start driving")).to_be_hidden()

        # -- the second player drives to E too: allowed again after green, not after a thief (V-7) ----
        go = second.get_by_role("button", name="Start driving")
        go.focus()
        second.keyboard.press("Enter")
        expect(second.locator("#pa-status")).to_contain_text("Drive to a crime scene", timeout=TIMEOUT)
        second.locator("#pa-map").click()
        drive(second, S_TO_E)
        expect(first.locator("#pa-car")).to_have_attribute("transform", "translate(130 70)", timeout=TIMEOUT)
        if found_thief:
            expect(second.locator(".pa-siren")).to_be_disabled()
        else:
            expect(second.locator(".pa-siren")).to_be_enabled(timeout=TIMEOUT)
        for page in (first, second):
            assert '"layout"' not in page.content()
        screenshot(second, "police_alarm-young")
        for player in (p1, p2):
            assert not player.errors, player.errors
            assert_not_reloaded(player)


# The page's count of the rolls it sent (submitted Roll forms), counting from when first asked.
COUNT_ROLLS_SENT = """() => {
    if (window.rollsSent === undefined) {
        window.rollsSent = 0;
        document.addEventListener("submit", e => { if (e.target.dataset.pa === "roll") window.rollsSent++; }, true);
    }
    return window.rollsSent;
}"""


def roll_until_taken(page: Page) -> None:
    """Press Roll until the server takes the roll; only the alarm pause may refuse it.

    The bot police reaches H (four cells from the start) about 0.6 s after "go" and sounds the
    siren at once: the thief is frozen for 2 s (R-31). The server takes inputs in the order they
    reach it (T-2), so a roll pressed while the siren was on its way to the page arrives after it
    and is refused as ``paused`` (T-14), though the page still showed Roll enabled. A player rolls
    again when the pause is over; so does the test. Any other refusal fails it, and so does a roll
    sent and never answered.
    """
    roll = page.get_by_role("button", name=re.compile("^Roll"))
    deadline = time.monotonic() + 40
    while True:
        answered = answers(page)
        sent = page.evaluate(COUNT_ROLLS_SENT)
        roll.click()  # waits until Roll is enabled: after a pause the page knows of
        # Roll can be disabled between Playwright finding it enabled and its click landing (an
        # event the page was still drawing): that click sends nothing, and a player presses again.
        try:
            page.wait_for_function("n => window.rollsSent > n", arg=sent, timeout=5_000)
        except PlaywrightTimeoutError:
            assert time.monotonic() < deadline, "no click on Roll sent a roll"
            continue
        # A live game's roll waits its turn at the match's sequencer, which a machine running the
        # whole suite can hold up past the usual timeout.
        page.wait_for_function(
            "n => parseInt(document.getElementById('match').dataset.answers || '0', 10) > n",
            arg=answered,
            timeout=40_000,
        )
        if page.locator("#match").get_attribute("data-last-status") == "200":
            return
        expect(page.locator("#board > .error")).to_have_text("Wait: the alarm pause is still on.")
        assert time.monotonic() < deadline, "every roll was refused for an alarm pause"
        time.sleep(0.1)


def test_one_player_plays_a_round_against_a_bot_on_a_phone(live_site: LiveSite, browser: Any) -> None:
    run = secrets.token_hex(3)
    p1 = new_player(browser, live_site, 1, f"nora_{run}@example.com")
    p1.page.set_viewport_size({"width": PHONE["width"], "height": PHONE["height"]})
    try:
        sign_up(live_site, p1)
        create_police_alarm(p1, bot=True)
        start = p1.page.locator("#start-match")
        expect(start).to_be_visible(timeout=TIMEOUT)
        page = p1.page
        mark_loaded(page)
        start.click()
        # The started board takes the lobby's place without a reload: the socket stays open, so the
        # game never counts the host as gone (T-23) and plays on at once, with no resume countdown.
        expect(page.locator("#pa-status")).to_contain_text(
            re.compile("Choose two crime scenes|Sound the start siren"), timeout=TIMEOUT
        )
        assert_not_reloaded(p1)
        if role_of(page) == "thief":
            page.get_by_role("button", name="Let chance choose").click()
            expect(page.locator(".pa-circle.mine")).to_have_count(2, timeout=TIMEOUT)
            # The bot police sounds the start siren and drives: its car moves on this page, live.
            expect(page.locator("#pa-car")).not_to_have_attribute("transform", "translate(90 90)", timeout=40_000)
            roll_until_taken(page)  # the bot's first siren may freeze the thief first
            expect(page.locator("#pa-dice .pa-die").first).to_have_text(re.compile(r"^[1-6]$"), timeout=TIMEOUT)
        else:
            page.get_by_role("button", name="Sound the start siren").click()
            # The bot thief rolls after the countdown: its dice land on this page, live.
            expect(page.locator("#pa-dice .pa-die").first).to_have_text(re.compile(r"^[1-6]$"), timeout=40_000)
            up = page.get_by_role("button", name="Up")
            box = up.bounding_box()
            assert box and box["width"] >= 48 and box["height"] >= 48  # W-7, W-14
            up.click()
            expect(page.locator("#pa-car")).to_have_attribute("transform", "translate(90 80)", timeout=TIMEOUT)
        # T-12: whoever rolled, the dice tumble and land on the server's values.
        page.wait_for_function(
            """() => {
                const dice = window.PoliceAlarm.view().dice || [];
                const shown = [...document.querySelectorAll('#pa-dice .pa-die')].map(d => d.textContent);
                return dice.length > 0 && dice.every((value, i) => shown[i] === String(value));
            }""",
            timeout=TIMEOUT,
        )
        screenshot(page, "police_alarm-phone")
        width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        wide = page.evaluate(WIDE_ELEMENTS)
        assert width[0] <= width[1], f"the page scrolls sideways: {width}, widest: {wide}"
        assert not p1.errors, p1.errors
    finally:
        p1.context.close()


def test_W15_driving_school_times_the_drive_between_two_crime_scenes_on_a_phone(
    live_site: LiveSite, browser: Any, axe_source: str
) -> None:
    """Nobody signed in: a newcomer drives alone from the start to E, then to H, and reads the time
    it took from E to H. The page fits a phone, passes axe, and sends nothing to any match."""
    context = browser.new_context(base_url=live_site.url, viewport=PHONE, bypass_csp=True)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    try:
        page.goto("/how-to-play/police_alarm/")
        page.get_by_role("link", name="Practise in the Driving school").click()
        expect(page.get_by_role("heading", name="Driving school")).to_be_visible()
        expect(page.locator("#pa-status")).to_contain_text("Drive from crime scene to crime scene")
        expect(page.locator("#pa-safes")).to_be_hidden()
        expect(page.locator(".pa-siren")).to_be_hidden()
        page.get_by_label("Announce junctions").check()  # W-12, for screen readers
        page.locator("#pa-map").click()
        drive(page, S_TO_E)
        assert car_cell(page) == (13, 7)
        expect(page.locator("#pa-announce")).to_contain_text(re.compile(r"Junction: |Crime scene E ahead"))
        expect(page.locator("#pa-lap")).to_have_text("")  # the start is no crime scene: no time yet
        drive(page, E_TO_H, WASD)
        assert car_cell(page) == (7, 11)
        expect(page.locator("#pa-lap")).to_contain_text(re.compile(r"From E to H: \d+\.\d s"))
        taken = float(re.findall(r"(\d+\.\d) s", page.locator("#pa-lap").inner_text())[0])
        assert 1.3 <= taken <= 5.0, f"ten cells at about 0.19 s each took {taken} s"
        expect(page.locator("#pa-lap-now")).to_have_text("")  # stopped on H: no clock running
        body = page.locator("main").inner_text()
        assert not re.search(r"\b[RTHNWDM]-\d+\b", body), "no rule ids on the page"
        assert page.evaluate(WIDE_ELEMENTS) == [], "the page fits a phone"
        assert_accessible(page, axe_source, "driving school")
        assert sockets == [], f"the driving school opens no socket: {sockets}"
        assert not errors, errors
        screenshot(page, "police_alarm-driving-school")
    finally:
        context.close()


def test_W8_W9_T10_on_a_touch_phone_the_police_steers_by_tilt_and_the_aids_corner_and_stop(
    live_site: LiveSite, browser: Any
) -> None:
    """In the driving school, on a phone with a touch screen. Holding right and then up where up is
    blocked, the car keeps going right and turns up as soon as it can (W-9 cornering assist), then
    stops on entering crime scene E though both keys are still held (W-9 circle stop); however long
    a key is held, the page moves the car one cell per 150 ms at most, by its own clock (T-10).
    Then tilt steers (W-8): the first attitude is the neutral one, less than 12° moves nothing, more
    chooses the way of the larger angle, and back to neutral the car stops."""
    context = browser.new_context(base_url=live_site.url, viewport=PHONE, has_touch=True)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def tilt(beta: float, gamma: float) -> None:
        page.evaluate(
            "([b, g]) => window.dispatchEvent("
            "new DeviceOrientationEvent('deviceorientation', {alpha: 0, beta: b, gamma: g}))",
            [beta, gamma],
        )

    def at(cell: tuple[int, int]) -> None:
        expect(page.locator("#pa-car")).to_have_attribute("transform", f"translate({cell[0] * 10} {cell[1] * 10})")

    try:
        page.goto("/how-to-play/police_alarm/")
        page.get_by_role("link", name="Practise in the Driving school").click()
        expect(page.locator("#pa-status")).to_contain_text("Drive from crime scene to crime scene")
        expect(page.locator("#pa-assist")).to_be_checked()
        page.locator("#pa-circle-stop").check()
        page.locator("#pa-map").click()
        started = time.monotonic()
        page.keyboard.down("ArrowRight")  # the first cell at once, to (10, 9), where up is blocked
        page.keyboard.down("ArrowUp")
        at((13, 7))  # right to (13, 9), the first cell up is open from, then up to E
        took = time.monotonic() - started
        time.sleep(0.6)
        at((13, 7))  # still on E: the road goes on up, but the car stopped on the scene
        page.keyboard.up("ArrowUp")
        page.keyboard.up("ArrowRight")
        assert took >= 5 * 0.15, f"six cells in {took:.2f} s: faster than one per 150 ms"

        page.get_by_role("button", name="Steer by tilting").click()
        # The page listens to the phone's attitude once the browser grants it (Chromium has
        # DeviceOrientationEvent.requestPermission): asking again here answers after the page's own
        # request, so the page listens before the first attitude is sent, however busy the machine.
        page.evaluate("() => DeviceOrientationEvent.requestPermission && DeviceOrientationEvent.requestPermission()")
        tilt(0, 0)  # the neutral attitude
        page.keyboard.press("ArrowDown")  # off the scene, so nothing holds the car any more
        at((13, 8))
        tilt(8, 5)  # below 12°: no way chosen
        time.sleep(0.6)
        at((13, 8))
        # Tipped forward: down. A phone reports its attitude many times a second, and so does this.
        deadline = time.monotonic() + TIMEOUT / 1000
        while page.locator("#pa-car").get_attribute("transform") == "translate(130 80)":
            assert time.monotonic() < deadline, "tipped forward, the car did not move"
            tilt(20, 4)
            time.sleep(0.1)
        tilt(0, 0)
        time.sleep(0.3)  # a step in flight lands
        stopped = page.locator("#pa-car").get_attribute("transform")
        time.sleep(0.6)
        assert page.locator("#pa-car").get_attribute("transform") == stopped
        x, y = (int(n) // 10 for n in re.findall(r"\d+", stopped or ""))
        assert x == 13 and y > 8
        assert not errors, errors
    finally:
        context.close()


def test_W6_space_sounds_the_start_siren_a_siren_off_scene_says_why_and_the_pad_goes_at_the_end(
    live_site: LiveSite, browser: Any
) -> None:
    """Issue 54, item 16. The page says "Space or Enter sounds the siren": with nothing focused,
    Space sounds the start siren (R-10); a siren away from a crime scene says why nothing happened;
    once the game is over (here the thief resigns) the police's driving pad is gone."""
    with police_alarm_lobby(live_site, browser, "ines", "ugo") as (p1, p2, start):
        start.click()
        by_role = {role_of(p.page): p for p in (p1, p2)}
        thief, police = by_role["thief"].page, by_role["police"].page
        expect(police.locator("#pa-status")).to_contain_text("Sound the start siren", timeout=TIMEOUT)
        police.locator("body").click(position={"x": 2, "y": 2})  # nothing focused: the page's keys
        police.keyboard.press("Space")
        expect(police.locator("#pa-status")).to_contain_text("Ready. Waiting for the thief", timeout=TIMEOUT)
        for circle in HIDDEN:
            thief.locator(f'.pa-circle[data-circle="{circle}"]').click()
        thief.get_by_role("button", name="Hide them here").click()
        expect(police.locator("#pa-status")).to_contain_text("Drive to the crime scenes", timeout=TIMEOUT)
        police.locator("body").click(position={"x": 2, "y": 2})
        police.keyboard.press("Enter")  # the car is on the start, no crime scene
        note = police.locator("#pa-siren-note")
        expect(note).to_be_visible(timeout=TIMEOUT)
        expect(note).to_contain_text("Drive onto a face-down crime scene")
        expect(police.locator("#pa-police")).to_be_visible()
        thief.evaluate("window.confirm = () => true")  # yes, resign (the players' pages dismiss dialogs)
        thief.get_by_role("button", name="Resign").click()
        expect(police.locator("#pa-status")).to_contain_text("The game is over", timeout=TIMEOUT)
        expect(police.locator("#pa-police")).to_be_hidden()
        expect(police.locator(".pa-pad")).to_be_hidden()


def test_the_create_form_shows_one_game_field_and_the_handicaps_of_the_chosen_seats(
    live_site: LiveSite, browser: Any
) -> None:
    """Issue 54, item 7: one field labelled "Game"; two handicap menus per seat, for as many seats
    as the form says, following the seat count as it changes."""
    host = new_player(browser, live_site, 1, f"hana_{secrets.token_hex(3)}@example.com")
    try:
        sign_up(live_site, host)
        page = host.page
        page.goto("/matches/new/?game=police_alarm")
        page.locator("#id_game").select_option("police_alarm")
        expect(page.get_by_text("Game:", exact=True)).to_have_count(1)
        handicaps = page.locator("select[data-seat]:visible")
        page.locator("#id_seats").fill("2")
        expect(handicaps).to_have_count(4)
        for seat in (0, 1):
            expect(page.locator(f"#id_police_alarm__step_ms_{seat}")).to_be_visible()
        page.locator("#id_seats").fill("3")
        expect(handicaps).to_have_count(6)
        page.locator("#id_seats").fill("4")
        expect(handicaps).to_have_count(8)
        expect(page.locator("#id_time_amount")).to_be_hidden()  # item 6: real time, no time limit per decision
        page.locator("#id_game").select_option("heist")
        expect(handicaps).to_have_count(0)
        expect(page.locator("#id_time_amount")).to_be_visible()
    finally:
        host.context.close()
