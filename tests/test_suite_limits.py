"""The suite never hangs: every test has a time limit (pytest-timeout, ``timeout`` in pyproject.toml).

A test past its limit is interrupted by SIGALRM wherever the main thread waits (a sleep, a subprocess,
Playwright's sync API), fails with the stack where it waited, and the run goes on with the next test.
A test the signal cannot reach (stuck in compiled code, or with SIGALRM blocked) is caught later by
faulthandler (``faulthandler_timeout``), which prints every thread's stack and ends the run.

Each check runs pytest, with the project's configuration, on a small generated file whose tests wait
forever under a limit of a few seconds.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import time
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("TAVOLA_CHROMIUM", "/usr/bin/chromium")


def _pytest_on(tmp_path: Path, source: str, *options: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run pytest with the project's pyproject.toml on ``source`` (a test file's text); its output and
    how long it took."""
    path = tmp_path / "test_generated.py"
    path.write_text(textwrap.dedent(source))
    command = [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path)]
    command += ["-p", "no:cacheprovider", "-q", *options, str(path)]
    started = time.monotonic()
    finished = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    return finished, time.monotonic() - started


def test_every_test_has_a_limit_and_faulthandler_ends_the_run_only_past_the_longest() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert options["timeout_method"] == "signal"
    marked = [
        int(seconds)
        for path in (ROOT / "tests").glob("test_*.py")
        for seconds in re.findall(r"@pytest\.mark\.timeout\((\d+)\)", path.read_text())
    ]
    longest = max([int(options["timeout"]), *marked])
    assert longest < 30 * 60  # far below CI's 90 minutes for the whole run
    assert options["faulthandler_exit_on_timeout"] is True
    # never cuts short a test within its limit, nor the teardown of one stopped at it
    assert float(options["faulthandler_timeout"]) >= longest + 60


def test_a_test_waiting_forever_in_a_sleep_or_a_subprocess_fails_at_its_limit_with_where_it_waited(
    tmp_path: Path,
) -> None:
    finished, seconds = _pytest_on(
        tmp_path,
        """
        import subprocess
        import time

        import pytest


        @pytest.mark.timeout(2)
        def test_sleeps_forever():
            time.sleep(3600)


        @pytest.mark.timeout(2)
        def test_waits_for_a_process_that_never_ends():
            subprocess.run(["sleep", "3600"], check=False)


        def test_the_next_test_still_runs():
            assert True
        """,
    )
    output = finished.stdout + finished.stderr
    assert finished.returncode == 1, output
    assert "2 failed, 1 passed" in output, output
    assert output.count("Timeout (>2.0s) from pytest-timeout") >= 2, output
    assert ">       time.sleep(3600)" in output, output  # where each one waited
    assert '>       subprocess.run(["sleep", "3600"], check=False)' in output, output
    assert seconds < 60, output


def test_a_test_stuck_in_playwrights_sync_api_fails_at_its_limit_and_the_browser_serves_the_next(
    tmp_path: Path,
) -> None:
    pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (python)")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (set TAVOLA_CHROMIUM)")
    finished, seconds = _pytest_on(
        tmp_path,
        f"""
        import pytest
        from playwright.sync_api import sync_playwright


        @pytest.fixture(scope="module")
        def browser():
            with sync_playwright() as playwright:
                launched = playwright.chromium.launch(executable_path={CHROMIUM!r}, headless=True)
                yield launched
                launched.close()


        @pytest.mark.timeout(3)
        def test_waits_in_the_page_forever(browser):
            page = browser.new_page()
            page.wait_for_function("false", timeout=0)  # no timeout of its own


        def test_the_next_test_uses_the_same_browser(browser):
            page = browser.new_page()
            page.set_content("<p>still here</p>")
            assert page.inner_text("p") == "still here"
        """,
    )
    output = finished.stdout + finished.stderr
    assert finished.returncode == 1, output
    assert "1 failed, 1 passed" in output, output
    assert "Timeout (>3.0s) from pytest-timeout" in output, output
    assert '>       page.wait_for_function("false", timeout=0)' in output, output
    assert seconds < 90, output


def test_a_test_the_alarm_cannot_reach_has_its_stack_printed_and_ends_the_run(tmp_path: Path) -> None:
    finished, seconds = _pytest_on(
        tmp_path,
        """
        import signal
        import time

        import pytest


        @pytest.mark.timeout(1)
        def test_blocks_the_alarm_and_sleeps():
            signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])
            time.sleep(3600)


        def test_never_reached():
            assert True
        """,
        "-o",
        "faulthandler_timeout=3",
    )
    output = finished.stdout + finished.stderr
    assert finished.returncode != 0, output
    assert "most recent call first" in output, output  # faulthandler's dump of every thread
    assert "test_blocks_the_alarm_and_sleeps" in output, output
    assert "passed" not in output, output  # the run ended there
    assert seconds < 60, output
