"""Hardening item 12: deployments sharing a Redis server do not hear each other's pushes."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.own_loop import run_on_its_own_loop

from .redis_worker import require_redis

# No database fixture, but the channel layer, the broker or a database connection: CI's backends pass runs it.
pytestmark = pytest.mark.backends

ROOT = Path(__file__).resolve().parents[2]
SERVER = "redis://127.0.0.1:6379"


def layer_config(**env: str) -> dict[str, Any]:
    script = "import json; from django.conf import settings; print(json.dumps(settings.CHANNEL_LAYERS['default']))"
    base = {k: v for k, v in os.environ.items() if k not in ("CHANNEL_LAYER_PREFIX", "REDIS_URL")}
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {script}"],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_item12_channel_layer_prefix_comes_from_settings() -> None:
    staging = layer_config(REDIS_URL=f"{SERVER}/5")
    production = layer_config(REDIS_URL=f"{SERVER}/6")
    named = layer_config(REDIS_URL=f"{SERVER}/6", CHANNEL_LAYER_PREFIX="prod-eu")
    assert staging["CONFIG"]["prefix"] != production["CONFIG"]["prefix"]
    assert named["CONFIG"]["prefix"] == "prod-eu"


def test_item12_two_deployments_on_one_redis_do_not_hear_each_other() -> None:
    require_redis(f"{SERVER}/5", "item 12 Redis test")
    run_on_its_own_loop(_two_deployments)


async def _two_deployments() -> None:
    from channels_redis.pubsub import RedisPubSubChannelLayer  # type: ignore[import-untyped]

    staging_config = layer_config(REDIS_URL=f"{SERVER}/5")["CONFIG"]
    production_config = layer_config(REDIS_URL=f"{SERVER}/6")["CONFIG"]
    staging = RedisPubSubChannelLayer(**staging_config)
    production = RedisPubSubChannelLayer(**production_config)
    staging_twin = RedisPubSubChannelLayer(**staging_config)
    try:
        listener = await production.new_channel()
        await production.group_add("match_1", listener)
        staging_listener = await staging_twin.new_channel()
        await staging_twin.group_add("match_1", staging_listener)
        await asyncio.sleep(0.2)
        await staging.group_send("match_1", {"type": "push", "text": "staging only"})
        # The same deployment hears it (so the test can fail), the other one does not.
        heard = await asyncio.wait_for(staging_twin.receive(staging_listener), timeout=5)
        assert heard["text"] == "staging only"
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(production.receive(listener), timeout=1)
    finally:
        for layer in (staging, production, staging_twin):
            await layer.flush()
