"""Issue 54, item 9 in a real browser: a rematch invites, the other player accepts.

Ann and Ben finished a dirty_money match. Ann asks for a rematch: its page shows Ben as invited,
waiting for an answer, and no Start button. Ben's old match page, open all along, is offered
"Accept rematch" and "Decline" without a reload (not "Join"); he accepts and lands in the rematch's
lobby, seated. Ann's lobby shows him seated and the Start button without a reload; she starts.
"""

from __future__ import annotations

import re
import secrets

import pytest
from playwright.sync_api import expect

from .accounts import make_accounts, signed_in
from .conftest import LiveSite
from .players import TIMEOUT

pytestmark = pytest.mark.e2e


def finished_match(site: LiveSite, emails: list[str]) -> int:
    """A dirty_money match of these players, started and then marked over, made in the site's database."""
    code = (
        "from django.contrib.auth import get_user_model\n"
        "from games.models import Match\n"
        "from games.play import services\n"
        f"users = [get_user_model().objects.get(email=e) for e in {emails!r}]\n"
        "match = services.do_create_match(users[0], 'dirty_money', 2, {}, 86400 * 7)\n"
        "services.do_join_match(match.pk, users[1])\n"
        "services.do_start_match(match.pk, users[0])\n"
        "Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)\n"
        "print('match', match.pk)\n"
    )
    found = re.search(r"match (\d+)", site.manage("shell", "-c", code).stdout)
    assert found
    return int(found.group(1))


def test_a_rematch_invites_and_the_other_player_accepts(live_site: LiveSite, browser: object) -> None:
    tag = secrets.token_hex(3)
    ann_email, ben_email = make_accounts(live_site, [f"ann_{tag}", f"ben_{tag}"])
    match_id = finished_match(live_site, [ann_email, ben_email])
    ann_context = signed_in(browser, live_site, ann_email)
    ben_context = signed_in(browser, live_site, ben_email)
    try:
        ann, ben = ann_context.new_page(), ben_context.new_page()
        ben.goto(f"/m/{match_id}/")
        expect(ben.locator("#board").get_by_role("button", name="Rematch")).to_be_visible(timeout=TIMEOUT)
        ben.wait_for_function("document.querySelector('#conn') !== null")
        ann.goto(f"/m/{match_id}/")
        with ann.expect_navigation():
            ann.locator("#board").get_by_role("button", name="Rematch").click()
        assert re.search(r"/m/\d+/$", ann.url) and not ann.url.endswith(f"/m/{match_id}/")
        panel = ann.locator("#board .lobby-panel")
        expect(panel.locator(".invite-list")).to_contain_text("Ben: Waiting for an answer")
        expect(panel).to_contain_text("1 of 2 seats taken.")
        expect(ann.locator("#start-match")).to_have_count(0)

        # Ben's old page, never reloaded, is offered the invitation, not a seat to join.
        after = ben.locator("#board #match-after")
        expect(after.get_by_role("button", name="Accept rematch")).to_be_visible(timeout=TIMEOUT)
        expect(after.get_by_role("button", name="Decline")).to_be_visible()
        expect(after).not_to_contain_text("Join")
        with ben.expect_navigation():
            after.get_by_role("button", name="Accept rematch").click()
        assert ben.url == ann.url
        expect(ben.locator("#board .seat-list")).to_contain_text("Ben")
        expect(ben.locator("#board .lobby-panel")).not_to_contain_text("Accept rematch")

        # Ann's lobby, never reloaded, shows him seated and lets her start.
        expect(panel).to_contain_text("2 of 2 seats taken.", timeout=TIMEOUT)
        expect(panel.locator(".invite-list")).to_contain_text("Ben: Accepted")
        ann.locator("#start-match").click()
        expect(ann.locator("#board .lobby-panel")).to_have_count(0, timeout=TIMEOUT)

        ben.goto(f"/m/{match_id}/")  # the old page now links to the rematch, and offers nothing to join
        expect(ben.locator("#board #match-after")).to_contain_text("Go to the rematch")
        expect(ben.locator("#board #match-after")).not_to_contain_text("Accept rematch")
    finally:
        ann_context.close()
        ben_context.close()
