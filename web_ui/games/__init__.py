"""The games' own pages, one package per game: `web_ui/games/<game>/` (a `GamePages`, templates, static files)."""
