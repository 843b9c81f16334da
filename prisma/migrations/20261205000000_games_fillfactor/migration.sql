-- Every command updates its game's row (version, status, standings, updated_at ...). With free
-- space left in each page, PostgreSQL can write the new row version into the same page without
-- touching the indexes (a HOT update) whenever no indexed column changed: a roll or a scoring
-- move within a turn changes none of games' indexed columns (visibility, status,
-- current_player_id, creator_id, turn_deadline of untimed games). Existing pages get the space as
-- they are rewritten; new pages at once. Not expressible in schema.prisma (docs/architecture.md).
ALTER TABLE "games" SET (fillfactor = 80);
