-- fairdice initial schema.
-- Hand-written in the shape `prisma migrate diff` produces for prisma/schema.prisma
-- (the schema engine cannot be downloaded on the build machine); keep both in step.

-- CreateTable
CREATE TABLE "players" (
    "id" UUID NOT NULL,
    "display_name" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "players_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "games" (
    "id" UUID NOT NULL,
    "rule_set" TEXT NOT NULL,
    "family" TEXT NOT NULL,
    "options" JSONB NOT NULL,
    "seat_count" INTEGER NOT NULL,
    "visibility" TEXT NOT NULL,
    "creator_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "current_seat" INTEGER,
    "current_player_id" UUID,
    "turn_time_limit_seconds" INTEGER,
    "turn_deadline" TIMESTAMPTZ(6),
    "server_seed" TEXT NOT NULL,
    "server_seed_hash" TEXT NOT NULL,
    "organizer_seed" TEXT,
    "standings" JSONB,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,
    "started_at" TIMESTAMPTZ(6),
    "finished_at" TIMESTAMPTZ(6),

    CONSTRAINT "games_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "game_seats" (
    "game_id" UUID NOT NULL,
    "seat" INTEGER NOT NULL,
    "player_id" UUID,
    "hot_seat" BOOLEAN NOT NULL DEFAULT false,
    "client_seed" TEXT,
    "joined_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "game_seats_pkey" PRIMARY KEY ("game_id","seat")
);

-- CreateTable
CREATE TABLE "game_events" (
    "game_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "seat" INTEGER,
    "payload" JSONB NOT NULL,
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "game_events_pkey" PRIMARY KEY ("game_id","version")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "player_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "response_status" INTEGER,
    "response_body" JSONB,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("player_id","key")
);

-- CreateTable
CREATE TABLE "rate_limit_counters" (
    "key" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(6) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rate_limit_counters_pkey" PRIMARY KEY ("key","window_start")
);

-- CreateIndex
CREATE UNIQUE INDEX "players_token_hash_key" ON "players"("token_hash");

-- CreateIndex
CREATE INDEX "games_visibility_status_idx" ON "games"("visibility", "status");

-- CreateIndex
CREATE INDEX "games_current_player_id_status_idx" ON "games"("current_player_id", "status");

-- CreateIndex
CREATE INDEX "games_creator_id_idx" ON "games"("creator_id");

-- CreateIndex
CREATE INDEX "game_seats_player_id_idx" ON "game_seats"("player_id");

-- CreateIndex
CREATE INDEX "idempotency_records_expires_at_idx" ON "idempotency_records"("expires_at");

-- AddForeignKey
ALTER TABLE "games" ADD CONSTRAINT "games_creator_id_fkey" FOREIGN KEY ("creator_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "games" ADD CONSTRAINT "games_current_player_id_fkey" FOREIGN KEY ("current_player_id") REFERENCES "players"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "game_seats" ADD CONSTRAINT "game_seats_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "game_seats" ADD CONSTRAINT "game_seats_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "game_events" ADD CONSTRAINT "game_events_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Append-only event log, enforced by the database (not only by the application):
-- any UPDATE or DELETE on game_events raises, so a bug or a stray admin statement cannot
-- rewrite history and break the hash chain. The only way to remove events is to drop the
-- trigger explicitly (or TRUNCATE, which row triggers do not see; tests may use it to reset).
-- This is not part of the Prisma schema: `prisma migrate diff` does not know triggers and
-- will neither create nor drop it.
CREATE FUNCTION "game_events_append_only"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'game_events is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER "game_events_append_only"
    BEFORE UPDATE OR DELETE ON "game_events"
    FOR EACH ROW EXECUTE FUNCTION "game_events_append_only"();
