"""The web server: an authority around the rules, and the game page it serves."""
