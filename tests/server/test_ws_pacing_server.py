"""A real ``streamlit run serve.py`` with the websocket pacing (``server/ws_pacing.py``): a session sending its
reruns all at once has them handed to Streamlit one token at a time, each its own run, none lost, while another
session's clicks are answered meanwhile. Without the pacing the server read them all at once and ran them as a
few coalesced runs. Slow: a server, and a bucket refilled at one message a second."""

from __future__ import annotations

import asyncio

import pytest
from browser_support import AppServer, run_protocol
from st_client import ForwardMsg, Session

pytestmark = pytest.mark.slow

BURST, RERUNS = 4, 16  # the opening takes one token: the storm's last 12 or so reruns each wait for one


async def storm_and_clicks(url: str) -> tuple[int, int, int]:
    greedy, other = Session(url, ""), Session(url, "")
    await greedy.open()
    await other.open()
    for _ in range(RERUNS):
        await greedy._send()
    finished = 0
    clicks_while_storming = 0
    clicker = asyncio.create_task(other.click("next"))
    while finished < RERUNS - BURST:  # each rerun past the burst is its own run, so this many finish at least
        msg = await greedy._read(120)
        if msg.WhichOneof("type") == "script_finished" and msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
            finished += 1
            if clicker.done():  # the other session's click was answered before this run of the storm's
                clicks_while_storming += 1
                clicker = asyncio.create_task(other.click("next" if clicks_while_storming % 2 else "back"))
    await clicker
    await greedy.close()
    await other.close()
    return finished, clicks_while_storming, other.step


def test_a_sessions_rerun_burst_is_paced_and_kept_while_another_session_clicks():
    server = AppServer(script="serve.py", env={"BPE_WS_RATE": "1", "BPE_WS_BURST": str(BURST)})
    url = server.start()
    try:
        finished, clicks, step = run_protocol(storm_and_clicks, url, timeout=240)
    finally:
        server.stop()
    assert finished >= RERUNS - BURST  # every paced rerun ran: none dropped, none merged into another
    assert clicks >= RERUNS - BURST - 2  # the other session was answered between the storm's runs
    assert step is not None
