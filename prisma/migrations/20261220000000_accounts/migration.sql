-- Accounts (docs/accounts.md): a player's username and credentials as an event-sourced aggregate
-- (account_events, expected-version rule: `accounts.version` is updated WHERE version = expected by
-- the statement that inserts the events; (account_id, version) is the primary key), with what a
-- sign-in needs to look up beside it: the case-folded username (unique), the password's argon2id
-- hash (a secret, so never in an event), and the passkeys by credential id with their signature
-- counters. Sessions are bearer tokens like players.token_hash (SHA-256 stored), one per signed-in
-- device, with scopes for the scoped tokens to come ('*' = every scope). Failed sign-ins are
-- counted per account and per address (lockout with back-off); WebAuthn challenges are stored
-- hashed and used once. The security log is what the account's owner reads.

-- CreateTable
CREATE TABLE "accounts" (
    "player_id" UUID NOT NULL,
    "username" TEXT,
    "username_key" TEXT,
    "password_hash" TEXT,
    "version" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("player_id")
);

-- CreateTable
CREATE TABLE "account_events" (
    "account_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_events_pkey" PRIMARY KEY ("account_id","version")
);

-- CreateTable
CREATE TABLE "account_passkeys" (
    "credential_id" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "public_key" TEXT NOT NULL,
    "counter" BIGINT NOT NULL DEFAULT 0,
    "transports" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(6),

    CONSTRAINT "account_passkeys_pkey" PRIMARY KEY ("credential_id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "scopes" TEXT[] NOT NULL DEFAULT ARRAY['*']::TEXT[],
    "address" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(6),

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webauthn_challenges" (
    "challenge_hash" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "player_id" UUID,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "webauthn_challenges_pkey" PRIMARY KEY ("challenge_hash")
);

-- CreateTable
CREATE TABLE "sign_in_failures" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "locked_until" TIMESTAMPTZ(6),
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sign_in_failures_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "security_log" (
    "id" BIGSERIAL NOT NULL,
    "player_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "address" TEXT,
    "detail" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "security_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "accounts_username_key_key" ON "accounts"("username_key");
CREATE INDEX "account_passkeys_account_id_idx" ON "account_passkeys"("account_id");
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions"("token_hash");
CREATE INDEX "sessions_player_id_created_at_idx" ON "sessions"("player_id", "created_at");
CREATE INDEX "webauthn_challenges_expires_at_idx" ON "webauthn_challenges"("expires_at");
CREATE INDEX "security_log_player_id_id_idx" ON "security_log"("player_id", "id");

-- AddForeignKey
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "account_events" ADD CONSTRAINT "account_events_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("player_id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "account_passkeys" ADD CONSTRAINT "account_passkeys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("player_id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "security_log" ADD CONSTRAINT "security_log_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Append-only, like game_events and tournament_events.
CREATE FUNCTION "account_events_append_only"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'account_events is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER "account_events_append_only"
    BEFORE UPDATE OR DELETE ON "account_events"
    FOR EACH ROW EXECUTE FUNCTION "account_events_append_only"();
