-- Computer seats (issue 15, decision 0040): the level of a seat the service plays; NULL for a
-- player's seat or an open one. Statistics read it to tell games with computer opponents.
ALTER TABLE "game_seats" ADD COLUMN "computer_level" TEXT;
