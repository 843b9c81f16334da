-- Seeks (docs/matchmaking.md): a player's standing offer to play, an event-sourced aggregate like
-- accounts: seek_events is its append-only stream ((seek_id, version) primary key), and `seeks`
-- is its row, updated WHERE version = expected by the statement that inserts the events (another
-- writer first: nothing stored). The row carries what the lobby and the matchmaker read: the
-- spec, the status (open, paired, cancelled) and the game a pairing made.

-- CreateTable
CREATE TABLE "seeks" (
    "id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "pool" TEXT NOT NULL,
    "seats" INTEGER NOT NULL,
    "rated" BOOLEAN NOT NULL,
    "rating_min" INTEGER,
    "rating_max" INTEGER,
    "turn_time_limit_seconds" INTEGER,
    "status" TEXT NOT NULL,
    "game_id" UUID,
    "version" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "seeks_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "seeks_status_check" CHECK ("status" IN ('open', 'paired', 'cancelled')),
    CONSTRAINT "seeks_seats_check" CHECK ("seats" BETWEEN 2 AND 4)
);

-- CreateTable
CREATE TABLE "seek_events" (
    "seek_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "seek_events_pkey" PRIMARY KEY ("seek_id","version")
);

-- CreateIndex
CREATE INDEX "seeks_status_created_at_idx" ON "seeks"("status", "created_at");
CREATE INDEX "seeks_player_id_status_idx" ON "seeks"("player_id", "status");

-- AddForeignKey
ALTER TABLE "seeks" ADD CONSTRAINT "seeks_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "seeks" ADD CONSTRAINT "seeks_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "seek_events" ADD CONSTRAINT "seek_events_seek_id_fkey" FOREIGN KEY ("seek_id") REFERENCES "seeks"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
