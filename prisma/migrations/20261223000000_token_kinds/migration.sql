-- Scoped tokens (issue 26): the sessions table holds every bearer token other than the player's
-- own: a signed-in device's session, a personal access token, an OAuth access token. Each carries
-- its scopes ('*' = every scope) and may expire.
ALTER TABLE "sessions" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'session';
ALTER TABLE "sessions" ADD COLUMN "expires_at" TIMESTAMPTZ(6);
ALTER TABLE "sessions" ADD COLUMN "client_id" TEXT;
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_kind_check" CHECK ("kind" IN ('session', 'personal', 'oauth'));
CREATE INDEX "sessions_player_id_kind_created_at_idx" ON "sessions"("player_id", "kind", "created_at");
