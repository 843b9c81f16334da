-- OAuth 2.1 for third-party apps (issue 26, docs/oauth.md, decision 0134): registered public
-- clients with their exact redirect URIs, single-use authorization codes, grants (a refresh-token
-- family) and rotating refresh tokens. Access tokens are rows of "sessions" (kind 'oauth').
-- Codes and tokens are stored as SHA-256 hashes only.
CREATE TABLE "oauth_clients" (
    "id" TEXT NOT NULL,
    "owner_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "redirect_uris" TEXT[] NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(6),
    CONSTRAINT "oauth_clients_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "oauth_clients_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "oauth_clients_owner_id_created_at_idx" ON "oauth_clients"("owner_id", "created_at");

-- One consent turned into tokens: every refresh token and access token of it share its id, so a
-- reused refresh token or a revoked client ends them all at once.
CREATE TABLE "oauth_grants" (
    "id" UUID NOT NULL,
    "client_id" TEXT NOT NULL,
    "player_id" UUID NOT NULL,
    "scopes" TEXT[] NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(6),
    CONSTRAINT "oauth_grants_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "oauth_grants_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "oauth_clients"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "oauth_grants_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "oauth_grants_client_id_idx" ON "oauth_grants"("client_id");
CREATE INDEX "oauth_grants_player_id_idx" ON "oauth_grants"("player_id");

CREATE TABLE "oauth_codes" (
    "code_hash" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "player_id" UUID NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "scopes" TEXT[] NOT NULL,
    "code_challenge" TEXT NOT NULL,
    "code_challenge_method" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "used_at" TIMESTAMPTZ(6),
    -- the grant the code turned into (a replayed code revokes it)
    "grant_id" UUID,
    CONSTRAINT "oauth_codes_pkey" PRIMARY KEY ("code_hash"),
    CONSTRAINT "oauth_codes_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "oauth_clients"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "oauth_codes_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "oauth_codes_method_check" CHECK ("code_challenge_method" = 'S256')
);
CREATE INDEX "oauth_codes_expires_at_idx" ON "oauth_codes"("expires_at");

CREATE TABLE "oauth_refresh_tokens" (
    "token_hash" TEXT NOT NULL,
    "grant_id" UUID NOT NULL,
    -- the access token (a sessions row) issued with this refresh token
    "session_id" UUID NOT NULL,
    "scopes" TEXT[] NOT NULL,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- set when exchanged for the next refresh token: a second use is a reuse
    "used_at" TIMESTAMPTZ(6),
    CONSTRAINT "oauth_refresh_tokens_pkey" PRIMARY KEY ("token_hash"),
    CONSTRAINT "oauth_refresh_tokens_grant_id_fkey" FOREIGN KEY ("grant_id") REFERENCES "oauth_grants"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "oauth_refresh_tokens_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "oauth_refresh_tokens_grant_id_idx" ON "oauth_refresh_tokens"("grant_id");
