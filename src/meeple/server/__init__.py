"""The platform server: accounts, matches, the authoritative match master, over HTTP and WebSockets.

Build it with :func:`meeple.server.http.app.create_app` and a
:class:`meeple.server.settings.Settings`;
``meeple serve`` does both. This package imports ``meeple.core``, ``meeple.games`` and
``meeple.ai``; nothing below imports it.
"""
