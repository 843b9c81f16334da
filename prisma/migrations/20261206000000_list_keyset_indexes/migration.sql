-- Keyset pagination (docs/decisions/0025-cursor-pagination.md): the games lists and a webhook's
-- deliveries are paged newest first by (created_at, id); these indexes let a page start at the
-- cursor instead of sorting every matching row. created_at and id never change, so the games
-- index keeps a command's row update HOT (20261205000000_games_fillfactor).

-- CreateIndex
CREATE INDEX "games_created_at_id_idx" ON "games"("created_at", "id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_webhook_id_created_at_id_idx" ON "webhook_deliveries"("webhook_id", "created_at", "id");
