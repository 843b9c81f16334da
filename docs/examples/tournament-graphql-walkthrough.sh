#!/usr/bin/env bash
# The same duplicate tournament over GraphQL: an organizer, two entrants, one round, to the end.
# Usage: BASE=http://localhost:3000 bash docs/examples/tournament-graphql-walkthrough.sh
# (test/docs/walkthrough.e2e-spec.ts runs this script against the real app.)
set -euo pipefail
BASE=${BASE:-http://localhost:3000}

# gql TOKEN QUERY [VARIABLES-JSON]: prints `data`, fails on any GraphQL error (printing it).
gql() {
  local body res
  body=$(jq -n --arg q "$2" --argjson v "${3:-{\}}" '{query: $q, variables: $v}')
  res=$(curl -sS --fail-with-body -X POST "$BASE/graphql" -H 'content-type: application/json' \
        ${1:+-H "authorization: Bearer $1"} -d "$body")
  if jq -e '.errors' <<<"$res" >/dev/null; then echo "$res" >&2; return 1; fi
  jq -c .data <<<"$res"
}
own_seed() { echo "$1-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"; }

REGISTER='mutation($name: String!) { registerPlayer(input: { displayName: $name }) { token player { id } } }'
ORG=$(gql "" "$REGISTER" '{"name":"Olga"}'); ADA=$(gql "" "$REGISTER" '{"name":"Ada"}'); BOB=$(gql "" "$REGISTER" '{"name":"Bob"}')
ORG_TOKEN=$(jq -r .registerPlayer.token <<<"$ORG")
ADA_ID=$(jq -r .registerPlayer.player.id <<<"$ADA"); ADA_TOKEN=$(jq -r .registerPlayer.token <<<"$ADA")
BOB_ID=$(jq -r .registerPlayer.player.id <<<"$BOB"); BOB_TOKEN=$(jq -r .registerPlayer.token <<<"$BOB")

# Create: the response publishes the commitment. Note it down before anyone gives a seed.
CREATED=$(gql "$ORG_TOKEN" 'mutation { createTournament(input: { name: "GraphQL cup", ruleSet: simple, format: duplicate, maxEntrants: 4, rounds: 1 }) { id commitment } }')
TID=$(jq -r .createTournament.id <<<"$CREATED")
echo "tournament $TID, commitment $(jq -r .createTournament.commitment <<<"$CREATED")"

# Seeds after the commitment: the entrants' with their registration, the organizer's; then close and start.
REG='mutation($id: ID!, $seed: String!) { registerForTournament(id: $id, input: { clientSeed: $seed }) { version } }'
gql "$ADA_TOKEN" "$REG" "{\"id\":\"$TID\",\"seed\":\"$(own_seed ada)\"}" >/dev/null
gql "$BOB_TOKEN" "$REG" "{\"id\":\"$TID\",\"seed\":\"$(own_seed bob)\"}" >/dev/null
gql "$ORG_TOKEN" 'mutation($id: ID!, $seed: String!) { setTournamentOrganizerSeed(id: $id, input: { organizerSeed: $seed }) { version } }' \
    "{\"id\":\"$TID\",\"seed\":\"$(own_seed olga)\"}" >/dev/null
gql "$ORG_TOKEN" 'mutation($id: ID!) { closeTournamentRegistration(id: $id) { version } }' "{\"id\":\"$TID\"}" >/dev/null
STARTED=$(gql "$ORG_TOKEN" 'mutation($id: ID!) { startTournament(id: $id) { entrants { number playerId } roundDetails { games { gameId entrants } } } }' \
    "{\"id\":\"$TID\"}" | jq -c .startTournament)

# Each entrant plays their own game: roll once, score the best allowed box.
VIEW='status fiveDice { scoreOptions { boxes { box points allowed } } }'
game_of() { jq -r --arg p "$1" '(.entrants[] | select(.playerId == $p) | .number) as $n | .roundDetails[0].games[] | select(.entrants[0] == $n) | .gameId' <<<"$STARTED"; }
for ENTRANT in "$ADA_TOKEN:$ADA_ID" "$BOB_TOKEN:$BOB_ID"; do
  TOKEN=${ENTRANT%%:*}; GAME=$(game_of "${ENTRANT#*:}")
  STATE=$(gql "$TOKEN" "query(\$id: ID!) { game(id: \$id) { $VIEW } }" "{\"id\":\"$GAME\"}" | jq -c .game)
  while [ "$(jq -r .status <<<"$STATE")" = playing ]; do
    STATE=$(gql "$TOKEN" "mutation(\$id: ID!) { roll(gameId: \$id, hold: []) { $VIEW } }" "{\"id\":\"$GAME\"}" | jq -c .roll)
    BOX=$(jq -r '.fiveDice.scoreOptions.boxes | map(select(.allowed)) | max_by(.points) | .box' <<<"$STATE")
    STATE=$(gql "$TOKEN" "mutation(\$id: ID!, \$box: BoxId!) { score(gameId: \$id, box: \$box) { $VIEW } }" \
            "{\"id\":\"$GAME\",\"box\":\"$BOX\"}" | jq -c .score)
  done
done

# The service finishes the round and the tournament when the last game ends: wait, then the standings.
for _ in $(seq 1 300); do
  [ "$(gql "$ORG_TOKEN" 'query($id: ID!) { tournament(id: $id) { status } }' "{\"id\":\"$TID\"}" | jq -r .tournament.status)" = finished ] && break
  sleep 0.2
done
gql "$ORG_TOKEN" 'query($id: ID!) { tournamentStandings(id: $id) { status rows { rank displayName totalScore } } }' \
    "{\"id\":\"$TID\"}" | jq -c .tournamentStandings
# The whole tournament's audit bundle is a REST download (docs/fairness.md §11):
#   curl -sS "$BASE/v1/tournaments/$TID/audit" -o tournament.json && npx fairdice verify tournament.json
