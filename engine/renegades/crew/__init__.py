"""Crewmembers: the pieces on ship and surface, skill tests, hands and special abilities."""
