#!/usr/bin/env bash
# Two players play a whole game of the `simple` rule set over REST, with curl and jq.
# Usage: BASE=http://localhost:3000 bash docs/examples/rest-walkthrough.sh
# (test/docs/walkthrough.e2e-spec.ts runs this script against the real app.)
set -euo pipefail
BASE=${BASE:-http://localhost:3000}

# POST JSON with a token; fail (printing the problem+json body) on any 4xx/5xx.
post() { curl -sS --fail-with-body -X POST "$BASE$1" -H "authorization: Bearer $2" -H 'content-type: application/json' -d "${3:-{\}}"; }
get()  { curl -sS --fail-with-body "$BASE$1" -H "authorization: Bearer $2"; }

# 1. Register two players. Each gets a bearer token, shown once.
ADA=$(curl -sS --fail-with-body -X POST "$BASE/v1/players" -H 'content-type: application/json' -d '{"displayName":"Ada"}')
BOB=$(curl -sS --fail-with-body -X POST "$BASE/v1/players" -H 'content-type: application/json' -d '{"displayName":"Bob"}')
ADA_ID=$(jq -r .player.id <<<"$ADA"); ADA_TOKEN=$(jq -r .token <<<"$ADA")
BOB_TOKEN=$(jq -r .token <<<"$BOB")

# 2. Ada creates a two-seat game (she takes seat 0), Bob joins, Ada starts it.
GAME=$(post /v1/games "$ADA_TOKEN" '{"ruleSet":"simple","seats":2,"visibility":"public"}' | jq -r .id)
post "/v1/games/$GAME/join" "$BOB_TOKEN" '{}' >/dev/null
post "/v1/games/$GAME/start" "$ADA_TOKEN" >/dev/null
echo "game $GAME started"

# 3. Play: whoever's turn it is rolls once, then scores the allowed box worth the most.
STATE=$(get "/v1/games/$GAME" "$ADA_TOKEN")
while [ "$(jq -r .status <<<"$STATE")" = playing ]; do
  if [ "$(jq -r .currentPlayerId <<<"$STATE")" = "$ADA_ID" ]; then TOKEN=$ADA_TOKEN; else TOKEN=$BOB_TOKEN; fi
  STATE=$(post "/v1/games/$GAME/roll" "$TOKEN" '{"hold":[]}')
  BOX=$(jq -r '.fiveDice.scoreOptions.boxes | map(select(.allowed)) | max_by(.points) | .box' <<<"$STATE")
  STATE=$(post "/v1/games/$GAME/score" "$TOKEN" "{\"box\":\"$BOX\"}")
done

# 4. The final standings, and the server seed now revealed for the audit.
jq -c '{status, standings: [.standings[] | {rank, displayName, total}], serverSeedRevealed: (.serverSeed != null)}' <<<"$STATE"
curl -sS --fail-with-body "$BASE/v1/games/$GAME/audit" -o "fairdice-$GAME.json" && echo "audit bundle: fairdice-$GAME.json"
