-- Transparency log of commitments (docs/fairness.md §9, docs/decisions/0016-transparency-log.md):
-- leaves written with the game's own statements (pending: leaf_index NULL), integrated by one
-- sequencer at a time (advisory lock) that assigns consecutive indexes, stores the new perfect
-- subtree hashes and signs a tree head. Everything here is append-only (triggers below).

-- CreateTable
CREATE TABLE "transparency_log_leaves" (
    "id" BIGSERIAL NOT NULL,
    "game_id" UUID NOT NULL,
    "kind" SMALLINT NOT NULL,
    "event_version" INTEGER NOT NULL,
    "value" TEXT NOT NULL,
    "timestamp_ms" BIGINT NOT NULL,
    "leaf_index" BIGINT,
    "leaf_hash" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "transparency_log_leaves_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transparency_log_nodes" (
    "level" SMALLINT NOT NULL,
    "idx" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "transparency_log_nodes_pkey" PRIMARY KEY ("level","idx")
);

-- CreateTable
CREATE TABLE "transparency_tree_heads" (
    "tree_size" BIGINT NOT NULL,
    "timestamp_ms" BIGINT NOT NULL,
    "root_hash" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "log_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "transparency_tree_heads_pkey" PRIMARY KEY ("tree_size")
);

-- CreateIndex
CREATE UNIQUE INDEX "transparency_log_leaves_leaf_index_key" ON "transparency_log_leaves"("leaf_index");

-- CreateIndex
CREATE UNIQUE INDEX "transparency_log_leaves_game_id_kind_key" ON "transparency_log_leaves"("game_id", "kind");

-- Append-only: nodes and tree heads are never changed; a leaf is never deleted and only its
-- index and hash are set, once, by the sequencer.
CREATE FUNCTION "transparency_log_append_only"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'transparency_log_leaves'
       AND OLD.leaf_index IS NULL AND NEW.leaf_index IS NOT NULL AND NEW.leaf_hash IS NOT NULL
       AND NEW.id = OLD.id AND NEW.game_id = OLD.game_id AND NEW.kind = OLD.kind
       AND NEW.event_version = OLD.event_version AND NEW.value = OLD.value
       AND NEW.timestamp_ms = OLD.timestamp_ms AND NEW.created_at = OLD.created_at THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER "transparency_log_leaves_append_only"
    BEFORE UPDATE OR DELETE ON "transparency_log_leaves"
    FOR EACH ROW EXECUTE FUNCTION "transparency_log_append_only"();
CREATE TRIGGER "transparency_log_nodes_append_only"
    BEFORE UPDATE OR DELETE ON "transparency_log_nodes"
    FOR EACH ROW EXECUTE FUNCTION "transparency_log_append_only"();
CREATE TRIGGER "transparency_tree_heads_append_only"
    BEFORE UPDATE OR DELETE ON "transparency_tree_heads"
    FOR EACH ROW EXECUTE FUNCTION "transparency_log_append_only"();

-- Games created before the log existed: their commitment (and final head, when they have ended)
-- enter the log now, pending, in creation order; the sequencer integrates them at start.
INSERT INTO "transparency_log_leaves" ("game_id", "kind", "event_version", "value", "timestamp_ms")
SELECT g."id", 1, 0, g."server_seed_hash", (extract(epoch FROM clock_timestamp()) * 1000)::bigint
  FROM "games" g
 ORDER BY g."created_at", g."id";

INSERT INTO "transparency_log_leaves" ("game_id", "kind", "event_version", "value", "timestamp_ms")
SELECT g."id", 2, g."version", e."hash", (extract(epoch FROM clock_timestamp()) * 1000)::bigint
  FROM "games" g
  JOIN "game_events" e ON e."game_id" = g."id" AND e."version" = g."version"
 WHERE g."status" IN ('finished', 'abandoned')
 ORDER BY g."finished_at", g."id";
