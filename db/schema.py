"""The schema as a list of forward-only migrations, keyed by the schema version (SQLite's
`PRAGMA user_version`, PostgreSQL's `schema_version` row).

They are written once, in SQLite's dialect; db.postgres_backend gives them PostgreSQL's
types.

Migration N (1-based) takes a database at version N-1 to version N. Never edit a
migration that has shipped: add a new one at the end.
"""

MIGRATIONS: list[str] = [
    # 1: games, their seats and the command log
    """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY,
        ruleset     TEXT    NOT NULL,
        guild_id    INTEGER,
        channel_id  INTEGER,
        thread_id   INTEGER,
        created_by  INTEGER,
        status      TEXT    NOT NULL DEFAULT 'lobby'
                    CHECK (status IN ('lobby', 'active', 'over', 'aborted')),
        version     INTEGER NOT NULL DEFAULT 0,
        config      TEXT    NOT NULL,
        seed        INTEGER NOT NULL,
        state       TEXT,
        result      TEXT,
        created_at  REAL    NOT NULL,
        updated_at  REAL    NOT NULL
    );
    CREATE UNIQUE INDEX games_live_in_place ON games (channel_id, IFNULL(thread_id, 0))
        WHERE status IN ('lobby', 'active') AND channel_id IS NOT NULL;
    CREATE TABLE seats (
        game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat      TEXT    NOT NULL,
        user_id   INTEGER NOT NULL,
        name      TEXT    NOT NULL,
        options   TEXT    NOT NULL DEFAULT '{}',
        joined_at REAL    NOT NULL,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id)
    );
    CREATE INDEX seats_by_user ON seats (user_id);
    CREATE TABLE log (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq     INTEGER NOT NULL,
        seat    TEXT,
        user_id INTEGER,
        command TEXT    NOT NULL,
        events  TEXT    NOT NULL,
        at      REAL    NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    """,
    # 2: per-guild and per-user settings (values are JSON)
    """
    CREATE TABLE guild_settings (
        guild_id INTEGER NOT NULL,
        key      TEXT    NOT NULL,
        value    TEXT    NOT NULL,
        PRIMARY KEY (guild_id, key)
    ) WITHOUT ROWID;
    CREATE TABLE user_settings (
        user_id INTEGER NOT NULL,
        key     TEXT    NOT NULL,
        value   TEXT    NOT NULL,
        PRIMARY KEY (user_id, key)
    ) WITHOUT ROWID;
    """,
    # 3: async-turn bookkeeping: who is awaited since when, deadlines, reminders
    """
    ALTER TABLE games ADD COLUMN turn_limit REAL;
    ALTER TABLE games ADD COLUMN remind_after REAL;
    CREATE TABLE awaited (
        game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat     TEXT    NOT NULL,
        since    REAL    NOT NULL,
        deadline REAL,
        PRIMARY KEY (game_id, seat),
        FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat) ON DELETE CASCADE
    ) WITHOUT ROWID;
    CREATE TABLE reminders (
        id      INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL,
        seat    TEXT    NOT NULL,
        kind    TEXT    NOT NULL,
        due     REAL    NOT NULL,
        sent_at REAL,
        FOREIGN KEY (game_id, seat) REFERENCES awaited (game_id, seat) ON DELETE CASCADE
    );
    CREATE INDEX reminders_unsent ON reminders (due) WHERE sent_at IS NULL;
    CREATE INDEX reminders_by_wait ON reminders (game_id, seat);
    """,
    # 4: leagues and organised-play events (state is the league engine's JSON), the bot
    # games linked to their pairings, and a thread per pairing in season leagues
    """
    CREATE TABLE league_events (
        id         INTEGER PRIMARY KEY,
        guild_id   INTEGER NOT NULL,
        channel_id INTEGER,
        name       TEXT    NOT NULL,
        status     TEXT    NOT NULL,
        version    INTEGER NOT NULL DEFAULT 0,
        state      TEXT    NOT NULL,
        next_due   REAL,
        created_by INTEGER,
        created_at REAL    NOT NULL,
        updated_at REAL    NOT NULL
    );
    CREATE INDEX league_events_by_guild ON league_events (guild_id, status);
    CREATE INDEX league_events_due ON league_events (next_due) WHERE next_due IS NOT NULL;
    CREATE TABLE league_games (
        game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        event_id INTEGER NOT NULL REFERENCES league_events (id) ON DELETE CASCADE
    );
    CREATE TABLE league_threads (
        event_id    INTEGER NOT NULL REFERENCES league_events (id) ON DELETE CASCADE,
        round       INTEGER NOT NULL,
        table_no    INTEGER NOT NULL,
        thread_id   INTEGER NOT NULL,
        reminded_at REAL,
        PRIMARY KEY (event_id, round, table_no)
    ) WITHOUT ROWID;
    """,
    # 5: reminders that could not be delivered: how often it was tried, and why it failed
    """
    ALTER TABLE reminders ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE reminders ADD COLUMN failure TEXT;
    """,
    # 6: auditable dice (a seal of each game's seed, revealed when it ends), ratings updated
    # once per finished game, and players' vacations (how far each wait's deadline moved)
    """
    CREATE TABLE dice_seals (
        game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        salt        TEXT    NOT NULL,
        digest      TEXT    NOT NULL,
        sealed_at   REAL    NOT NULL,
        revealed_at REAL
    );
    CREATE INDEX dice_seals_unrevealed ON dice_seals (game_id) WHERE revealed_at IS NULL;
    CREATE TABLE rated_games (
        game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        rated   INTEGER NOT NULL,
        reason  TEXT    NOT NULL,
        at      REAL    NOT NULL
    );
    CREATE TABLE ratings (
        guild_id   INTEGER NOT NULL,
        user_id    INTEGER NOT NULL,
        mu         REAL    NOT NULL,
        sigma      REAL    NOT NULL,
        games      INTEGER NOT NULL DEFAULT 0,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    ) WITHOUT ROWID;
    CREATE TABLE rating_changes (
        game_id      INTEGER NOT NULL REFERENCES rated_games (game_id) ON DELETE CASCADE,
        user_id      INTEGER NOT NULL,
        mu_before    REAL    NOT NULL,
        sigma_before REAL    NOT NULL,
        mu_after     REAL    NOT NULL,
        sigma_after  REAL    NOT NULL,
        PRIMARY KEY (game_id, user_id)
    ) WITHOUT ROWID;
    CREATE TABLE vacations (
        user_id INTEGER NOT NULL,
        starts  REAL    NOT NULL,
        ends    REAL    NOT NULL,
        PRIMARY KEY (user_id, starts)
    ) WITHOUT ROWID;
    ALTER TABLE awaited ADD COLUMN vacation_shift REAL NOT NULL DEFAULT 0;
    """,
    # 7: ratings as an ordered history of rated results (bot games and event results) that
    # can be re-rated from any point, rating seasons, and how far each event was taken in.
    # Ratings so far are rebuilt from their games by the next settling, in the same order to the
    # same numbers, except that a bot game played for an event's pairing now counts through the
    # event's result instead (ruling L34).
    """
    DROP TABLE rating_changes;
    DELETE FROM ratings;
    DELETE FROM rated_games WHERE rated = 1;
    ALTER TABLE ratings ADD COLUMN season INTEGER NOT NULL DEFAULT 1;
    CREATE TABLE rating_results (
        id       INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        source   TEXT    NOT NULL,
        at       REAL    NOT NULL,
        sides    TEXT    NOT NULL,
        places   TEXT    NOT NULL,
        UNIQUE (guild_id, source)
    );
    CREATE INDEX rating_results_in_order ON rating_results (guild_id, at, source);
    CREATE TABLE rating_entries (
        result_id    INTEGER NOT NULL REFERENCES rating_results (id) ON DELETE CASCADE,
        user_id      INTEGER NOT NULL,
        mu_before    REAL    NOT NULL,
        sigma_before REAL    NOT NULL,
        mu_after     REAL    NOT NULL,
        sigma_after  REAL    NOT NULL,
        season       INTEGER NOT NULL,
        PRIMARY KEY (result_id, user_id)
    ) WITHOUT ROWID;
    CREATE INDEX rating_entries_by_user ON rating_entries (user_id);
    CREATE TABLE rating_seasons (
        guild_id   INTEGER NOT NULL,
        number     INTEGER NOT NULL,
        name       TEXT    NOT NULL,
        starts     REAL    NOT NULL,
        started_by INTEGER,
        PRIMARY KEY (guild_id, number)
    ) WITHOUT ROWID;
    CREATE TABLE rated_events (
        event_id INTEGER PRIMARY KEY REFERENCES league_events (id) ON DELETE CASCADE,
        version  INTEGER NOT NULL
    );
    """,
    # 8: Renegades campaigns (state is the campaign engine's JSON), their players, their
    # command log (a mission's end names the game it came from), and each mission's game
    # marked with its campaign
    """
    CREATE TABLE campaigns (
        id         INTEGER PRIMARY KEY,
        guild_id   INTEGER,
        channel_id INTEGER,
        thread_id  INTEGER,
        created_by INTEGER,
        status     TEXT    NOT NULL DEFAULT 'active'
                   CHECK (status IN ('active', 'over', 'abandoned')),
        version    INTEGER NOT NULL DEFAULT 0,
        config     TEXT    NOT NULL,
        seed       INTEGER NOT NULL,
        state      TEXT    NOT NULL,
        created_at REAL    NOT NULL,
        updated_at REAL    NOT NULL
    );
    CREATE INDEX campaigns_by_place ON campaigns (channel_id, thread_id, status);
    CREATE TABLE campaign_seats (
        campaign_id INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
        seat        TEXT    NOT NULL,
        user_id     INTEGER NOT NULL,
        name        TEXT    NOT NULL,
        PRIMARY KEY (campaign_id, seat),
        UNIQUE (campaign_id, user_id)
    ) WITHOUT ROWID;
    CREATE INDEX campaign_seats_by_user ON campaign_seats (user_id);
    CREATE TABLE campaign_log (
        campaign_id INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
        seq         INTEGER NOT NULL,
        seat        TEXT,
        user_id     INTEGER,
        command     TEXT    NOT NULL,
        game_id     INTEGER REFERENCES games (id),
        events      TEXT    NOT NULL,
        at          REAL    NOT NULL,
        PRIMARY KEY (campaign_id, seq)
    ) WITHOUT ROWID;
    ALTER TABLE games ADD COLUMN campaign_id INTEGER REFERENCES campaigns (id);
    CREATE INDEX games_by_campaign ON games (campaign_id) WHERE campaign_id IS NOT NULL;
    """,
    # 9: leases, so that of several processes sharing one database a single one runs
    # each clock (reminders, league rounds) at a time
    """
    CREATE TABLE leases (
        name    TEXT NOT NULL PRIMARY KEY,
        holder  TEXT NOT NULL,
        expires REAL NOT NULL
    );
    """,
    # 10: the person who left a running game's seat to the computer (R61), so that the
    # game still counts for them: rated as a loss, shown in their profile (P10)
    """
    ALTER TABLE seats ADD COLUMN left_by INTEGER;
    CREATE INDEX seats_by_leaver ON seats (left_by) WHERE left_by IS NOT NULL;
    """,
    # 11: reminder ids are never used twice. SQLite gave a new reminder the id of one just
    # deleted with its wait, so the reminder loop, marking the deadline it had handled as
    # sent, marked the next decision's new deadline instead and the game stalled (issue 29
    # item 1). AUTOINCREMENT (PostgreSQL: the identity column it already had) never reuses
    # an id; the rows keep theirs.
    """
    CREATE TABLE reminders_once (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id  INTEGER NOT NULL,
        seat     TEXT    NOT NULL,
        kind     TEXT    NOT NULL,
        due      REAL    NOT NULL,
        sent_at  REAL,
        attempts INTEGER NOT NULL DEFAULT 0,
        failure  TEXT,
        FOREIGN KEY (game_id, seat) REFERENCES awaited (game_id, seat) ON DELETE CASCADE
    );
    INSERT INTO reminders_once (id, game_id, seat, kind, due, sent_at, attempts, failure)
        SELECT id, game_id, seat, kind, due, sent_at, attempts, failure FROM reminders;
    DROP TABLE reminders;
    ALTER TABLE reminders_once RENAME TO reminders;
    CREATE INDEX reminders_unsent ON reminders (due) WHERE sent_at IS NULL;
    CREATE INDEX reminders_by_wait ON reminders (game_id, seat);
    """,
    # 12: calls at most every N hours (issue 25 item 4, rulings P24-P27): per player how
    # often they may be called, where (a channel; none: by DM) and when the last call went out
    """
    CREATE TABLE calls (
        user_id    INTEGER NOT NULL PRIMARY KEY,
        every      REAL    NOT NULL,
        channel_id INTEGER,
        last_call  REAL
    );
    """,
    # 13: a game's stamp counts the changes made to it beside its moves (a seat handed to
    # the computer, a deadline moved); a game write is refused unless
    # the game still has the stamp the writer read, so a process whose copy of the game in
    # memory missed such a change finds out at its next write (issue: defects across processes)
    """
    ALTER TABLE games ADD COLUMN stamp INTEGER NOT NULL DEFAULT 0;
    """,
]

LATEST = len(MIGRATIONS)
