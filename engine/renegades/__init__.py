"""Renegades: ships in orbit, landing parties on a planet, NPCs that play themselves."""
