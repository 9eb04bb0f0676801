"""Game play: the round's order of play, the surface phase's order, bounties."""
