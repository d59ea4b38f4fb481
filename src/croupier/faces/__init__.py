"""Faces beside the command line, the server and the web pages: the terminal table, the
typed API client, the bots, the seeded tour (``croupier demo``)."""
