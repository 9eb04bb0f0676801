"""Campaigns: a series of missions, shore leave between them, energy on gear."""
