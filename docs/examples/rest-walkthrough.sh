#!/usr/bin/env bash
# Two players play a whole game of the `simple` rule set over REST, with curl and jq.
# Usage: BASE=http://localhost:3000 bash docs/examples/rest-walkthrough.sh
# (test/docs/walkthrough.e2e-spec.ts runs this script against the real app.)
set -euo pipefail
BASE=${BASE:-http://localhost:3000}

# POST JSON with a token; fail (printing the problem+json body) on any 4xx/5xx.
post() { curl -sS --fail-with-body -X POST "$BASE$1" -H "authorization: Bearer $2" -H 'content-type: application/json' -d "${3:-{\}}"; }
get()  { curl -sS --fail-with-body "$BASE$1" -H "authorization: Bearer $2"; }
put()  { curl -sS --fail-with-body -X PUT "$BASE$1" -H "authorization: Bearer $2" -H 'content-type: application/json' -d "$3"; }
# A seed of your own: any 1-128 visible ASCII characters; here 16 random bytes as hex.
own_seed() { echo "$1-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"; }

# 1. Register two players. Each gets a bearer token, shown once.
ADA=$(curl -sS --fail-with-body -X POST "$BASE/v1/players" -H 'content-type: application/json' -d '{"displayName":"Ada"}')
BOB=$(curl -sS --fail-with-body -X POST "$BASE/v1/players" -H 'content-type: application/json' -d '{"displayName":"Bob"}')
ADA_ID=$(jq -r .player.id <<<"$ADA"); ADA_TOKEN=$(jq -r .token <<<"$ADA")
BOB_TOKEN=$(jq -r .token <<<"$BOB")

# 2. Ada creates a two-seat game (she takes seat 0). The response publishes the commitment
#    (SHA-256 of the server seed, fixed from now on): note it down BEFORE giving any seed.
CREATED=$(post /v1/games "$ADA_TOKEN" '{"ruleSet":"simple","seats":2,"visibility":"public"}')
GAME=$(jq -r .id <<<"$CREATED"); COMMITMENT=$(jq -r .commitment <<<"$CREATED")
echo "game $GAME, commitment $COMMITMENT"

# 3. Having seen the commitment, each player supplies a seed of their own: Ada sets hers (she
#    may replace it until the start), Bob gives his when joining. Then Ada starts the game.
put "/v1/games/$GAME/seeds" "$ADA_TOKEN" "{\"clientSeed\":\"$(own_seed ada)\"}" >/dev/null
post "/v1/games/$GAME/join" "$BOB_TOKEN" "{\"clientSeed\":\"$(own_seed bob)\"}" >/dev/null
post "/v1/games/$GAME/start" "$ADA_TOKEN" >/dev/null
echo "game $GAME started"

# 4. Play: whoever's turn it is rolls once, then scores the allowed box worth the most.
STATE=$(get "/v1/games/$GAME" "$ADA_TOKEN")
while [ "$(jq -r .status <<<"$STATE")" = playing ]; do
  if [ "$(jq -r .currentPlayerId <<<"$STATE")" = "$ADA_ID" ]; then TOKEN=$ADA_TOKEN; else TOKEN=$BOB_TOKEN; fi
  STATE=$(post "/v1/games/$GAME/roll" "$TOKEN" '{"hold":[]}')
  BOX=$(jq -r '.fiveDice.scoreOptions.boxes | map(select(.allowed)) | max_by(.points) | .box' <<<"$STATE")
  STATE=$(post "/v1/games/$GAME/score" "$TOKEN" "{\"box\":\"$BOX\"}")
done

# 5. The final standings, and the server seed now revealed for the audit.
jq -c --arg commitment "$COMMITMENT" '{status, standings: [.standings[] | {rank, displayName, total}], serverSeedRevealed: (.serverSeed != null), commitment: $commitment}' <<<"$STATE"
curl -sS --fail-with-body "$BASE/v1/games/$GAME/audit" -o "fairdice-$GAME.json" && echo "audit bundle: fairdice-$GAME.json"
# Check it offline against the commitment noted in step 2:
#   npx fairdice verify "fairdice-$GAME.json" --commitment "$COMMITMENT"
