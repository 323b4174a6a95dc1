"""Results in Redis, for several API nodes that must count the same.

The same interface as ``sqlite_store`` (SQLite, the default for one machine,
``dailydeal.results.ResultsStore``), the same row shape and the same statistics formula
(``stats_dict``); only the storage differs:

- ``dailydeal:results:salt`` and ``dailydeal:plays:key``: the random salt of
  ``client_hash`` and the key that signs play tokens, created once by whichever node needs
  them first (SET NX), so every node hashes a client and checks a token the same way;
- ``dailydeal:results:{deal id}``: a hash, field = the salted client hash, value = the
  stored row as JSON; it expires (EXPIREAT) at the end of the retention;
- ``dailydeal:stats:{deal id}``: the aggregates (``plays``, ``wins``,
  ``wins_without_hints``, ``m:{moves}`` = winning plays of that length), never expiring;
- ``dailydeal:solves:{id}``: a solve (``dailydeal.results.solves``) as JSON, set once
  (SET NX: the first one stands), never expiring;
- ``dailydeal:plays:{deal id}``: per play token id, ``h:{id}`` the hints it asked for and
  ``u:{id}`` once its result counted; it expires when the deal's results close;
- ``dailydeal:slots:{deal id}``: per network tag, the time of its last turn to count
  (``Counting``), and ``dailydeal:marks:{deal id}``: ``{tag}|{position}`` of each hint
  asked without a token; both expire when the deal's results close;
- ``dailydeal:pending``: one sorted set for every deal: ``{deal id}\n{client hash}`` of
  each result waiting for its turn, scored by when it counts. ``count_due`` (one script)
  counts those due, whichever node or scheduler calls it first: each once.

Storing a result is ONE Lua script: the client's row, the play marked used and the
aggregates are written together or not at all, on whichever node, and a post retried after
a timeout (Redis may run the first one late) finds the row and counts nothing twice.
``/stats`` reads the small aggregate hash (HGETALL), whatever the number of results.

Every client has connect and read timeouts of ``TIMEOUT`` seconds and no retries: a Redis
that hangs costs a request half a second (then 503), never the worker. Redis must persist
(appendonly or RDB snapshots) if results are to survive its restart; see deploy/README.md.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from dailydeal.results import (
    Counting,
    PlayUsed,
    QueueFull,
    Result,
    Unavailable,
    client_hash,
    judge,
    plays,
    stats_dict,
)

PREFIX = "dailydeal:results"
PENDING_KEY = "dailydeal:pending"
SALT_KEY = f"{PREFIX}:salt"
PLAY_KEY = "dailydeal:plays:key"
#: seconds: connect and read timeouts of every Redis client (results and rate limits)
TIMEOUT = 0.5
BATCH = 500  # pending results counted by one script

_RECORD = """
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old then return {0, old} end
local hints = tonumber(ARGV[6])
if ARGV[3] ~= '' then
  if redis.call('HEXISTS', KEYS[3], 'u:' .. ARGV[3]) == 1 then return {2, ''} end
  hints = hints + tonumber(redis.call('HGET', KEYS[3], 'h:' .. ARGV[3]) or '0')
end
local now = tonumber(ARGV[11])
local turn = math.max(tonumber(ARGV[10]), now)
if ARGV[9] ~= '' then
  local last = redis.call('HGET', KEYS[4], ARGV[9])
  local due = tonumber(ARGV[10])
  if last then due = math.max(due, tonumber(last) + tonumber(ARGV[12])) end
  turn = math.max(due, now)
  if turn > tonumber(ARGV[8]) then return {3, tostring(turn)} end
  redis.call('HSET', KEYS[4], ARGV[9], tostring(turn))
  redis.call('EXPIREAT', KEYS[4], ARGV[8])
end
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[3], 'u:' .. ARGV[3], '1')
  redis.call('EXPIREAT', KEYS[3], ARGV[8])
end
local at = math.floor(now)
local counted = 1
if turn >= now + 1 then
  at = math.ceil(turn)
  counted = 0
end
local row = string.gsub(ARGV[2], '"hints": %-1', '"hints": ' .. hints, 1)
row = string.gsub(row, '"counted": %-1', '"counted": ' .. counted, 1)
row = string.gsub(row, '"counts_at": %-1', '"counts_at": ' .. string.format('%d', at), 1)
redis.call('HSET', KEYS[1], ARGV[1], row)
redis.call('EXPIREAT', KEYS[1], ARGV[7])
if counted == 0 then
  redis.call('HINCRBY', KEYS[2], 'pending', 1)
  redis.call('ZADD', KEYS[5], at, ARGV[13] .. '\\n' .. ARGV[1])
  return {1, row}
end
redis.call('HINCRBY', KEYS[2], 'plays', 1)
if ARGV[4] == '1' then
  redis.call('HINCRBY', KEYS[2], 'wins', 1)
  if hints == 0 then redis.call('HINCRBY', KEYS[2], 'wins_without_hints', 1) end
  redis.call('HINCRBY', KEYS[2], 'm:' .. ARGV[5], 1)
end
return {1, row}
"""

# The keys of each deal are derived here (they are not all known before the set is read):
# one Redis, not a Redis Cluster (deploy/README.md).
_COUNT_DUE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, member in ipairs(due) do
  redis.call('ZREM', KEYS[1], member)
  local cut = string.find(member, '\\n', 1, true)
  local deal = string.sub(member, 1, cut - 1)
  local client = string.sub(member, cut + 1)
  local results = 'dailydeal:results:' .. deal
  local text = redis.call('HGET', results, client)
  if text then
    local row = cjson.decode(text)
    if row['counted'] == 0 then
      row['counted'] = 1
      redis.call('HSET', results, client, cjson.encode(row))
      local stats = 'dailydeal:stats:' .. deal
      redis.call('HINCRBY', stats, 'pending', -1)
      redis.call('HINCRBY', stats, 'plays', 1)
      if row['won'] == 1 then
        redis.call('HINCRBY', stats, 'wins', 1)
        if row['hints'] == 0 then redis.call('HINCRBY', stats, 'wins_without_hints', 1) end
        redis.call('HINCRBY', stats, 'm:' .. string.format('%d', row['moves']), 1)
      end
    end
  end
end
return #due
"""

_NOTE_HINT = """
if redis.call('HEXISTS', KEYS[1], 'u:' .. ARGV[1]) == 1 then return 0 end
redis.call('HINCRBY', KEYS[1], 'h:' .. ARGV[1], 1)
redis.call('EXPIREAT', KEYS[1], ARGV[2])
return 1
"""


def options() -> dict[str, Any]:
    """Client options: short timeouts and no retries (a retry would double the wait, and
    a command that timed out may still run when Redis wakes up)."""
    return {"socket_timeout": TIMEOUT, "socket_connect_timeout": TIMEOUT,
            "retry": Retry(NoBackoff(), 0)}


def connect(url: str) -> redis.Redis:
    """A client (with its own connection pool) of the Redis at ``url``; no I/O yet."""
    return redis.Redis.from_url(url, **options())


def _key(deal_id: str) -> str:
    return f"{PREFIX}:{deal_id}"


def _stats_key(deal_id: str) -> str:
    return f"dailydeal:stats:{deal_id}"


def _plays_key(deal_id: str) -> str:
    return f"dailydeal:plays:{deal_id}"


def _slots_key(deal_id: str) -> str:
    return f"dailydeal:slots:{deal_id}"


def _marks_key(deal_id: str) -> str:
    return f"dailydeal:marks:{deal_id}"


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class RedisStore:
    """``ResultsStore`` in one Redis: its results, plays and statistics; the salt and the
    play key are read once (they never change)."""

    def __init__(self, client: redis.Redis) -> None:
        self.r = client
        self._salt: bytes | None = None
        self._play_key: bytes | None = None
        self._record = client.register_script(_RECORD)
        self._note = client.register_script(_NOTE_HINT)
        self._count_due = client.register_script(_COUNT_DUE)

    def _shared(self, key: str) -> bytes:
        try:
            self.r.set(key, plays.new_key(), nx=True)
            value = self.r.get(key)
        except redis.RedisError as exc:
            raise Unavailable(type(exc).__name__) from None
        assert value is not None  # set NX above; the key is never deleted
        return bytes.fromhex(_text(value))

    def salt(self) -> bytes:
        if self._salt is None:
            self._salt = self._shared(SALT_KEY)
        return self._salt

    def play_key(self) -> bytes:
        if self._play_key is None:
            self._play_key = self._shared(PLAY_KEY)
        return self._play_key

    def stored(self, deal_id: str, client: str) -> dict[str, Any] | None:
        key = client_hash(self.salt(), deal_id, client)
        try:
            value: Any = self.r.hget(_key(deal_id), key)
        except redis.RedisError as exc:
            raise Unavailable(type(exc).__name__) from None
        return None if value is None else dict(json.loads(value))

    def play_state(self, deal_id: str, play_id: str) -> tuple[int, bool]:
        try:
            values: Any = self.r.hmget(_plays_key(deal_id), [f"h:{play_id}", f"u:{play_id}"])
        except redis.RedisError as exc:
            raise Unavailable(type(exc).__name__) from None
        hints, used = values
        return int(hints or 0), used is not None

    def note_hint(self, play_id: str, deal_id: str, expire_at: dt.datetime) -> bool:
        try:
            done = self._note(keys=[_plays_key(deal_id)],
                              args=[play_id, int(expire_at.timestamp())])
        except redis.RedisError as exc:
            raise Unavailable(type(exc).__name__) from None
        return bool(done)

    def mark(self, deal_id: str, network: str, position: str, expire_at: dt.datetime) -> None:
        try:
            with self.r.pipeline() as pipe:
                pipe.sadd(_marks_key(deal_id), f"{network}|{position}")
                pipe.expireat(_marks_key(deal_id), int(expire_at.timestamp()))
                pipe.execute()
        except redis.RedisError as exc:
            raise Unavailable(type(exc).__name__) from None

    def marked(self, deal_id: str, networks: list[str], positions: list[str]) -> int:
        if not networks or not positions:
            return 0
        members = [f"{n}|{p}" for p in positions for n in networks]
        try:
            found: Any = self.r.smismember(_marks_key(deal_id), members)
        except redis.RedisError as exc:
            raise Unavailable(type(exc).__name__) from None
        hit = {members[i].split("|", 1)[1] for i, f in enumerate(found) if f}
        return sum(1 for p in positions if p in hit)

    def record(
        self,
        deal_id: str,
        client: str,
        result: Result,
        moves: list[str],
        now: dt.datetime,
        play_id: str | None,
        drop_at: dt.datetime,
        closes_at: dt.datetime,
        counting: Counting | None = None,
    ) -> tuple[bool, dict[str, Any]]:
        """Store a result unless this client has one for this deal: (inserted, stored
        row), the row in the shape of the SQLite table ``results``; ``PlayUsed`` if the
        play counted already, ``QueueFull`` if its turn is after ``closes``. ``drop_at``:
        when the deal's move lists expire (retention); ``closes_at``: when its plays do."""
        key = client_hash(self.salt(), deal_id, client)
        row = {
            "deal_id": deal_id, "client": key, "won": int(result.won), "state": result.state,
            "moves": result.moves, "score": result.score,
            "hints": -1,  # the script puts the play's count here (or the result's)
            "seconds": result.seconds, "reported_seconds": result.reported_seconds,
            "move_list": json.dumps(moves),
            "created_at": now.astimezone(dt.UTC).isoformat(timespec="seconds"),
            "counted": -1, "counts_at": -1,  # the script's
        }
        stamp = now.timestamp()
        c = counting or Counting("", stamp, 0.0, stamp, closes_at.timestamp())
        try:
            status, text = self._record(
                keys=[_key(deal_id), _stats_key(deal_id), _plays_key(deal_id),
                      _slots_key(deal_id), PENDING_KEY],
                args=[key, json.dumps(row), play_id or "", int(result.won), result.moves,
                      result.hints, int(drop_at.timestamp()), int(closes_at.timestamp()),
                      c.network, repr(float(c.earliest)), repr(float(c.now)),
                      repr(float(c.interval)), deal_id],
            )
        except redis.RedisError as exc:
            raise Unavailable(type(exc).__name__) from None
        if int(status) == 2:
            raise PlayUsed(play_id)
        if int(status) == 3:
            raise QueueFull(float(_text(text)))
        return int(status) == 1, dict(json.loads(text))

    def count_due(self, now: dt.datetime) -> int:
        """Count the pending results due (every deal), 500 a script: each is counted once,
        whichever node or scheduler runs the script first."""
        total, n = 0, BATCH
        while n == BATCH:
            try:
                n = int(self._count_due(keys=[PENDING_KEY], args=[int(now.timestamp()), BATCH]))
            except redis.RedisError as exc:
                raise Unavailable(type(exc).__name__) from None
            total += n
        return total

    def deal_stats(self, deal_id: str) -> dict[str, Any]:
        """Plays, wins, win rate and the winning move counts of a deal: its aggregates."""
        try:
            values: Any = self.r.hgetall(_stats_key(deal_id))
        except redis.RedisError as exc:
            raise Unavailable(type(exc).__name__) from None
        fields = {_text(k): int(v) for k, v in values.items()}
        histogram = {int(k[2:]): v for k, v in fields.items() if k.startswith("m:")}
        return stats_dict(fields.get("plays", 0), fields.get("wins", 0),
                          fields.get("wins_without_hints", 0), histogram,
                          fields.get("pending", 0))

    def save_solve(self, row: dict[str, Any]) -> dict[str, Any]:
        key = f"dailydeal:solves:{row['id']}"
        try:
            self.r.set(key, json.dumps(row), nx=True)
            value = self.r.get(key)
        except redis.RedisError as exc:
            raise Unavailable(type(exc).__name__) from None
        assert value is not None  # set NX above; a solve is never deleted
        found: dict[str, Any] = json.loads(_text(value))
        return found

    def solve(self, id_: str) -> dict[str, Any] | None:
        try:
            value = self.r.get(f"dailydeal:solves:{id_}")
        except redis.RedisError as exc:
            raise Unavailable(type(exc).__name__) from None
        return None if value is None else dict(json.loads(_text(value)))

    def rebuild(self, deal: dict[str, Any]) -> dict[str, Any]:
        """Write a deal's aggregates again from its stored rows, each replayed: the
        statistics and ``differ`` (rows whose verdict changed). The rows are read and the
        aggregates replaced under WATCH, so a result counted meanwhile makes it retry."""
        results_key, stats_key = _key(deal["id"]), _stats_key(deal["id"])
        try:
            with self.r.pipeline() as pipe:
                while True:
                    try:
                        pipe.watch(results_key)
                        values: Any = pipe.hvals(results_key)
                        triples, differ = [], 0
                        pending = 0
                        for value in values:
                            row = json.loads(value)
                            if row.get("counted", 1) == 0:
                                pending += 1
                                continue
                            again, error = judge(deal, json.loads(row["move_list"]),
                                                 row["hints"], row["seconds"])
                            differ += (error is not None or again.won != bool(row["won"])
                                       or again.moves != row["moves"])
                            triples.append((again.won, again.moves, again.hints))
                        fields: dict[str, int] = {"plays": len(triples), "wins": 0,
                                                  "wins_without_hints": 0, "pending": pending}
                        for won, moves, hints in triples:
                            if won:
                                fields["wins"] += 1
                                fields["wins_without_hints"] += hints == 0
                                fields[f"m:{moves}"] = fields.get(f"m:{moves}", 0) + 1
                        pipe.multi()
                        pipe.delete(stats_key)
                        if triples or pending:
                            pipe.hset(stats_key, mapping=fields)
                        pipe.execute()
                        break
                    except redis.WatchError:
                        continue
        except redis.RedisError as exc:
            raise Unavailable(type(exc).__name__) from None
        return {**self.deal_stats(deal["id"]), "differ": differ}


__all__ = ["TIMEOUT", "RedisStore", "Unavailable", "connect", "options"]
