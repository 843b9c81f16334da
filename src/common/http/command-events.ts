/**
 * Media type of a command's compact answer (`Prefer: return=minimal`): the events the command
 * appended and the game's new version. Its own type keeps `application/json` meaning the whole
 * game, so typed clients generated from the OpenAPI document see one shape per media type
 * (decision 0050).
 */
export const COMMAND_EVENTS_MEDIA_TYPE = 'application/vnd.fairdice.command-events+json';
