"""``bot.writer.utcnow``: every row's time, written from a kept second (issue 23) and
equal to ``datetime.isoformat(timespec="milliseconds")`` at every instant."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from bot import writer

INSTANTS_NS = [0, 999_999, 1_000_000, 1_764_217_335_000_000_000, 1_764_217_335_007_999_999,
               1_764_217_335_999_999_999, 1_764_217_336_000_000_001, 1_767_225_599_999_000_000]


@pytest.mark.parametrize("ns", INSTANTS_NS)
def test_the_time_text_is_isoformat_truncated_to_the_millisecond(ns: int, monkeypatch) -> None:
    monkeypatch.setattr(writer.time, "time_ns", lambda: ns)
    expected = datetime.fromtimestamp(ns // 1000 / 1e6, timezone.utc)
    expected = expected.replace(microsecond=(ns // 1_000_000 % 1000) * 1000)
    assert writer.utcnow() == expected.isoformat(timespec="milliseconds")
    assert writer.utcnow() == expected.isoformat(timespec="milliseconds")  # from the kept second


def test_the_clock_read_now_is_between_two_readings_of_datetime() -> None:
    for _ in range(1000):
        before = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        now = writer.utcnow()
        after = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        assert before <= now <= after
