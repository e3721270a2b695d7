"""The Wi-Fi room: a server on the local network announces itself over mDNS (DNS-SD).

``meeple serve --lan`` registers a ``_meeple._tcp.local.`` service named after the server,
with its port and version; ``meeple lan`` (through :mod:`meeple.client.lan`) browses for them
and lists each server's open rooms. python-zeroconf does the multicast DNS.
"""

from __future__ import annotations

import socket

import ifaddr
from zeroconf import IPVersion, ServiceInfo
from zeroconf.asyncio import AsyncZeroconf

SERVICE_TYPE = "_meeple._tcp.local."


def lan_addresses(host: str) -> list[str]:
    """The IPv4 addresses to announce: the bound one, or every non-loopback one for 0.0.0.0."""
    if host not in ("0.0.0.0", ""):
        return [socket.gethostbyname(host)]
    found = [
        str(ip.ip)
        for adapter in ifaddr.get_adapters()
        for ip in adapter.ips
        if ip.is_IPv4 and not str(ip.ip).startswith("127.")
    ]
    return found or ["127.0.0.1"]


class Announcer:
    """Registers the server's mDNS service on start and withdraws it on stop."""

    def __init__(
        self, name: str, host: str, port: int, interfaces: list[str] | None = None
    ) -> None:
        self.addresses = lan_addresses(host)
        label = name.replace(".", " ")[:60]
        self.info = ServiceInfo(
            SERVICE_TYPE,
            f"{label}.{SERVICE_TYPE}",
            addresses=[socket.inet_aton(address) for address in self.addresses],
            port=port,
            properties={"path": "/", "api": "/api", "version": "1"},
            server=f"meeple-{port}-{socket.gethostname()[:20]}.local.",
        )
        self._zeroconf = AsyncZeroconf(
            interfaces=interfaces or self.addresses, ip_version=IPVersion.V4Only
        )

    async def start(self) -> None:
        await self._zeroconf.async_register_service(self.info, allow_name_change=True)

    async def stop(self) -> None:
        await self._zeroconf.async_unregister_service(self.info)
        await self._zeroconf.async_close()
