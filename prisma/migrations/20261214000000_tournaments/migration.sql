-- Tournaments (docs/tournaments.md): the tournament's own event stream, hash-chained like a
-- game's (first prev_hash = the tournament's commitment), with the same expected-version rule:
-- `tournaments.version` is updated WHERE version = expected in the statement that inserts the
-- events, and (tournament_id, version) is the primary key. Games a tournament creates refer to it.

-- CreateTable
CREATE TABLE "tournaments" (
    "id" UUID NOT NULL,
    "organizer_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "rule_set" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "visibility" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "tournament_seed" TEXT NOT NULL,
    "commitment" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tournaments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tournament_events" (
    "tournament_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tournament_events_pkey" PRIMARY KEY ("tournament_id","version")
);

-- CreateIndex
CREATE INDEX "tournaments_visibility_status_idx" ON "tournaments"("visibility", "status");
CREATE INDEX "tournaments_created_at_id_idx" ON "tournaments"("created_at", "id");

-- AddForeignKey
ALTER TABLE "tournaments" ADD CONSTRAINT "tournaments_organizer_id_fkey" FOREIGN KEY ("organizer_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "tournament_events" ADD CONSTRAINT "tournament_events_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Append-only, like game_events.
CREATE FUNCTION "tournament_events_append_only"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'tournament_events is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER "tournament_events_append_only"
    BEFORE UPDATE OR DELETE ON "tournament_events"
    FOR EACH ROW EXECUTE FUNCTION "tournament_events_append_only"();

-- Games a tournament created: which tournament and round; seed_sealed keeps a duplicate game's
-- server seed (the round seed) secret after the game ends, until every game of its round ended.
ALTER TABLE "games" ADD COLUMN "tournament_id" UUID;
ALTER TABLE "games" ADD COLUMN "tournament_round" INTEGER;
ALTER TABLE "games" ADD COLUMN "seed_sealed" BOOLEAN NOT NULL DEFAULT false;
CREATE INDEX "games_tournament_id_tournament_round_idx" ON "games"("tournament_id", "tournament_round");
ALTER TABLE "games" ADD CONSTRAINT "games_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
