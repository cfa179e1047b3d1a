"""Without a secret SECRET_KEY (unset, a known placeholder, short) and with DEBUG off the site refuses to start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.deployment import DEVELOPMENT_KEY, secret_key

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {"DEBUG": "false", "ALLOWED_HOSTS": "example.org", "SECURE_SSL": "true"}


def run_manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "HIDEOUT_LOCAL_KEY", "DEBUG")}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_item2_production_without_secret_key_refuses_to_start(tmp_path: Path) -> None:
    result = run_manage({**PRODUCTION, "SECRET_KEY_FILE": str(tmp_path / "key")}, "check", "--deploy")
    assert result.returncode != 0
    assert "SECRET_KEY is not set and DEBUG is off" in result.stderr
    assert not (tmp_path / "key").exists()


def test_item2_production_with_a_secret_key_starts(tmp_path: Path) -> None:
    result = run_manage({**PRODUCTION, "SECRET_KEY": "k" * 64 + "-production-only"}, "check")
    assert result.returncode == 0, result.stderr


def test_item2_local_run_generates_and_keeps_a_random_key(tmp_path: Path) -> None:
    env = {"DEBUG": "false", "HIDEOUT_LOCAL_KEY": "1", "SECRET_KEY_FILE": str(tmp_path / "key")}
    script = "from django.conf import settings; print(settings.SECRET_KEY)"
    first = run_manage(env, "shell", "-c", script)
    second = run_manage(env, "shell", "-c", script)
    assert first.returncode == 0, first.stderr
    key = first.stdout.strip().splitlines()[-1]
    assert key == second.stdout.strip().splitlines()[-1] == (tmp_path / "key").read_text().strip()
    assert len(key) >= 50 and "insecure" not in key
    assert (tmp_path / "key").stat().st_mode & 0o077 == 0


def test_item2_debug_keeps_the_development_default(tmp_path: Path) -> None:
    result = run_manage({"DEBUG": "true", "SECRET_KEY_FILE": str(tmp_path / "key")}, "check")
    assert result.returncode == 0, result.stderr


def test_item2_check_deploy_with_the_readme_production_settings_is_clean() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "SECRET_KEY=… ALLOWED_HOSTS=example.org SECURE_SSL=true" in readme
    key = "production-" + "x9" * 30
    result = run_manage({**PRODUCTION, "SECRET_KEY": key}, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr


def example_env_key() -> str:
    lines = (ROOT / "deploy" / "hideout.env.example").read_text().splitlines()
    return next(line.split("=", 1)[1] for line in lines if line.startswith("SECRET_KEY="))


def test_production_refuses_the_placeholder_of_the_example_env_file() -> None:
    result = run_manage({**PRODUCTION, "SECRET_KEY": example_env_key()}, "check")
    assert result.returncode != 0
    assert "SECRET_KEY is a placeholder" in result.stderr


def test_production_refuses_the_development_key() -> None:
    result = run_manage({**PRODUCTION, "SECRET_KEY": DEVELOPMENT_KEY}, "check")
    assert result.returncode != 0
    assert "SECRET_KEY is a placeholder" in result.stderr


def test_production_refuses_a_short_key() -> None:
    result = run_manage({**PRODUCTION, "SECRET_KEY": "s3cr3t-but-short"}, "check")
    assert result.returncode != 0
    assert "SECRET_KEY is too short" in result.stderr


def test_known_placeholders_and_short_keys_are_refused_before_settings_load(tmp_path: Path) -> None:
    refused = [
        example_env_key(),
        DEVELOPMENT_KEY,
        "django-insecure-" + "a1" * 30,
        "change-me-" + "x" * 40,
        "your-secret-key-here-" + "0" * 30,
        "y" * 39,
    ]
    for key in refused:
        with pytest.raises(ImproperlyConfigured):
            secret_key(key, debug=False, local=False, local_path=tmp_path / "key")
    good = "Zq8" * 20
    assert secret_key(good, debug=False, local=False, local_path=tmp_path / "key") == good
