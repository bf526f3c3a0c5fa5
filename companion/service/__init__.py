"""The companion as a service: one owner of the Game, a SQLite store, a Flask dashboard with SSE."""
