"""The modes of play built on live matches: rooms (custom and Wi-Fi), ranked, the Daily, and
the kinds of table each allows."""
