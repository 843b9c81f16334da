#!/usr/bin/env python3
"""A complete two-player fairdice game using only the Python standard library (3.8+).

REST through urllib.request, the game's Server-Sent Events through http.client in a thread.
Register two players, create a `simple` five-dice game, note the commitment, give each player's
seed after it, join, start, play every turn (roll once, score the best allowed box), follow the
events meanwhile, and check what the end reveals: SHA-256(serverSeed) = the commitment, and the
audit bundle matches the game.

    FAIRDICE_URL=http://localhost:3000 python3 examples/python/two_player.py

CI runs it against a fresh server (test/examples/examples.e2e-spec.ts).
"""
import hashlib
import http.client
import json
import os
import secrets
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

BASE_URL = os.environ.get("FAIRDICE_URL", "http://localhost:3000").rstrip("/")
TERMINAL_EVENTS = {"gameFinished", "gameAbandoned"}


class ApiError(Exception):
    """A non-2xx answer: `problem` is the application/problem+json body (its `code` is stable)."""

    def __init__(self, status, problem):
        super().__init__(f"{status} {problem.get('code')}: {problem.get('detail') or problem.get('title')}")
        self.status = status
        self.problem = problem


def call(method, path, token=None, body=None, idempotent=False, attempts=4):
    """One REST call. Commands carry an Idempotency-Key, the same on every retry, so a retry after
    a lost answer, a 503 or a 409 IDEMPOTENCY_IN_PROGRESS never acts twice. 429 is retried
    always (refused before running). Retry-After is honoured."""
    headers = {"accept": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["content-type"] = "application/json"
    if idempotent:
        headers["idempotency-key"] = str(uuid.uuid4())
    repeatable = method == "GET" or idempotent
    for attempt in range(1, attempts + 1):
        request = urllib.request.Request(BASE_URL + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read().decode()
                return json.loads(text) if text else None
        except urllib.error.HTTPError as err:
            text = err.read().decode()
            try:
                problem = json.loads(text)
            except ValueError:
                problem = {"code": f"HTTP_{err.code}", "detail": text[:200]}
            retry = err.code == 429 or (
                repeatable and (err.code == 503 or (err.code == 409 and problem.get("code") == "IDEMPOTENCY_IN_PROGRESS"))
            )
            if not retry or attempt == attempts:
                raise ApiError(err.code, problem) from None
            retry_after = err.headers.get("retry-after")
            time.sleep(min(30.0, float(retry_after) if retry_after and retry_after.isdigit() else 0.25 * 2 ** attempt))
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            if not repeatable or attempt == attempts:
                raise
            time.sleep(0.25 * 2 ** attempt)
    raise AssertionError("unreachable")


def follow_events(game_id, token, received, errors):
    """Reads GET /v1/games/{id}/stream until the game ends. The events are *named* (`event: rolled`),
    so parse the `event:`/`id:`/`data:` fields; after a dropped connection, reconnect with
    Last-Event-ID = the last version seen and the server resumes right after it."""
    url = urllib.parse.urlsplit(BASE_URL)
    connection_class = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
    last_id = None
    failures = 0
    while True:
        connection = connection_class(url.hostname, url.port, timeout=60)
        headers = {"accept": "text/event-stream", "authorization": f"Bearer {token}"}
        if last_id is not None:
            headers["last-event-id"] = str(last_id)
        try:
            connection.request("GET", f"{url.path}/v1/games/{game_id}/stream", headers=headers)
            response = connection.getresponse()
            if response.status != 200:
                errors.append(f"stream answered {response.status}: {response.read()[:200]!r}")
                return
            event_type, data_lines = None, []
            while True:
                raw = response.readline()
                if not raw:
                    break  # connection closed before the end: reconnect below
                line = raw.decode().rstrip("\r\n")
                if line == "":  # a blank line dispatches the event
                    if data_lines:
                        data = json.loads("\n".join(data_lines))
                        if event_type == "access-revoked":
                            errors.append(f"access revoked: {data.get('code')}")
                            return
                        if last_id is None or data["version"] > last_id:
                            received.append(data)
                            last_id = data["version"]
                            failures = 0
                        if data["type"] in TERMINAL_EVENTS:
                            return
                    event_type, data_lines = None, []
                elif line.startswith(":"):
                    continue  # heartbeat comment
                else:
                    field, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if field == "event":
                        event_type = value
                    elif field == "data":
                        data_lines.append(value)
        except (OSError, http.client.HTTPException) as err:
            failures += 1
            if failures > 10:
                errors.append(f"stream failed: {err}")
                return
        finally:
            connection.close()
        time.sleep(1)


def register(name):
    registered = call("POST", "/v1/players", body={"displayName": name})
    return {"name": name, "id": registered["player"]["id"], "token": registered["token"]}


def best_box(game):
    """The allowed open box that scores most (the first in sheet order on a tie)."""
    boxes = [b for b in game["fiveDice"]["scoreOptions"]["boxes"] if b["allowed"]]
    return max(boxes, key=lambda b: b["points"] + b["bonus"])["box"]


def main():
    ada, bob = register("Ada"), register("Bob")
    print(f"registered {ada['name']} ({ada['id']}) and {bob['name']} ({bob['id']})")

    game = call("POST", "/v1/games", ada["token"], {"ruleSet": "simple", "seats": 2}, idempotent=True)
    game_id, commitment = game["id"], game["commitment"]
    print(f"game {game_id} created; commitment {commitment}")

    received, errors = [], []
    follower = threading.Thread(target=follow_events, args=(game_id, ada["token"], received, errors), daemon=True)
    follower.start()

    # Seeds only after the commitment is known.
    call("PUT", f"/v1/games/{game_id}/seeds", ada["token"], {"clientSeed": secrets.token_hex(16)}, idempotent=True)
    call("POST", f"/v1/games/{game_id}/join", bob["token"], {"clientSeed": secrets.token_hex(16)}, idempotent=True)
    game = call("POST", f"/v1/games/{game_id}/start", ada["token"], {}, idempotent=True)
    print(f"started: {game['status']}")

    players = {ada["id"]: ada, bob["id"]: bob}
    while game["status"] == "playing":
        player = players[game["currentPlayerId"]]
        game = call("POST", f"/v1/games/{game_id}/roll", player["token"], {"hold": []}, idempotent=True)
        game = call("POST", f"/v1/games/{game_id}/score", player["token"], {"box": best_box(game)}, idempotent=True)
    for standing in game["standings"]:
        print(f"rank {standing['rank']}: {standing['displayName']} {standing['total']}")

    follower.join(timeout=60)
    if errors or follower.is_alive():
        raise SystemExit(f"event stream: {errors or 'did not end'}")
    versions = [e["version"] for e in received]
    if versions != list(range(1, game["version"] + 1)):
        raise SystemExit(f"the stream carried {len(versions)} events, the game has {game['version']}")
    print(f"streamed all {len(received)} events, ending with {received[-1]['type']}")

    if hashlib.sha256(bytes.fromhex(game["serverSeed"])).hexdigest() != commitment:
        raise SystemExit("SHA-256(serverSeed) differs from the commitment")
    print("SHA-256(serverSeed) equals the commitment")

    audit = call("GET", f"/v1/games/{game_id}/audit", ada["token"])
    if audit["commitment"] != commitment or audit["chainHead"] != game["chainHead"] or len(audit["events"]) != game["version"]:
        raise SystemExit("the audit bundle does not match the game")
    print(f"audit bundle: {len(audit['events'])} events, chain head {audit['chainHead']}; verify it with npx fairdice-verify")


if __name__ == "__main__":
    try:
        main()
    except ApiError as err:
        print(f"fairdice error: {err}", file=sys.stderr)
        sys.exit(1)
