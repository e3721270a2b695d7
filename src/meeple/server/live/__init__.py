"""Live play: the match master, the live matches, presence, the protocol messages, each
socket's outbox and the bot runner."""
