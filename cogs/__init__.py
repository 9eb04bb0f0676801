"""The Discord front door: thin cogs over the game service, and the persistent game buttons."""
