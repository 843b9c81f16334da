-- Challenges (docs/challenges.md): a player invites another (or anyone, by link) to a two-player
-- game, as an event-sourced aggregate with the expected-version rule of the other aggregates:
-- `challenges.version` is updated WHERE version = expected by the statement that inserts the
-- events ((challenge_id, version) is the primary key). The row keeps what the lists read
-- (status, the two players, the expiry); the events are the record.

-- CreateTable
CREATE TABLE "challenges" (
    "id" UUID NOT NULL,
    "challenger_id" UUID NOT NULL,
    "opponent_id" UUID,
    "status" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "pool" TEXT NOT NULL,
    "rated" BOOLEAN NOT NULL,
    "turn_time_limit_seconds" INTEGER NOT NULL,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "accepted_by" UUID,
    "game_id" UUID,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "challenges_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "challenges_status_check" CHECK ("status" IN ('pending', 'accepted', 'declined', 'cancelled', 'expired'))
);

-- CreateTable
CREATE TABLE "challenge_events" (
    "challenge_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "challenge_events_pkey" PRIMARY KEY ("challenge_id","version")
);

-- CreateIndex
CREATE INDEX "challenges_challenger_id_status_idx" ON "challenges"("challenger_id", "status");

-- CreateIndex
CREATE INDEX "challenges_opponent_id_status_idx" ON "challenges"("opponent_id", "status");

-- AddForeignKey
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_challenger_id_fkey" FOREIGN KEY ("challenger_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_opponent_id_fkey" FOREIGN KEY ("opponent_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "challenge_events" ADD CONSTRAINT "challenge_events_challenge_id_fkey" FOREIGN KEY ("challenge_id") REFERENCES "challenges"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Append-only, like game_events, tournament_events and account_events.
CREATE FUNCTION "challenge_events_append_only"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'challenge_events is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER "challenge_events_append_only"
    BEFORE UPDATE OR DELETE ON "challenge_events"
    FOR EACH ROW EXECUTE FUNCTION "challenge_events_append_only"();
