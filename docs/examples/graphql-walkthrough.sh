#!/usr/bin/env bash
# The same game over GraphQL: two players, the `simple` rule set, played to the end.
# Usage: BASE=http://localhost:3000 bash docs/examples/graphql-walkthrough.sh
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

REGISTER='mutation($name: String!) { registerPlayer(input: { displayName: $name }) { token player { id } } }'
ADA=$(gql "" "$REGISTER" '{"name":"Ada"}'); BOB=$(gql "" "$REGISTER" '{"name":"Bob"}')
ADA_ID=$(jq -r .registerPlayer.player.id <<<"$ADA"); ADA_TOKEN=$(jq -r .registerPlayer.token <<<"$ADA")
BOB_TOKEN=$(jq -r .registerPlayer.token <<<"$BOB")

# Create: the response publishes the commitment. Note it down before anyone gives a seed.
CREATED=$(gql "$ADA_TOKEN" 'mutation { createGame(input: { ruleSet: simple, seats: 2 }) { id commitment } }')
GAME=$(jq -r .createGame.id <<<"$CREATED"); COMMITMENT=$(jq -r .createGame.commitment <<<"$CREATED")
echo "game $GAME, commitment $COMMITMENT"

# Then each player supplies a seed of their own (1-128 visible ASCII; here 16 random bytes as hex).
own_seed() { echo "$1-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"; }
gql "$ADA_TOKEN" 'mutation($id: ID!, $seed: String!) { setSeed(gameId: $id, input: { clientSeed: $seed }) { version } }' \
    "{\"id\":\"$GAME\",\"seed\":\"$(own_seed ada)\"}" >/dev/null
gql "$BOB_TOKEN" 'mutation($id: ID!, $seed: String!) { joinGame(gameId: $id, input: { clientSeed: $seed }) { version } }' \
    "{\"id\":\"$GAME\",\"seed\":\"$(own_seed bob)\"}" >/dev/null
gql "$ADA_TOKEN" 'mutation($id: ID!) { startGame(gameId: $id) { version } }' "{\"id\":\"$GAME\"}" >/dev/null
echo "game $GAME started"

VIEW='status currentPlayerId fiveDice { scoreOptions { boxes { box points allowed } } } standings { rank displayName total } serverSeed'
STATE=$(gql "$ADA_TOKEN" "query(\$id: ID!) { game(id: \$id) { $VIEW } }" "{\"id\":\"$GAME\"}" | jq -c .game)
while [ "$(jq -r .status <<<"$STATE")" = playing ]; do
  if [ "$(jq -r .currentPlayerId <<<"$STATE")" = "$ADA_ID" ]; then TOKEN=$ADA_TOKEN; else TOKEN=$BOB_TOKEN; fi
  STATE=$(gql "$TOKEN" "mutation(\$id: ID!) { roll(gameId: \$id, hold: []) { $VIEW } }" "{\"id\":\"$GAME\"}" | jq -c .roll)
  BOX=$(jq -r '.fiveDice.scoreOptions.boxes | map(select(.allowed)) | max_by(.points) | .box' <<<"$STATE")
  STATE=$(gql "$TOKEN" "mutation(\$id: ID!, \$box: BoxId!) { score(gameId: \$id, box: \$box) { $VIEW } }" \
          "{\"id\":\"$GAME\",\"box\":\"$BOX\"}" | jq -c .score)
done
jq -c --arg commitment "$COMMITMENT" '{status, standings, serverSeedRevealed: (.serverSeed != null), commitment: $commitment}' <<<"$STATE"
