-- Version 1: the games, their event logs, dice secrets and snapshots.

-- One row per game: its head (seq and hash of the last record, kept in the
-- same transaction as every insert), and the lease of an exclusive writer.
CREATE TABLE skagerrak.games (
    game         text PRIMARY KEY CHECK (length(game) BETWEEN 1 AND 200),
    created      timestamptz NOT NULL DEFAULT now(),
    seq          bigint NOT NULL DEFAULT 0 CHECK (seq >= 0),
    head         text NOT NULL DEFAULT repeat('0', 64),
    writer       text,
    writer_until timestamptz
);

-- The records, the same fields and bytes as a line of events.jsonl. The
-- database itself refuses what could not be a record continuing the chain:
-- seq 1 starts from 64 zeros, every other record names the hash of the one
-- before it (the foreign key), one record per seq and one per prev (no
-- fork), and each record's hash is that of its own bytes.
CREATE TABLE skagerrak.events (
    game     text NOT NULL REFERENCES skagerrak.games (game),
    seq      bigint NOT NULL CHECK (seq >= 1),
    time     text NOT NULL,
    type     text NOT NULL,
    data     text NOT NULL,
    prev     text NOT NULL CHECK (prev ~ '^[0-9a-f]{64}$'),
    hash     text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
    prev_seq bigint GENERATED ALWAYS AS (nullif(seq - 1, 0)) STORED,
    CONSTRAINT events_one_per_seq PRIMARY KEY (game, seq),
    CONSTRAINT events_no_fork UNIQUE (game, prev),
    CONSTRAINT events_seq_hash UNIQUE (game, seq, hash),
    CONSTRAINT events_chain FOREIGN KEY (game, prev_seq, prev) REFERENCES skagerrak.events (game, seq, hash),
    CONSTRAINT events_genesis CHECK (seq > 1 OR prev = repeat('0', 64)),
    CONSTRAINT events_hash CHECK (hash = encode(sha256(decode(prev, 'hex') || convert_to(
        '{"seq":' || seq || ',"time":"' || time || '","type":"' || type || '","data":' || data || ',"prev":"' || prev || '"}',
        'UTF8')), 'hex'))
);

-- History is never rewritten: UPDATE, DELETE and TRUNCATE of a record, or
-- DELETE of a game, raise, whoever asks (the owner included); the grants
-- below give no role those privileges on the records either.
CREATE FUNCTION skagerrak.refuse_rewrite() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'skagerrak: % on %.% refused: the event log is append-only', TG_OP, TG_TABLE_SCHEMA, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$;
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON skagerrak.events
    FOR EACH ROW EXECUTE FUNCTION skagerrak.refuse_rewrite();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON skagerrak.events
    FOR EACH STATEMENT EXECUTE FUNCTION skagerrak.refuse_rewrite();
CREATE TRIGGER games_no_delete BEFORE DELETE ON skagerrak.games
    FOR EACH ROW EXECUTE FUNCTION skagerrak.refuse_rewrite();
CREATE TRIGGER games_no_truncate BEFORE TRUNCATE ON skagerrak.games
    FOR EACH STATEMENT EXECUTE FUNCTION skagerrak.refuse_rewrite();
REVOKE UPDATE, DELETE, TRUNCATE ON skagerrak.events FROM PUBLIC, CURRENT_USER;

-- Each game's dice secret, kept out of the log until the game ends. No
-- role but the owner (and the daemon's role, granted by migrate --grant)
-- may read it.
CREATE TABLE skagerrak.secrets (
    game   text PRIMARY KEY REFERENCES skagerrak.games (game),
    secret bytea NOT NULL CHECK (length(secret) = 32)
);
REVOKE ALL ON skagerrak.secrets FROM PUBLIC;

-- Snapshots: caches of a game at one record, never the truth.
CREATE TABLE skagerrak.snapshots (
    game  text PRIMARY KEY REFERENCES skagerrak.games (game),
    seq   bigint NOT NULL,
    body  bytea NOT NULL,
    saved timestamptz NOT NULL DEFAULT now()
);
