#!/usr/bin/env bash
# A duplicate tournament of the `simple` rule set over REST, with curl and jq: an organizer, two
# entrants, one round, to the end; then the whole tournament's audit bundle.
# Usage: BASE=http://localhost:3000 bash docs/examples/tournament-walkthrough.sh
# (test/docs/walkthrough.e2e-spec.ts runs this script against the real app.)
set -euo pipefail
BASE=${BASE:-http://localhost:3000}

post() { curl -sS --fail-with-body -X POST "$BASE$1" -H "authorization: Bearer $2" -H 'content-type: application/json' -d "${3:-{\}}"; }
get()  { curl -sS --fail-with-body "$BASE$1" -H "authorization: Bearer $2"; }
put()  { curl -sS --fail-with-body -X PUT "$BASE$1" -H "authorization: Bearer $2" -H 'content-type: application/json' -d "$3"; }
own_seed() { echo "$1-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"; }
register() { curl -sS --fail-with-body -X POST "$BASE/v1/players" -H 'content-type: application/json' -d "{\"displayName\":\"$1\"}"; }

# 1. Three players: the organizer and two entrants.
ORG=$(register Olga); ADA=$(register Ada); BOB=$(register Bob)
ORG_TOKEN=$(jq -r .token <<<"$ORG")
ADA_ID=$(jq -r .player.id <<<"$ADA"); ADA_TOKEN=$(jq -r .token <<<"$ADA")
BOB_ID=$(jq -r .player.id <<<"$BOB"); BOB_TOKEN=$(jq -r .token <<<"$BOB")

# 2. Olga creates a duplicate tournament: one round, every entrant's game fed by the same dice.
#    The response publishes the tournament's commitment: note it down before anyone gives a seed.
CREATED=$(post /v1/tournaments "$ORG_TOKEN" '{"name":"Walkthrough cup","ruleSet":"simple","format":"duplicate","maxEntrants":4,"rounds":1}')
TID=$(jq -r .id <<<"$CREATED"); COMMITMENT=$(jq -r .commitment <<<"$CREATED")
echo "tournament $TID, commitment $COMMITMENT"

# 3. Having seen the commitment, the entrants register with seeds of their own and Olga sets
#    the organizer seed; she closes registration (the seeds are fixed) and starts round 1.
post "/v1/tournaments/$TID/entrants" "$ADA_TOKEN" "{\"clientSeed\":\"$(own_seed ada)\"}" >/dev/null
post "/v1/tournaments/$TID/entrants" "$BOB_TOKEN" "{\"clientSeed\":\"$(own_seed bob)\"}" >/dev/null
put "/v1/tournaments/$TID/organizer-seed" "$ORG_TOKEN" "{\"organizerSeed\":\"$(own_seed olga)\"}" >/dev/null
post "/v1/tournaments/$TID/close" "$ORG_TOKEN" >/dev/null
STARTED=$(post "/v1/tournaments/$TID/start" "$ORG_TOKEN")
echo "round 1: $(jq -r '.roundDetails[0].games | length' <<<"$STARTED") games"

# 4. Each entrant plays their own game of the round: roll once, score the best allowed box.
game_of() { jq -r --arg p "$1" '(.entrants[] | select(.playerId == $p) | .number) as $n | .roundDetails[0].games[] | select(.entrants[0] == $n) | .gameId' <<<"$STARTED"; }
for ENTRANT in "$ADA_TOKEN:$ADA_ID" "$BOB_TOKEN:$BOB_ID"; do
  TOKEN=${ENTRANT%%:*}; GAME=$(game_of "${ENTRANT#*:}")
  STATE=$(get "/v1/games/$GAME" "$TOKEN")
  while [ "$(jq -r .status <<<"$STATE")" = playing ]; do
    STATE=$(post "/v1/games/$GAME/roll" "$TOKEN" '{"hold":[]}')
    BOX=$(jq -r '.fiveDice.scoreOptions.boxes | map(select(.allowed)) | max_by(.points) | .box' <<<"$STATE")
    STATE=$(post "/v1/games/$GAME/score" "$TOKEN" "{\"box\":\"$BOX\"}")
  done
done

# 5. When the last game ends the service finishes the round and the tournament (a job, within a
#    second or so): wait for it, then read the standings.
for _ in $(seq 1 300); do
  [ "$(get "/v1/tournaments/$TID" "$ORG_TOKEN" | jq -r .status)" = finished ] && break
  sleep 0.2
done
get "/v1/tournaments/$TID/standings" "$ORG_TOKEN" | jq -c '{status, rows: [.rows[] | {rank, displayName, totalScore}]}'

# 6. One audit bundle for the whole tournament: its events, every game's bundle, the standings
#    and a Merkle root over the games' final heads (docs/fairness.md §11).
curl -sS --fail-with-body "$BASE/v1/tournaments/$TID/audit" -o "fairdice-tournament-$TID.json" \
  && echo "tournament audit bundle: fairdice-tournament-$TID.json"
# Check it offline (exit 0: every check passed; 1: the first failure is named):
#   npx fairdice verify "fairdice-tournament-$TID.json"
