"""Game contents: the content pack, the boards, the game state and the game in hand."""
