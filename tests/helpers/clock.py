"""The app's clock (``create_app({"NOW": clock})``), moved by the test: the server measures
play time, counting turns and open dates with it."""

from __future__ import annotations

import datetime as dt


class Clock:
    def __init__(self, start: dt.datetime) -> None:
        self.t = start

    def __call__(self) -> dt.datetime:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += dt.timedelta(seconds=seconds)
