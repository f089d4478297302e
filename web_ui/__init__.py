"""Flask app: pages, JSON API, live stream. No game logic here."""
