"""The client's address, taking the proxy's header only from proxies we configured.

Behind nginx every request comes from the proxy, so per-address limits (allauth's, axes', ours)
would be shared by everyone; and a header anybody can send must not be believed either. This
middleware, first in the chain, replaces ``REMOTE_ADDR`` with the address the trusted proxies
report, so everything after it sees the real client.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable
from functools import lru_cache
from typing import Any

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import sync_and_async_middleware

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(proxy.strip(), strict=False) for proxy in proxies if proxy.strip())


def _parse(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(address.strip())
    except ValueError:
        return None


def _trusted(address: Any, networks: tuple[Network, ...]) -> bool:
    return address is not None and any(address in network for network in networks)


def client_address(remote_addr: str, forwarded: str, proxies: tuple[str, ...]) -> str:
    """The nearest address in ``forwarded`` not of a trusted proxy, if the peer is trusted."""
    networks = _networks(proxies)
    if not forwarded or not _trusted(_parse(remote_addr), networks):
        return remote_addr
    for hop in reversed(forwarded.split(",")):
        address = _parse(hop)
        if address is None:
            return remote_addr  # a garbled chain: believe none of it
        if not _trusted(address, networks):
            return str(address)
    return remote_addr


def resolve(request: HttpRequest) -> None:
    meta_key = "HTTP_" + settings.PROXY_CLIENT_HEADER.upper().replace("-", "_")
    remote = request.META.get("REMOTE_ADDR", "")
    request.META["REMOTE_ADDR"] = client_address(remote, request.META.get(meta_key, ""), settings.TRUSTED_PROXIES)


def client_ip(request: HttpRequest) -> str:
    """For ``AXES_CLIENT_IP_CALLABLE``: the address this middleware settled on."""
    return request.META.get("REMOTE_ADDR", "")


@sync_and_async_middleware
def trusted_proxy_middleware(
    get_response: Callable[[HttpRequest], Any],
) -> Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]]:
    if iscoroutinefunction(get_response):

        async def async_middleware(request: HttpRequest) -> HttpResponse:
            resolve(request)
            return await get_response(request)

        return async_middleware

    def middleware(request: HttpRequest) -> HttpResponse:
        resolve(request)
        return get_response(request)

    return middleware
