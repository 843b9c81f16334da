-- Ratings (docs/ratings.md): Glicko-2 per player and pool, the public list of rated results, and
-- each player's rating history. A rated game is applied once: rated_games.game_id is unique, and
-- the update inserts that row first (ON CONFLICT DO NOTHING) in the transaction that writes the
-- ratings and their history. `seq` is the order in which results were applied: recomputing every
-- rating means applying the results in `seq` order.

-- CreateTable
CREATE TABLE "rated_games" (
    "seq" BIGSERIAL NOT NULL,
    "game_id" UUID NOT NULL,
    "pool" TEXT NOT NULL,
    "finished_at" TIMESTAMPTZ(6) NOT NULL,
    "seats" JSONB NOT NULL,
    "rated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rated_games_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "ratings" (
    "player_id" UUID NOT NULL,
    "pool" TEXT NOT NULL,
    "rating" DOUBLE PRECISION NOT NULL,
    "rd" DOUBLE PRECISION NOT NULL,
    "volatility" DOUBLE PRECISION NOT NULL,
    "games" INTEGER NOT NULL DEFAULT 0,
    "wins" INTEGER NOT NULL DEFAULT 0,
    "draws" INTEGER NOT NULL DEFAULT 0,
    "losses" INTEGER NOT NULL DEFAULT 0,
    "last_game_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ratings_pkey" PRIMARY KEY ("player_id","pool")
);

-- CreateTable
CREATE TABLE "rating_updates" (
    "seq" BIGINT NOT NULL,
    "player_id" UUID NOT NULL,
    "pool" TEXT NOT NULL,
    "game_id" UUID NOT NULL,
    "rating_before" DOUBLE PRECISION NOT NULL,
    "rd_before" DOUBLE PRECISION NOT NULL,
    "volatility_before" DOUBLE PRECISION NOT NULL,
    "rating_after" DOUBLE PRECISION NOT NULL,
    "rd_after" DOUBLE PRECISION NOT NULL,
    "volatility_after" DOUBLE PRECISION NOT NULL,
    "wins" INTEGER NOT NULL,
    "draws" INTEGER NOT NULL,
    "losses" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rating_updates_pkey" PRIMARY KEY ("seq","player_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "rated_games_game_id_key" ON "rated_games"("game_id");
CREATE INDEX "rated_games_pool_seq_idx" ON "rated_games"("pool", "seq");
CREATE INDEX "ratings_pool_rating_idx" ON "ratings"("pool", "rating");
CREATE UNIQUE INDEX "rating_updates_game_id_player_id_key" ON "rating_updates"("game_id", "player_id");
CREATE INDEX "rating_updates_player_id_pool_seq_idx" ON "rating_updates"("player_id", "pool", "seq");

-- AddForeignKey
ALTER TABLE "rated_games" ADD CONSTRAINT "rated_games_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "rating_updates" ADD CONSTRAINT "rating_updates_seq_fkey" FOREIGN KEY ("seq") REFERENCES "rated_games"("seq") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "rating_updates" ADD CONSTRAINT "rating_updates_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
