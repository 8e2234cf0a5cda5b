"""A real ``streamlit run serve.py`` with the websocket pacing (``server/ws_pacing.py``): a session that reruns
as fast as the server answers it has its reruns handed to Streamlit one token at a time past its burst, each
still run (none lost), while another session's clicks are answered between them (its share: the bucket is the
same for both). Slow: a server, and a bucket refilled once a second."""

from __future__ import annotations

import asyncio

import pytest
from browser_support import AppServer, run_protocol
from st_client import ForwardMsg, Session

pytestmark = pytest.mark.slow

BURST, RERUNS = 4, 12


async def greedy_and_clicks(url: str) -> list[int]:
    """The other session's clicks answered by the end of each of the greedy session's runs."""
    greedy, other = Session(url, ""), Session(url, "")
    await greedy.open()
    await other.open()
    clicks, done = [0], asyncio.Event()

    async def click_on():
        while not done.is_set():
            await other.click("next" if clicks[0] % 2 == 0 else "back")
            clicks[0] += 1

    clicking = asyncio.create_task(click_on())
    seen = []
    for _ in range(RERUNS):  # each rerun sent as soon as the one before has run
        await greedy._send()
        while True:
            msg = await greedy._read(120)
            if msg.WhichOneof("type") == "script_finished" and msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
                break
        seen.append(clicks[0])
    done.set()
    await clicking
    await greedy.close()
    await other.close()
    return seen


def test_a_session_rerunning_without_pause_is_paced_while_another_session_clicks():
    server = AppServer(script="serve.py", env={"BPE_WS_RATE": "1", "BPE_WS_BURST": str(BURST)})
    url = server.start()
    try:
        seen = run_protocol(greedy_and_clicks, url, timeout=240)
    finally:
        server.stop()
    assert len(seen) == RERUNS  # every rerun ran
    paced = seen[BURST:]  # the opening took a token: these reruns each waited for one
    between = [b - a for a, b in zip(paced, paced[1:], strict=False)]
    # Both sessions are paced at the same rate, so a click can land just past one of the greedy session's runs and
    # leave one gap empty and the next with two: the other session's share is counted over all the gaps.
    assert sum(between) >= len(between) - 1, between
    assert between.count(0) <= 2, between
