"""The server's settings, read from ``MEEPLE_*`` environment variables or given in code.

Nothing is built from them at import time: :func:`meeple.server.http.app.create_app` takes a
:class:`Settings` and builds the database engine, the bot runner and the matches from it.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


def default_data_dir() -> Path:
    """Where the embedded database lives: ``$XDG_DATA_HOME/meeple`` or ``~/.local/share/meeple``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "meeple"


class Settings(BaseSettings):
    """Everything the server can be told. Each field also reads ``MEEPLE_<NAME>``."""

    model_config = SettingsConfigDict(env_prefix="MEEPLE_", extra="forbid")

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    data_dir: Path = Field(default_factory=default_data_dir)
    database_url: str | None = Field(
        default=None,
        description="SQLAlchemy async URL; default sqlite+aiosqlite:///<data_dir>/meeple.db",
    )
    token_days: float = Field(default=30.0, gt=0, description="How long a login token lasts.")
    cookie_name: str = "meeple_session"
    cookie_secure: bool = False
    max_message_bytes: int = Field(
        default=16 * 1024,
        ge=256,
        description="The longest WebSocket message a client may send (uvicorn's ws_max_size): "
        "a longer one closes the socket with 1009.",
    )
    bot_workers: int = Field(
        default_factory=lambda: max(1, (os.cpu_count() or 2) - 1),
        ge=0,
        description="Bot processes (default: one fewer than the cores, at least one: the "
        "event loop keeps a core); 0 runs bots on a thread (tests, tiny hosts).",
    )
    bot_move_seconds: float = Field(
        default=1.0, gt=0, description="The most time a searching bot spends on one decision."
    )
    grace_seconds: float = Field(
        default=60.0,
        gt=0,
        description="In a timed match, how long a disconnected player's seat waits before a "
        "bot plays it (until the player returns). Scaled by clock_scale.",
    )
    # -- WebSockets (docs/security.md, "Slow readers" and "WebSocket frames")
    frames_per_second: float = Field(
        default=20.0,
        gt=0,
        description="WebSocket frames (of every kind) one connection may send, on average.",
    )
    frame_burst: int = Field(
        default=40,
        ge=1,
        description="... and at once. A message past that is refused (message/flood); "
        "this many frames further the socket is closed with 1008.",
    )
    outbox_frames: int = Field(
        default=64, ge=1, description="Frames that may wait for one slow client (then 4408)."
    )
    outbox_bytes: int = Field(
        default=1 << 20, ge=1024, description="Bytes that may wait for one slow client (then 4408)."
    )
    socket_send_buffer: int = Field(
        default=64 * 1024,
        ge=4096,
        description="The kernel's send buffer of a WebSocket connection (SO_SNDBUF), in bytes.",
    )
    socket_close_seconds: float = Field(
        default=5.0,
        gt=0,
        description="How long a closing socket waits for its client before the connection is cut.",
    )
    ping_seconds: float = Field(
        default=20.0, gt=0, description="How often the server pings each WebSocket client."
    )
    ping_timeout_seconds: float = Field(
        default=20.0, gt=0, description="How long a ping waits for its pong (then 1011)."
    )
    # -- abuse limits (meeple.server.http.ratelimit): over them a request gets 429 and Retry-After
    login_per_minute: float = Field(
        default=10.0, gt=0, description="Logins and registrations one client address may try."
    )
    login_burst: int = Field(default=20, ge=1, description="... and how many at once.")
    guests_per_minute: float = Field(
        default=30.0,
        gt=0,
        description="Guests one client address may create a minute (each is an account and a "
        "login; a club behind NAT shares one address).",
    )
    guests_burst: int = Field(default=60, ge=1, description="... and how many at once.")
    rooms_per_minute: float = Field(
        default=6.0, gt=0, description="Rooms one account may open a minute."
    )
    rooms_burst: int = Field(default=12, ge=1, description="... and how many at once.")
    rooms_per_address_per_minute: float = Field(
        default=30.0, gt=0, description="Rooms one client address may open (a club behind NAT)."
    )
    rooms_per_address_burst: int = Field(default=60, ge=1, description="... and how many at once.")
    solo_live: int = Field(
        default=10, ge=1, description="Solo matches one account may have in play at once."
    )
    solo_per_minute: float = Field(
        default=10.0, gt=0, description="Solo matches one account may start a minute."
    )
    solo_burst: int = Field(default=20, ge=1, description="... and how many at once.")
    hints_per_minute: float = Field(
        default=20.0, gt=0, description="Hints one account may ask for a minute."
    )
    hints_burst: int = Field(default=20, ge=1, description="... and how many at once.")
    analyses_per_minute: float = Field(
        default=4.0,
        gt=0,
        description="Win-probability lines (up to 25 positions each) one account may ask for "
        "a minute.",
    )
    analyses_burst: int = Field(default=8, ge=1, description="... and how many at once.")
    replays_per_minute: float = Field(
        default=10.0, gt=0, description="Record files one account may upload a minute."
    )
    replays_burst: int = Field(default=20, ge=1, description="... and how many at once.")
    join_codes_per_minute: float = Field(
        default=10.0, gt=0, description="Room codes one account may try a minute."
    )
    join_codes_burst: int = Field(default=20, ge=1, description="... and how many at once.")
    per_address_factor: float = Field(
        default=5.0,
        ge=1,
        description="The solo, hint, analysis, replay and room-code limits hold per client "
        "address too, at this many times one account's (a club behind NAT).",
    )
    stop_seconds: float = Field(
        default=3.0,
        gt=0,
        description="Stopping (SIGTERM), how long requests still open may finish before they "
        "are cancelled and the server closes its matches and bot workers.",
    )
    bot_queue: int = Field(
        default=32,
        ge=1,
        description="Bot jobs waiting for a worker past which new solo matches, hints and "
        "analyses are refused (503, Retry-After); live moves are always queued.",
    )
    bot_quick_workers: int = Field(
        default=1,
        ge=0,
        description="Bot processes of their own for the bots that do not search (random, "
        "greedy, heuristic: milliseconds a decision), so their decisions never wait behind "
        "a search; 0 sends them to the bot_workers with the searches.",
    )
    # -- end of the abuse limits
    # -- bounded HTTP and browser safety (meeple.server.http.guard, docs/security.md)
    max_body_bytes: int = Field(
        default=1 << 20, ge=1024, description="The largest request body (413 past it)."
    )
    max_replay_bytes: int = Field(
        default=1 << 20, ge=1024, description="The largest record POST /api/replays reads."
    )
    body_seconds: float = Field(
        default=30.0, gt=0, description="How long a request body may take to arrive (408)."
    )
    header_seconds: float = Field(
        default=10.0,
        gt=0,
        description="How long a request's headers may take to arrive, from the connection "
        "or the last answer on it (the connection is closed past it).",
    )
    keep_alive_seconds: float = Field(
        default=5.0, gt=0, description="How long an idle kept-alive connection stays open."
    )
    max_header_bytes: int = Field(
        default=16 * 1024, ge=1024, description="The most bytes of a request line and headers."
    )
    max_connections: int = Field(
        default=4096,
        ge=16,
        description="Open connections in all, WebSockets included (503 past it); kept "
        "256 below the open-file limit.",
    )
    max_connections_per_address: int = Field(
        default=256, ge=1, description="Open connections from one client address (503 past it)."
    )
    api_docs: bool = Field(
        default=False, description="Serve Swagger UI at /docs (it loads its script from a CDN)."
    )
    # -- end of bounded HTTP
    lan: bool = Field(default=False, description="Announce the server on the LAN (mDNS).")
    lan_name: str | None = Field(
        default=None, max_length=60, description="The name announced; default 'meeple on <host>'."
    )
    lan_interfaces: list[str] | None = Field(
        default=None, description="Addresses to announce on (default: the bound ones)."
    )
    clock_scale: float = Field(
        default=1.0,
        gt=0,
        le=1,
        description="Multiplies every turn timer (tests and demos run a 90 s timer in seconds).",
    )

    # The Daily and ranked (docs/security.md, "The Daily is fair", "Ranked is for accounts").
    daily_secret: str | None = Field(
        default=None,
        min_length=16,
        max_length=200,
        description="What each Daily's seed is derived from (never shown); unset, the server "
        "makes one once and keeps it in the database, so every worker and restart agree.",
    )
    ranked_pair_per_day: int = Field(
        default=3,
        ge=1,
        description="How many ranked matches the queue forms a UTC day with the same two "
        "accounts in them; past it, those two are not paired together again that day.",
    )

    # Many workers (docs/server.md, "Many workers").
    workers: int = Field(
        default=1,
        ge=1,
        le=64,
        description="Worker processes; more than one needs PostgreSQL and Redis.",
    )
    redis_url: str | None = Field(
        default=None,
        description="redis://host:port/db: with it, this process is one worker of many, "
        "masters the matches it claims and forwards the others' connections over Redis.",
    )
    claim_seconds: float = Field(
        default=1.0,
        gt=0,
        le=60,
        description="How often a worker looks for matches no worker masters (one whose "
        "worker died), and claims them.",
    )

    @model_validator(mode="after")
    def _workers_share_postgres_and_redis(self) -> Settings:
        if self.workers > 1 and not self.redis_url:
            raise ValueError(
                f"{self.workers} workers need --redis-url redis://... to reach each other"
            )
        if self.redis_url and not self.resolved_database_url().startswith("postgresql"):
            raise ValueError(
                "many workers share one PostgreSQL database: give "
                "--database-url postgresql+asyncpg://... (the embedded SQLite file serves "
                "one process)"
            )
        return self

    def resolved_database_url(self) -> str:
        """The database URL, defaulting to the embedded SQLite file in the data directory."""
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{self.data_dir / 'meeple.db'}"
