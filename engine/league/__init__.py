"""Leagues and organised-play events: pure, synchronous and game-agnostic.

`event` holds the data and its life (sign-up, locked builds, drops, late joins),
`rounds` pairs and publishes rounds (`pairing` is the Swiss algorithm), `results` takes
reports and rulings, `standings` scores, ranks and exports. See docs/leagues.md.
"""
