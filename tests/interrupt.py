"""Ctrl-C through the native core: a long native call (perft, a search, a whole game) releases the
GIL, so another thread can send SIGINT, and the call's poll of Python's signal handlers stops it
with KeyboardInterrupt. One helper for every such test."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable

import pytest


def assert_stops_on_ctrl_c(call: Callable[[], object], after: float = 0.2) -> None:
    """Run ``call`` (too long to finish) while another thread sends SIGINT ``after`` seconds into
    it: it must raise KeyboardInterrupt. Skipped off the main thread, where no signal arrives."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    started = threading.Event()
    interrupt = threading.Thread(
        target=lambda: (started.wait(), time.sleep(after), os.kill(os.getpid(), signal.SIGINT))
    )
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        interrupt.start()
        started.set()
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        interrupt.join()
        signal.signal(signal.SIGINT, previous)
