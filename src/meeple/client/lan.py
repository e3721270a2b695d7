"""Finding meeple servers on the local network (mDNS), as ``meeple lan`` does."""

from __future__ import annotations

import asyncio
import socket
from dataclasses import dataclass

from zeroconf import InterfaceChoice, IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

SERVICE_TYPE = "_meeple._tcp.local."
"""The service type ``meeple serve --lan`` announces."""


@dataclass(frozen=True, slots=True)
class LanServer:
    """A server found on the network: its announced name and where to reach it."""

    name: str
    address: str
    port: int

    @property
    def base_url(self) -> str:
        return f"http://{self.address}:{self.port}"


async def discover(seconds: float = 3.0, interfaces: list[str] | None = None) -> list[LanServer]:
    """The servers that answer within ``seconds``, by name."""
    zeroconf = AsyncZeroconf(
        interfaces=interfaces if interfaces is not None else InterfaceChoice.All,
        ip_version=IPVersion.V4Only,
    )
    names: set[str] = set()

    def changed(
        zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        if state_change is not ServiceStateChange.Removed:
            names.add(name)

    browser = AsyncServiceBrowser(zeroconf.zeroconf, SERVICE_TYPE, handlers=[changed])
    try:
        await asyncio.sleep(seconds)
        found: list[LanServer] = []
        for name in sorted(names):
            info = AsyncServiceInfo(SERVICE_TYPE, name)
            if not await info.async_request(zeroconf.zeroconf, 3000) or info.port is None:
                continue
            for packed in info.addresses:
                label = name.removesuffix("." + SERVICE_TYPE)
                found.append(LanServer(label, socket.inet_ntoa(packed), info.port))
        return found
    finally:
        await browser.async_cancel()
        await zeroconf.async_close()
