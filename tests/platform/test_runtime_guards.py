"""Every third-party internal that games/runtime leans on, checked against the installed library.

games/runtime patches or reads private members of the libraries below (games/runtime/README.md
lists each patch). For each library the installed version must be the one requirements.txt pins:
an upgrade must come with a look at its patches. Each member a patch reads or replaces must still
exist, in the shape the patch expects. A failure names the patch to look at before a pin moves.
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
import threading
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

# No database fixture, but the channel layer, the broker or a database connection: CI's backends pass runs it.
pytestmark = pytest.mark.backends

REQUIREMENTS = Path(__file__).resolve().parents[2] / "requirements.txt"

# The libraries whose internals games/runtime leans on (distribution names).
PATCHED = (
    "django",
    "channels",
    "channels-redis",
    "daphne",
    "autobahn",
    "twisted",
    "psycopg",
    "asgiref",
    "django-allauth",
)


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins() -> dict[str, str]:
    """``requirements.txt``'s pins, by canonical distribution name (extras dropped)."""
    pinned = {}
    for line in REQUIREMENTS.read_text().splitlines():
        requirement = line.split("#", 1)[0].strip()
        if "==" in requirement:
            name, pin = requirement.split("==", 1)
            pinned[_canonical(name.split("[", 1)[0])] = pin.strip()
    return pinned


def parameters(function: Callable[..., Any]) -> list[str]:
    return list(inspect.signature(function).parameters)


def sets(owner: Any, *attributes: str) -> list[str]:
    """Those of ``attributes`` that ``owner``'s source (a class or a function) never assigns on ``self``."""
    source = inspect.getsource(owner)
    return [name for name in attributes if not re.search(rf"self\.{name}\s*(:[^=\n]*)?=[^=]", source)]


def reads(function: Callable[..., Any], *names: str) -> list[str]:
    """Those of ``names`` that ``function``'s source never mentions."""
    source = inspect.getsource(function)
    return [name for name in names if name not in source]


@pytest.mark.parametrize("package", PATCHED)
def test_the_installed_version_of_a_patched_library_is_the_pinned_one(package: str) -> None:
    pinned = pins().get(package)
    assert pinned is not None, f"games/runtime patches {package}: requirements.txt must pin it"
    assert version(package) == pinned, (
        f"{package} {version(package)} is installed, {pinned} is pinned: check its patches "
        "(games/runtime/README.md) against the new version, then move the pin"
    )


# --- Django -------------------------------------------------------------------------------------


def test_django_translate_nodes_are_as_the_template_fast_paths_read_them() -> None:
    """games.runtime.template_fast_paths replaces TranslateNode.render and BlockTranslateNode.render."""
    from django.templatetags.i18n import BlockTranslateNode, TranslateNode

    from games.runtime import template_fast_paths  # Django's own renders, kept under the ones installed

    assert parameters(TranslateNode.__init__) == ["self", "filter_expression", "noop", "asvar", "message_context"]
    assert sets(TranslateNode.__init__, "noop", "asvar", "message_context", "filter_expression") == []
    assert parameters(template_fast_paths._django_render) == ["self", "context"]
    assert parameters(BlockTranslateNode.__init__) == [
        "self",
        "extra_context",
        "singular",
        "plural",
        "countervar",
        "counter",
        "message_context",
        "trimmed",
        "asvar",
        "tag_name",
    ]
    assert parameters(template_fast_paths._django_block_render) == ["self", "context", "nested"]
    assert parameters(BlockTranslateNode.render_token_list) == ["self", "tokens"]


def test_django_renders_a_value_through_the_module_function_the_fast_path_replaces() -> None:
    """``VariableNode.render`` finds ``render_value_in_context`` in its module's globals, where
    games.runtime.template_fast_paths puts its own."""
    from django.template import base

    from games.runtime import template_fast_paths

    assert parameters(template_fast_paths._django_value) == ["value", "context"]
    assert "render_value_in_context" in base.VariableNode.render.__code__.co_names


def test_django_binds_a_template_context_by_the_steps_a_kept_board_takes() -> None:
    """games.runtime.template_contexts binds a context as the backend's Template.render does."""
    from django.template.backends.django import Template as BackendTemplate
    from django.template.context import Context, RenderContext, make_context

    assert parameters(make_context) == ["context", "request", "kwargs"]
    assert parameters(RenderContext.push_state) == ["self", "template", "isolated_context"]
    assert parameters(Context.bind_template) == ["self", "template"]
    assert reads(BackendTemplate.render, "make_context", "self.template.render", "autoescape") == []
    assert sets(BackendTemplate.__init__, "template", "backend") == []


def test_django_caches_a_related_object_where_the_seat_rows_put_it() -> None:
    """games.runtime.related_cache writes ``_state.fields_cache[name]``: a seat's user and a user's
    profile are then read from it without a query (unsaved instances here: none could be found)."""
    from django.contrib.auth import get_user_model
    from django.db.models.base import ModelState

    from games.models import Profile, Seat
    from games.runtime.related_cache import set_related

    assert hasattr(ModelState, "fields_cache")
    seat, user, profile = Seat(), get_user_model()(), Profile()
    set_related(seat, "user", user)
    set_related(user, "profile", profile)
    assert seat.user is user and user.profile is profile


def test_djangos_redis_cache_keeps_its_client_where_the_shared_one_replaces_it() -> None:
    """games.runtime.redis_cache replaces ``RedisCache._cache`` and reads the settings it keeps."""
    from django.core.cache.backends.redis import RedisCache
    from django.utils.functional import cached_property

    assert isinstance(RedisCache.__dict__["_cache"], cached_property)
    cache = RedisCache("redis://127.0.0.1:6379/0", {})  # connects to nothing until used
    assert cache._servers == ["redis://127.0.0.1:6379/0"]  # type: ignore[attr-defined]
    assert cache._options == {}  # type: ignore[attr-defined]
    assert callable(cache._class)  # type: ignore[attr-defined]


# --- Channels and channels_redis ----------------------------------------------------------------


def test_channels_consumer_call_sets_what_the_match_consumer_sets() -> None:
    """games.sockets.consumers' ``__call__`` is Channels' own with games.runtime.channels_dispatch in
    place of ``await_many_dispatch``: Channels' must set nothing more, and dispatch as before."""
    from channels.consumer import AsyncConsumer
    from channels.utils import await_many_dispatch

    tree = ast.parse(textwrap.dedent(inspect.getsource(AsyncConsumer.__call__)))
    assigned = {
        target.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"
    }
    assert assigned == {"scope", "channel_layer", "channel_name", "channel_receive", "base_send"}
    assert reads(AsyncConsumer.__call__, "await_many_dispatch", "StopConsumer", "self.dispatch") == []
    assert parameters(await_many_dispatch) == ["consumer_callables", "dispatch"]


def test_channels_redis_pubsub_layer_is_as_the_channel_layer_extends_it() -> None:
    """games.runtime.channel_layer subclasses the layer, its loop layer and its shard connection."""
    from channels_redis import utils  # type: ignore[import-untyped]
    from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection  # type: ignore[import-untyped]

    assert sets(RedisPubSubChannelLayer.__init__, "_args", "_kwargs", "_layers") == []
    assert reads(RedisPubSubChannelLayer._get_layer, "self._layers", "RedisPubSubLoopLayer(", "_wrap_close") == []
    assert parameters(RedisPubSubChannelLayer.deserialize) == ["self", "message"]
    assert parameters(RedisPubSubChannelLayer.serialize) == ["self", "message"]
    assert parameters(RedisPubSubLoopLayer.__init__) == [
        "self",
        "hosts",
        "prefix",
        "on_disconnect",
        "on_reconnect",
        "channel_layer",
        "kwargs",
    ]
    assert sets(RedisPubSubLoopLayer, "_shards", "groups", "channels", "channel_layer") == []
    assert parameters(RedisPubSubLoopLayer._get_group_channel_name) == ["self", "group"]
    assert parameters(RedisPubSubLoopLayer._get_shard) == ["self", "channel_or_group_name"]
    assert parameters(RedisSingleShardConnection.__init__) == ["self", "host", "channel_layer"]
    assert sets(RedisSingleShardConnection, "_lock", "_redis", "_pubsub", "_subscribed_to", "channel_layer") == []
    for method, wanted in (
        ("publish", ["self", "channel", "message"]),
        ("subscribe", ["self", "channel"]),
        ("unsubscribe", ["self", "channel"]),
        ("_ensure_redis", ["self"]),
        ("_ensure_receiver", ["self"]),
        ("_receive_message", ["self", "message"]),
        ("_do_receiving", ["self"]),
    ):
        assert parameters(getattr(RedisSingleShardConnection, method)) == wanted, method
    # The shard's receiving loop (overridden: it tells the sockets when Redis is back) is the task it starts.
    assert reads(RedisSingleShardConnection._ensure_receiver, "self._do_receiving()") == []
    assert parameters(utils._wrap_close) == ["proxy", "loop"]
    assert parameters(utils.decode_hosts) == ["hosts"]


# --- daphne, autobahn, Twisted (games.runtime.wscompress) ---------------------------------------


def test_daphne_builds_its_websocket_factory_from_the_name_wscompress_replaces() -> None:
    import daphne.server
    from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol

    assert "WebSocketFactory" in daphne.server.Server.run.__code__.co_names
    assert issubclass(daphne.server.WebSocketFactory, WebSocketFactory)
    assert parameters(WebSocketFactory.__init__) == ["self", "server_class", "args", "kwargs"]
    assert parameters(WebSocketProtocol.handle_reply) == ["self", "message"]


def test_autobahn_deflates_and_sends_as_wscompress_extends_it() -> None:
    from autobahn.twisted.websocket import WebSocketServerFactory
    from autobahn.websocket.compress import PERMESSAGE_COMPRESSION_EXTENSION, PerMessageDeflate
    from autobahn.websocket.protocol import WebSocketProtocol

    assert "PMCE" in PERMESSAGE_COMPRESSION_EXTENSION[PerMessageDeflate.EXTENSION_NAME]
    assert parameters(PerMessageDeflate.__init__) == [
        "self",
        "is_server",
        "server_no_context_takeover",
        "client_no_context_takeover",
        "server_max_window_bits",
        "client_max_window_bits",
        "mem_level",
        "max_message_size",
    ]
    assert sets(PerMessageDeflate, "_is_server", "_compressor", "server_no_context_takeover") == []
    assert sets(PerMessageDeflate, "server_max_window_bits", "mem_level") == []
    for method, wanted in (
        ("start_compress_message", ["self"]),
        ("compress_message_data", ["self", "data"]),
        ("end_compress_message", ["self"]),
    ):
        assert parameters(getattr(PerMessageDeflate, method)) == wanted, method
    assert parameters(WebSocketProtocol.sendData) == ["self", "data", "sync", "chopsize"]
    assert parameters(WebSocketProtocol.sendMessage) == [
        "self",
        "payload",
        "isBinary",
        "fragmentSize",
        "sync",
        "doNotCompress",
    ]
    assert sets(WebSocketProtocol, "send_queue", "trafficStats", "state") == []
    assert callable(WebSocketProtocol.logTxOctets) and "logOctets" in WebSocketProtocol.CONFIG_ATTRS_COMMON
    assert {"STATE_OPEN", "STATE_CONNECTING", "STATE_PROXY_CONNECTING"} <= set(dir(WebSocketProtocol))
    assert "perMessageCompressionAccept" in parameters(WebSocketServerFactory.setProtocolOptions)


def test_twisted_tcp_connection_keeps_its_write_buffer_where_wscompress_reads_it() -> None:
    """``wscompress._idle`` reads a connection's buffer and state to send a frame at once."""
    from twisted.internet import abstract, tcp

    for name in ("connected", "disconnecting", "_writeDisconnected", "TLS", "offset", "dataBuffer", "socket"):
        assert hasattr(tcp.Connection, name) or not sets(tcp.Connection, name), name
    assert sets(abstract.FileDescriptor, "_tempDataLen", "dataBuffer", "offset") == []


# --- psycopg, asgiref, allauth ------------------------------------------------------------------


def test_psycopg_cursor_executes_by_the_generator_the_guarded_write_drives() -> None:
    """games.runtime.psycopg_cursor drives ``Cursor._execute_gen`` itself, under the connection's lock."""
    import psycopg

    assert parameters(psycopg.Cursor._execute_gen) == ["self", "query", "params", "prepare", "binary"]
    assert reads(psycopg.Cursor.execute, "self._execute_gen(", "self._conn.wait(") == []
    assert parameters(psycopg.Connection.wait) == ["self", "gen", "interval", "timeout"]
    assert sets(psycopg.Connection.__init__, "lock") == []


def test_asgiref_async_to_sync_finds_its_loop_where_the_writer_threads_put_it() -> None:
    from asgiref.sync import AsyncToSync, SyncToAsync

    assert isinstance(SyncToAsync.threadlocal, threading.local)
    assert reads(AsyncToSync.__call__, "SyncToAsync.threadlocal", '"main_event_loop"', '"main_event_loop_pid"') == []


def test_allauth_keys_failed_logins_by_the_method_the_adapter_overrides() -> None:
    """games.runtime.allauth_login_attempts overrides it: if allauth stopped calling it, failed
    log-ins would be counted per login alone again, and anyone could lock a player out."""
    from allauth.account.adapter import DefaultAccountAdapter

    assert parameters(DefaultAccountAdapter._get_login_attempts_cache_key) == ["self", "request", "credentials"]
    assert reads(DefaultAccountAdapter.pre_authenticate, "self._get_login_attempts_cache_key(") == []


def test_daphne_and_autobahn_close_as_wscompress_sends_a_restart_code() -> None:
    """wscompress's ``serverClose`` sends 1012 (a stopping daphne, issue 54 item 27) with autobahn's
    ``sendCloseFrame``, past its ``sendClose``, which refuses every code but 1000 and 3000-4999."""
    from autobahn.websocket.protocol import WebSocketProtocol
    from daphne.ws_protocol import WebSocketProtocol as DaphneProtocol

    assert parameters(WebSocketProtocol.sendCloseFrame) == ["self", "code", "reasonUtf8", "isReply"]
    assert parameters(DaphneProtocol.serverClose) == ["self", "code"]
