"""What a fresh clone promises (issue 26): a licence and metadata, the README's test line
exactly what CI runs, lock files covering every dependency with hashes, and a Dockerfile and
compose file that use them as documented."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

from bot import VERSION
from bot.discord.client import SHUTDOWN_WAIT

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))


def _names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0].lower().replace("_", "-").replace(".", "-")
            for r in requirements}


def _pinned(lock: str) -> dict[str, str]:
    text = (ROOT / lock).read_text("utf-8")
    blocks = re.findall(r"^([A-Za-z0-9_.-]+)==([^ ;\\\n]+)[^\n]*\\\n((?:\s+--hash=sha256:[0-9a-f]{64}.*\n)+)",
                        text, flags=re.M)
    return {name.lower().replace("_", "-").replace(".", "-"): version for name, version, _ in blocks}


def test_licence_metadata_and_version() -> None:
    project = PYPROJECT["project"]
    assert (ROOT / "LICENSE").read_text("utf-8").startswith("MIT License")
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert project["authors"] and project["urls"] and len(project["classifiers"]) > 5
    assert "version" in project["dynamic"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", VERSION)
    changelog = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert "## [Unreleased]" in changelog and f"## [{VERSION}]" in changelog
    assert (ROOT / "CONTRIBUTING.md").exists()


def test_ci_runs_the_readme_test_line_and_the_slow_tests() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    line = subprocess.run(["grep", "-m1", "-E", r"^python3 -m venv \.venv && .*pytest", "README.md"],
                          cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    assert f"```sh\n{line}\n```" in readme  # the line a reader copies is the one CI runs
    assert "-r requirements-test.lock" in line and "-n auto" in line
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert 'eval "$line"' in ci and "-m slow" in ci
    assert "5)" in ci  # pytest's "no test collected" is handled, not passed silently
    assert "-rs" in PYPROJECT["tool"]["pytest"]["ini_options"]["addopts"]


def test_the_lock_files_pin_every_dependency_with_hashes() -> None:
    runtime = _names(PYPROJECT["project"]["dependencies"])
    test = _names(PYPROJECT["project"]["optional-dependencies"]["test"])
    lock, test_lock = _pinned("requirements.lock"), _pinned("requirements-test.lock")
    assert runtime <= set(lock), runtime - set(lock)
    assert runtime | test <= set(test_lock), (runtime | test) - set(test_lock)
    shared = set(lock) & set(test_lock)
    assert {n: lock[n] for n in shared} == {n: test_lock[n] for n in shared}  # one version each


def test_docker_and_compose_use_the_lock_and_hold_on_shutdown() -> None:
    docker = (ROOT / "Dockerfile").read_text("utf-8")
    assert re.search(r"^FROM python:3\.11[\w.-]*@sha256:[0-9a-f]{64}$", docker, flags=re.M)
    assert "pip install --require-hashes --no-deps -r requirements.lock" in docker
    assert 'CMD ["referee", "health"]' in docker and "REFEREE_HEARTBEAT=" in docker
    compose = (ROOT / "compose.yaml").read_text("utf-8")
    grace = re.findall(r"stop_grace_period: (\d+)s", compose)
    assert grace and all(int(g) > SHUTDOWN_WAIT for g in grace)
    assert "POSTGRES_PASSWORD:-" not in compose  # no default password
    assert "${POSTGRES_PASSWORD:?" in compose
    url = re.search(r"REFEREE_DB: (\S+)", compose)
    assert url and "POSTGRES_PASSWORD" not in url.group(1)  # not pasted into a URL unescaped
    assert "name: referee-data" in compose and "-v referee-data:/data" in (ROOT / "README.md").read_text()
