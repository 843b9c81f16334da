-- Per-player event stream (docs/async.md, *Player events*): each player's events in their own
-- sequence. `player_event_heads` holds the last sequence number given to a player and the highest
-- one pruned (retention), so numbers are never reused even when every row was pruned, and a
-- client resuming from before `pruned_through` is told to resync. `source` (unique per player)
-- makes storing an event idempotent: the job that stores a command's events may run twice.

-- CreateTable
CREATE TABLE "player_event_heads" (
    "player_id" UUID NOT NULL,
    "last_seq" BIGINT NOT NULL DEFAULT 0,
    "pruned_through" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "player_event_heads_pkey" PRIMARY KEY ("player_id")
);

-- CreateTable
CREATE TABLE "player_events" (
    "player_id" UUID NOT NULL,
    "seq" BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "player_events_pkey" PRIMARY KEY ("player_id","seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "player_events_player_id_source_key" ON "player_events"("player_id", "source");

-- CreateIndex
CREATE INDEX "player_events_created_at_idx" ON "player_events"("created_at");

-- Per-player settings of the stream and of Web Push.
-- CreateTable
CREATE TABLE "player_event_settings" (
    "player_id" UUID NOT NULL,
    "deadline_soon_share" DOUBLE PRECISION,
    "push_events" TEXT[],
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "player_event_settings_pkey" PRIMARY KEY ("player_id")
);

-- Web Push subscriptions (RFC 8030 endpoint, RFC 8291 keys from the browser's PushManager).
-- CreateTable
CREATE TABLE "push_subscriptions" (
    "id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "endpoint" TEXT NOT NULL,
    "p256dh" TEXT NOT NULL,
    "auth" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "push_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "push_subscriptions_player_id_endpoint_key" ON "push_subscriptions"("player_id", "endpoint");

-- AddForeignKey
ALTER TABLE "player_event_heads" ADD CONSTRAINT "player_event_heads_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "player_events" ADD CONSTRAINT "player_events_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "player_event_settings" ADD CONSTRAINT "player_event_settings_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;
