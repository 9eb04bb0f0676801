"""The planet surface: landing parties, crew combat, gear, NPC figures and the mission's end."""
