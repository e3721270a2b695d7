"""One router per resource: accounts, games, matches, and the match WebSocket."""
